package chain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestTinkersFlintToolsInTheSimulator: the goal planner chains the
// Tinkers' stations (config/recipes.yaml's station recipes): the stencil
// table crafted at the crafting table and placed, a pattern for each part
// cut from a blank, the flint heads and the binding at the part builder,
// the tools at the tool station, each station placed from the inventory.
// The pickaxe made then mines stone.
func TestTinkersFlintToolsInTheSimulator(t *testing.T) {
	s := simOf(t, "testdata/tinkers.yaml")
	out, steps := runTier(t, s, Planner{}, "have 1 TConstruct:pickaxe and have 1 TConstruct:shovel and have 1 TConstruct:hatchet")
	var chain []string
	for _, st := range steps {
		chain = append(chain, st.Invocation.String())
		require.Equal(t, loop.Success, st.Verdict, "%s: %s", st.Invocation, st.Error)
	}
	require.True(t, out.GoalMet, "%+v %q", out, chain)
	assert.Equal(t, []string{
		"basic_crafting count=1 item=TConstruct:ToolStationBlock:10",
		"basic_crafting count=1 item=TConstruct:woodPattern:2",
		"basic_crafting count=1 item=TConstruct:pickaxeHead:3",
		"basic_crafting count=1 item=TConstruct:woodPattern:9",
		"basic_crafting count=1 item=TConstruct:binding",
		"basic_crafting count=1 item=TConstruct:pickaxe",
		"basic_crafting count=1 item=TConstruct:woodPattern:3",
		"basic_crafting count=1 item=TConstruct:shovelHead:3",
		"basic_crafting count=1 item=TConstruct:shovel",
		"basic_crafting count=1 item=TConstruct:woodPattern:4",
		"basic_crafting count=1 item=TConstruct:hatchetHead:3",
		"basic_crafting count=1 item=TConstruct:hatchet",
	}, chain)
	last := steps[len(steps)-1].After
	assert.Equal(t, 0, last.Inventory["minecraft:flint"], "a head takes one flint")
	assert.Equal(t, 1, last.Inventory["TConstruct:woodPattern:2"], "the pattern stays")

	out, steps = runTier(t, s, Planner{}, "collect 2 minecraft:cobblestone")
	chain = chain[:0]
	for _, st := range steps {
		chain = append(chain, st.Invocation.String())
	}
	require.True(t, out.GoalMet, "%+v %q", out, chain)
	t.Logf("%q", chain)
	for _, st := range steps {
		assert.NotContains(t, st.Invocation.String(), "wooden_pickaxe", "the flint pickaxe mines stone")
	}
	end := steps[len(steps)-1].After
	assert.GreaterOrEqual(t, end.Inventory["minecraft:cobblestone"], 2)
	assert.Equal(t, 1, end.Inventory["TConstruct:pickaxe"])
	assert.Zero(t, end.Inventory["minecraft:wooden_pickaxe"])
}

// TestWoodenPickaxeBeforeTheTinkersOne: when a pickaxe is wanted and both
// can be made, the wooden one (a crafting table's) comes before the
// Tinkers' one (three stations' work); with only the Tinkers' parts at
// hand and no wood in the world, the Tinkers' one is made.
func TestWoodenPickaxeBeforeTheTinkersOne(t *testing.T) {
	reg := shipped(t)
	const goal = "run mine_ore target=minecraft:stone"
	parts := []world.ItemStack{stack("TConstruct:ToolStationBlock", 1), world.NewStack("TConstruct:pickaxeHead", 3, 1), stack("TConstruct:binding", 1)}
	table := forest(20).SetID(world.Pos(2, 64, 2), "minecraft:crafting_table", 0)
	dec, err := plan(t, reg, goal, snapshot("stone_age", table, append(parts, stack("minecraft:planks", 3), stack("minecraft:stick", 2))...))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:wooden_pickaxe", "count": 1}}, dec.Invocation)

	dec, err = plan(t, reg, goal, snapshot("stone_age", world.NewSparseBlocks(), append(parts, stack("minecraft:stick", 1))...))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "TConstruct:pickaxe", "count": 1}}, dec.Invocation)
}

// TestAFarStationIsWalkedTo: a part builder 40 blocks off is used (the
// crafting step walks there); none within 64 blocks means making one (wood for its sticks first).
func TestAFarStationIsWalkedTo(t *testing.T) {
	reg := shipped(t)
	inv := []world.ItemStack{stack("minecraft:flint", 1), world.NewStack("TConstruct:woodPattern", 2, 1)}
	near := forest(20).SetID(world.Pos(40, 64, 0), "TConstruct:ToolStationBlock", 1)
	dec, err := plan(t, reg, "have 1 TConstruct:pickaxeHead:3", snapshot("stone_age", near, inv...))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "TConstruct:pickaxeHead:3", "count": 1}}, dec.Invocation)

	far := forest(20).SetID(world.Pos(70, 64, 0), "TConstruct:ToolStationBlock", 1)
	dec, err = plan(t, reg, "have 1 TConstruct:pickaxeHead:3", snapshot("stone_age", far, inv...))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 3}}, dec.Invocation, "wood towards a new part builder")
}

// TestAnotherTableIsNoToolStation: the Tinkers' tables share one id; a
// pattern chest held (metadata 5) is no tool station (metadata 0), so the
// tool is not asked for at a station the bot does not have.
func TestAnotherTableIsNoToolStation(t *testing.T) {
	reg := shipped(t)
	inv := []world.ItemStack{world.NewStack("TConstruct:ToolStationBlock", 5, 1), world.NewStack("TConstruct:hatchetHead", 3, 1), stack("minecraft:stick", 1)}
	dec, err := plan(t, reg, "have 1 TConstruct:hatchet", snapshot("stone_age", forest(20), inv...))
	require.NoError(t, err)
	assert.NotEqual(t, "TConstruct:hatchet", dec.Invocation.Params["item"], "no tool station yet: %s", dec.Invocation)
}
