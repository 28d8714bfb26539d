package peer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/memnet"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/planner/peer"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// planSetup is an agent with a simulated body and a planner served over a
// transport.
type planSetup struct {
	reg  *registry.Registry
	conn ipc.Conn
	pl   *peer.Planner
}

func catalogFunc(reg *registry.Registry) remote.CatalogFunc {
	return func(tech string, packs []string) (json.RawMessage, error) {
		if packs == nil {
			packs = reg.Packs().Names()
		}
		d, err := reg.DescribeForTechState(tech, packs)
		if err != nil {
			return nil, err
		}
		return json.Marshal(d)
	}
}

// servePlanner serves p on network ("unix", "tcp" or "pipe": os pipes both
// ways, as a child's stdin and stdout) and connects an agent to it.
func servePlanner(t *testing.T, p loop.Planner, network string, timeout time.Duration) *planSetup {
	t.Helper()
	return servePlannerOn(t, func(ipc.Conn) loop.Planner { return p }, network, timeout)
}

// servePlannerOn is servePlanner with a planner built for the agent's body.
func servePlannerOn(t *testing.T, build func(body ipc.Conn) loop.Planner, network string, timeout time.Duration) *planSetup {
	t.Helper()
	reg := shipped(t)
	conn := ipc.InProcess(newSim(t, 0))
	p := build(conn)
	srv, err := peer.NewPlannerServer(peer.PlannerServerOptions{Planner: p, Name: "test planner"})
	require.NoError(t, err)
	opts := remote.ClientOptions{Name: "test agent", Handle: remote.AgentHandler(conn.Observe, catalogFunc(reg))}
	ctx, cancel := testdeadline.WithCancel(t, "the planner's hello")
	defer cancel()
	var c *remote.Client
	switch network {
	case "memory": // in-memory connections, for a test in a synctest bubble
		agentSide, plannerSide := memnet.Pipe()
		done := make(chan struct{})
		go func() { defer close(done); srv.ServeConn(plannerSide) }()
		c, err = remote.NewClient(ctx, agentSide, opts)
		require.NoError(t, err)
		t.Cleanup(func() { c.Close(); <-done })
	case "pipe":
		agentSide, plannerSide := pipePair(t)
		done := make(chan struct{})
		go func() { defer close(done); srv.ServeConn(plannerSide) }()
		c, err = remote.NewClient(ctx, agentSide, opts)
		require.NoError(t, err)
		t.Cleanup(func() { c.Close(); <-done })
	default:
		a := wire.Addr{Network: "unix", Address: sockPath(t)}
		if network == "tcp" {
			a = wire.Addr{Network: "tcp", Address: "127.0.0.1:0"}
		}
		l, err := wire.Listen(a, wire.ListenOptions{})
		require.NoError(t, err)
		if network == "tcp" {
			a.Address = l.Addr().(*net.TCPAddr).String()
		}
		done := make(chan error, 1)
		go func() { done <- srv.Serve(l) }()
		c, err = remote.Dial(ctx, a.String(), opts)
		require.NoError(t, err)
		t.Cleanup(func() {
			c.Close()
			l.Close()
			require.NoError(t, <-done)
		})
	}
	pl, err := peer.NewPlanner(c, peer.PlannerOptions{Timeout: timeout})
	require.NoError(t, err)
	return &planSetup{reg: reg, conn: conn, pl: pl}
}

func (s *planSetup) run(t *testing.T, goalText string, maxSteps int) ([]byte, loop.Outcome, []loop.StepRecord) {
	t.Helper()
	g, err := loop.ParseGoal(goalText, s.reg.Tiers())
	require.NoError(t, err)
	var buf bytes.Buffer
	var recs []loop.StepRecord
	l, err := loop.New(context.Background(), loop.Config{Registry: s.reg, Conn: s.conn, Planner: s.pl, Goal: g,
		Trace: &buf, MaxSteps: maxSteps, OnStep: func(r loop.StepRecord) { recs = append(recs, r) }})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	return buf.Bytes(), out, recs
}

const defaultGoalText = "have 8 minecraft:stick and collect 8 minecraft:log"

// TestRemotePlannerSameTrace: the goal planner served over each transport
// plays the default goal with the same trace, byte for byte, as in
// process: the goal, observation and catalog cross the wire intact. The
// observation carries no blocks (a remote planner asks for them); the goal
// planner, which searches them itself, gets them from the body here.
func TestRemotePlannerSameTrace(t *testing.T) {
	want, wantOut := runTrace(t, ipc.InProcess(newSim(t, 0)), defaultGoalText, 50)
	require.True(t, wantOut.GoalMet)
	for _, network := range []string{"unix", "tcp", "pipe"} {
		t.Run(network, func(t *testing.T) {
			s := servePlannerOn(t, func(body ipc.Conn) loop.Planner {
				return loop.PlannerFunc(func(ctx context.Context, g loop.Goal, obs loop.Observation, cat []*registry.Description) (loop.Decision, error) {
					require.Nil(t, obs.Snapshot.Blocks, "blocks do not cross the wire")
					snap, err := body.Observe(ctx)
					require.NoError(t, err)
					obs.Snapshot.Blocks = snap.Blocks
					return chain.Planner{}.Plan(ctx, g, obs, cat)
				})
			}, network, 5*time.Second)
			got, out, _ := s.run(t, defaultGoalText, 50)
			assert.True(t, out.GoalMet)
			assert.Equal(t, string(want), string(got))
		})
	}
}

// TestRemotePlannerAsksTheAgent: while it plans, a planner asks the agent
// about the world on the same connection and gets what the body holds.
func TestRemotePlannerAsksTheAgent(t *testing.T) {
	var asked atomic.Int32
	p := loop.PlannerFunc(func(ctx context.Context, g loop.Goal, obs loop.Observation, cat []*registry.Description) (loop.Decision, error) {
		a := peer.AgentOf(ctx)
		require.NotNil(t, a)
		var hits wire.HitsReply
		require.NoError(t, a.Call(ctx, wire.TypeNearest, wire.NearestRequest{Match: wire.Matcher{Tags: []string{"log"}}, Radius: 32, K: 1}, &hits))
		require.Len(t, hits.Hits, 1)
		var b wire.BlockReply
		require.NoError(t, a.Call(ctx, wire.TypeBlockAt, wire.BlockAtRequest{Pos: hits.Hits[0].Pos}, &b))
		assert.Equal(t, hits.Hits[0].Block.ID, b.Block.ID)
		var o wire.Observation
		require.NoError(t, a.Call(ctx, wire.TypeObserve, wire.ObserveRequest{}, &o))
		assert.Equal(t, obs.Snapshot.Tick, o.Snapshot.Tick)
		assert.Nil(t, o.Blocks)
		var c wire.CatalogReply
		require.NoError(t, a.Call(ctx, wire.TypeCatalog, wire.CatalogRequest{}, &c))
		assert.Contains(t, string(c.Skills), `"chop_tree"`)
		var pr wire.PathReply
		require.NoError(t, a.Call(ctx, wire.TypePath, wire.PathRequest{To: hits.Hits[0].Pos, Radius: 2}, &pr))
		assert.True(t, pr.Found)
		// What an agent does not answer for its planner.
		err := a.Call(ctx, wire.TypeExecute, json.RawMessage(`{"type":"wait","ticks":1}`), nil)
		assert.Equal(t, wire.CodeUnsupported, wire.CodeOf(err))
		err = a.Call(ctx, wire.TypeObserve, wire.ObserveRequest{Blocks: "delta"}, nil)
		assert.Equal(t, wire.CodeUnsupported, wire.CodeOf(err))
		asked.Add(1)
		if obs.Step > 1 {
			return loop.Decision{Done: true, Reason: "asked enough"}, nil
		}
		return loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 1}}}, nil
	})
	s := servePlanner(t, p, "unix", 5*time.Second)
	_, out, recs := s.run(t, "collect 64 minecraft:log", 10)
	assert.Equal(t, loop.PlannerDone, out.Reason)
	require.Len(t, recs, 1)
	assert.Equal(t, loop.Success, recs[0].Verdict)
	assert.EqualValues(t, 2, asked.Load())
}

// TestRemotePlannerRejection: a bad answer is the loop's to reject; the
// next plan request carries the rejected step and its reason, as a Go
// planner sees it, and the run goes on.
func TestRemotePlannerRejection(t *testing.T) {
	var seen []*loop.StepRecord
	p := loop.PlannerFunc(func(ctx context.Context, g loop.Goal, obs loop.Observation, cat []*registry.Description) (loop.Decision, error) {
		seen = append(seen, obs.Last)
		switch obs.Step {
		case 1:
			return loop.Decision{Invocation: &loop.Invocation{Skill: "chop_trees"}}, nil
		case 2:
			return loop.Decision{Invocation: &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:stick", "count": "many"}}}, nil
		}
		return loop.Decision{Done: true}, nil
	})
	s := servePlanner(t, p, "pipe", 5*time.Second)
	_, out, recs := s.run(t, defaultGoalText, 10)
	assert.Equal(t, loop.PlannerDone, out.Reason)
	require.Len(t, recs, 2)
	require.Len(t, seen, 3)
	assert.Nil(t, seen[0])
	require.NotNil(t, seen[1])
	assert.Equal(t, loop.Rejected, seen[1].Verdict)
	assert.Contains(t, seen[1].Error, `skill "chop_trees" is not available`)
	assert.Equal(t, recs[0].Error, seen[1].Error)
	require.NotNil(t, seen[2])
	assert.Equal(t, loop.Rejected, seen[2].Verdict)
	assert.Contains(t, seen[2].Error, "count")
}

// TestRemotePlannerTimeout: a planner that does not answer in time ends the
// step as a planner error, its request is cancelled on its side, and the
// run goes on to the loop's failure policy.
func TestRemotePlannerTimeout(t *testing.T) {
	var cancelled atomic.Int32
	p := loop.PlannerFunc(func(ctx context.Context, g loop.Goal, obs loop.Observation, cat []*registry.Description) (loop.Decision, error) {
		<-ctx.Done()
		cancelled.Add(1)
		return loop.Decision{}, ctx.Err()
	})
	s := servePlanner(t, p, "unix", 50*time.Millisecond)
	g, err := loop.ParseGoal(defaultGoalText, s.reg.Tiers())
	require.NoError(t, err)
	var recs []loop.StepRecord
	l, err := loop.New(context.Background(), loop.Config{Registry: s.reg, Conn: s.conn, Planner: s.pl, Goal: g,
		MaxConsecutiveFailures: 3, OnStep: func(r loop.StepRecord) { recs = append(recs, r) }})
	require.NoError(t, err)
	start := time.Now()
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 10*time.Second, "three timeouts of 50ms, not the 30 s default")
	assert.Equal(t, loop.Stuck, out.Reason)
	require.Len(t, recs, 3)
	for _, r := range recs {
		assert.Equal(t, loop.PlannerError, r.Verdict)
		assert.Contains(t, r.Error, "did not answer within 50ms")
	}
	require.Eventually(t, func() bool { return cancelled.Load() == 3 }, 2*time.Second, 5*time.Millisecond)
}

// rawPlanner answers every plan request with payload, written as is.
func rawPlanner(t *testing.T, payload string) *peer.Planner {
	t.Helper()
	agentSide, plannerSide := net.Pipe()
	go func() {
		defer plannerSide.Close()
		r := wire.NewReader(plannerSide, 0)
		for {
			line, err := r.Next()
			if err != nil {
				return
			}
			m, err := wire.Decode(line)
			if err != nil {
				return
			}
			out := payload
			if m.Type == wire.TypeHello {
				out = `{"protocol":1,"role":"planner","name":"raw","actions":[],"events":[],"requests":["hello","plan"],"max_message":4194304}`
			}
			if _, err := io.WriteString(plannerSide, `{"v":1,"id":`+string(m.ID)+`,"type":"reply","payload":`+out+"}\n"); err != nil {
				return
			}
		}
	}()
	c, err := remote.NewClient(context.Background(), agentSide, remote.ClientOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	pl, err := peer.NewPlanner(c, peer.PlannerOptions{Timeout: 5 * time.Second})
	require.NoError(t, err)
	return pl
}

// TestRemotePlannerAnswerForms: what a planner's reply becomes.
func TestRemotePlannerAnswerForms(t *testing.T) {
	for _, tc := range []struct {
		payload, err string
		want         loop.Decision
	}{
		{payload: `{"done":true,"reason":"enough"}`, want: loop.Decision{Done: true, Reason: "enough"}},
		{payload: `{"invocation":{"skill":"chop_tree","params":{"min_logs":3,"radius":8.5}}}`,
			want: loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": int64(3), "radius": 8.5}}}},
		{payload: `{"invocation":{"skill":"chop_tree"},"done":true}`, err: "both"},
		{payload: `{}`, err: "neither"},
		{payload: `{"done":false}`, err: "neither"},
		{payload: `{"invocaton":{"skill":"chop_tree"}}`, err: `unknown field "invocaton"`},
		{payload: `{"invocation":{"skill":""}}`, err: "names no skill"},
		{payload: `[1]`, err: "plan answer"},
	} {
		t.Run(tc.payload, func(t *testing.T) {
			dec, err := rawPlanner(t, tc.payload).Plan(context.Background(), loop.Goal{Text: "x"}, loop.Observation{Step: 1, Snapshot: &world.Snapshot{}}, nil)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, dec)
		})
	}
}

// TestNewPlannerNeedsAPlanner: a body is not a planner.
func TestNewPlannerNeedsAPlanner(t *testing.T) {
	srv, err := remote.NewServer(remote.ServerOptions{Body: newSim(t, 0), Poll: -1})
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	agentSide, bodySide := net.Pipe()
	done := make(chan struct{})
	go func() { defer close(done); srv.ServeConn(bodySide) }()
	ctx, cancel := testdeadline.WithCancel(t, "the client's hello")
	defer cancel()
	c, err := remote.NewClient(ctx, agentSide, remote.ClientOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close(); <-done })
	_, err = peer.NewPlanner(c, peer.PlannerOptions{})
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), `"body"`), err.Error())
}

// TestRemotePlannerDefaultTimeout: without a timeout a planner has the
// default, 30 s (the documented --planner-timeout), not less.
func TestRemotePlannerDefaultTimeout(t *testing.T) {
	assert.Equal(t, 30*time.Second, peer.DefaultPlanTimeout)
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		p := loop.PlannerFunc(func(ctx context.Context, g loop.Goal, obs loop.Observation, cat []*registry.Description) (loop.Decision, error) {
			<-release
			return loop.Decision{Done: true}, nil
		})
		s := servePlanner(t, p, "memory", 0)
		type answer struct {
			dec loop.Decision
			err error
		}
		done := make(chan answer, 1)
		go func() {
			dec, err := s.pl.Plan(context.Background(), loop.Goal{Text: "x"}, loop.Observation{Step: 1, Snapshot: &world.Snapshot{}}, nil)
			done <- answer{dec, err}
		}()
		// The bubble's clock: the plan is still awaited just before 30 s.
		select {
		case a := <-done:
			t.Fatalf("the plan ended before the default timeout: %+v", a)
		case <-time.After(peer.DefaultPlanTimeout - time.Millisecond):
		}
		close(release)
		a := <-done
		require.NoError(t, a.err)
		assert.True(t, a.dec.Done)
	})
}
