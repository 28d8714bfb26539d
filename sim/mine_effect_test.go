package sim_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

// buriedIron: the plain of buriedOre with an iron ore ten blocks under the
// player instead of the coal.
func buriedIron(t *testing.T, inv string) *sim.Sim {
	t.Helper()
	return flatPlain(t, inv, `[{block: "minecraft:iron_ore", pos: [8, 53, 8]}]`)
}

// TestMineWithATooWeakToolFailsItsEffect: mine_ore's effect is the
// target's drop, not any item. With a wooden pickaxe (harvest level 0) the
// tunnel down to an iron ore (GTNH's level 2) fills the inventory with dirt and
// cobblestone and the ore breaks, but it drops nothing: the step's effects
// are not met. With an iron pickaxe (level 3) the same step drops the ore and
// succeeds.
func TestMineWithATooWeakToolFailsItsEffect(t *testing.T) {
	inv := loop.Invocation{Skill: "mine_ore", Params: map[string]any{"target": "minecraft:iron_ore"}}
	t.Run("wooden pickaxe", func(t *testing.T) {
		_, steps, trace := runGoal(t, buriedIron(t, `[{item: "minecraft:wooden_pickaxe", count: 1, max_durability: 64}]`),
			"have 1 minecraft:iron_ore", script.New(inv))
		require.NotEmpty(t, steps, trace)
		st := steps[0]
		assert.Equal(t, loop.EffectsUnmet, st.Verdict, "%s\n%s", st.Error, trace)
		assert.Positive(t, st.After.Inventory["minecraft:cobblestone"], "the tunnel's stone was dug")
		assert.Zero(t, st.After.Inventory["minecraft:iron_ore"], "the ore dropped nothing")
		unmet := false
		for _, c := range st.Effects {
			unmet = unmet || !c.OK && strings.HasPrefix(c.Effect, "minecraft:iron_ore increases by >= 1")
		}
		assert.True(t, unmet, "the drop's check failed: %+v", st.Effects)
	})
	// GTNH's vanilla iron pickaxe digs nothing: a GregTech pickaxe (the
	// simulator's iron grade, level 2).
	t.Run("gregtech pickaxe", func(t *testing.T) {
		out, steps, trace := runGoal(t, buriedIron(t, `[{item: "gregtech:gt.metatool.01:2", count: 1}]`),
			"have 1 minecraft:iron_ore", script.New(inv))
		require.NotEmpty(t, steps, trace)
		assert.Equal(t, loop.Success, steps[0].Verdict, steps[0].Error)
		assert.True(t, out.GoalMet, trace)
	})
}
