package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

// oreScenario: a flat plain with one iron ore block next to the player, who
// holds held (nothing when empty).
func oreScenario(t *testing.T, held string) *sim.Sim {
	t.Helper()
	inv := "[]"
	if held != "" {
		inv = "[{item: \"" + held + "\", count: 1, durability: 100, max_durability: 131}]"
	}
	sc, err := sim.ParseScenario("ore.yaml", []byte(`name: ore
seed: 7
size: {x: 16, z: 16}
generator: flat
ground_y: 63
player:
  pos: [8, 64, 8]
  dimension: overworld
  health: 20
  food: 20
  inventory: `+inv+`
blocks:
  - {block: "minecraft:iron_ore", pos: [10, 64, 8]}
`))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

// TestMiningWithoutTheHarvestLevelIsNotASuccess: iron ore mined by hand
// breaks but drops nothing (1.7.10: Block.canHarvestBlock fails without a
// pickaxe), so mine_block's declared effects (the block gone and an item
// gained) do not all hold: the step is effects_unmet and a "run mine_block"
// goal is not met. With a stone pickaxe the same step succeeds.
func TestMiningWithoutTheHarvestLevelIsNotASuccess(t *testing.T) {
	const goal = "run mine_block target=minecraft:iron_ore"
	inv := loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:iron_ore"}}

	out, steps, trace := runGoal(t, oreScenario(t, ""), goal, planner.NewScripted(inv))
	require.Len(t, steps, 1, trace)
	assert.Equal(t, loop.EffectsUnmet, steps[0].Verdict, steps[0].Error)
	assert.Contains(t, steps[0].Error, "any item increases by >= 1")
	assert.False(t, out.GoalMet, "a block that dropped nothing does not meet the run goal")
	assert.Equal(t, loop.PlannerDone, out.Reason)
	removed := false
	for _, c := range steps[0].Effects {
		if c.OK {
			removed = true
			assert.Contains(t, c.Effect, "minecraft:iron_ore blocks within 16 removed >= 1", "the block itself was broken")
		}
	}
	assert.True(t, removed, "the removal was observed: %+v", steps[0].Effects)

	out, steps, trace = runGoal(t, oreScenario(t, "minecraft:stone_pickaxe"), goal, planner.NewScripted(inv))
	require.NotEmpty(t, steps, trace)
	assert.Equal(t, loop.Success, steps[0].Verdict, steps[0].Error)
	assert.Equal(t, 1, steps[0].After.Inventory["minecraft:iron_ore"])
	assert.True(t, out.GoalMet, trace)
}
