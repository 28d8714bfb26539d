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
