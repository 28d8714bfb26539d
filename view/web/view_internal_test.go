package web

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh/record"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// countedWorld counts the reads of a world source.
type countedWorld struct {
	w     *sim.Sim
	reads atomic.Int32
}

func (c *countedWorld) State() *world.State { c.reads.Add(1); return c.w.State() }

// TestNobodyWatchingCostsNothingPerChange: while no browser is connected,
// the hooks wake no publisher, read no world, copy no plan tree and put
// neither the decision nor the step in words; with one connected, they
// wake the publisher and read the move's start, and what a page is sent is
// put in words once.
func TestNobodyWatchingCostsNothingPerChange(t *testing.T) {
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	src := &countedWorld{w: w}
	v := New(Options{World: src})
	conn := v.Conn(ipc.InProcess(w))
	pl := v.Planner(loop.PlannerFunc(func(context.Context, loop.Goal, loop.Observation, []*registry.Description) (loop.Decision, error) {
		return loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree"}, Tree: &loop.PlanNode{Label: "g", State: loop.PlanStep}}, nil
	}))
	ctx := context.Background()
	play := func() {
		snap, err := conn.Observe(ctx)
		require.NoError(t, err)
		_, err = pl.Plan(ctx, loop.Goal{}, loop.Observation{Snapshot: snap}, nil)
		require.NoError(t, err)
		_, err = conn.Execute(ctx, action.MoveTo{Pos: snap.Feet().Add(1, 0, 0), Radius: 1})
		require.NoError(t, err)
		v.OnStep(loop.StepRecord{Step: 1, Invocation: &loop.Invocation{Skill: "chop_tree"}, Verdict: loop.Success})
	}
	reads := src.reads.Load()
	play()
	assert.Empty(t, v.changed, "no publisher woken")
	assert.Equal(t, reads, src.reads.Load(), "the world is not read")
	v.mu.Lock()
	require.NotNil(t, v.rawDec, "the decision is kept as given")
	assert.Nil(t, v.decision, "not yet in words")
	require.Len(t, v.steps, 1)
	assert.Nil(t, v.steps[0].view, "the step is not yet in words")
	v.mu.Unlock()

	v.pub.watching.Store(1) // a browser connected
	play()
	assert.Len(t, v.changed, 1, "the publisher is woken")
	assert.Greater(t, src.reads.Load(), reads, "the move's start is read from the world")
	st := v.status()
	require.NotNil(t, st.Decision.Tree, "shown, the tree is bounded and kept")
	assert.Equal(t, "g", st.Decision.Tree.Label)
	v.mu.Lock()
	assert.Nil(t, v.rawDec, "made once")
	v.mu.Unlock()
	steps := v.stepViews(0)
	require.Len(t, steps, 2)
	assert.Equal(t, "chop_tree", steps[1].Skill)
	v.mu.Lock()
	assert.NotNil(t, v.steps[0].view, "kept in words")
	assert.NotNil(t, v.steps[1].view)
	v.mu.Unlock()
	assert.Equal(t, steps, v.stepViews(0), "the same again")
	assert.Equal(t, steps[1:], v.stepViews(1))
}

// TestLazyGoroutine: the publisher's goroutine starts once, at the first
// start, and never after the wait.
func TestLazyGoroutine(t *testing.T) {
	var g lazyGoroutine
	var runs atomic.Int32
	g.start(func() { runs.Add(1) })
	g.start(func() { runs.Add(1) })
	g.wait()
	assert.Equal(t, int32(1), runs.Load())

	var late lazyGoroutine
	late.wait()
	late.start(func() { runs.Add(1) })
	late.wait()
	assert.Equal(t, int32(1), runs.Load(), "no start after the wait")
}

// TestFramesKeepBoundedSteps: a replay keeps at most MaxReplaySteps steps.
func TestFramesKeepBoundedSteps(t *testing.T) {
	fr := &Frames{}
	for i := range MaxReplaySteps + 1 {
		fr.Note(0, record.Note{Step: &record.Step{Step: i + 1}})
	}
	assert.LessOrEqual(t, len(fr.steps), MaxReplaySteps)
	assert.Equal(t, MaxReplaySteps/4, fr.stepBase)
	assert.Equal(t, MaxReplaySteps/4+1, fr.steps[0].Seq)
}
