//go:build linux || darwin

package main

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/syncbuf"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
)

// TestMCPSIGTERM: SIGTERM is the ordinary end of agent mcp: exit 0, and
// nothing logged as an error.
func TestMCPSIGTERM(t *testing.T) {
	cmd := exec.Command(agentBinary(t), "mcp")
	stderr := &syncbuf.Buffer{}
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe() // kept open: the client is still there
	require.NoError(t, err)
	defer in.Close()
	require.NoError(t, cmd.Start())
	require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "serving the skills") },
		30*time.Second, 10*time.Millisecond, "no banner:\n%s", stderr)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err, "stderr:\n%s", stderr)
	case <-testdeadline.After(t):
		cmd.Process.Kill()
		t.Fatalf("agent mcp did not end on SIGTERM\nstderr:\n%s", stderr)
	}
	assert.NotContains(t, stderr.String(), `"level":"error"`)
}
