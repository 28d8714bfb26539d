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

// TestPlanTreeFollowsTheChain: the decision carries the plan tree: the
// goal, its parts in the order they are planned (the ones not reached
// pending), and under the part chosen the chain of sub-goals to the step,
// with the ingredients already at hand met.
func TestPlanTreeFollowsTheChain(t *testing.T) {
	reg := shipped(t)
	dec, err := plan(t, reg, "have 1 minecraft:wooden_pickaxe and collect 2 minecraft:log", snapshot("stone_age", nil, stack("minecraft:planks", 10)))
	require.NoError(t, err)
	require.NotNil(t, dec.Tree)
	assert.Equal(t, `have 1 minecraft:wooden_pickaxe and collect 2 minecraft:log [active]
  have 1 minecraft:wooden_pickaxe [active]
    1 minecraft:wooden_pickaxe (have 0; via basic_crafting) [active]
      3 ore:plankWood (have 10) [met]
      2 ore:stickWood (have 0; as minecraft:stick) [active]
        2 minecraft:stick (have 0; via basic_crafting) [active]
          2 ore:plankWood (have 10) [met]
          → basic_crafting count=2 item=minecraft:stick [step]
  collect 2 minecraft:log [pending]
`, dec.Tree.String())
	require.NotNil(t, dec.Tree.Step())
	assert.Equal(t, dec.Invocation.String(), dec.Tree.Step().Label)
	assert.Equal(t, 9, dec.Tree.Len())
	checkTree(t, dec, nil)
}

// TestPlanTreeStuckAndDone: a part no skill can make progress on is stuck
// with the reason, and a met goal is met throughout.
func TestPlanTreeStuckAndDone(t *testing.T) {
	reg := shipped(t)
	dec, err := plan(t, reg, "have 1 minecraft:stone_pickaxe and have 1 minecraft:planks", snapshot("stone_age", nil, stack("minecraft:planks", 1)))
	require.ErrorIs(t, err, loop.ErrStuck)
	require.NotNil(t, dec.Tree)
	assert.Equal(t, `have 1 minecraft:stone_pickaxe and have 1 minecraft:planks [stuck]
  have 1 minecraft:stone_pickaxe (no available skill produces minecraft:stone_pickaxe) [stuck]
  have 1 minecraft:planks [met]
`, dec.Tree.String())
	assert.Nil(t, dec.Tree.Step())
	checkTree(t, dec, err)

	// The tier's evidence held in part: what was met on the way to
	// finding the part stuck is not left under it.
	dec, err = plan(t, reg, "reach steam_age", snapshot("stone_age", nil, world.NewStack("gregtech:gt.metaitem.01", 11300, 1)))
	require.ErrorIs(t, err, loop.ErrStuck)
	require.Len(t, dec.Tree.Children, 1)
	assert.Equal(t, loop.PlanStuck, dec.Tree.Children[0].State)
	assert.Contains(t, dec.Tree.Children[0].Note, "no available skill reaches steam_age")
	checkTree(t, dec, err)

	dec, err = plan(t, reg, "have 1 minecraft:planks", snapshot("stone_age", nil, stack("minecraft:planks", 1)))
	require.NoError(t, err)
	require.True(t, dec.Done)
	assert.Equal(t, "have 1 minecraft:planks [met]\n  have 1 minecraft:planks [met]\n", dec.Tree.String())
}

// TestPlanTreeDropsAbandonedWays: a recipe given up (one ingredient at
// hand, the other out of reach) leaves nothing in the tree; the recipe
// used instead shows alone.
func TestPlanTreeDropsAbandonedWays(t *testing.T) {
	reg := shipped(t)
	book, err := rules.ParseRecipes("two.yaml", []byte(`recipes:
  - output: minecraft:stick
    count: 4
    grid: 2x2
    ingredients:
      - {item: "minecraft:planks", count: 1}
      - {item: "minecraft:nether_star", count: 1}
  - output: minecraft:stick
    count: 4
    grid: 2x2
    ingredients:
      - {item: "minecraft:log", count: 1}
`))
	require.NoError(t, err)
	g, err := loop.ParseGoal("have 4 minecraft:stick", reg.Tiers())
	require.NoError(t, err)
	w := snapshot("stone_age", nil, stack("minecraft:planks", 2))
	catalog, err := reg.DescribeForTechState(w.TechState, reg.Packs().Names())
	require.NoError(t, err)
	dec, err := Planner{Recipes: book}.Plan(context.Background(), g, loop.Observation{Snapshot: w, Progress: g.Check(w, reg.Tiers(), false)}, catalog)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "chop_tree min_logs=1", dec.Invocation.String())
	assert.Equal(t, `have 4 minecraft:stick [active]
  have 4 minecraft:stick [active]
    4 minecraft:stick (have 0; via basic_crafting) [active]
      1 minecraft:log (have 0; via chop_tree) [active]
        → chop_tree min_logs=1 [step]
`, dec.Tree.String())
}

// checkTree holds a decision's plan tree to its shape: every node has a
// state; a decided step is the one step node, at the end of a chain of
// active nodes from the root, each the last of its siblings, with only
// met nodes beside it; a stuck plan has stuck parts and no step. parts,
// when set, is the number of parts the goal has.
func checkTree(t testing.TB, dec loop.Decision, err error) {
	t.Helper()
	root := dec.Tree
	require.NotNil(t, root, "every decision carries its tree")
	var walk func(n *loop.PlanNode, depth int)
	steps := 0
	walk = func(n *loop.PlanNode, depth int) {
		require.NotEmpty(t, n.State, "node %q has a state", n.Label)
		require.NotEmpty(t, n.Label)
		if depth > 0 && n.State == loop.PlanStuck {
			require.Empty(t, n.Children, "a stuck node %q says why in its note, nothing under it", n.Label)
		}
		if n.State == loop.PlanStep {
			steps++
			require.Empty(t, n.Children, "the step is a leaf")
		}
		if depth > 0 && n.State == loop.PlanActive {
			for i, c := range n.Children {
				last := i == len(n.Children)-1
				if last {
					require.Contains(t, []loop.PlanState{loop.PlanActive, loop.PlanStep}, c.State, "the way on ends under %q:\n%s", n.Label, root)
				} else {
					require.Equal(t, loop.PlanMet, c.State, "beside the way on under %q only what is met:\n%s", n.Label, root)
				}
			}
		}
		for _, c := range n.Children {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	switch {
	case err != nil:
		assert.Equal(t, loop.PlanStuck, root.State)
		assert.Zero(t, steps, "a stuck plan chooses no step")
	case dec.Done:
		assert.Equal(t, loop.PlanMet, root.State)
		assert.Zero(t, steps)
	default:
		assert.Equal(t, loop.PlanActive, root.State)
		require.Equal(t, 1, steps, "one step:\n%s", root)
		assert.Equal(t, dec.Invocation.String(), root.Step().Label)
		active := 0
		for _, c := range root.Children {
			if c.State == loop.PlanActive {
				active++
			}
		}
		assert.Equal(t, 1, active, "one part is worked on:\n%s", root)
	}
}
