package knowledge

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStamp: the stamp moves when Refresh would find something new in a
// directory source (a skill added, edited, removed; deep in a recursive
// source too) and stays when nothing changed; read-only file systems do not
// count.
func TestStamp(t *testing.T) {
	flat, deep, single := t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, flat, map[string]string{"alpha/SKILL.md": goodMD("alpha")})
	writeTree(t, single, map[string]string{"SKILL.md": goodMD("solo")})
	lib, _ := newLib()
	for _, src := range []Source{
		{Label: LabelShipped, FS: fstest.MapFS{"s/beta/SKILL.md": {Data: []byte(goodMD("beta"))}}, FSDir: "s"},
		{Label: LabelCustom, Dir: flat, ReadOnly: true},
		{Label: LabelCustom, Dir: deep, ReadOnly: true, Recursive: true},
		{Label: LabelCustom, Dir: single, ReadOnly: true, Single: true},
	} {
		_, err := lib.Add(src)
		require.NoError(t, err)
	}
	last := lib.Stamp()
	assert.Equal(t, last, lib.Stamp(), "nothing changed")
	moved := func(what string) {
		t.Helper()
		now := lib.Stamp()
		assert.NotEqual(t, last, now, what)
		last = now
		assert.Equal(t, last, lib.Stamp(), "and then nothing")
	}

	writeTree(t, flat, map[string]string{"gamma/SKILL.md": goodMD("gamma")})
	moved("a skill directory added")
	lib.Refresh()
	_, ok := lib.Get("gamma")
	assert.True(t, ok, "Refresh finds it")

	alpha := filepath.Join(flat, "alpha", "SKILL.md")
	require.NoError(t, os.WriteFile(alpha, []byte(goodMD("alpha")+"More.\n"), 0o644))
	moved("a SKILL.md edited in place")
	// On a file system whose clock is coarse, an edit can keep the time:
	// the size still tells.
	st, err := os.Stat(alpha)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(alpha, []byte(goodMD("alpha")+"More, and more.\n"), 0o644))
	require.NoError(t, os.Chtimes(alpha, st.ModTime(), st.ModTime()))
	moved("an edit that kept the modification time")

	writeTree(t, deep, map[string]string{"group/sub/delta/SKILL.md": goodMD("delta")})
	moved("a skill deep in a recursive source")
	writeTree(t, deep, map[string]string{"group/sub/epsilon/SKILL.md": goodMD("epsilon")})
	moved("another beside it: only the deep directory changed")

	require.NoError(t, os.WriteFile(filepath.Join(single, "SKILL.md"), []byte(goodMD("solo")+"More.\n"), 0o644))
	moved("the SKILL.md of a single-skill source")

	require.NoError(t, os.RemoveAll(filepath.Join(flat, "gamma")))
	moved("a skill directory removed")
	lib.Refresh()
	_, ok = lib.Get("gamma")
	assert.False(t, ok)
}

// TestLoaded: the stamp the skills were read at, for a watcher that starts
// after a skill was added: Add and Refresh record it, a change on disk
// since makes Stamp differ from it until the next Refresh.
func TestLoaded(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"alpha/SKILL.md": goodMD("alpha")})
	lib, _ := newLib()
	_, err := lib.Add(Source{Label: LabelCustom, Dir: dir, ReadOnly: true})
	require.NoError(t, err)
	assert.Equal(t, lib.Stamp(), lib.Loaded(), "read as it stands")

	writeTree(t, dir, map[string]string{"beta/SKILL.md": goodMD("beta")})
	assert.NotEqual(t, lib.Stamp(), lib.Loaded(), "beta was added after the reading")
	assert.NotEqual(t, lib.Stamp(), lib.Loaded(), "and stays new until read")
	lib.Refresh()
	assert.Equal(t, lib.Stamp(), lib.Loaded(), "read again")
	_, ok := lib.Get("beta")
	assert.True(t, ok)

	// A second source added: the stamp covers both.
	other := t.TempDir()
	writeTree(t, other, map[string]string{"gamma/SKILL.md": goodMD("gamma")})
	_, err = lib.Add(Source{Label: LabelCustom, Dir: other, ReadOnly: true})
	require.NoError(t, err)
	assert.Equal(t, lib.Stamp(), lib.Loaded())
	writeTree(t, other, map[string]string{"delta/SKILL.md": goodMD("delta")})
	assert.NotEqual(t, lib.Stamp(), lib.Loaded(), "a change in the second source")
}
