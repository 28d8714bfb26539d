package chain

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// planGoal is plan for a goal built in the test (one with a keep list).
func planGoal(t *testing.T, reg *registry.Registry, goal loop.Goal, w *world.Snapshot, blocked ...loop.Invocation) loop.Decision {
	t.Helper()
	catalog, err := reg.DescribeForTechState(w.TechState, reg.Packs().Names())
	require.NoError(t, err)
	obs := loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false), Blocked: blocked}
	dec, err := Planner{}.Plan(context.Background(), goal, obs, catalog)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation, dec.Reason)
	return dec
}

func drop(item string, keep int) *loop.Invocation {
	inv := &loop.Invocation{Skill: dropSkill, Params: map[string]any{"item": item}}
	if keep > 0 {
		inv.Params["keep"] = keep
	}
	return inv
}

// kit is what a bot carries that is never thrown away: tools, food, fuel,
// a chest's makings.
func kit() []world.ItemStack {
	return []world.ItemStack{world.NewTool("minecraft:stone_pickaxe", 0, 131, 131), world.NewTool("minecraft:wooden_axe", 0, 59, 59),
		stack("minecraft:cooked_porkchop", 10), stack("minecraft:log", 8), stack("minecraft:flint", 2), stack("minecraft:coal", 30)}
}

// TestAFullInventoryThrowsJunkAway: a full inventory (two slots free) of
// a quest run's dirt and saplings throws the dirt away where the bot
// stands, before any chest: all but the stack of blocks walls and pillars
// take. With no chest in sight nor held, no chest is made for it.
func TestAFullInventoryThrowsJunkAway(t *testing.T) {
	reg := shipped(t)
	stacks := append(kit(), stack("minecraft:sapling", 40))
	w := full(t, stacks...) // the rest dirt
	dec, err := plan(t, reg, "collect 3000 minecraft:cobblestone", w)
	require.NoError(t, err)
	assert.Equal(t, drop("minecraft:dirt:0", 64), dec.Invocation, dec.Reason)
	assert.Contains(t, dec.Reason, "thrown away")

	// Six free with dirt to throw: no chest is made, the goal goes on.
	for i := 33; i >= 30; i-- {
		w.Inventory.Slots[i] = world.ItemStack{}
	}
	dec, err = plan(t, reg, "collect 3000 minecraft:cobblestone", w)
	require.NoError(t, err)
	assert.NotContains(t, []string{dropSkill, storeSkill}, dec.Invocation.Skill, "%v: %s", dec.Invocation, dec.Reason)
	assert.NotContains(t, dec.Reason, "chest", "%v", dec.Invocation)

	// The dirt thrown failed twice (blocked): the dirt goes into a chest
	// as before, one made first.
	w = full(t, stacks...)
	dec, err = plan(t, reg, "collect 3000 minecraft:cobblestone", w, *drop("minecraft:dirt:0", 64))
	require.NoError(t, err)
	assert.Contains(t, dec.Reason, "a chest first", "%v", dec.Invocation)
}

// TestJunkIsOnlyJunk: what the goal gathers or takes, what a later quest
// asks for, tools and food are never thrown away; saplings beyond a tree
// farm's 16 are, but only where that frees a slot.
func TestJunkIsOnlyJunk(t *testing.T) {
	reg := shipped(t)
	// A collect goal's haul is never junk, even thirty stacks of it.
	cobble := append(kit(), slices.Repeat([]world.ItemStack{stack("minecraft:cobblestone", 64)}, 28)...)
	dec, err := plan(t, reg, "collect 3000 minecraft:cobblestone", full(t, cobble...))
	require.NoError(t, err)
	assert.NotEqual(t, dropSkill, dec.Invocation.Skill, "%v: %s", dec.Invocation, dec.Reason)
	// Nor the items of a have goal.
	dec, err = plan(t, reg, "have 1000 minecraft:dirt and collect 3000 minecraft:cobblestone", full(t, kit()...))
	require.NoError(t, err)
	assert.NotEqual(t, dropSkill, dec.Invocation.Skill, "%v: %s", dec.Invocation, dec.Reason)

	// A goal that takes cobblestone keeps what it takes in all: twenty
	// furnaces of 6 cobblestone each, 120; one furnace, the stack.
	mixed := append(kit(), slices.Repeat([]world.ItemStack{stack("minecraft:cobblestone", 64)}, 14)...)
	for len(mixed) < 34 {
		mixed = append(mixed, stack("minecraft:gravel", 64))
	}
	dec, err = plan(t, reg, "have 20 minecraft:furnace", full(t, mixed...))
	require.NoError(t, err)
	assert.Equal(t, drop("minecraft:cobblestone:0", 120), dec.Invocation, dec.Reason)
	dec, err = plan(t, reg, "have 1 minecraft:furnace", full(t, mixed...))
	require.NoError(t, err)
	assert.Equal(t, drop("minecraft:cobblestone:0", 64), dec.Invocation, dec.Reason)

	// Later quests' items stay: 256 cobblestone and 8 dirt.
	goal, err := loop.ParseGoal("collect 3000 minecraft:log", reg.Tiers())
	require.NoError(t, err)
	goal.Keep = []loop.ItemGoal{{Item: "minecraft:cobblestone", Count: 256}}
	got := planGoal(t, reg, goal, full(t, mixed...))
	assert.Equal(t, drop("minecraft:cobblestone:0", 256), got.Invocation, got.Reason)
	goal.Keep[0].Count = 14 * 64
	got = planGoal(t, reg, goal, full(t, mixed...))
	assert.NotEqual(t, dropSkill, got.Invocation.Skill, "nothing beyond what later quests take: %v: %s", got.Invocation, got.Reason)

	// Saplings: 40 in one stack free no slot when 16 stay; three stacks
	// do.
	fewSaplings := append(kit(), stack("minecraft:sapling", 40))
	for len(fewSaplings) < 34 {
		fewSaplings = append(fewSaplings, stack("minecraft:gravel", 64))
	}
	dec, err = plan(t, reg, "collect 3000 minecraft:cobblestone", full(t, fewSaplings...))
	require.NoError(t, err)
	assert.NotEqual(t, dropSkill, dec.Invocation.Skill, "%v: %s", dec.Invocation, dec.Reason)
	saplings := append(kit(), stack("minecraft:sapling", 64), stack("minecraft:sapling", 64), stack("minecraft:sapling", 40))
	for len(saplings) < 34 {
		saplings = append(saplings, stack("minecraft:gravel", 64))
	}
	dec, err = plan(t, reg, "collect 3000 minecraft:cobblestone", full(t, saplings...))
	require.NoError(t, err)
	assert.Equal(t, drop("minecraft:sapling:0", 16), dec.Invocation, dec.Reason)

	// Tools, food, fuel and gravel (flint's makings) are never junk: a
	// full inventory of them throws nothing.
	none := kit()
	for len(none) < 34 {
		none = append(none, stack("minecraft:gravel", 64))
	}
	dec, err = plan(t, reg, "collect 3000 minecraft:cobblestone", full(t, none...))
	require.NoError(t, err)
	assert.NotEqual(t, dropSkill, dec.Invocation.Skill, "%v: %s", dec.Invocation, dec.Reason)
}

// TestFreedSlots: the slots a throw empties, lowest first.
func TestFreedSlots(t *testing.T) {
	s := &search{w: snapshot("stone_age", nil, stack("minecraft:dirt", 10), stack("minecraft:dirt", 64), stack("minecraft:sapling", 40))}
	assert.Equal(t, 0, s.freedSlots("minecraft:dirt:0", 9))
	assert.Equal(t, 1, s.freedSlots("minecraft:dirt:0", 10))
	assert.Equal(t, 1, s.freedSlots("minecraft:dirt:0", 73))
	assert.Equal(t, 2, s.freedSlots("minecraft:dirt:0", 74))
	assert.Equal(t, 0, s.freedSlots("minecraft:sapling:0", 24))
}
