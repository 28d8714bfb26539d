package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/peer"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// fakePlannerEnv makes the test binary a planner on stdin and stdout (see
// TestMain); the value says how it behaves.
const fakePlannerEnv = "AGENT_TEST_FAKE_PLANNER"

// fakePidEnv names a file where the fake planner writes its process id.
const fakePidEnv = "AGENT_TEST_FAKE_PLANNER_PID"

// fakePlanner serves one agent on stdin and stdout and returns the exit
// status:
//
//	hang   never answers a plan request
//	crash  writes to stderr, more than the tail the agent keeps, and exits 3
//	bad    answers an unknown skill, then checks the next request carries
//	       the rejection and answers done (exit 4 when it does not)
//	done   answers done
func fakePlanner(mode string) int {
	if f := os.Getenv(fakePidEnv); f != "" {
		os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o600)
	}
	p := loop.PlannerFunc(func(ctx context.Context, g loop.Goal, obs loop.Observation, cat []*registry.Description) (loop.Decision, error) {
		switch mode {
		case "hang":
			if f := os.Getenv(fakePidEnv); f != "" {
				os.WriteFile(f+".planning", nil, 0o600) // the plan request arrived
			}
			select {} // not even a cancel ends it
		case "crash":
			fmt.Fprintln(os.Stderr, "fake planner: start of a long story")
			fmt.Fprintln(os.Stderr, strings.Repeat("x", 8<<10))
			fmt.Fprintln(os.Stderr, "fake planner: out of cheese")
			os.Exit(3)
		case "bad":
			if obs.Step == 1 {
				return loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tre"}}, nil
			}
			if obs.Last == nil || obs.Last.Verdict != loop.Rejected || !strings.Contains(obs.Last.Error, `"chop_tre"`) {
				fmt.Fprintf(os.Stderr, "fake planner: step %d did not see the rejection: %+v\n", obs.Step, obs.Last)
				os.Exit(4)
			}
			return loop.Decision{Done: true, Reason: "saw the rejection: " + obs.Last.Error}, nil
		}
		return loop.Decision{Done: true}, nil
	})
	srv, err := peer.NewPlannerServer(peer.PlannerServerOptions{Planner: p, Name: "fake " + mode})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv.ServeConn(stdio{})
	return 0
}

// stdio is this process's stdin and stdout as one connection.
type stdio struct{}

func (stdio) Read(b []byte) (int, error)  { return os.Stdin.Read(b) }
func (stdio) Write(b []byte) (int, error) { return os.Stdout.Write(b) }
func (stdio) Close() error                { return os.Stdin.Close() }

// fakeCmd is the --planner-cmd that starts this test binary as a fake
// planner in mode; it returns the file that will hold its pid.
func fakeCmd(t *testing.T, mode string) (cmd, pidFile string) {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	pidFile = filepath.Join(t.TempDir(), "planner.pid")
	t.Setenv(fakePlannerEnv, mode)
	t.Setenv(fakePidEnv, pidFile)
	return "'" + exe + "'", pidFile
}

// assertReaped checks that the planner process is gone (killed or exited,
// and waited for: a zombie would still answer signal 0).
func assertReaped(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(string(b))
	require.NoError(t, err)
	assert.True(t, errors.Is(syscall.Kill(pid, 0), syscall.ESRCH), "planner process %d is still there", pid)
}

func traceOf(t *testing.T, file string) []loop.StepRecord {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var recs []loop.StepRecord
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if l == "" {
			continue
		}
		var r loop.StepRecord
		require.NoError(t, json.Unmarshal([]byte(l), &r), l)
		recs = append(recs, r)
	}
	return recs
}

// TestPlannerCmdHang: a planner that never answers is timed out; each step
// is a planner error, the run goes on to its budget, and the child is
// killed and reaped at the end.
func TestPlannerCmdHang(t *testing.T) {
	cmd, pidFile := fakeCmd(t, "hang")
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	start := time.Now()
	code, out, errOut := runAgent(t, "run", "--planner-cmd", cmd, "--planner-timeout", "200ms", "--max-steps", "2", "--trace", trace)
	assert.Equal(t, exitFail, code, errOut)
	assert.Contains(t, out, "goal NOT met (max_steps)")
	recs := traceOf(t, trace)
	require.Len(t, recs, 2)
	for _, r := range recs {
		assert.Equal(t, loop.PlannerError, r.Verdict)
		assert.Contains(t, r.Error, "did not answer within 200ms")
	}
	assert.Less(t, time.Since(start), 15*time.Second)
	assertReaped(t, pidFile)
}

// TestPlannerCmdCrash: a planner that exits is reported with its exit
// status and the tail of its stderr (bounded); the run stops after the
// loop's failures in a row.
func TestPlannerCmdCrash(t *testing.T) {
	cmd, pidFile := fakeCmd(t, "crash")
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	code, out, errOut := runAgent(t, "run", "--planner-cmd", cmd, "--trace", trace)
	assert.Equal(t, exitFail, code, errOut)
	assert.Contains(t, out, "goal NOT met (stuck)")
	recs := traceOf(t, trace)
	require.NotEmpty(t, recs)
	first := recs[0]
	assert.Equal(t, loop.PlannerError, first.Verdict)
	assert.Contains(t, first.Error, "exit status 3")
	assert.Contains(t, first.Error, "fake planner: out of cheese")
	assert.NotContains(t, first.Error, "start of a long story", "only the tail is kept")
	assert.Less(t, len(first.Error), stderrTailBytes+512)
	for _, r := range recs {
		assert.Equal(t, loop.PlannerError, r.Verdict)
	}
	assert.Contains(t, errOut, "start of a long story", "the planner's stderr is shown as it comes")
	assertReaped(t, pidFile)
}

// TestPlannerCmdRejection: an unknown skill is rejected by the loop, the
// planner sees why in its next request, and done ends the run.
func TestPlannerCmdRejection(t *testing.T) {
	cmd, pidFile := fakeCmd(t, "bad")
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	code, out, errOut := runAgent(t, "run", "--planner-cmd", cmd, "--trace", trace)
	assert.Equal(t, exitFail, code, errOut)
	assert.Contains(t, out, "goal NOT met (planner_done)")
	recs := traceOf(t, trace)
	require.Len(t, recs, 1)
	assert.Equal(t, loop.Rejected, recs[0].Verdict)
	assert.Contains(t, recs[0].Error, `skill "chop_tre" is not available`)
	assertReaped(t, pidFile)
}

// TestPlannerCmdDone: done at once ends the run planner_done, no steps.
func TestPlannerCmdDone(t *testing.T) {
	cmd, pidFile := fakeCmd(t, "done")
	code, out, errOut := runAgent(t, "run", "--planner-cmd", cmd, "--json")
	assert.Equal(t, exitFail, code, errOut)
	var o loop.Outcome
	require.NoError(t, json.Unmarshal([]byte(out), &o), out)
	assert.Equal(t, loop.PlannerDone, o.Reason)
	assert.Zero(t, o.Steps)
	assertReaped(t, pidFile)
}

// TestPlannerAddr: agent run --planner ADDR drives a planner listening on a
// Unix socket, presenting the token from --token-file.
func TestPlannerAddr(t *testing.T) {
	dir, err := os.MkdirTemp("", "plan")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	tokenFile := filepath.Join(dir, "token")
	require.NoError(t, os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600))
	a := wire.Addr{Network: "unix", Address: filepath.Join(dir, "p.sock")}
	l, err := wire.Listen(a, wire.ListenOptions{})
	require.NoError(t, err)
	// Counted atomically: the planner's goroutine and the test meet only
	// through the socket, which the race detector does not see as an edge.
	var asked atomic.Int32
	srv, err := peer.NewPlannerServer(peer.PlannerServerOptions{Token: "s3cret", Planner: loop.PlannerFunc(
		func(ctx context.Context, g loop.Goal, obs loop.Observation, cat []*registry.Description) (loop.Decision, error) {
			asked.Add(1)
			if obs.Progress.Met || obs.Step > 3 {
				return loop.Decision{Done: true}, nil
			}
			return loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 2}}}, nil
		})})
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	t.Cleanup(func() { l.Close(); <-done })

	code, out, errOut := runAgent(t, "run", "--planner", a.String(), "--token-file", tokenFile, "--goal", "collect 2 minecraft:log")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "chop_tree min_logs=2")
	assert.Contains(t, out, "goal met after 1 steps")
	assert.Equal(t, int32(1), asked.Load())
	assert.NotContains(t, out+errOut, "s3cret")

	code, _, errOut = runAgent(t, "run", "--planner", a.String(), "--goal", "collect 2 minecraft:log")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, errOut, "unauthorized")
}

// TestPlannerFlagErrors: bad planner flags are usage errors, found before
// anything starts.
func TestPlannerFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--planner", "gaol"}, `did you mean "goal"`},
		{[]string{"--planner", "tcp://"}, "--planner"},
		{[]string{"--planner-cmd", "no-such-planner-program-x"}, "executable file not found"},
		{[]string{"--planner-cmd", `python3 "unclosed`}, "unclosed"},
		{[]string{"--planner-cmd", "   "}, "empty command"},
		{[]string{"--planner-cmd", "true", "--planner", "goal"}, "not both"},
		{[]string{"--planner-cmd", "true", "--planner-timeout", "0s"}, "must be positive"},
		{[]string{"--planner-timeout", "5s"}, "--planner-timeout is for"},
		{[]string{"--planner-cmd", "true", "--script", "x.yaml"}, "--script needs"},
		{[]string{"--token-file", "t"}, "--token-file needs"},
	} {
		code, _, errOut := runAgent(t, append([]string{"run"}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.msg, "%v", tc.args)
	}
}

// TestSplitCommand: how a --planner-cmd line becomes words.
func TestSplitCommand(t *testing.T) {
	for in, want := range map[string][]string{
		"python3 my_planner.py":      {"python3", "my_planner.py"},
		`  a   'b c'  "d 'e'" f\ g `: {"a", "b c", "d 'e'", "f g"},
		`a '' b`:                     {"a", "", "b"},
		`'it\'s`:                     {`it\s`},
		`'unclosed`:                  nil,
		`say "a\"b"`:                 {"say", `a"b`},
		"a\tb":                       {"a", "b"},
		`x\`:                         nil,
	} {
		got, err := splitCommand(in)
		if want == nil {
			assert.Error(t, err, in)
			continue
		}
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
}

// TestTailBuffer: only the last bytes are kept, marked as cut.
func TestTailBuffer(t *testing.T) {
	b := &tailBuffer{n: 8}
	b.Write([]byte("hello "))
	assert.Equal(t, "hello ", b.String())
	b.Write([]byte("world\n"))
	assert.Equal(t, "…o world", b.String())
	b.Write([]byte(strings.Repeat("z", 100)))
	assert.Equal(t, "…"+strings.Repeat("z", 8), b.String())
	assert.Len(t, b.buf, 8)
	b = &tailBuffer{n: 8}
	b.Write([]byte("123456789"))
	assert.Equal(t, "…23456789", b.String(), "one byte over")
}

// TestPlannerCmdPythonExample: examples/planner.py plays the default goal
// to the end.
func TestPlannerCmdPythonExample(t *testing.T) {
	if why := os.Getenv("AGENT_NO_PYTHON"); why != "" {
		t.Skipf("SKIP: examples/planner.py is not run: %s (from .ci/run)", why)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("python3 is needed for examples/planner.py in CI: %v", err)
		}
		t.Skipf("SKIP: python3 is not installed (%v); examples/planner.py is not run", err)
	}
	code, out, errOut := runAgent(t, "run", "--planner-cmd", "'"+py+"' ../../examples/planner.py")
	require.Equal(t, exitOK, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "chop_tree")
	assert.Contains(t, out, "basic_crafting")
	assert.Contains(t, out, "goal met after")
	assert.Contains(t, errOut, "planner.py: nearest log at", "the example asked the agent about the world")
}

// TestPlannerCmdAnswersThenExits: the last answer of a planner that exits
// right after writing it is read, not lost with the pipe (a planner in a
// few lines of shell).
func TestPlannerCmdAnswersThenExits(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skipf("SKIP: no sh (%v)", err)
	}
	script := filepath.Join(t.TempDir(), "planner.sh")
	require.NoError(t, os.WriteFile(script, []byte(`read hello
echo '{"v":1,"id":1,"type":"reply","payload":{"protocol":1,"role":"planner","name":"sh","actions":[],"events":[],"requests":["hello","plan"],"max_message":4194304}}'
read plan
echo '{"v":1,"id":2,"type":"reply","payload":{"done":true,"reason":"bye"}}'
exit 0
`), 0o600))
	for range 5 {
		code, out, errOut := runAgent(t, "run", "--planner-cmd", "'"+sh+"' '"+script+"'", "--json")
		require.Equal(t, exitFail, code, errOut)
		var o loop.Outcome
		require.NoError(t, json.Unmarshal([]byte(out), &o), out)
		assert.Equal(t, loop.PlannerDone, o.Reason)
	}
}

// TestPlannerCmdSlowStart: a planner program that takes longer to start
// and say hello than --planner-timeout gives one answer still runs (the
// start has plannerStartAllowance); its plan answers are then timed by
// --planner-timeout.
func TestPlannerCmdSlowStart(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skipf("SKIP: no sh (%v)", err)
	}
	script := filepath.Join(t.TempDir(), "planner.sh")
	require.NoError(t, os.WriteFile(script, []byte(`read hello
sleep 1
echo '{"v":1,"id":1,"type":"reply","payload":{"protocol":1,"role":"planner","name":"sh","actions":[],"events":[],"requests":["hello","plan"],"max_message":4194304}}'
read plan
echo '{"v":1,"id":2,"type":"reply","payload":{"done":true,"reason":"started slowly"}}'
`), 0o600))
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	code, out, errOut := runAgent(t, "run", "--planner-cmd", "'"+sh+"' '"+script+"'", "--planner-timeout", "300ms", "--json", "--trace", trace)
	require.Equal(t, exitFail, code, errOut)
	var o loop.Outcome
	require.NoError(t, json.Unmarshal([]byte(out), &o), out)
	assert.Equal(t, loop.PlannerDone, o.Reason, "the slow start was waited for: %s", errOut)
	assert.Equal(t, "started slowly", o.Why)
	assert.Equal(t, 10*time.Second, helloTimeout(300*time.Millisecond))
	assert.Equal(t, time.Minute, helloTimeout(time.Minute), "a longer plan timeout is the start's too")
}

// TestPlannerCmdHelloIsBounded: a planner program that never says hello
// fails the start once its hello time is over, max(--planner-timeout,
// plannerStartAllowance): not at the allowance when the plan timeout is
// longer, and not only when the caller gives up. It waits the allowance
// and half a second, the least that tells the two bounds apart.
func TestPlannerCmdHelloIsBounded(t *testing.T) {
	t.Parallel() // mostly waiting on a child process or a timer: overlap it with the others
	if testing.Short() {
		t.Skip("SKIP: waits plannerStartAllowance")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skipf("SKIP: no sh (%v)", err)
	}
	script := filepath.Join(t.TempDir(), "planner.sh")
	require.NoError(t, os.WriteFile(script, []byte("while read -r line; do :; done\n"), 0o600)) // reads, never answers
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	e := &env{stdout: io.Discard, stderr: io.Discard, log: zerolog.Nop()}

	plan := plannerStartAllowance + 500*time.Millisecond
	ctx, cancel := testdeadline.WithCancel(t, "the planner's hello")
	defer cancel()
	t0 := time.Now()
	pc, err := openPlanner(ctx, e, "'"+sh+"' '"+script+"'", "", "", plan, ipc.InProcess(w), nil)
	elapsed := time.Since(t0)
	if pc != nil {
		pc.Close()
	}
	require.Error(t, err, "a planner that never says hello does not start")
	assert.NoError(t, ctx.Err(), "the hello's own bound ended it, not the caller's (%v)", elapsed)
	assert.GreaterOrEqual(t, elapsed, plan, "a plan timeout above the allowance is the hello's")
}
