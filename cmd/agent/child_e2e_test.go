package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// The end-to-end tests of hostile servers and faults run the agent binary
// as a child process, so a crash, a memory limit or a kill hits the agent
// and not the test, and its peak memory is its own.

var (
	agentOnce sync.Once
	agentDir  string
	agentPath string
	agentErr  error
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakePlannerEnv); mode != "" {
		// The test binary, started by agent run --planner-cmd, plays a
		// planner (planner_test.go).
		os.Exit(fakePlanner(mode))
	}
	// The test servers listen in memory where a test gives them a
	// fakeserver.MemoryAddr address (the tests that run inside
	// testing/synctest bubbles); other addresses are TCP.
	dialServer = func(ctx context.Context, addr string) (net.Conn, error) {
		if fakeserver.InMemory(addr) {
			return fakeserver.DialMemory(ctx, addr)
		}
		var d net.Dialer
		return d.DialContext(ctx, "tcp", addr)
	}
	// os/signal starts its watcher goroutine on the first Notify: start it
	// here, outside any bubble, so a bubble's agent run does not own it
	// (a bubble waits for its goroutines to end).
	signal.Stop(notifyOnce())
	// Live runs remember their worlds in the user's configuration
	// directory: the tests' runs keep theirs in a directory of their own.
	cfgDir, err := os.MkdirTemp("", "agent-test-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", cfgDir)
	code := m.Run()
	os.RemoveAll(cfgDir)
	if agentDir != "" {
		os.RemoveAll(agentDir)
	}
	os.Exit(code)
}

// agentBinary builds cmd/agent once per test process.
//
// Under the race detector it skips the test: the binary it would start is
// built without the detector, so a child-process test finds no race in the
// agent and only repeats what the plain run already proved (the agent's
// code runs under the detector in this package's in-process tests).
func agentBinary(t *testing.T) string {
	t.Helper()
	if raceEnabled {
		t.Skip("SKIP under -race: the agent child process is built without the race detector; the plain go test run covers this test")
	}
	agentOnce.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		if agentDir, agentErr = os.MkdirTemp("", "agent-e2e-"); agentErr != nil {
			return
		}
		agentPath = filepath.Join(agentDir, "agent")
		if out, err := exec.Command(goTool, "build", "-o", agentPath, ".").CombinedOutput(); err != nil {
			agentErr = fmt.Errorf("go build ./cmd/agent: %v\n%s", err, out)
		}
	})
	require.NoError(t, agentErr)
	return agentPath
}

// child is a running agent: a child process (startAgent) or a run of
// the command in this process (startInProcess; cmd is nil).
type child struct {
	cmd   *exec.Cmd
	start time.Time
	code  int // the in-process run's exit code

	mu      sync.Mutex
	lines   []string // stdout so far
	changed chan struct{}
	stderr  bytes.Buffer
	done    chan struct{}
	elapsed time.Duration
	err     error
	peak    int64 // the largest VmHWM sampled, bytes
	samples int
}

// startAgent runs the agent binary with args. vmemKiB > 0 runs it under
// that virtual-memory limit (bash's ulimit -v, then exec).
func startAgent(t *testing.T, vmemKiB int, args ...string) *child {
	t.Helper()
	bin := agentBinary(t)
	var cmd *exec.Cmd
	if vmemKiB > 0 {
		bash, err := exec.LookPath("bash")
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("bash is needed for ulimit -v: %v", err)
			}
			t.Skipf("bash is needed for ulimit -v (%v)", err)
		}
		cmd = exec.Command(bash, append([]string{"-c", `ulimit -v ` + strconv.Itoa(vmemKiB) + ` && exec "$0" "$@"`, bin}, args...)...)
	} else {
		cmd = exec.Command(bin, args...)
	}
	c := &child{cmd: cmd, changed: make(chan struct{}), done: make(chan struct{})}
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = &lockedWriter{mu: &c.mu, buf: &c.stderr, wake: c}
	c.start = time.Now()
	require.NoError(t, cmd.Start())
	go c.sampleMemory()
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.mu.Lock()
			c.addLineLocked(sc.Text())
			c.mu.Unlock()
		}
		err := cmd.Wait()
		c.mu.Lock()
		c.err, c.elapsed = err, time.Since(c.start)
		c.mu.Unlock()
		close(c.done)
	}()
	t.Cleanup(func() {
		select {
		case <-c.done:
		default:
			cmd.Process.Kill()
			<-c.done
		}
	})
	return c
}

// startInProcess runs the agent's command line in this process, in a
// goroutine, for a test inside a synctest bubble that is not about the
// process (its exit, signals or memory): the run's waits are the bubble's
// virtual time, so its outcome does not depend on the machine's load.
func startInProcess(t *testing.T, args ...string) *child {
	t.Helper()
	c := &child{changed: make(chan struct{}), done: make(chan struct{}), start: time.Now()}
	out := &stdoutLines{c: c}
	go func() {
		code := run(args, out, &lockedWriter{mu: &c.mu, buf: &c.stderr, wake: c})
		out.flush()
		c.mu.Lock()
		c.code, c.elapsed = code, time.Since(c.start)
		c.mu.Unlock()
		close(c.done)
	}()
	t.Cleanup(func() { <-c.done })
	return c
}

// stdoutLines collects an in-process run's stdout a line at a time, the
// way startAgent's scanner does for a child's.
type stdoutLines struct {
	c       *child
	partial []byte
}

func (w *stdoutLines) Write(p []byte) (int, error) {
	w.c.mu.Lock()
	defer w.c.mu.Unlock()
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		w.c.addLineLocked(string(w.partial[:i]))
		w.partial = w.partial[i+1:]
	}
}

// flush keeps a last line without a newline.
func (w *stdoutLines) flush() {
	w.c.mu.Lock()
	defer w.c.mu.Unlock()
	if len(w.partial) > 0 {
		w.c.addLineLocked(string(w.partial))
		w.partial = nil
	}
}

// addLineLocked records a line of stdout and wakes the waiters.
func (c *child) addLineLocked(l string) {
	c.lines = append(c.lines, l)
	close(c.changed)
	c.changed = make(chan struct{})
}

// sampleMemory reads the child's peak resident memory (VmHWM in
// /proc/PID/status) every 10 ms until it exits. The rusage of the exited
// child is no good for this: Go starts children with vfork, and Linux folds
// the parent's (the test's) high-water mark into the child's ru_maxrss at
// exec.
func (c *child) sampleMemory() {
	status := fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid)
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for {
		if data, err := os.ReadFile(status); err == nil {
			if hwm, ok := vmHWM(data); ok {
				c.mu.Lock()
				c.peak = max(c.peak, hwm)
				c.samples++
				c.mu.Unlock()
			}
		}
		select {
		case <-c.done:
			return
		case <-t.C:
		}
	}
}

// vmHWM parses the VmHWM line of /proc/PID/status (kB) into bytes.
func vmHWM(status []byte) (int64, bool) {
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) != 2 || f[1] != "kB" {
				return 0, false
			}
			n, err := strconv.ParseInt(f[0], 10, 64)
			return n * 1024, err == nil
		}
	}
	return 0, false
}

// lockedWriter keeps what a child writes under its lock; with wake set it
// wakes the child's waiters (the child's standard error).
type lockedWriter struct {
	mu   *sync.Mutex
	buf  *bytes.Buffer
	wake *child
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.wake != nil {
		close(w.wake.changed)
		w.wake.changed = make(chan struct{})
	}
	return w.buf.Write(p)
}

// waitStderr waits until the child's standard error matches re, and
// returns the match: a line the child prints on standard error may come
// after one it printed on standard output (two pipes).
func (c *child) waitStderr(t *testing.T, re *regexp.Regexp) []string {
	t.Helper()
	deadline := testdeadline.After(t)
	for {
		c.mu.Lock()
		ch := c.changed
		m := re.FindStringSubmatch(c.stderr.String())
		c.mu.Unlock()
		if m != nil {
			return m
		}
		select {
		case <-ch:
		case <-c.done:
			t.Fatalf("the agent ended before printing %s on standard error:\n%s", re, tail(c.stderrText(), 3000))
		case <-deadline:
			t.Fatalf("no %s on standard error before go test's -timeout:\n%s", re, tail(c.stderrText(), 3000))
		}
	}
}

// stdout is everything the agent printed so far.
func (c *child) stdout() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.lines, "\n")
}

func (c *child) stderrText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stderr.String()
}

var stepLineRE = regexp.MustCompile(`^step\s+(\d+)\s`)

// steps are the step numbers printed so far.
func (c *child) steps() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []int
	for _, l := range c.lines {
		if m := stepLineRE.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			out = append(out, n)
		}
	}
	return out
}

// waitSteps waits until n steps were printed.
func (c *child) waitSteps(t *testing.T, n int) {
	t.Helper()
	deadline := testdeadline.After(t)
	for {
		c.mu.Lock()
		ch := c.changed
		c.mu.Unlock()
		if len(c.steps()) >= n {
			return
		}
		select {
		case <-ch:
		case <-c.done:
			if len(c.steps()) >= n {
				return
			}
			t.Fatalf("the agent ended before printing step %d\nstdout:\n%s\nstderr:\n%s", n, c.stdout(), tail(c.stderrText(), 3000))
		case <-deadline:
			t.Fatalf("no step %d before go test's -timeout\nstdout:\n%s", n, c.stdout())
		}
	}
}

// wait waits for the agent to exit and returns its exit code, its peak
// resident memory (bytes, the largest VmHWM sampled; 0 when none could be
// read) and its running time.
func (c *child) wait(t *testing.T) (code int, peak int64, elapsed time.Duration) {
	t.Helper()
	select {
	case <-c.done:
	case <-testdeadline.After(t):
		if c.cmd == nil {
			t.Fatalf("the agent's run did not finish before go test's -timeout\nstdout:\n%s\nstderr:\n%s", c.stdout(), tail(c.stderrText(), 3000))
		}
		c.cmd.Process.Kill()
		<-c.done
		t.Fatalf("the agent did not finish before go test's -timeout\nstdout:\n%s\nstderr:\n%s", c.stdout(), tail(c.stderrText(), 3000))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		return c.code, 0, c.elapsed
	}
	return c.cmd.ProcessState.ExitCode(), c.peak, c.elapsed
}

// crashReport shortens a child's stderr: the log lines and the first lines
// of a Go crash (its cause and the crashing goroutine), not every stack.
func crashReport(s string) string {
	if i := strings.Index(s, "\ngoroutine "); i >= 0 {
		if j := strings.Index(s[i+1:], "\n\n"); j >= 0 {
			return tail(s[:i+1+j], 6000)
		}
	}
	return tail(s, 6000)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// readTrace parses a JSONL trace: every line must be a whole step record
// (a torn last line fails).
func readTrace(t *testing.T, file string) []loop.StepRecord {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	if len(data) == 0 {
		return nil
	}
	require.True(t, bytes.HasSuffix(data, []byte("\n")), "the trace ends with a whole line: %q", tail(string(data), 200))
	var out []loop.StepRecord
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var r loop.StepRecord
		require.NoError(t, json.Unmarshal([]byte(line), &r), "trace line %d", i+1)
		out = append(out, r)
	}
	return out
}

// stateSamples reads the registry state file (it must parse) and returns
// the samples recorded per skill name.
func stateSamples(t *testing.T, file string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var st struct {
		Format int `json:"format"`
		Skills map[string]struct {
			Metrics struct {
				Samples int `json:"samples"`
			} `json:"metrics"`
		} `json:"skills"`
	}
	require.NoError(t, json.Unmarshal(data, &st), "the state file parses")
	require.Equal(t, 1, st.Format)
	out := map[string]int{}
	for key, e := range st.Skills {
		name, _, _ := strings.Cut(key, "@")
		out[name] += e.Metrics.Samples
	}
	return out
}

// ranSteps counts the trace's steps per skill whose outcome the registry
// records (the actions ran).
func ranSteps(recs []loop.StepRecord) map[string]int {
	out := map[string]int{}
	for _, r := range recs {
		if r.Invocation == nil {
			continue
		}
		switch r.Verdict {
		case loop.Success, loop.EffectsUnmet, loop.ActionFailed:
			out[r.Invocation.Skill]++
		}
	}
	return out
}

// notifyOnce subscribes a channel to SIGINT (and so starts os/signal's
// watcher) and returns it.
func notifyOnce() chan os.Signal {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	return ch
}
