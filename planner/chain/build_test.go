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
