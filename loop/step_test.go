package loop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// stepLoop builds a loop driven by Step, with no planner.
func stepLoop(t *testing.T, cfg loop.Config) *loop.Loop {
	t.Helper()
	l, err := loop.New(context.Background(), cfg)
	require.NoError(t, err)
	return l
}

// TestStepRunsAnInvocationLikeRun: one invocation from outside is checked,
// run, verified against its declared effects and traced exactly as Run
// traces a planner's.
func TestStepRunsAnInvocationLikeRun(t *testing.T) {
	reg := shipped(t, registry.Options{})
	var trace bytes.Buffer
	var seen []loop.StepRecord
	l := stepLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy(world.Pos(3, 64, 2))), Trace: &trace,
		OnStep: func(r loop.StepRecord) { seen = append(seen, r) }})
	rec, err := l.Step(context.Background(), loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 2}})
	require.NoError(t, err)
	assert.Equal(t, loop.Success, rec.Verdict, rec.Error)
	assert.Equal(t, 1, rec.Step)
	assert.Equal(t, 1, rec.Version)
	assert.Equal(t, map[string]any{"min_logs": 2, "radius": 16, "require_axe": false}, rec.Params, "defaults filled in")
	require.NotEmpty(t, rec.Actions)
	require.Len(t, rec.Results, len(rec.Actions))
	require.NotEmpty(t, rec.Effects)
	for _, c := range rec.Effects {
		assert.True(t, c.OK, "%+v", c)
	}
	require.NotNil(t, rec.After)
	assert.GreaterOrEqual(t, rec.After.Inventory["minecraft:log"], 2)
	require.Len(t, seen, 1, "OnStep")
	var line loop.StepRecord
	require.NoError(t, json.Unmarshal(trace.Bytes(), &line))
	assert.Equal(t, loop.Success, line.Verdict)

	rec, err = l.Step(context.Background(), loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:planks", "count": 4}})
	require.NoError(t, err)
	assert.Equal(t, loop.Success, rec.Verdict, rec.Error)
	assert.Equal(t, 2, rec.Step, "steps are numbered across calls")
	d, err := reg.Describe("chop_tree")
	require.NoError(t, err)
	assert.Equal(t, 1, d.Metrics.Samples, "the outcome is recorded in the registry")
}

// TestStepRejects: an unknown or gated skill and bad parameters are
// rejected without running anything.
func TestStepRejects(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	ran := 0
	body.hook = func(action.Action) *ipc.Result { ran++; return nil }
	l := stepLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body)})
	for _, tc := range []struct {
		inv  loop.Invocation
		want string
	}{
		{loop.Invocation{Skill: "chop_tre"}, `skill "chop_tre" is not available at tier stone_age`},
		{loop.Invocation{Skill: "feed_coke_ovens"}, `skill "feed_coke_ovens" is not available at tier stone_age`},
		{loop.Invocation{Skill: "chop_tree", Params: map[string]any{"radius": 500}}, "above the maximum"},
		{loop.Invocation{Skill: "chop_tree", Params: map[string]any{"radus": 5}}, `unknown parameter "radus"`},
	} {
		rec, err := l.Step(context.Background(), tc.inv)
		require.NoError(t, err)
		assert.Equal(t, loop.Rejected, rec.Verdict, tc.inv.String())
		assert.Contains(t, rec.Error, tc.want)
	}
	assert.Zero(t, ran, "nothing ran")
}

// TestStepBlocksRepeatedFailures: the same failure twice blocks the
// invocation until its part of the world changes, across Step calls, and
// Observe lists it.
func TestStepBlocksRepeatedFailures(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	fail := true
	body.hook = func(a action.Action) *ipc.Result {
		if fail && a.Kind() == action.KindBreakBlock {
			r := ipc.Failf(ipc.Rejected, 3, "protected area")
			return &r
		}
		return nil
	}
	l := stepLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body)})
	inv := loop.Invocation{Skill: "chop_tree"}
	ctx := context.Background()
	for i := range 2 {
		rec, err := l.Step(ctx, inv)
		require.NoError(t, err)
		assert.Equal(t, loop.ActionFailed, rec.Verdict, "step %d", i+1)
	}
	obs, err := l.Observe(ctx)
	require.NoError(t, err)
	assert.Equal(t, []loop.Invocation{inv}, obs.Blocked)
	assert.Equal(t, 3, obs.Step, "the next step's number")
	require.NotNil(t, obs.Last)
	assert.Equal(t, loop.ActionFailed, obs.Last.Verdict)
	rec, err := l.Step(ctx, inv)
	require.NoError(t, err)
	assert.Equal(t, loop.Rejected, rec.Verdict)
	assert.Contains(t, rec.Error, "blocked until the world changes")

	body.mu.Lock()
	body.add("minecraft:log", 1) // the world changes
	body.mu.Unlock()
	fail = false
	obs, err = l.Observe(ctx)
	require.NoError(t, err)
	assert.Empty(t, obs.Blocked, "lifted")
	rec, err = l.Step(ctx, inv)
	require.NoError(t, err)
	assert.Equal(t, loop.Success, rec.Verdict, rec.Error)
}

// TestStepGoalProgress: the goal is anchored on the first observation
// (collect counts from there) and a run clause is met by a Step that ran
// the skill and saw its effects.
func TestStepGoalProgress(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	body.add("minecraft:log", 3)
	l := stepLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body),
		Goal: goal(t, reg, "collect 2 minecraft:log and run chop_tree min_logs=2")})
	ctx := context.Background()
	obs, err := l.Observe(ctx)
	require.NoError(t, err)
	assert.False(t, obs.Progress.Met)
	assert.Equal(t, []string{"collected 0/2 minecraft:log", "run chop_tree"}, obs.Progress.Unmet)
	assert.Nil(t, obs.Last)

	rec, err := l.Step(ctx, loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 2}})
	require.NoError(t, err)
	require.Equal(t, loop.Success, rec.Verdict, rec.Error)
	obs, err = l.Observe(ctx)
	require.NoError(t, err)
	assert.True(t, obs.Progress.Met, "%v", obs.Progress.Unmet)
}

// TestStepAndRunDoNotMix: a loop is driven by Run or by Step, and Run
// needs a planner.
func TestStepAndRunDoNotMix(t *testing.T) {
	reg := shipped(t, registry.Options{})
	ctx := context.Background()
	l := stepLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy())})
	_, err := l.Run(ctx)
	require.ErrorContains(t, err, "Run needs a Planner")

	l = stepLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy()), Planner: chain.Planner{}})
	_, err = l.Observe(ctx)
	require.NoError(t, err)
	_, err = l.Run(ctx)
	require.ErrorContains(t, err, "cannot follow Step")

	l = stepLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy()), Planner: chain.Planner{}, MaxSteps: 1,
		Goal: goal(t, reg, "have 1 minecraft:diamond")})
	_, err = l.Run(ctx)
	require.NoError(t, err)
	_, err = l.Step(ctx, loop.Invocation{Skill: "chop_tree"})
	require.Error(t, err)
	_, err = l.Observe(ctx)
	require.Error(t, err)
}

// TestStepObserveErrors: a body that cannot be observed is an error, not a
// verdict, and nothing is counted.
func TestStepObserveErrors(t *testing.T) {
	reg := shipped(t, registry.Options{})
	conn := &failingConn{Conn: ipc.InProcess(newToy())}
	l := stepLoop(t, loop.Config{Registry: reg, Conn: conn})
	conn.fail = true
	_, err := l.Step(context.Background(), loop.Invocation{Skill: "chop_tree"})
	require.ErrorContains(t, err, "observing the world: connection lost")
	_, err = l.Observe(context.Background())
	require.ErrorContains(t, err, "connection lost")
	conn.fail = false
	obs, err := l.Observe(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, obs.Step)
}

// failingConn fails to observe while fail is set.
type failingConn struct {
	ipc.Conn
	fail bool
}

func (c *failingConn) Observe(ctx context.Context) (*world.Snapshot, error) {
	if c.fail {
		return nil, errors.New("connection lost")
	}
	return c.Conn.Observe(ctx)
}

// TestInterruptedStepsDoNotBlock: a step cut short by cancellation says
// nothing about the invocation: after any number of them it runs.
func TestInterruptedStepsDoNotBlock(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	var cancel context.CancelFunc
	body.hook = func(a action.Action) *ipc.Result {
		if cancel != nil && a.Kind() == action.KindMoveTo {
			cancel()
		}
		return nil
	}
	l := stepLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body)})
	inv := loop.Invocation{Skill: "chop_tree"}
	for range 3 {
		var ctx context.Context
		ctx, cancel = context.WithCancel(context.Background())
		rec, err := l.Step(ctx, inv)
		require.NoError(t, err)
		assert.Equal(t, loop.StepInterrupted, rec.Verdict)
	}
	cancel = nil
	obs, err := l.Observe(context.Background())
	require.NoError(t, err)
	assert.Empty(t, obs.Blocked)
	rec, err := l.Step(context.Background(), inv)
	require.NoError(t, err)
	assert.Equal(t, loop.Success, rec.Verdict, rec.Error)
}
