package chain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func pickaxe(durability int) world.ItemStack {
	st := world.NewStack("minecraft:wooden_pickaxe", 0, 1)
	st.MaxDamage, st.Damage = 59, 59-durability
	return st
}

// TestRequiredToolsComeFirst: mine_ore needs a pickaxe; a goal that runs it
// crafts a wooden one first (logs, planks, sticks, the pickaxe at a table),
// and a worn-out pickaxe is replaced.
func TestRequiredToolsComeFirst(t *testing.T) {
	reg := shipped(t)
	table := func() *world.SparseBlocks {
		return forest(20).SetID(world.Pos(2, 64, 2), "minecraft:crafting_table", 0)
	}
	const goal = "run mine_ore target=minecraft:stone"
	tests := []struct {
		name string
		w    *world.Snapshot
		want *loop.Invocation
		err  string
	}{
		{"logs first", snapshot("stone_age", table()),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 2}}, ""},
		{"then the pickaxe", snapshot("stone_age", table(), stack("minecraft:planks", 3), stack("minecraft:stick", 2)),
			&loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:wooden_pickaxe", "count": 1}}, ""},
		{"with a pickaxe the skill runs", snapshot("stone_age", table(), pickaxe(59)),
			&loop.Invocation{Skill: "mine_ore", Params: map[string]any{"target": "minecraft:stone"}}, ""},
		{"a worn-out pickaxe is replaced", snapshot("stone_age", table(), pickaxe(0), stack("minecraft:planks", 3), stack("minecraft:stick", 2)),
			&loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:wooden_pickaxe", "count": 1}}, ""},
		{"no table and no flint", snapshot("stone_age", forest(20), stack("minecraft:planks", 3), stack("minecraft:stick", 2)), nil,
			"stuck: the goal runs mine_ore, which needs tool:pickaxe: cannot get 1 tool:pickaxe: cannot get 1 minecraft:wooden_pickaxe: basic_crafting: cannot get 1 minecraft:crafting_table: basic_crafting: cannot get 2 minecraft:flint: basic_crafting: no available skill produces minecraft:gravel; " +
				// The Tinkers' pickaxe, made at stations, is tried after the wooden one.
				"cannot get 1 TConstruct:pickaxe: basic_crafting: cannot get 1 TConstruct:pickaxeHead:3: basic_crafting: needs TConstruct:woodPattern:2 at TConstruct:ToolStationBlock:1: " +
				"cannot get 1 TConstruct:woodPattern:2: basic_crafting: cannot get 1 TConstruct:blankPattern:0: basic_crafting: cannot get 4 ore:platePaper: cannot get 4 minecraft:paper: " +
				"basic_crafting: cannot get 8 ore:dustWood: cannot get 8 gregtech:gt.metaitem.01:2809: basic_crafting: needs ore:craftingToolMortar in the grid: cannot get 1 ore:craftingToolMortar: " +
				"cannot get 1 gregtech:gt.metatool.01:24: basic_crafting: cannot get 2 minecraft:flint: basic_crafting: no available skill produces minecraft:gravel"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dec, err := plan(t, reg, goal, tc.w)
			if tc.err != "" {
				require.ErrorIs(t, err, loop.ErrStuck)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, dec.Invocation)
		})
	}
	_, err := plan(t, reg, goal, snapshot("stone_age", table(), stack("minecraft:planks", 3), stack("minecraft:stick", 2)),
		loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:wooden_pickaxe", "count": 1}})
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "is blocked")
}

// TestProducersGetTheirToolsFirst: an item whose producer needs a tool
// (here a coal digger needing a pickaxe) is planned through the tool.
func TestProducersGetTheirToolsFirst(t *testing.T) {
	reg := shipped(t)
	catalog, err := reg.DescribeForTechState("stone_age", reg.Packs().Names())
	require.NoError(t, err)
	one := skills.Amount{Value: 1}
	catalog = append(catalog, &registry.Description{Name: "dig_coal",
		Preconditions: skills.Preconditions{RequiredTools: []skills.ToolRequirement{{ItemID: "tool:pickaxe", MinDurability: 1}}},
		Effects:       skills.Effects{InventoryDelta: map[string]skills.InventoryChange{"minecraft:coal": {MinIncrease: &one}}}})
	g, err := loop.ParseGoal("have 1 minecraft:coal", reg.Tiers())
	require.NoError(t, err)
	w := snapshot("stone_age", forest(20).SetID(world.Pos(2, 64, 2), "minecraft:crafting_table", 0), stack("minecraft:planks", 3), stack("minecraft:stick", 2))
	dec, err := Planner{}.Plan(t.Context(), g, loop.Observation{Snapshot: w, Progress: g.Check(w, reg.Tiers(), false)}, catalog)
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:wooden_pickaxe", "count": 1}}, dec.Invocation)
	w = snapshot("stone_age", nil, pickaxe(10))
	dec, err = Planner{}.Plan(t.Context(), g, loop.Observation{Snapshot: w, Progress: g.Check(w, reg.Tiers(), false)}, catalog)
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "dig_coal"}, dec.Invocation)
}

// TestMiningOreStartsWithAPickaxe: in the simulator an empty-handed
// player told to mine stone fells a tree, crafts planks, sticks and a
// wooden pickaxe at the table, and then mines the stone with it (coal ore
// would want a level-1 pickaxe in GTNH).
func TestMiningOreStartsWithAPickaxe(t *testing.T) {
	out, steps := runTier(t, simOf(t, "testdata/quarry.yaml"), Planner{}, "run mine_ore target=minecraft:stone")
	var chain []string
	for _, st := range steps {
		chain = append(chain, st.Invocation.String())
		require.Equal(t, loop.Success, st.Verdict, "%s: %s", st.Invocation, st.Error)
	}
	require.True(t, out.GoalMet, "%+v %q", out, chain)
	assert.Equal(t, []string{
		"chop_tree min_logs=2",
		"basic_crafting count=3 item=minecraft:planks",
		"basic_crafting count=2 item=minecraft:stick",
		"basic_crafting count=1 item=minecraft:planks", // the sticks ate two
		"basic_crafting count=1 item=minecraft:wooden_pickaxe",
		"mine_ore target=minecraft:stone",
	}, chain)
	last := steps[len(steps)-1]
	assert.Equal(t, 1, last.Before.Inventory["minecraft:wooden_pickaxe"])
}
