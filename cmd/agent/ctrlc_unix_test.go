//go:build linux || darwin

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSecondCtrlCExitsAtOnce: when the first Ctrl-C cannot end the run
// (the agent is blocked writing its --trace into a named pipe that no one
// reads, once the pipe's buffer is full), a second Ctrl-C ends the process
// at once.
func TestSecondCtrlCExitsAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "trace")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	script := filepath.Join(dir, "waits.yaml")
	require.NoError(t, os.WriteFile(script, []byte(strings.Repeat("- {skill: wait_for, params: {duration: 1}}\n", 3000)), 0o644))
	a := startAgent(t, 0, "run", "--trace", fifo, "--planner", "script", "--script", script,
		"--max-steps", "5000", "--goal", "collect 1000 minecraft:log")
	// Wait until the steps stop coming: the pipe is full and the loop is
	// blocked in a write.
	last, still := -1, 0
	for still < 10 { // 2 s without a step
		select {
		case <-a.done:
			t.Fatalf("the agent ended before the pipe filled: stdout:\n%s\nstderr:\n%s", tail(a.stdout(), 2000), tail(a.stderrText(), 2000))
		case <-time.After(200 * time.Millisecond):
		}
		if n := len(a.steps()); n == last {
			still++
		} else {
			last, still = n, 0
		}
	}
	require.Less(t, last, 3000, "blocked before the script's end")
	require.NoError(t, a.cmd.Process.Signal(os.Interrupt))
	select {
	case <-a.done:
		t.Fatalf("the first Ctrl-C ended an agent that cannot finish its step: stderr:\n%s", tail(a.stderrText(), 2000))
	case <-time.After(700 * time.Millisecond):
	}
	require.NoError(t, a.cmd.Process.Signal(os.Interrupt))
	select {
	case <-a.done:
	case <-testdeadline.After(t):
		t.Fatal("a second Ctrl-C did not end the process")
	}
	ws, ok := a.cmd.ProcessState.Sys().(syscall.WaitStatus)
	require.True(t, ok)
	assert.True(t, ws.Signaled() && ws.Signal() == syscall.SIGINT, "killed by the second SIGINT: %v", a.cmd.ProcessState)
}

// TestCtrlCEndsAPlannerChild: Ctrl-C while a --planner-cmd planner thinks
// (and would think forever) ends the run with 130, and the planner process
// is killed and waited for.
func TestCtrlCEndsAPlannerChild(t *testing.T) {
	cmd, pidFile := fakeCmd(t, "hang")
	a := startAgent(t, 0, "run", "--planner-cmd", cmd, "--planner-timeout", "1h")
	require.Eventually(t, func() bool {
		_, err := os.Stat(pidFile + ".planning")
		return err == nil
	}, 30*time.Second, 10*time.Millisecond, "the planner got the plan request")
	require.NoError(t, a.cmd.Process.Signal(os.Interrupt))
	code, _, _ := a.wait(t)
	assert.Equal(t, exitInterrupted, code, "stderr:\n%s", tail(a.stderrText(), 2000))
	assertReaped(t, pidFile)
}
