package chain

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestRecipeToolsMustBeHeld: a recipe that needs a tool (a saw over two
// planks) is planned only when the tool is held; without it the recipe is
// not usable and the run is stuck saying so.
func TestRecipeToolsMustBeHeld(t *testing.T) {
	reg := shipped(t)
	book, err := rules.ParseRecipes("sawn.yaml", []byte(`recipes:
  - output: minecraft:stick
    count: 4
    grid: 2x2
    ingredients:
      - {item: "ore:plankWood", count: 2}
    tools: ["ore:craftingToolSaw"]
`))
	require.NoError(t, err)
	g, err := loop.ParseGoal("have 4 minecraft:stick", reg.Tiers())
	require.NoError(t, err)
	planFor := func(stacks ...world.ItemStack) (loop.Decision, error) {
		w := snapshot("stone_age", nil, stacks...)
		catalog, err := reg.DescribeForTechState(w.TechState, reg.Packs().Names())
		require.NoError(t, err)
		return Planner{Recipes: book}.Plan(context.Background(), g, loop.Observation{Snapshot: w, Progress: g.Check(w, reg.Tiers(), false)}, catalog)
	}
	_, err = planFor(stack("minecraft:planks", 2))
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "basic_crafting: needs ore:craftingToolSaw in the grid: no available skill produces ore:craftingToolSaw",
		"a recipe whose tool is missing makes the tool its sub-goal, and says why it cannot be had")

	saw := world.NewTool("gregtech:gt.metatool.01", 10, 100, 100)
	dec, err := planFor(stack("minecraft:planks", 2), saw)
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:stick", "count": 4}}, dec.Invocation)
}

// TestWornGridToolsAreReplaced: a flint mortar with crafts left is asked for
// no more crafts than it does (2 crafts: 4 wood pulp), one worn out is a
// tool to make again.
func TestWornGridToolsAreReplaced(t *testing.T) {
	reg := shipped(t)
	mortar := func(usesLeft int) world.ItemStack {
		return world.NewTool("gregtech:gt.metatool.01", 24, usesLeft*400, 12800)
	}
	dec, err := plan(t, reg, "have 8 gregtech:gt.metaitem.01:2809", snapshot("stone_age", nil, stack("minecraft:log", 4), mortar(2)))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "gregtech:gt.metaitem.01:2809", "count": 4}}, dec.Invocation)

	dec, err = plan(t, reg, "have 8 gregtech:gt.metaitem.01:2809", snapshot("stone_age", nil, stack("minecraft:log", 4), mortar(4)))
	require.NoError(t, err)
	assert.Equal(t, 8, dec.Invocation.Params["count"], "a mortar with 4 crafts left does the whole job")

	dec, err = plan(t, reg, "have 8 gregtech:gt.metaitem.01:2809", snapshot("stone_age", forest(1), stack("minecraft:log", 4), mortar(0), stack("minecraft:flint", 2), stack("minecraft:stone", 5), stack("minecraft:crafting_table", 1)))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "gregtech:gt.metatool.01:24", "count": 1}}, dec.Invocation, "a worn-out mortar is made again")
}

// TestMortarBreaksMidJobInTheSimulator: 8 wood pulp with a mortar that does
// one more craft: 2 pulp, the mortar breaks, a new one is crafted at the
// table and the other 6 follow; every step meets its effects.
func TestMortarBreaksMidJobInTheSimulator(t *testing.T) {
	out, steps := runTier(t, simOf(t, "testdata/worn_mortar.yaml"), Planner{}, "have 8 gregtech:gt.metaitem.01:2809")
	require.True(t, out.GoalMet, "%+v", out)
	var did []string
	for _, st := range steps {
		require.Equal(t, loop.Success, st.Verdict, "%s: %s", st.Invocation, st.Error)
		did = append(did, st.Invocation.String())
	}
	assert.Equal(t, []string{
		"basic_crafting count=2 item=gregtech:gt.metaitem.01:2809",
		"basic_crafting count=1 item=gregtech:gt.metatool.01:24",
		"basic_crafting count=6 item=gregtech:gt.metaitem.01:2809",
	}, did)
}

// TestContainerRecipesGoOneBatchAtATime: paper gives its bucket back, so
// 4 paper from one clay bucket of water is a craft of 2, then the bucket is
// filled again; the planner does not make a second bucket for the second
// batch, nor ask the crafting step for more than the water held makes.
func TestContainerRecipesGoOneBatchAtATime(t *testing.T) {
	reg := shipped(t)
	table := world.NewSparseBlocks().SetID(world.Pos(1, 64, 0), "minecraft:crafting_table", 0)
	pulp := stack("gregtech:gt.metaitem.01:2809", 16)
	dec, err := plan(t, reg, "have 4 minecraft:paper", snapshot("stone_age", table, pulp, stack("IguanaTweaksTConstruct:clayBucketWater", 1)))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:paper", "count": 2}}, dec.Invocation,
		"one bucket of water: one batch")

	dec, err = plan(t, reg, "have 4 minecraft:paper", snapshot("stone_age", table, pulp, stack("IguanaTweaksTConstruct:clayBucketWater", 2)))
	require.NoError(t, err)
	assert.Equal(t, 4, dec.Invocation.Params["count"], "two buckets of water: both batches at once")

	dec, err = plan(t, reg, "have 4 minecraft:paper", snapshot("stone_age", table, pulp, stack("IguanaTweaksTConstruct:clayBucketFired", 1)))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "fill_clay_bucket", Params: nil}, dec.Invocation,
		"the empty bucket is filled, not a second one made")
}

// TestExactMetadataZeroIsMadeAsThePlainID: NewHorizonsCoreMod's fence asks
// for oak planks (minecraft:planks:0), which the planks recipe makes under
// its plain id; the planner crafts planks for it rather than giving up.
func TestExactMetadataZeroIsMadeAsThePlainID(t *testing.T) {
	reg := shipped(t)
	dec, err := plan(t, reg, "have 3 minecraft:planks:0", snapshot("stone_age", nil, stack("minecraft:log", 2)))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:planks", "count": 3}}, dec.Invocation)

	dec, err = plan(t, reg, "have 3 minecraft:planks:0", snapshot("stone_age", nil, stack("minecraft:log", 2), stack("minecraft:planks", 3)))
	require.NoError(t, err)
	assert.True(t, dec.Done, "three oak planks held: nothing to do")
}
