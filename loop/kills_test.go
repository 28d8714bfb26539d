package loop_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// dyingPig is a body whose pig (entity 42, beside the player) dies at the
// second hit but, as on a server whose client keeps a dying body a
// moment, is still shown by the look right after that step and gone from
// the next.
type dyingPig struct {
	hits, looksSinceDeath int
}

func (b *dyingPig) Info() ipc.Info { return ipc.Info{Name: "dying-pig", Supports: action.Kinds()} }

func (b *dyingPig) Observe(context.Context) (*world.Snapshot, error) {
	w := &world.Snapshot{Player: world.Player{Name: "Bot", Pos: world.Vec3{X: 0.5, Y: 64, Z: 0.5}, Dimension: world.Overworld, Health: 20, Food: 20},
		Inventory: world.NewInventory(), TechState: "stone_age"}
	if b.hits >= 2 {
		b.looksSinceDeath++
	}
	if b.looksSinceDeath <= 1 {
		w.Entities = []world.Entity{{ID: 42, Kind: world.EntityMob, Name: "pig", Pos: world.Vec3{X: 1.5, Y: 64, Z: 0.5}, Health: float64(10 - 5*b.hits)}}
	}
	return w, nil
}

func (b *dyingPig) Execute(_ context.Context, a action.Action) ipc.Result {
	if _, ok := a.(action.Attack); ok {
		b.hits++
	}
	return ipc.Result{Code: ipc.OK, Ticks: 10}
}

// TestKillSeenAfterTheStep: a killed mob the look right after the step
// still shows is counted when the next look no longer does: the run's
// kill goal is met there, without another hit.
func TestKillSeenAfterTheStep(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := &dyingPig{}
	var steps []loop.StepRecord
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Goal: goal(t, reg, "kill 1 pig"), MaxSteps: 5,
		Planner: loop.PlannerFunc(func(context.Context, loop.Goal, loop.Observation, []*registry.Description) (loop.Decision, error) {
			return loop.Decision{Invocation: &loop.Invocation{Skill: "fight", Params: map[string]any{"entity": 42}}}, nil
		}),
		OnStep: func(r loop.StepRecord) { steps = append(steps, r) }})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	assert.True(t, out.GoalMet, "%s %v", out.Reason, out.Progress.Unmet)
	assert.Equal(t, 2, body.hits, "no hit after the second")
	require.Len(t, steps, 2)
	assert.Empty(t, steps[1].Kills, "the look after the step still showed the body")
}

// TestKillSeenAfterTheStepWhenStepped: the same with the loop driven by
// Step and Observe (a client of the agent choosing the steps).
func TestKillSeenAfterTheStepWhenStepped(t *testing.T) {
	reg := shipped(t, registry.Options{})
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(&dyingPig{}), Goal: goal(t, reg, "kill 1 pig")})
	require.NoError(t, err)
	fight := loop.Invocation{Skill: "fight", Params: map[string]any{"entity": 42}}
	for range 2 {
		rec, err := l.Step(context.Background(), fight)
		require.NoError(t, err)
		assert.Empty(t, rec.Kills)
	}
	obs, err := l.Observe(context.Background())
	require.NoError(t, err)
	assert.True(t, obs.Progress.Met, "%v", obs.Progress.Unmet)
}
