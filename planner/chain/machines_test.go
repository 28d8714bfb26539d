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
// oven's output; with nothing to collect (maintain_coke_ovens blocked after
// a noop) the planner waits while an oven works and feeds idle ovens first.
func TestMachineOutputNeedsTheMachineToWork(t *testing.T) {
	reg := shipped(t)
	maintain := loop.Invocation{Skill: "maintain_coke_ovens"}
	feed := loop.Invocation{Skill: "feed_coke_ovens"}
	oven := func(active bool) *world.Snapshot {
		w := snapshot("steam_age", nil, stack("minecraft:coal", 8))
		w.Machines = []world.Machine{{Kind: world.MachineCokeOven, Pos: world.Pos(4, 64, 4), Formed: true, Active: active}}
		return w
	}
	tests := []struct {
		name    string
		w       *world.Snapshot
		blocked []loop.Invocation
		want    *loop.Invocation
		err     string
	}{
		{"collect first", oven(false), nil, &maintain, ""},
		{"wait while the oven works", oven(true), []loop.Invocation{maintain}, &loop.Invocation{Skill: "wait_for"}, ""},
		{"feed an idle oven", oven(false), []loop.Invocation{maintain}, &feed, ""},
		{"no fuel", func() *world.Snapshot { w := oven(false); w.Inventory = world.NewInventory(); return w }(), []loop.Invocation{maintain}, nil,
			"stuck: no plan: cannot get 4 ore:fuelCoke: maintain_coke_ovens is blocked (the machines are idle: feed_coke_ovens needs ore:gemCoal)"},
		{"feeding blocked too", oven(false), []loop.Invocation{maintain, feed}, nil,
			"stuck: no plan: cannot get 4 ore:fuelCoke: maintain_coke_ovens is blocked (the machines are idle: feed_coke_ovens is blocked)"},
		{"waiting blocked too", oven(true), []loop.Invocation{maintain, {Skill: "wait_for"}}, nil,
			"stuck: no plan: cannot get 4 ore:fuelCoke: maintain_coke_ovens is blocked (the machines are working and no skill passes time)"},
		{"no oven", snapshot("steam_age", nil), []loop.Invocation{maintain}, nil,
			"stuck: no plan: cannot get 4 ore:fuelCoke: maintain_coke_ovens is blocked"},
		{"an unformed oven does not work", func() *world.Snapshot { w := oven(true); w.Machines[0].Formed = false; return w }(), []loop.Invocation{maintain}, nil,
			"stuck: no plan: cannot get 4 ore:fuelCoke: maintain_coke_ovens is blocked"},
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
	blocked := []loop.Invocation{{Skill: "maintain_coke_ovens"}, {Skill: "feed_coke_ovens"}}
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
