package web_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/view/web"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// capturedStep is what the view's hooks saw of one step of a real run: the
// planner's question and answer, the observations, the actions with their
// results, the step's record.
type capturedStep struct {
	obs     loop.Observation
	dec     loop.Decision
	snap    *world.Snapshot
	actions []action.Action
	results []ipc.Result
	rec     loop.StepRecord
}

// captureRun plays agent run's default goal in the simulated world with
// the goal planner and keeps what each step gave the hooks.
func captureRun(b *testing.B, reg *registry.Registry) []capturedStep {
	w := newSim(b)
	goal, err := loop.GoalParser{Tiers: reg.Tiers()}.Parse(benchGoal)
	require.NoError(b, err)
	var steps []capturedStep
	cur := &capturedStep{}
	inner := ipc.InProcess(w)
	conn := hookConn{
		Conn: inner,
		observe: func(ctx context.Context) (*world.Snapshot, error) {
			s, err := inner.Observe(ctx)
			cur.snap = s
			return s, err
		},
		execute: func(ctx context.Context, a action.Action) (ipc.Result, error) {
			res, err := inner.Execute(ctx, a)
			cur.actions, cur.results = append(cur.actions, a), append(cur.results, res)
			return res, err
		},
	}
	pl := chain.Planner{}
	planner := loop.PlannerFunc(func(ctx context.Context, g loop.Goal, obs loop.Observation, skills []*registry.Description) (loop.Decision, error) {
		d, err := pl.Plan(ctx, g, obs, skills)
		cur.obs, cur.dec = obs, d
		return d, err
	})
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: conn, Planner: planner, Goal: goal, MaxSteps: 100,
		OnStep: func(r loop.StepRecord) {
			cur.rec = r
			steps = append(steps, *cur)
			cur = &capturedStep{}
		}})
	require.NoError(b, err)
	out, err := l.Run(context.Background())
	require.NoError(b, err)
	require.True(b, out.GoalMet)
	return steps
}

// hookConn is an ipc.Conn of two functions.
type hookConn struct {
	ipc.Conn
	observe func(context.Context) (*world.Snapshot, error)
	execute func(context.Context, action.Action) (ipc.Result, error)
}

func (c hookConn) Observe(ctx context.Context) (*world.Snapshot, error) { return c.observe(ctx) }
func (c hookConn) Execute(ctx context.Context, a action.Action) (ipc.Result, error) {
	return c.execute(ctx, a)
}

// BenchmarkStepHooks is what the view's hooks cost the agent for one
// step of agent run's default goal with nobody watching (the steps
// recorded once from a real run with the chain planner (its plan trees)): the decision, the
// observations before and after, each action before and after it runs,
// the step logged. The body and the planner answer at once.
func BenchmarkStepHooks(b *testing.B) {
	reg := loadRegistry(b)
	steps := captureRun(b, reg)
	v := web.New(web.Options{Title: "bench"})
	var cs *capturedStep
	i := 0
	conn := v.Conn(hookConn{
		Conn:    ipc.InProcess(newSim(b)),
		observe: func(context.Context) (*world.Snapshot, error) { return cs.snap, nil },
		execute: func(context.Context, action.Action) (ipc.Result, error) {
			r := cs.results[i]
			i++
			return r, nil
		},
	})
	pl := v.Planner(loop.PlannerFunc(func(context.Context, loop.Goal, loop.Observation, []*registry.Description) (loop.Decision, error) {
		return cs.dec, nil
	}))
	ctx := context.Background()
	n := 0
	for b.Loop() {
		cs = &steps[n%len(steps)]
		n++
		i = 0
		_, _ = conn.Observe(ctx)
		_, _ = pl.Plan(ctx, loop.Goal{}, cs.obs, nil)
		for _, a := range cs.actions {
			_, _ = conn.Execute(ctx, a)
		}
		_, _ = conn.Observe(ctx)
		v.OnStep(cs.rec)
	}
}
