package quests

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFileLimits: a directory with more entries, or a book with more
// quest files, than the limit is refused before it is read, naming it.
func TestFileLimits(t *testing.T) {
	defer func(n int) { fileLimit = n }(fileLimit)
	fileLimit = 3
	dir := t.TempDir()
	for _, d := range []string{"a", "b"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "Quests", d), 0o755))
		for _, f := range []string{"1.json", "2.json"} {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "Quests", d, f), []byte(`{"questIDLow:4": 1}`), 0o600))
		}
	}
	_, err := Load(dir)
	assert.ErrorContains(t, err, "more than 3 quest files")

	require.NoError(t, os.RemoveAll(filepath.Join(dir, "Quests")))
	many := filepath.Join(dir, "Quests", "c")
	require.NoError(t, os.MkdirAll(many, 0o755))
	for _, f := range []string{"1", "2", "3", "4"} {
		require.NoError(t, os.WriteFile(filepath.Join(many, f), nil, 0o600))
	}
	_, err = Load(dir)
	assert.ErrorContains(t, err, filepath.Join("Quests", "c")+": more than 3 entries")

	// Too deep: files below maxDirDepth folders are not read.
	require.NoError(t, os.RemoveAll(filepath.Join(dir, "Quests")))
	deep := filepath.Join(dir, "Quests", "1", "2", "3", "4", "5")
	require.NoError(t, os.MkdirAll(deep, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(deep, "q.json"), []byte(`{"questIDLow:4": 1}`), 0o600))
	_, err = Load(dir)
	assert.ErrorContains(t, err, "no quest could be read (0 files)")
}
