package sim_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

// TestFoodReserveHunted: in fresh_start with hunger on, a bot with an
// empty inventory and a food bar below full (as after a death that lost
// its bread) hunts the farm animals before its goal's work until the food
// it holds restores 14 points or more (a sword made first), then gathers
// the logs the goal asks for.
func TestFoodReserveHunted(t *testing.T) {
	sc, err := sim.Embedded("fresh_start")
	require.NoError(t, err)
	hungry := *sc
	hungry.Hunger = true
	hungry.Player.Food = 15
	s, err := sim.New(&hungry, sim.Options{Seed: 1})
	require.NoError(t, err)
	reg := shipped(t)
	g, err := loop.ParseGoal("collect 12 minecraft:log", reg.Tiers())
	require.NoError(t, err)
	hunts := 0 // the goal asks for logs: a hunt is the reserve's
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(s), Planner: chain.Planner{}, Goal: g,
		MaxSteps: 120, OnStep: func(r loop.StepRecord) {
			if r.Invocation != nil && r.Invocation.Skill == "hunt" {
				hunts++
			}
		}})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	require.True(t, out.GoalMet, "%s %s", out.Reason, out.Why)
	assert.Positive(t, hunts, "the animals hunted")
	w := look(t, s)
	food := rules.Default().Food
	held := 0
	for _, st := range w.Inventory.Slots {
		if fi, ok := food.Of(st); ok {
			held += fi.Hunger * st.Count
		}
	}
	assert.GreaterOrEqual(t, held, 20-loop.DefaultEatThreshold, "the food held at the end: %v", w.Inventory)
}
