package registry

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/badfiles"
)

// TestBadFilesState: the metrics state file through the bad inputs; a
// corrupt file is an error naming it and is never rewritten by loading.
func TestBadFilesState(t *testing.T) {
	valid := []byte(`{
  "format": 1,
  "skills": {
    "chop_tree@1": {"status": "active", "metrics": {"success_rate": 0.75, "avg_cost": 312.5, "samples": 4}},
    "mine_block@1": {"metrics": {"success_rate": null, "avg_cost": null, "samples": 0}}
  }
}
`)
	badfiles.Run(t, badfiles.Loader{Name: "metrics state", File: "agent-state.json", MissingOK: true,
		Valid: [][]byte{valid},
		Parse: func(f string, d []byte) error { _, err := parseState(f, d); return err },
		Load: func(p string) error {
			_, err := LoadConfig(config.FS, Options{StatePath: p})
			return err
		}})
}

// TestBadFilesStateWriteFails: a state write that fails half-way leaves the
// previous file intact and no temporary file behind; the in-memory metrics
// stay those of the file, and the next start reads them.
func TestBadFilesStateWriteFails(t *testing.T) {
	dir := t.TempDir()
	statePath := filepath.Join(dir, "state.json")
	reg, err := LoadConfig(config.FS, Options{StatePath: statePath})
	require.NoError(t, err)
	_, err = reg.RecordOutcome("chop_tree", 1, true, 300)
	require.NoError(t, err)
	good, err := os.ReadFile(statePath)
	require.NoError(t, err)
	before := badfiles.Tree(t, dir)

	orig := writeData
	t.Cleanup(func() { writeData = orig })
	writeData = func(f *os.File, data []byte) (int, error) {
		n, _ := f.Write(data[:len(data)/2])
		return n, errors.New("no space left on device (injected)")
	}
	_, err = reg.RecordOutcome("chop_tree", 1, false, 100)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no space left")
	assert.Equal(t, before, badfiles.Tree(t, dir), "the old state file is intact and no temporary file is left")
	m := reg.entries["chop_tree"].version(1).Metrics
	assert.Equal(t, 1, m.Samples, "the failed update is not kept in memory either")
	assert.Equal(t, 1.0, *m.SuccessRate)
	assert.Equal(t, 1, reg.state.Skills["chop_tree@1"].Metrics.Samples)

	writeData = orig
	again, err := LoadConfig(config.FS, Options{StatePath: statePath})
	require.NoError(t, err)
	assert.Equal(t, 1, again.entries["chop_tree"].version(1).Metrics.Samples)
	now, err := os.ReadFile(statePath)
	require.NoError(t, err)
	assert.Equal(t, good, now)
}
