package chain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestMachineOutputNeedsTheMachineToWork: coke comes from collecting a coke
// oven's output; with nothing to collect (an output slot without coke, or
// maintain_coke_ovens blocked after a noop) the planner feeds the oven what the coke oven's table cooks into
// the wanted item (coal for coke) up to what the goal needs, and waits
// while the oven holds enough and works, for as long as that takes.
func TestMachineOutputNeedsTheMachineToWork(t *testing.T) {
	reg := shipped(t)
	maintain := loop.Invocation{Skill: "maintain_coke_ovens"}
	feed := loop.Invocation{Skill: "feed_coke_ovens", Params: map[string]any{"fuel": "minecraft:coal:0", "per_oven": 4}}
	oven := func(active bool, input int) *world.Snapshot {
		w := snapshot("steam_age", nil, stack("minecraft:coal", 8))
		m := world.Machine{Kind: world.MachineCokeOven, Pos: world.Pos(4, 64, 4), Formed: true, Active: active, Slots: map[string]world.ItemStack{}}
		if input > 0 {
			m.Slots["input"] = stack("minecraft:coal", input)
			m.Progress = 0.5
		}
		w.Machines = []world.Machine{m}
		return w
	}
	wait := &loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": 900 + 3*1800}}
	tests := []struct {
		name    string
		w       *world.Snapshot
		blocked []loop.Invocation
		want    *loop.Invocation
		err     string
	}{
		{"collect first", func() *world.Snapshot {
			w := oven(false, 0)
			w.Machines[0].Slots["output"] = stack("Railcraft:fuel.coke", 2)
			return w
		}(), nil, &maintain, ""},
		{"nothing to collect: no visit, feed the oven", oven(false, 0), nil, &feed, ""},
		{"contents unknown: look", func() *world.Snapshot { w := oven(false, 0); w.Machines[0].ContentsUnknown = true; return w }(), nil, &maintain, ""},
		{"wait while the oven works on enough", oven(true, 4), []loop.Invocation{maintain}, wait, ""},
		{"a fed oven works before it shows active", oven(false, 4), []loop.Invocation{maintain}, wait, ""},
		{"top up a working oven that holds too little", oven(true, 2), []loop.Invocation{maintain}, &feed, ""},
		{"what the output holds counts", func() *world.Snapshot {
			w := oven(true, 2)
			w.Machines[0].Slots["output"] = stack("Railcraft:fuel.coke", 2)
			return w
		}(), []loop.Invocation{maintain}, &loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": 900 + 1800}}, ""},
		{"wait only for what is still to make", func() *world.Snapshot {
			w := oven(true, 8)
			w.Machines[0].Slots["output"] = stack("Railcraft:fuel.coke", 3)
			return w
		}(), []loop.Invocation{maintain}, &loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": 900}}, ""},
		{"feed an idle oven", oven(false, 0), []loop.Invocation{maintain}, &feed, ""},
		{"no fuel", func() *world.Snapshot { w := oven(false, 0); w.Inventory = world.NewInventory(); return w }(), []loop.Invocation{maintain}, nil,
			"stuck: no plan: cannot get 4 ore:fuelCoke: maintain_coke_ovens has nothing to collect (the machines are idle: feed_coke_ovens needs minecraft:coal:0: no available skill produces minecraft:coal:0)"},
		{"feeding blocked too", oven(false, 0), []loop.Invocation{maintain, feed}, nil,
			"stuck: no plan: cannot get 4 ore:fuelCoke: maintain_coke_ovens has nothing to collect (the machines are idle: feed_coke_ovens fuel=minecraft:coal:0 per_oven=4 is blocked)"},
		{"waiting blocked too", oven(true, 4), []loop.Invocation{maintain, {Skill: "wait_for"}, *wait}, nil,
			"stuck: no plan: cannot get 4 ore:fuelCoke: maintain_coke_ovens has nothing to collect (the machines are working and no skill passes time)"},
		{"no oven", snapshot("steam_age", nil), []loop.Invocation{maintain}, nil,
			"stuck: no plan: cannot get 4 ore:fuelCoke: maintain_coke_ovens is blocked; build coke_oven: cannot get 26 Railcraft:machine.alpha:7: basic_crafting: cannot get 104 dreamcraft:item.CokeOvenBrick: smelt: cannot get 1 minecraft:furnace: basic_crafting: no available skill produces ore:cobblestone"},
		{"an unformed oven does not work", func() *world.Snapshot { w := oven(true, 4); w.Machines[0].Formed = false; return w }(), []loop.Invocation{maintain}, nil,
			"stuck: no plan: cannot get 4 ore:fuelCoke: maintain_coke_ovens is blocked; build coke_oven: cannot get 26 Railcraft:machine.alpha:7: basic_crafting: cannot get 104 dreamcraft:item.CokeOvenBrick: smelt: cannot get 1 minecraft:furnace: basic_crafting: no available skill produces ore:cobblestone"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dec, err := plan(t, reg, "have 4 ore:fuelCoke", tc.w, tc.blocked...)
			if tc.err != "" {
				require.ErrorIs(t, err, loop.ErrStuck)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, dec.Invocation)
		})
	}
}

// TestCokeInTheSimulator: in the default scenario "collect 4 ore:fuelCoke"
// feeds the ovens with the coal held, waits while they work and collects
// the coke.
func TestCokeInTheSimulator(t *testing.T) {
	out, steps := runTier(t, simOf(t, ""), Planner{}, "collect 4 ore:fuelCoke")
	require.True(t, out.GoalMet, "%+v", out)
	used := map[string]bool{}
	for _, st := range steps {
		used[st.Invocation.Skill] = true
		assert.Contains(t, []loop.Verdict{loop.Success, loop.Noop}, st.Verdict, "%s: %s", st.Invocation, st.Error)
	}
	assert.Equal(t, map[string]bool{"feed_coke_ovens": true, "wait_for": true, "maintain_coke_ovens": true}, used)
	assert.Equal(t, 1, out.Skills["feed_coke_ovens"].Successes)
	assert.GreaterOrEqual(t, out.Skills["maintain_coke_ovens"].Successes, 1)
}

// TestFeedingNeedsEveryInput: a feeding skill that uses up two items (fuel
// and a binder) is planned only when the inventory holds both; otherwise
// the reason names the missing one, the same one every time.
func TestFeedingNeedsEveryInput(t *testing.T) {
	reg := shipped(t)
	catalog, err := reg.DescribeForTechState("steam_age", reg.Packs().Names())
	require.NoError(t, err)
	one := skills.Amount{Value: 1}
	catalog = append(catalog, &registry.Description{Name: "load_oven",
		Params: map[string]registry.ParamDescription{
			"fuel":   {Type: action.TypeItemID, Default: "minecraft:coal"},
			"binder": {Type: action.TypeItemID, Default: "minecraft:clay_ball"},
		},
		Preconditions: skills.Preconditions{SemanticTagsAnyOf: []string{world.MachineCokeOven}},
		Effects: skills.Effects{Tags: []string{"feeds_machines"}, InventoryDelta: map[string]skills.InventoryChange{
			"{fuel}": {MinDecrease: &one}, "{binder}": {MinDecrease: &one}}}})
	blocked := []loop.Invocation{{Skill: "maintain_coke_ovens"}, {Skill: "feed_coke_ovens", Params: map[string]any{"fuel": "minecraft:coal:0", "per_oven": 4}}}
	g, err := loop.ParseGoal("have 4 ore:fuelCoke", reg.Tiers())
	require.NoError(t, err)
	planFor := func(stacks ...world.ItemStack) (loop.Decision, error) {
		w := snapshot("steam_age", nil, stacks...)
		w.Machines = []world.Machine{{Kind: world.MachineCokeOven, Pos: world.Pos(4, 64, 4), Formed: true}}
		return Planner{}.Plan(t.Context(), g, loop.Observation{Snapshot: w, Progress: g.Check(w, reg.Tiers(), false), Blocked: blocked}, catalog)
	}
	for range 20 { // the effects are a map: the answer must not depend on its order
		_, err := planFor(stack("minecraft:coal", 8))
		require.ErrorIs(t, err, loop.ErrStuck)
		assert.Contains(t, err.Error(), "load_oven needs minecraft:clay_ball")
	}
	dec, err := planFor(stack("minecraft:coal", 8), stack("minecraft:clay_ball", 8))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "load_oven"}, dec.Invocation)
}

// TestCharcoalFromTheOvenTheBotBuilt: from 104 coke oven bricks and 3
// logs, "build coke_oven and collect 8 minecraft:coal:1" crafts the 26
// oven blocks, builds the oven, fells a tree for the logs the coke oven's
// table says charcoal takes, feeds them, waits as long as 8 logs cook and
// collects the charcoal; every step meets its declared effects.
func TestCharcoalFromTheOvenTheBotBuilt(t *testing.T) {
	out, steps := runTier(t, simOf(t, "testdata/coke_oven_bricks.yaml"), Planner{}, "build coke_oven and collect 8 minecraft:coal:1")
	require.True(t, out.GoalMet, "%+v", out)
	var order []string
	for _, st := range steps {
		assert.Contains(t, []loop.Verdict{loop.Success, loop.Noop}, st.Verdict, "%s: %s", st.Invocation, st.Error)
		if st.Verdict == loop.Success {
			order = append(order, st.Invocation.Skill)
		}
	}
	// The 3 logs held go in first; the tree is felled while they cook.
	assert.Equal(t, []string{"basic_crafting", "build_structure", "feed_coke_ovens", "chop_tree", "feed_coke_ovens", "wait_for", "maintain_coke_ovens"}, order)
	waited := 0
	for _, st := range steps {
		switch st.Invocation.Skill {
		case "feed_coke_ovens":
			assert.Equal(t, "ore:logWood", st.Invocation.Params["fuel"], "logs make charcoal, not the default coal")
			assert.Equal(t, 8, st.Invocation.Params["per_oven"])
		case "wait_for":
			waited += st.Invocation.Params["duration"].(int)
		}
	}
	assert.Less(t, waited, 8*1800, "part of the cooking happened while the tree came down")
	assert.GreaterOrEqual(t, out.Ticks, int64(8*1800), "8 logs cook 1,800 ticks each, one after another")
	assert.Less(t, out.Ticks, int64(8*1800+2000))
}

// TestMachineSkillsReachTheOven: a player who walked off (to fell a tree)
// gives the oven skills the radius that reaches the oven; an oven beyond
// their largest radius is walked back to, or is a reason when that walk
// is blocked.
func TestMachineSkillsReachTheOven(t *testing.T) {
	reg := shipped(t)
	at := func(x int, output int) *world.Snapshot {
		w := snapshot("steam_age", world.NewSparseBlocks().SetID(world.Pos(x, 64, 0), "Railcraft:machine.alpha", 7), stack("minecraft:log", 8))
		m := world.Machine{Kind: world.MachineCokeOven, Pos: world.Pos(x, 64, 0), Formed: true, Slots: map[string]world.ItemStack{}}
		if output > 0 {
			m.Slots["output"] = world.NewStack("minecraft:coal", 1, output)
		}
		w.Machines = []world.Machine{m}
		return w
	}
	dec, err := plan(t, reg, "have 8 minecraft:coal:1", at(40, 0))
	require.NoError(t, err)
	assert.Equal(t, "feed_coke_ovens fuel=ore:logWood per_oven=8 radius=40", dec.Invocation.String())
	dec, err = plan(t, reg, "have 8 minecraft:coal:1", at(10, 0))
	require.NoError(t, err)
	assert.Equal(t, "feed_coke_ovens fuel=ore:logWood per_oven=8", dec.Invocation.String(), "within the default radius")
	dec, err = plan(t, reg, "have 8 minecraft:coal:1", at(30, 8))
	require.NoError(t, err)
	assert.Equal(t, "maintain_coke_ovens radius=30", dec.Invocation.String())
	// Past the skills' reach (a bot chased from its oven) it walks back,
	// a leg at a time, until the oven is well within reach.
	dec, err = plan(t, reg, "have 8 minecraft:coal:1", at(70, 0))
	require.NoError(t, err)
	assert.Equal(t, "walk_to leg=200 near=32 radius=71 target=Railcraft:machine.alpha", dec.Invocation.String())
	dec, err = plan(t, reg, "have 8 minecraft:coal:1", at(70, 8))
	require.NoError(t, err)
	assert.Equal(t, "walk_to leg=200 near=32 radius=71 target=Railcraft:machine.alpha", dec.Invocation.String(), "to collect the charcoal too")
	// With that walk blocked, the reason.
	walk := loop.Invocation{Skill: "walk_to", Params: map[string]any{"target": "Railcraft:machine.alpha", "near": 32, "leg": 200, "radius": 71}}
	_, err = plan(t, reg, "have 8 minecraft:coal:1", at(70, 0), walk)
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "the nearest coke_oven, at (70, 64, 0), is 70 blocks away, beyond its reach of 64")
	// So is an oven whose block the world model does not hold (nothing
	// to walk towards).
	unseen := at(70, 0)
	unseen.Blocks = world.NewSparseBlocks()
	_, err = plan(t, reg, "have 8 minecraft:coal:1", unseen)
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "is 70 blocks away, beyond its reach of 64")
}

// TestOtherWorkWhileTheOvenWorks: a goal of several items whose first only
// waits for a working oven goes on with the next item's work; the wait
// comes when no other item has any.
func TestOtherWorkWhileTheOvenWorks(t *testing.T) {
	reg := shipped(t)
	maintain := loop.Invocation{Skill: "maintain_coke_ovens"}
	working := func(held ...world.ItemStack) *world.Snapshot {
		w := snapshot("steam_age", nil, held...)
		w.Machines = []world.Machine{{Kind: world.MachineCokeOven, Pos: world.Pos(4, 64, 4), Formed: true, Active: true, Progress: 0.5,
			Slots: map[string]world.ItemStack{"input": stack("minecraft:coal", 4)}}}
		return w
	}
	goal := "have 4 ore:fuelCoke and have 4 minecraft:planks"
	dec, err := plan(t, reg, goal, working(stack("minecraft:log", 4)), maintain)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "basic_crafting", dec.Invocation.Skill, "planks while the oven bakes")
	assert.Contains(t, dec.Reason, "while the machines work")

	dec, err = plan(t, reg, goal, working(stack("minecraft:planks", 4)), maintain)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "wait_for", dec.Invocation.Skill, "nothing else to do: wait")

	// The next item stuck: still the wait, not a stuck run.
	dec, err = plan(t, reg, "have 4 ore:fuelCoke and have 4 minecraft:diamond", working(), maintain)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "wait_for", dec.Invocation.Skill)
}
