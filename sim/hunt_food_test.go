package sim_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestHuntedMeatFeedsTheBot: in fresh_start with hunger on and a food bar
// at the eat threshold, the bot hunts two pigs (kill 2 pig), and the
// meat they dropped (with what the food reserve's hunt took on the way)
// is what the eat reflex eats on the next goal's first step (no furnace in
// sight, so raw).
func TestHuntedMeatFeedsTheBot(t *testing.T) {
	sc, err := sim.Embedded("fresh_start")
	require.NoError(t, err)
	hungry := *sc
	hungry.Hunger = true
	hungry.Player.Food = loop.DefaultEatThreshold
	s, err := sim.New(&hungry, sim.Options{})
	require.NoError(t, err)
	reg := shipped(t)
	reflexes := []loop.Reflex{loop.CookReflex{Threshold: loop.DefaultEatThreshold}, loop.EatReflex{Threshold: loop.DefaultEatThreshold}}
	run := func(goal string, steps int, reflexes []loop.Reflex, onStep func(loop.StepRecord)) loop.Outcome {
		g, err := loop.ParseGoal(goal, reg.Tiers())
		require.NoError(t, err)
		l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(s), Planner: chain.Planner{}, Goal: g,
			MaxSteps: steps, Reflexes: reflexes, OnStep: onStep})
		require.NoError(t, err)
		out, err := l.Run(context.Background())
		require.NoError(t, err)
		return out
	}
	// The hunt without the reflexes (the eat reflex would eat the first
	// porkchops between the two kills the food reserve asks for).
	out := run("kill 2 pig", 60, nil, nil)
	require.True(t, out.GoalMet, "%s %s", out.Reason, out.Why)
	before := look(t, s)
	pork := before.Inventory.Count(world.MustItem("minecraft:porkchop"))
	require.GreaterOrEqual(t, pork, 2, "two pigs drop 2 to 6 porkchops")
	require.LessOrEqual(t, before.Player.Food, float64(loop.DefaultEatThreshold), "hungry enough to eat")
	var first *loop.StepRecord
	run("collect 1 minecraft:log", 1, reflexes, func(r loop.StepRecord) {
		if first == nil {
			first = &r
		}
	})
	require.NotNil(t, first)
	require.NotNil(t, first.Reflex, "a reflex step")
	assert.Equal(t, "eat", first.Reflex.Name)
	after := look(t, s)
	// The food reserve's hunt (14 points, raw meat 1 each in GTNH) may
	// have taken chickens and cows too: one of the raw meats is eaten.
	assert.Equal(t, rawMeat(before)-1, rawMeat(after), "a raw meat eaten")
	assert.Greater(t, after.Player.Food, before.Player.Food)
}

// rawMeat counts the raw meats held (porkchops, beef, chicken).
func rawMeat(w *world.Snapshot) int {
	n := 0
	for _, id := range []string{"minecraft:porkchop", "minecraft:beef", "minecraft:chicken"} {
		n += w.Inventory.Count(world.MustItem(id))
	}
	return n
}
