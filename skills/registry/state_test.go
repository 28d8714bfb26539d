package registry

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
)

// TestStaleTempsRemovedAtStart: the temporary files a process killed while
// writing the state left beside it are removed when the next registry is
// built; a young one (another process's write in flight), other files and
// directories stay.
func TestStaleTempsRemovedAtStart(t *testing.T) {
	dir := t.TempDir()
	statePath := filepath.Join(dir, "state.json")
	clock := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	orig := now
	t.Cleanup(func() { now = orig })
	now = func() time.Time { return clock }

	file := func(name string, age time.Duration) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(`{"format": 1, "skills": {`), 0o600))
		require.NoError(t, os.Chtimes(p, clock.Add(-age), clock.Add(-age)))
		return p
	}
	stale := file(".state.json.tmp-1234567", time.Hour)
	justStale := file(".state.json.tmp-89", time.Minute) // the documented age
	young := file(".state.json.tmp-42", time.Minute-time.Second)
	other := file(".other.json.tmp-1", time.Hour)
	similar := file("state.json.tmp-1", time.Hour)
	sub := filepath.Join(dir, ".state.json.tmp-dir")
	require.NoError(t, os.Mkdir(sub, 0o700))
	require.NoError(t, os.Chtimes(sub, clock.Add(-time.Hour), clock.Add(-time.Hour)))

	reg, err := LoadConfig(config.FS, Options{StatePath: statePath})
	require.NoError(t, err, "a torn temporary file is not the state")
	require.NotNil(t, reg)
	for _, p := range []string{stale, justStale} {
		assert.NoFileExists(t, p)
	}
	for _, p := range []string{young, other, similar, sub} {
		_, err := os.Lstat(p)
		assert.NoError(t, err, "%s is kept", filepath.Base(p))
	}

	// Nothing beside a state file in a directory that does not exist yet.
	removed, err := removeStaleTemps(filepath.Join(dir, "missing", "state.json"))
	assert.NoError(t, err)
	assert.Empty(t, removed)
}

// TestWriteFileAtomicTempIsFoundStale: the files writeFileAtomic creates are
// the ones removeStaleTemps looks for.
func TestWriteFileAtomicTempIsFoundStale(t *testing.T) {
	dir := t.TempDir()
	statePath := filepath.Join(dir, "state.json")
	orig := writeData
	t.Cleanup(func() { writeData = orig })
	var tmp string
	writeData = func(f *os.File, data []byte) (int, error) {
		tmp = f.Name()
		n, err := f.Write(data)
		require.NoError(t, os.Link(f.Name(), f.Name()+"-kept")) // what a kill would leave
		return n, err
	}
	require.NoError(t, writeFileAtomic(statePath, []byte("{}\n")))
	left := tmp + "-kept"
	require.FileExists(t, left)
	origNow := now
	t.Cleanup(func() { now = origNow })
	now = func() time.Time { return time.Now().Add(2 * staleTempAge) }
	removed, err := removeStaleTemps(statePath)
	require.NoError(t, err)
	assert.Equal(t, []string{left}, removed)
	assert.FileExists(t, statePath)
}
