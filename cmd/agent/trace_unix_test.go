//go:build linux || darwin

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTraceFilesArePrivate: agent run's and agent mcp's --trace files are
// readable by their owner only, whatever the umask lets through (the mcp
// child inherits the umask).
func TestTraceFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0)
	t.Cleanup(func() { syscall.Umask(old) })
	dir := t.TempDir()
	runTrace := filepath.Join(dir, "run.jsonl")
	code, _, errOut := runAgent(t, "run", "--goal", "collect 1 minecraft:log", "--trace", runTrace)
	require.Equal(t, exitOK, code, errOut)
	mcpTrace := filepath.Join(dir, "mcp.jsonl")
	cs, _ := mcpChild(t, "--trace", mcpTrace)
	callTool(t, cs, "invoke_skill", map[string]any{"skill": "chop_tree", "params": map[string]any{"min_logs": 1}})
	for _, p := range []string{runTrace, mcpTrace} {
		fi, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), filepath.Base(p))
	}
}
