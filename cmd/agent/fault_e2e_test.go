package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// faultConfig runs the client at the fake server's tick (the first %s)
// and reconnects quickly; the second %s is the read timeout, after which a
// silent server is given up (the server sends a keep-alive every two
// ticks).
const faultConfig = `server:
  tick: %s
  timeouts: {dial: 2s, login: 10s, read: %s, action: 30s}
  reconnect: {enabled: true, initial: 100ms, max: 500ms, jitter: 0}
`

// Read timeouts: a generous one for most faults (a loaded machine must not
// time out a live server), and for the stall one shorter than the client's
// wait for the server to answer a dig (70 ticks, 3.5 s), so the stall is
// noticed before the actions give up on it.
const (
	faultReadTimeout = "3s"
	stallReadTimeout = "1s"
)

// Ticks: the game's inside a bubble (virtual time costs nothing), and a
// faster one for the child-process tests, whose ticks are wall time.
const (
	gameTick  = 50 * time.Millisecond
	childTick = 20 * time.Millisecond
)

// faultScript chops a tree per step (the two trees near the spawn have 5
// and 4 logs; the goal needs both), so the first tree is a finished step
// before the faults, which strike at the sixth accepted dig: the first log
// of the second tree. The steps after the fault finish that tree.
const faultScript = `- {skill: chop_tree, params: {min_logs: 4}}
- {skill: chop_tree, params: {min_logs: 4}}
- {skill: chop_tree, params: {min_logs: 4}}
- {skill: chop_tree, params: {min_logs: 4}}
- {skill: chop_tree, params: {min_logs: 4}}
`

const faultGoal = "collect 9 minecraft:log"

// faultRun is one agent run against a fake server.
type faultRun struct {
	srv          *fakeserver.Server
	agent        *child
	trace, state string
}

// startFaultRun starts an agent run against a test server with these
// options. In a synctest bubble (inBubble) the server listens in memory and
// the run is the command in this process: its ticks, timeouts and backoffs
// are the bubble's virtual time. Otherwise the agent is a child process (a
// test about the process: a kill, a signal) at tick ms a tick.
func startFaultRun(t *testing.T, opts fakeserver.Options, readTimeout string, inBubble bool, tick time.Duration) *faultRun {
	t.Helper()
	opts.TickDuration = tick
	opts.KeepAliveInterval = 2 * tick
	if inBubble {
		opts = inMemory(opts)
	}
	srv, err := fakeserver.New(opts)
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "agent.yaml")
	script := filepath.Join(dir, "script.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf(faultConfig, tick, readTimeout)), 0o644))
	require.NoError(t, os.WriteFile(script, []byte(faultScript), 0o644))
	r := &faultRun{srv: srv, trace: filepath.Join(dir, "trace.jsonl"), state: filepath.Join(dir, "state.json")}
	args := []string{"run", "--server", srv.Addr(), "--username", "Bot", "--goal", faultGoal,
		"--planner", "script", "--script", script, "--config-file", cfg, "--reconnect",
		"--trace", r.trace, "--state", r.state, "--max-steps", "10"}
	if inBubble {
		r.agent = startInProcess(t, args...)
	} else {
		r.agent = startAgent(t, 0, args...)
	}
	return r
}

// waitServer waits for a condition on the server.
func (r *faultRun) waitServer(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := testdeadline.WithCancel(t, what)
	defer cancel()
	if err := r.srv.WaitFor(ctx, cond); err != nil {
		t.Fatalf("waiting for %s: %v\nstdout:\n%s\nstderr:\n%s", what, err, r.agent.stdout(), tail(r.agent.stderrText(), 3000))
	}
}

// checkTraceHasPrinted checks, while the agent runs, that every step it
// printed is already in the trace file, whole (the agent prints a step
// after writing it to the trace).
func (r *faultRun) checkTraceHasPrinted(t *testing.T) {
	t.Helper()
	r.agent.waitSteps(t, 1)
	printed := r.agent.steps()
	recs := readTrace(t, r.trace)
	have := map[int]bool{}
	for _, rec := range recs {
		have[rec.Step] = true
	}
	for _, n := range printed {
		assert.True(t, have[n], "step %d was printed before the fault but is not in the trace (%d records)", n, len(recs))
	}
}

var (
	afterStepsRE = regexp.MustCompile(`goal met after (\d+) steps`)
	reconnectsRE = regexp.MustCompile(`connection: .* (\d+) reconnects`)
)

// finish waits for the run and checks it met its goal after reconnecting,
// with a complete trace and a state file that agrees with it; hitFailed
// says the fault made a step fail (it struck the packet an action waited
// for). It returns the run's wall time.
func (r *faultRun) finish(t *testing.T, hitFailed bool) time.Duration {
	t.Helper()
	code, _, elapsed := r.agent.wait(t)
	out := r.agent.stdout()
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", out, tail(r.agent.stderrText(), 4000))
	m := afterStepsRE.FindStringSubmatch(out)
	require.NotNil(t, m, out)
	steps, _ := strconv.Atoi(m[1])
	rm := reconnectsRE.FindStringSubmatch(out)
	require.NotNil(t, rm, out)
	reconnects, _ := strconv.Atoi(rm[1])
	assert.GreaterOrEqual(t, reconnects, 1, "the agent reconnected")

	recs := readTrace(t, r.trace)
	require.Len(t, recs, steps, "one trace line per step")
	failed := 0
	for i, rec := range recs {
		assert.Equal(t, i+1, rec.Step, "steps in order, none missing")
		if rec.Verdict == loop.ActionFailed {
			failed++
		}
	}
	if hitFailed {
		assert.GreaterOrEqual(t, failed, 1, "the step the fault hit failed and is in the trace: %s\nstderr:\n%s", verdicts(recs), tail(r.agent.stderrText(), 8000))
	}
	last := recs[len(recs)-1]
	require.NotNil(t, last.After)
	assert.GreaterOrEqual(t, last.After.Inventory["minecraft:log"], 9)
	assert.Equal(t, ranSteps(recs), stateSamples(t, r.state), "the state file recorded every step that ran")
	return elapsed
}

func TestFaultKickWhileDigging(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startFaultRun(t, fakeserver.Options{Faults: fakeserver.Faults{KickAt: fakeserver.StageDig, KickReason: "Server restarting", Skip: 5, Once: true}}, faultReadTimeout, true, gameTick)
		r.waitServer(t, "the kick", func() bool { return len(r.srv.Kicks()) > 0 })
		r.checkTraceHasPrinted(t)
		elapsed := r.finish(t, true)
		assert.Equal(t, "Server restarting", r.srv.Kicks()[0].Reason)
		t.Logf("kick while digging: the run took %v", elapsed)
		assert.Less(t, elapsed, 30*time.Second, "about 15 s of the bubble's time: not stuck on the fault")
	})
}

func TestFaultTruncatedPacket(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startFaultRun(t, fakeserver.Options{Faults: fakeserver.Faults{TruncateAt: fakeserver.StageDig, Truncate: fakeserver.TruncateFrame, Skip: 5, Once: true}}, faultReadTimeout, true, gameTick)
		r.waitServer(t, "the truncated packet", func() bool { return len(r.srv.Strikes()) > 0 })
		r.checkTraceHasPrinted(t)
		elapsed := r.finish(t, true)
		assert.Equal(t, "truncate", r.srv.Strikes()[0].Fault)
		t.Logf("truncated packet: the run took %v", elapsed)
		assert.Less(t, elapsed, 30*time.Second, "about 15 s of the bubble's time: not stuck on the fault")
	})
}

func TestFaultStalledServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startFaultRun(t, fakeserver.Options{Faults: fakeserver.Faults{StallAt: fakeserver.StageDig, StallFor: 30 * time.Second, Skip: 5, Once: true}}, stallReadTimeout, true, gameTick)
		r.waitServer(t, "the stall", func() bool { return len(r.srv.Strikes()) > 0 })
		stalled := time.Now()
		r.checkTraceHasPrinted(t)
		elapsed := r.finish(t, true)
		assert.Equal(t, "stall", r.srv.Strikes()[0].Fault)
		assert.Less(t, time.Since(stalled), 20*time.Second, "the agent noticed the silent server long before the 30 s stall ended")
		assert.Contains(t, r.agent.stderrText(), "no packet from the server", "the log says why the connection was dropped")
		t.Logf("stalled server: the run took %v", elapsed)
		assert.Less(t, elapsed, 30*time.Second, "about 15 s of the bubble's time: not stuck on the fault")
	})
}

func TestFaultServerRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startFaultRun(t, fakeserver.Options{}, faultReadTimeout, true, gameTick)
		r.waitServer(t, "the sixth accepted dig", func() bool {
			n := 0
			for _, d := range r.srv.Digs() {
				if d.Accepted {
					n++
				}
			}
			return n >= 6
		})
		restarted := make(chan error, 1)
		go func() { restarted <- r.srv.Restart(time.Second) }()
		r.checkTraceHasPrinted(t)
		require.NoError(t, <-restarted)
		// The restart strikes between two digs: the next action waits for the
		// reconnect, so no step needs to fail.
		elapsed := r.finish(t, false)
		assert.Equal(t, 1, r.srv.Restarts())
		var kicked []string
		for _, k := range r.srv.Kicks() {
			kicked = append(kicked, k.Reason)
		}
		assert.Contains(t, kicked, "Server closed")
		t.Logf("server restart (1 s down): the run took %v", elapsed)
		assert.Less(t, elapsed, 30*time.Second, "about 15 s of the bubble's time: not stuck on the fault")
	})
}

// TestTraceSurvivesAKilledAgent: an agent killed mid-run (SIGKILL: no
// deferred flush runs) leaves a trace with every step it finished, whole,
// and a state file that parses.
func TestTraceSurvivesAKilledAgent(t *testing.T) {
	t.Parallel() // mostly waiting on a child process or a timer: overlap it with the others
	r := startFaultRun(t, fakeserver.Options{}, faultReadTimeout, false, childTick)
	r.agent.waitSteps(t, 1)
	r.waitServer(t, "a dig of the second step", func() bool { return len(r.srv.Digs()) >= 6 })
	require.NoError(t, r.agent.cmd.Process.Signal(syscall.SIGKILL))
	code, _, _ := r.agent.wait(t)
	assert.NotEqual(t, exitOK, code)
	printed := r.agent.steps()
	require.NotEmpty(t, printed)
	recs := readTrace(t, r.trace)
	require.GreaterOrEqual(t, len(recs), len(printed), "every printed step is in the trace")
	for i, rec := range recs {
		assert.Equal(t, i+1, rec.Step)
	}
	samples := stateSamples(t, r.state)
	assert.GreaterOrEqual(t, samples["chop_tree"], ranSteps(recs)["chop_tree"])
	assert.False(t, strings.Contains(r.agent.stdout(), "goal met"))
}

// TestCtrlCInterruptsTheRun: SIGINT in the middle of a dig ends the run
// with exit 130; the step it cut short is recorded as interrupted, is not
// counted in the learned metrics, and the trace is whole.
func TestCtrlCInterruptsTheRun(t *testing.T) {
	t.Parallel() // mostly waiting on a child process or a timer: overlap it with the others
	r := startFaultRun(t, fakeserver.Options{}, faultReadTimeout, false, childTick)
	r.agent.waitSteps(t, 1)
	r.waitServer(t, "a dig of the second step", func() bool { return len(r.srv.Digs()) >= 6 })
	require.NoError(t, r.agent.cmd.Process.Signal(os.Interrupt))
	code, _, _ := r.agent.wait(t)
	require.Equal(t, exitInterrupted, code, "stdout:\n%s\nstderr:\n%s", r.agent.stdout(), tail(r.agent.stderrText(), 3000))
	assert.Contains(t, r.agent.stdout(), "goal NOT met (interrupted)")
	recs := readTrace(t, r.trace)
	require.NotEmpty(t, recs)
	for i, rec := range recs {
		assert.Equal(t, i+1, rec.Step)
	}
	last := recs[len(recs)-1]
	assert.Equal(t, loop.StepInterrupted, last.Verdict, "the step cut short by Ctrl-C")
	assert.Equal(t, ranSteps(recs), stateSamples(t, r.state), "the interrupted step is not in the metrics")
}

// TestCtrlCWhileJoining: Ctrl-C while the agent waits for a server that is
// down ends it at once with exit 130.
func TestCtrlCWhileJoining(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	dir := t.TempDir()
	cfg := filepath.Join(dir, "agent.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf(faultConfig, childTick, faultReadTimeout)), 0o644))
	a := startAgent(t, 0, "run", "--server", addr, "--username", "Bot", "--goal", faultGoal, "--config-file", cfg, "--reconnect")
	// Signal once a refused attempt was retried: the agent is waiting for
	// the server, with its Ctrl-C handler in place.
	require.Eventually(t, func() bool { return strings.Contains(a.stderrText(), "retrying") }, 60*time.Second, 5*time.Millisecond,
		"no refused attempt was retried: %s", a.stderrText())
	require.NoError(t, a.cmd.Process.Signal(os.Interrupt))
	code, _, elapsed := a.wait(t)
	assert.Equal(t, exitInterrupted, code, "stderr:\n%s", tail(a.stderrText(), 2000))
	t.Logf("exited %v after the start", elapsed)
}

// TestCtrlCWhileGenerating: Ctrl-C while a large simulated world is being
// generated (about 25 s for 1024×1024 blocks) ends the agent with exit 130
// before any step.
func TestCtrlCWhileGenerating(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(sc, []byte("name: big\nsize: {x: 1024, z: 1024}\nplayer: {pos: [8, 64, 8]}\n"), 0o644))
	a := startAgent(t, 0, "run", "--scenario", sc, "--goal", "collect 1 minecraft:log", "--log-level", "debug")
	// The debug line comes after the Ctrl-C handler is in place, just
	// before the terrain is generated.
	require.Eventually(t, func() bool { return strings.Contains(a.stderrText(), "generating the world") }, 60*time.Second, 5*time.Millisecond,
		"the agent never said it generates the world: %s", a.stderrText())
	require.NoError(t, a.cmd.Process.Signal(os.Interrupt))
	signalled := time.Now()
	code, _, _ := a.wait(t)
	exited := time.Since(signalled)
	assert.Equal(t, exitInterrupted, code, "stderr:\n%s", tail(a.stderrText(), 2000))
	assert.NotContains(t, a.stdout(), "step ", "no step ran")
	// A generation that ignored Ctrl-C would run its 25 s first; an exit
	// takes milliseconds, so the bound is far from any machine's load.
	assert.Less(t, exited, 15*time.Second, "the generation was cut short, not finished")
	t.Logf("exited %v after Ctrl-C", exited)
}

// verdicts renders each step's invocation, verdict, code and error, and
// its actions' results, a line a step.
func verdicts(recs []loop.StepRecord) string {
	var b strings.Builder
	for _, r := range recs {
		inv := ""
		if r.Invocation != nil {
			inv = r.Invocation.Skill
		}
		fmt.Fprintf(&b, "step %d %s: %s %s %s\n", r.Step, inv, r.Verdict, r.Code, r.Error)
		for _, a := range r.Actions {
			fmt.Fprintf(&b, "    %+v\n", a)
		}
	}
	return b.String()
}
