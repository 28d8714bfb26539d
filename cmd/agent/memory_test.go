package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMemoryCommands: a simulated run with --memory FILE remembers the
// world it saw; agent memory show lists it and what it holds; forget drops
// one block's sightings, then the world; names are checked with a
// did-you-mean.
func TestMemoryCommands(t *testing.T) {
	file := filepath.Join(t.TempDir(), "memory.db")
	code, _, stderr := runAgent(t, "run", "--memory", file, "--goal", "collect 2 minecraft:log", "--max-steps", "5")
	require.Equal(t, exitOK, code, stderr)

	code, stdout, stderr := runAgent(t, "memory", "show", "--memory", file)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "remembers 1 worlds\n")
	assert.Contains(t, stdout, "sim/forest_base/")
	server := ""
	for _, f := range strings.Fields(stdout) {
		if strings.HasPrefix(f, "sim/forest_base/") {
			server = f
		}
	}
	require.NotEmpty(t, server)

	code, stdout, stderr = runAgent(t, "memory", "show", "--memory", file, "--server", server, "--limit", "0")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, server+" overworld: ")
	assert.Contains(t, stdout, "minecraft:log:")
	assert.Contains(t, stdout, "minecraft:gravel:")

	code, stdout, stderr = runAgent(t, "memory", "forget", "--memory", file, "--server", server, "--what", "sightings", "--block", "minecraft:log")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "forgot sightings of minecraft:log of "+server+" overworld\n")
	code, stdout, _ = runAgent(t, "memory", "show", "--memory", file, "--server", server, "--limit", "0")
	require.Equal(t, exitOK, code)
	assert.NotContains(t, stdout, "minecraft:log:")
	assert.Contains(t, stdout, "minecraft:gravel:")

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"memory", "show", "--memory", file, "--server", strings.Replace(server, "forest", "forrest", 1)}, "did you mean \"" + server + "\"?"},
		{[]string{"memory", "show", "--memory", file, "--server", server, "--dimension", "nether"}, `remembers no dimension "nether"`},
		{[]string{"memory", "forget", "--memory", file, "--server", server, "--what", "sighting"}, `did you mean "sightings"?`},
		{[]string{"memory", "forget", "--memory", file}, "--server NAME is required"},
		{[]string{"memory", "forget", "--memory", file, "--server", server, "--block", "minecraft:log"}, "--block is for --what sightings"},
		{[]string{"memory", "show", "--memory", filepath.Join(t.TempDir(), "none.db")}, "a run with --memory FILE, or any live run, writes it"},
	} {
		code, _, stderr := runAgent(t, tc.args...)
		assert.Equal(t, exitUsage, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}

	code, stdout, stderr = runAgent(t, "memory", "forget", "--memory", file, "--server", server)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "forgot all of "+server+" overworld\n")
	code, stdout, _ = runAgent(t, "memory", "show", "--memory", file)
	require.Equal(t, exitOK, code)
	assert.Contains(t, stdout, "remembers 0 worlds\n")
}

// TestMemoryFileThatCannotOpen: a --memory file that cannot be opened stops
// run, serve and mcp before they start, naming the flag.
func TestMemoryFileThatCannotOpen(t *testing.T) {
	dir := t.TempDir()
	notADir := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(notADir, []byte("x"), 0o600))
	bad := filepath.Join(notADir, "memory.db")
	for _, args := range [][]string{
		{"run", "--memory", bad, "--max-steps", "1"},
		{"serve", "--body", "sim", "--listen", "unix://" + filepath.Join(dir, "s.sock"), "--memory", bad},
		{"mcp", "--memory", bad},
	} {
		code, _, stderr := runAgent(t, args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, stderr)
		assert.Contains(t, stderr, args[0]+": --memory: ", "%v", args)
	}
}
