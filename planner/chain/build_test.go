package chain

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestBuildGoalPlansTheBlocksThenTheBuild: a build goal gets the
// blueprint's blocks first (a short inventory is an item goal for 26 coke
// oven blocks) and then runs the skill that builds structures; once the
// oven stands the goal asks nothing more.
func TestBuildGoalPlansTheBlocksThenTheBuild(t *testing.T) {
	reg := shipped(t)
	ground := world.NewSparseBlocks()
	ovens := world.NewStack("Railcraft:machine.alpha", 7, 26)

	dec, err := plan(t, reg, "build coke_oven", snapshot("stone_age", ground, ovens))
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "build_structure name=coke_oven", dec.Invocation.String())
	assert.Equal(t, "towards building coke_oven", dec.Reason)

	// Building comes before what the goal collects.
	dec, err = plan(t, reg, "build coke_oven and collect 8 minecraft:coal:1", snapshot("stone_age", ground, ovens))
	require.NoError(t, err)
	assert.Equal(t, "build_structure name=coke_oven", dec.Invocation.String())

	// Too few blocks: the blocks are the sub-goal; with no producer for
	// them the error names the item.
	few := world.NewStack("Railcraft:machine.alpha", 7, 20)
	dec, err = plan(t, reg, "build coke_oven", snapshot("stone_age", ground, few))
	if err != nil {
		require.ErrorIs(t, err, loop.ErrStuck)
		assert.Contains(t, err.Error(), "build coke_oven:")
		assert.Contains(t, err.Error(), "Railcraft:machine.alpha:7")
	} else {
		// The recipe book makes coke oven blocks: the sub-goal is a step
		// towards them, not the build.
		require.NotNil(t, dec.Invocation)
		assert.NotEqual(t, "build_structure", dec.Invocation.Skill)
	}

	// Built: nothing left to do.
	w := snapshot("stone_age", ground)
	w.Machines = []world.Machine{{Kind: world.MachineCokeOven, Pos: world.Pos(3, 64, 3), Formed: true}}
	goal, err := loop.ParseGoal("build coke_oven", reg.Tiers())
	require.NoError(t, err)
	goal = goal.Anchor(snapshot("stone_age", ground))
	catalog, err := reg.DescribeForTechState(w.TechState, reg.Packs().Names())
	require.NoError(t, err)
	dec, err = Planner{}.Plan(context.Background(), goal, loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false)}, catalog)
	require.NoError(t, err)
	assert.True(t, dec.Done)

	// A blocked build is a reason, not a loop.
	_, err = plan(t, reg, "build coke_oven", snapshot("stone_age", ground, ovens),
		loop.Invocation{Skill: "build_structure", Params: map[string]any{"name": "coke_oven"}})
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "build coke_oven: build_structure name=coke_oven is blocked")

	// No skill that builds: said so.
	catalog, err = reg.DescribeForTechState("stone_age", []string{"utility"})
	require.NoError(t, err)
	goal, _ = loop.ParseGoal("build coke_oven", reg.Tiers())
	w = snapshot("stone_age", ground, ovens)
	_, err = Planner{}.Plan(context.Background(), goal, loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false)}, catalog)
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "no available skill builds structures")
}

// TestBuildGoalNeedsEveryBlockOfTheBlueprint: the planner asks for each
// block of a blueprint as many times as its pattern holds it.
func TestBuildGoalNeedsEveryBlockOfTheBlueprint(t *testing.T) {
	bt, err := rules.ParseBlueprints("b.yaml", []byte("blueprints:\n  - {name: post, machine: marker, legend: {S: minecraft:planks, L: minecraft:log}, layers: [[S], [S], [L]], master: [0,0,0]}\n"))
	require.NoError(t, err)
	reg := shipped(t)
	goal, err := loop.GoalParser{Tiers: reg.Tiers(), Blueprints: bt}.Parse("build post")
	require.NoError(t, err)
	catalog, err := reg.DescribeForTechState("stone_age", reg.Packs().Names())
	require.NoError(t, err)
	w := snapshot("stone_age", nil, world.NewStack("minecraft:log", 0, 1), world.NewStack("minecraft:planks", 0, 1))
	dec, err := Planner{Builds: bt}.Plan(context.Background(), goal, loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false)}, catalog)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "basic_crafting", dec.Invocation.Skill, "one more plank first: %v", dec.Invocation)
	w = snapshot("stone_age", nil, world.NewStack("minecraft:log", 0, 1), world.NewStack("minecraft:planks", 0, 2))
	dec, err = Planner{Builds: bt}.Plan(context.Background(), goal, loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false)}, catalog)
	require.NoError(t, err)
	assert.Equal(t, "build_structure name=post", dec.Invocation.String())
}

// TestCharcoalGoalBuildsTheOven: a goal that asks only for charcoal, which
// in GTNH only the coke oven makes (the furnace's log smelt is removed),
// plans building the oven first, as a player does: with the blocks at
// hand the build is the step; from an empty inventory the plan's first
// step works towards the oven's blocks under the oven. An oven that
// stands is used, not built again.
func TestCharcoalGoalBuildsTheOven(t *testing.T) {
	reg := shipped(t)
	ground := world.NewSparseBlocks()
	ovens := world.NewStack("Railcraft:machine.alpha", 7, 26)
	for _, goal := range []string{"have 8 minecraft:coal:1", "collect 8 minecraft:coal:1"} {
		t.Run(goal, func(t *testing.T) {
			dec, err := plan(t, reg, goal, snapshot("stone_age", ground, ovens))
			require.NoError(t, err)
			require.NotNil(t, dec.Invocation)
			assert.Equal(t, "build_structure name=coke_oven", dec.Invocation.String())
			assert.Contains(t, dec.Tree.String(), "from a coke_oven the bot builds")

			// Bricks, not oven blocks, at hand: the oven's blocks come first.
			dec, err = plan(t, reg, goal, snapshot("stone_age", nil, world.NewStack("dreamcraft:item.CokeOvenBrick", 0, 104)))
			require.NoError(t, err)
			require.NotNil(t, dec.Invocation)
			tree := dec.Tree.String()
			assert.Contains(t, tree, "from a coke_oven the bot builds")
			assert.Contains(t, tree, "26 Railcraft:machine.alpha:7")
			assert.Equal(t, "basic_crafting", dec.Invocation.Skill, "%s", tree)
		})
	}

	// A formed oven stands (the tier it shows is steam_age): it is fed,
	// not built again.
	w := snapshot("steam_age", ground, ovens, world.NewStack("minecraft:log", 0, 8))
	w.Machines = []world.Machine{{Kind: world.MachineCokeOven, Pos: world.Pos(3, 64, 3), Formed: true}}
	dec, err := plan(t, reg, "have 8 minecraft:coal:1", w)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "feed_coke_ovens", dec.Invocation.Skill, "%s", dec.Tree)

	// A formed oven and no skill that collects from it: said so, not built.
	catalog, err := reg.DescribeForTechState("steam_age", reg.Packs().Names())
	require.NoError(t, err)
	var without []*registry.Description
	for _, d := range catalog {
		if d.Name != "maintain_coke_ovens" {
			without = append(without, d)
		}
	}
	goal, err := loop.ParseGoal("have 8 minecraft:coal:1", reg.Tiers())
	require.NoError(t, err)
	_, err = Planner{}.Plan(context.Background(), goal, loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false)}, without)
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "a formed coke_oven stands, but no available skill collects minecraft:coal:1 from it")

	// Coal (not charcoal) has no blueprint's machine making it: no build.
	dec, err = plan(t, reg, "have 8 minecraft:coal:0", snapshot("stone_age", ground, ovens))
	if err == nil {
		require.NotNil(t, dec.Invocation)
		assert.NotEqual(t, "build_structure", dec.Invocation.Skill)
	}
}

// TestCharcoalGoalInTheSimulator: "have 8 minecraft:coal:1" with the
// oven's bricks at hand builds the oven, feeds it logs, waits and
// collects the charcoal.
func TestCharcoalGoalInTheSimulator(t *testing.T) {
	out, steps := runTier(t, simOf(t, "testdata/coke_oven_bricks.yaml"), Planner{}, "have 8 minecraft:coal:1")
	require.True(t, out.GoalMet, "%+v", out)
	var order []string
	for _, st := range steps {
		if st.Verdict == loop.Success {
			order = append(order, st.Invocation.Skill)
		}
	}
	assert.Equal(t, []string{"basic_crafting", "build_structure", "feed_coke_ovens", "chop_tree", "feed_coke_ovens", "wait_for", "maintain_coke_ovens"}, order)
}

// TestCharcoalGoalFromAnEmptyInventory: in fresh_start from an empty
// inventory, "have 8 minecraft:coal:1" alone leads the bot to build a coke
// oven and take charcoal out of it.
func TestCharcoalGoalFromAnEmptyInventory(t *testing.T) {
	race.SkipOneGoroutine(t, "a whole Stone Age run on one goroutine")
	run := playGoal(t, 1, "have 8 minecraft:coal:1")
	require.True(t, run.out.GoalMet, run.stopsAt())
	assert.Equal(t, 1, run.out.Skills["build_structure"].Successes)
	assert.GreaterOrEqual(t, run.out.Skills["maintain_coke_ovens"].Successes, 1)
	assert.Greater(t, run.out.Ticks, int64(8*1800), "8 logs cook 1,800 ticks each")
}
