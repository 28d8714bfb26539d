package sim_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

// oreScenario: a flat plain with one iron ore block next to the player, who
// holds held (nothing when empty).
func oreScenario(t *testing.T, held string) *sim.Sim {
	t.Helper()
	return oreScenarioOf(t, held, "minecraft:iron_ore")
}

// oreScenarioOf: the player beside one block of ore, holding held.
func oreScenarioOf(t *testing.T, held, ore string) *sim.Sim {
	t.Helper()
	inv := "[]"
	if held != "" {
		inv = "[{item: \"" + held + "\", count: 1, durability: 100, max_durability: 131}]"
	}
	return flatPlain(t, inv, `[{block: "`+ore+`", pos: [10, 64, 8]}]`)
}

// TestMiningWithoutTheHarvestLevelIsNotASuccess: iron ore mined by hand
// breaks but drops nothing (Forge 1.7.10 ForgeHooks.initTools gives
// Blocks.iron_ore harvest level 2 for "pickaxe" in GTNH, and
// ForgeHooks.canHarvestBlock fails for a rock block without that tool), so
// mine_block's declared effects (the block gone and its drop gained) do not
// all hold: the step is effects_unmet and a "run mine_block" goal is not
// met. With a GregTech pickaxe (the simulator's iron grade, level 2) the
// same step succeeds; GTNH's vanilla iron pickaxe digs nothing at all.
func TestMiningWithoutTheHarvestLevelIsNotASuccess(t *testing.T) {
	const goal = "run mine_block target=minecraft:iron_ore"
	inv := loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:iron_ore"}}

	out, steps, trace := runGoal(t, oreScenario(t, ""), goal, script.New(inv))
	require.Len(t, steps, 1, trace)
	assert.Equal(t, loop.EffectsUnmet, steps[0].Verdict, steps[0].Error)
	assert.Contains(t, steps[0].Error, "minecraft:iron_ore increases by >= 1", "the target's drop, from the drop table")
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

	out, steps, trace = runGoal(t, oreScenario(t, "gregtech:gt.metatool.01:2"), goal, script.New(inv))
	require.NotEmpty(t, steps, trace)
	assert.Equal(t, loop.Success, steps[0].Verdict, steps[0].Error)
	assert.Equal(t, 1, steps[0].After.Inventory["minecraft:iron_ore"])
	assert.True(t, out.GoalMet, trace)

	// Diamond ore needs harvest level 4 in GTNH (IguanaTinkerTweaks'
	// HarvestLevelTweaks): a wooden pickaxe (level 0) and a GregTech one
	// (level 2 here) break it and get nothing; a vanilla diamond one digs
	// nothing in GTNH 2.8.4 (IguanaTinkerTweaks' disableRegularTools), so
	// it is no pickaxe to the skill and does not help.
	diamond := loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:diamond_ore"}}
	out, steps, trace = runGoal(t, oreScenarioOf(t, "minecraft:wooden_pickaxe", "minecraft:diamond_ore"), "run mine_block target=minecraft:diamond_ore", script.New(diamond))
	require.Len(t, steps, 1, trace)
	assert.Equal(t, loop.EffectsUnmet, steps[0].Verdict, steps[0].Error)
	assert.Zero(t, steps[0].After.Inventory["minecraft:diamond"], "no diamond")
	assert.False(t, out.GoalMet, trace)
	out, steps, trace = runGoal(t, oreScenarioOf(t, "gregtech:gt.metatool.01:2", "minecraft:diamond_ore"), "run mine_block target=minecraft:diamond_ore", script.New(diamond))
	require.Len(t, steps, 1, trace)
	assert.Equal(t, loop.EffectsUnmet, steps[0].Verdict, steps[0].Error)
	assert.False(t, out.GoalMet, trace)
	out, steps, trace = runGoal(t, oreScenarioOf(t, "minecraft:diamond_pickaxe", "minecraft:diamond_ore"), "run mine_block target=minecraft:diamond_ore", script.New(diamond))
	require.NotEmpty(t, steps, trace)
	assert.NotEqual(t, loop.Success, steps[0].Verdict, steps[0].Error)
	assert.Zero(t, steps[len(steps)-1].After.Inventory["minecraft:diamond"], "no diamond")
	assert.False(t, out.GoalMet, trace)
}

// baseScenario: a flat plain with a pond, the player at (8, 64, 8) holding
// inv, and the machines given (YAML list items).
func baseScenario(t *testing.T, inv, machines string) *sim.Sim {
	t.Helper()
	return flatWorld(t, "base", 24, inv, `blocks:
  - {block: "minecraft:water", from: [2, 63, 2], to: [3, 63, 3]}
machines:
`+machines)
}

// TestEveryGoodOutcomeIsASuccess: maintain_coke_ovens succeeds whether the
// visit collects coal coke, collects charcoal (logs were coked), or only
// drains creosote; refill_water_tanks succeeds whether it waters a boiler
// or a tank (a coke oven makes the tank's world steam age). None of these good visits is effects_unmet.
func TestEveryGoodOutcomeIsASuccess(t *testing.T) {
	tests := []struct {
		name     string
		inv      string
		machines string
		skill    string
		changed  string // part of the effect check that held
	}{
		{"coal coke collected", "[]", `  - kind: coke_oven
    pos: [10, 64, 8]
    slots: {output: {item: "Railcraft:fuel.coke", count: 8}}
    fluids: {creosote: {amount: 0, capacity: 64000}}
`, "maintain_coke_ovens", "coke_oven output slot"},
		{"charcoal collected", "[]", `  - kind: coke_oven
    pos: [10, 64, 8]
    slots: {output: {item: "minecraft:coal:1", count: 5}}
    fluids: {creosote: {amount: 0, capacity: 64000}}
`, "maintain_coke_ovens", "coke_oven output slot"},
		{"only creosote drained", `[{item: "minecraft:bucket", count: 2}]`, `  - kind: coke_oven
    pos: [10, 64, 8]
    fluids: {creosote: {amount: 60000, capacity: 64000}}
`, "maintain_coke_ovens", "coke_oven creosote"},
		{"a boiler watered", `[{item: "minecraft:water_bucket", count: 1}]`, `  - kind: steam_boiler
    pos: [10, 64, 8]
    temperature: 20
    fluids: {water: {amount: 1000, capacity: 16000}, steam: {amount: 0, capacity: 16000}}
`, "refill_water_tanks", "steam_boiler water"},
		{"a tank watered", `[{item: "minecraft:water_bucket", count: 1}]`, `  - kind: water_tank
    pos: [10, 64, 8]
    fluids: {water: {amount: 0, capacity: 16000}}
  - kind: coke_oven
    pos: [20, 64, 20]
    fluids: {creosote: {amount: 0, capacity: 64000}}
`, "refill_water_tanks", "water_tank water"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := baseScenario(t, tc.inv, tc.machines)
			_, steps, trace := runGoal(t, s, "run "+tc.skill, script.New(loop.Invocation{Skill: tc.skill}))
			require.NotEmpty(t, steps, trace)
			st := steps[0]
			require.Equal(t, loop.Success, st.Verdict, "%s %s\n%s", st.Code, st.Error, trace)
			held := false
			for _, c := range st.Effects {
				assert.True(t, c.OK, c.Effect)
				if strings.Contains(c.Effect, tc.changed) {
					held = true
				}
			}
			assert.True(t, held, "the check of %q is recorded: %+v", tc.changed, st.Effects)
		})
	}
}

// BenchmarkVerifyBlockEffects measures the block comparison of a mine_block
// step at the largest radius (64) in the default scenario's world.
func BenchmarkVerifyBlockEffects(b *testing.B) {
	s := defaultSim(b)
	reg := shipped(b)
	sk, err := reg.GetSkill("mine_block")
	require.NoError(b, err)
	spec := sk.Spec()
	p, err := spec.ResolveParams(map[string]any{"target": "minecraft:log", "radius": 64})
	require.NoError(b, err)
	before, err := s.Observe(context.Background())
	require.NoError(b, err)
	b.ResetTimer()
	for b.Loop() {
		loop.VerifyEffects(spec, p, before, before, reg.Tiers(), nil)
	}
}
