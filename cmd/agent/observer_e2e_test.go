package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nodeObserver is examples/observer.js running under node.
type nodeObserver struct {
	cmd     *exec.Cmd
	mu      sync.Mutex
	lines   []string
	changed chan struct{}
	done    chan struct{}
	err     error
}

// startObserver runs the Node observer example on addr, or skips the test
// when node is not installed (and fails instead under CI, which has it).
func startObserver(t *testing.T, addr string, args ...string) *nodeObserver {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("node is not installed: the observer example test needs Node.js 20 under CI: %v", err)
		}
		t.Skipf("node is not installed: the observer example test needs Node.js 20 (%v)", err)
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "examples", "observer.js"))
	require.NoError(t, err)
	o := &nodeObserver{cmd: exec.Command(node, append([]string{script, addr}, args...)...),
		changed: make(chan struct{}), done: make(chan struct{})}
	out, err := o.cmd.StdoutPipe()
	require.NoError(t, err)
	o.cmd.Stderr = o.cmd.Stdout
	require.NoError(t, o.cmd.Start())
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			o.mu.Lock()
			o.lines = append(o.lines, sc.Text())
			close(o.changed)
			o.changed = make(chan struct{})
			o.mu.Unlock()
		}
		err := o.cmd.Wait()
		o.mu.Lock()
		o.err = err
		o.mu.Unlock()
		close(o.done)
	}()
	t.Cleanup(func() {
		select {
		case <-o.done:
		default:
			o.cmd.Process.Kill()
			<-o.done
		}
	})
	return o
}

func (o *nodeObserver) text() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.Join(o.lines, "\n")
}

// waitFor waits for a line containing s.
func (o *nodeObserver) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := testdeadline.After(t)
	for {
		o.mu.Lock()
		ch := o.changed
		for _, l := range o.lines {
			if strings.Contains(l, s) {
				o.mu.Unlock()
				return
			}
		}
		o.mu.Unlock()
		select {
		case <-ch:
		case <-o.done:
			if !strings.Contains(o.text(), s) {
				t.Fatalf("the observer exited without printing %q:\n%s", s, o.text())
			}
			return
		case <-deadline:
			t.Fatalf("the observer did not print %q before go test's -timeout:\n%s", s, o.text())
		}
	}
}

// exit waits for the observer to end and returns its exit code.
func (o *nodeObserver) exit(t *testing.T) int {
	t.Helper()
	select {
	case <-o.done:
	case <-testdeadline.After(t):
		t.Fatalf("the observer did not exit before go test's -timeout:\n%s", o.text())
	}
	if o.err == nil {
		return 0
	}
	if ee, ok := o.err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	t.Fatalf("the observer: %v", o.err)
	return -1
}

// TestObserverExample: the Node observer example watches agent serve --body
// sim while agent run --body plays there: it sees the player move and the
// logs go, one line per event, and exits 0 when the server shuts down; a
// second one exits 0 by itself after the number of events it was given.
func TestObserverExample(t *testing.T) {
	dir := shortDir(t)
	srv := startAgent(t, 0, "serve", "--body", "sim", "--listen", "unix://"+filepath.Join(dir, "body.sock"))
	addr := waitServing(t, srv)
	watcher := startObserver(t, addr)
	counted := startObserver(t, addr, "3")
	watcher.waitFor(t, "observing: tick 0")
	counted.waitFor(t, "observing: tick 0")

	code, out, errOut := runAgent(t, "run", "--body", addr, "--goal", "collect 2 minecraft:log", "--max-steps", "5")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	watcher.waitFor(t, "block_change")

	assert.Equal(t, 0, counted.exit(t), counted.text())
	assert.Contains(t, counted.text(), "3 events seen")

	require.NoError(t, srv.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 0, watcher.exit(t), watcher.text())
	text := watcher.text()
	assert.Contains(t, text, "connected to sim")
	assert.Regexp(t, `position \(-?\d+\.\d+, -?\d+(\.\d+)?, -?\d+\.\d+\) in overworld`, text)
	assert.Regexp(t, `block_change \(-?\d+, -?\d+, -?\d+\) → air`, text, "the felled logs")
	assert.Contains(t, text, "disconnect: ")
	code, _, _ = srv.wait(t)
	assert.Equal(t, 0, code, tail(srv.stderrText(), 2000))
}
