package chain

import (
	"slices"

	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestAFillingInventoryGetsAChestReady: gathering cobblestone with the
// inventory filling up, the planner gets a chest ready (its sub-goals
// first) with six slots free, stores the haul with two, and gathers on
// while there is room.
func TestAFillingInventoryGetsAChestReady(t *testing.T) {
	reg := shipped(t)
	held := func(cobbleStacks int, extra ...world.ItemStack) *world.Snapshot {
		stacks := append([]world.ItemStack{world.NewTool("minecraft:wooden_pickaxe", 0, 59, 59), stack("minecraft:log", 8), stack("minecraft:flint", 2)}, extra...)
		for range cobbleStacks {
			stacks = append(stacks, stack("minecraft:cobblestone", 64))
		}
		return snapshot("stone_age", stone(3).SetID(world.Pos(2, 64, 2), "minecraft:crafting_table", 0), stacks...)
	}
	const goal = "collect 3000 minecraft:cobblestone"

	dec, err := plan(t, reg, goal, held(26)) // 7 free
	require.NoError(t, err)
	assert.Equal(t, "mine_ore", dec.Invocation.Skill, "room enough: %v %s", dec.Invocation, dec.Reason)

	dec, err = plan(t, reg, goal, held(27)) // 6 free
	require.NoError(t, err)
	assert.Contains(t, dec.Reason, "a chest first", "%v", dec.Invocation)
	assert.Equal(t, "basic_crafting", dec.Invocation.Skill)

	dec, err = plan(t, reg, goal, held(26, stack("minecraft:chest", 1))) // 6 free, a chest held
	require.NoError(t, err)
	assert.Equal(t, "mine_ore", dec.Invocation.Skill, "a chest ready, room for now: %v", dec.Invocation)

	dec, err = plan(t, reg, goal, held(29, stack("minecraft:chest", 1))) // 3 free
	require.NoError(t, err)
	assert.Equal(t, "mine_ore", dec.Invocation.Skill, "three slots free: %v", dec.Invocation)

	dec, err = plan(t, reg, goal, held(30, stack("minecraft:chest", 1))) // 2 free
	require.NoError(t, err)
	assert.Equal(t, "store_items", dec.Invocation.Skill, "%v %s", dec.Invocation, dec.Reason)
	assert.Equal(t, "minecraft:cobblestone", dec.Invocation.Params["item"])

	// A "have" goal keeps its items in the inventory.
	dec, err = plan(t, reg, "have 3000 minecraft:cobblestone", held(30, stack("minecraft:chest", 1)))
	require.NoError(t, err)
	assert.NotEqual(t, "store_items", dec.Invocation.Skill)
}

// full is an inventory of the given stacks filled up with dirt to two free
// slots (34 taken), a crafting table and stone in sight.
func full(t *testing.T, stacks ...world.ItemStack) *world.Snapshot {
	t.Helper()
	for len(stacks) < 34 {
		stacks = append(stacks, stack("minecraft:dirt", 64))
	}
	require.Len(t, stacks, 34)
	return snapshot("stone_age", stone(3).SetID(world.Pos(2, 64, 2), "minecraft:crafting_table", 0), stacks...)
}

// TestAFullInventoryStoresWhatTheGoalDoesNotNeed: with two slots left and
// no stack of the goal's haul, what the goal has no use for goes into a
// chest, the kind most held first; tools, food, fuel and the goal's
// inputs stay (a stack of each that may be used), and what is beyond that
// stack goes too. (Without the skill that throws items away: with it, the
// dirt would be thrown away first, drop_test.go.)
func TestAFullInventoryStoresWhatTheGoalDoesNotNeed(t *testing.T) {
	reg := shipped(t)
	pick := world.NewTool("minecraft:wooden_pickaxe", 0, 64, 64)
	kept := []world.ItemStack{pick, world.NewTool("minecraft:wooden_axe", 0, 59, 59), stack("minecraft:bread", 64), stack("minecraft:chest", 1),
		stack("minecraft:log", 8), stack("minecraft:flint", 2), stack("minecraft:coal", 30), stack("minecraft:cobblestone", 20)}

	dec, err := planStoring(t, reg, "collect 3000 minecraft:cobblestone", full(t, append(kept, stack("minecraft:gravel", 64), stack("minecraft:gravel", 10))...))
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation, dec.Reason)
	assert.Equal(t, "store_items", dec.Invocation.Skill, dec.Reason)
	assert.Equal(t, "minecraft:dirt:0", dec.Invocation.Params["item"], "24 stacks of dirt go first: %s", dec.Reason)
	assert.NotContains(t, dec.Invocation.Params, "keep", "the goal has no use for dirt")
	assert.Contains(t, dec.Reason, "has no use for")

	// A stack of the haul goes first, and only as the haul (not again as
	// an item beyond what the goal needs) when its store is blocked.
	haul := full(t, append(kept, stack("minecraft:cobblestone", 64))...)
	dec, err = planStoring(t, reg, "collect 3000 minecraft:cobblestone", haul)
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "store_items", Params: map[string]any{"item": "minecraft:cobblestone"}}, dec.Invocation, dec.Reason)
	haul.Machines = []world.Machine{{Kind: world.MachineChest, Pos: world.Pos(3, 64, 3), Formed: true, Slots: map[string]world.ItemStack{}}}
	dec, err = planStoring(t, reg, "collect 3000 minecraft:cobblestone", haul, *dec.Invocation)
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "store_items", Params: map[string]any{"item": "minecraft:dirt:0"}}, dec.Invocation, dec.Reason)
	cobble := full(t, append(slices.Clone(kept), slices.Repeat([]world.ItemStack{stack("minecraft:cobblestone", 64)}, 25)...)...)
	cobble.Machines = haul.Machines
	dec, err = planStoring(t, reg, "collect 3000 minecraft:cobblestone", cobble, loop.Invocation{Skill: "store_items", Params: map[string]any{"item": "minecraft:cobblestone"}})
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "store_items", Params: map[string]any{"item": "minecraft:dirt:0"}}, dec.Invocation,
		"25 stacks of the haul, its store blocked: not stored again as a kind beyond what the goal needs: %s", dec.Reason)

	// The goal's inputs: a stack of logs is kept, the rest goes.
	inputs := append([]world.ItemStack{pick, stack("minecraft:bread", 10), stack("minecraft:chest", 1)}, slices.Repeat([]world.ItemStack{stack("minecraft:log", 64)}, 31)...)
	dec, err = planStoring(t, reg, "collect 3000 minecraft:cobblestone", full(t, inputs...))
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation, dec.Reason)
	assert.Equal(t, "store_items", dec.Invocation.Skill, dec.Reason)
	assert.Equal(t, "minecraft:log:0", dec.Invocation.Params["item"])
	assert.Equal(t, 64, dec.Invocation.Params["keep"], "a stack of logs stays: fuel, and a chest's makings")

	// Only tools, food and a stack of each input: nothing to store, the
	// goal goes on.
	tools := []world.ItemStack{pick, stack("minecraft:log", 64), stack("minecraft:coal", 64), stack("minecraft:flint", 64), stack("minecraft:chest", 1)}
	for len(tools) < 34 {
		tools = append(tools, stack("minecraft:bread", 64))
	}
	dec, err = planStoring(t, reg, "collect 3000 minecraft:cobblestone", full(t, tools...))
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation, dec.Reason)
	assert.Equal(t, "mine_ore", dec.Invocation.Skill, "%v: %s", dec.Invocation, dec.Reason)

	// A store of one kind that failed twice (blocked) gives way to the
	// next kind where a chest with room is in sight; with none, the chest
	// held could not be placed here, and every kind would fail the same
	// way: the goal goes on.
	blockedDirt := loop.Invocation{Skill: "store_items", Params: map[string]any{"item": "minecraft:dirt:0"}}
	w := full(t, append(kept, stack("minecraft:gravel", 64), stack("minecraft:gravel", 10))...)
	dec, err = planStoring(t, reg, "collect 3000 minecraft:cobblestone", w, blockedDirt)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation, dec.Reason)
	assert.Equal(t, "mine_ore", dec.Invocation.Skill, dec.Reason)
	w.Machines = []world.Machine{{Kind: world.MachineChest, Pos: world.Pos(3, 64, 3), Formed: true, Slots: map[string]world.ItemStack{}}}
	dec, err = planStoring(t, reg, "collect 3000 minecraft:cobblestone", w, blockedDirt)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation, dec.Reason)
	assert.Equal(t, "minecraft:gravel:0", dec.Invocation.Params["item"], dec.Reason)
}

// TestAFullInventoryMakesAChestForWhatTheGoalDoesNotNeed: no chest in
// sight and none held, six slots left and nothing of the goal's haul: a
// chest is made first (with nothing to throw away: planStoring).
func TestAFullInventoryMakesAChestForWhatTheGoalDoesNotNeed(t *testing.T) {
	reg := shipped(t)
	stacks := []world.ItemStack{world.NewTool("minecraft:wooden_pickaxe", 0, 64, 64), stack("minecraft:log", 8), stack("minecraft:flint", 2)}
	for len(stacks) < 30 {
		stacks = append(stacks, stack("minecraft:dirt", 64))
	}
	w := snapshot("stone_age", stone(3).SetID(world.Pos(2, 64, 2), "minecraft:crafting_table", 0), stacks...)
	dec, err := planStoring(t, reg, "collect 3000 minecraft:cobblestone", w)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation, dec.Reason)
	assert.Contains(t, dec.Reason, "a chest first")
	assert.Contains(t, dec.Reason, "minecraft:dirt")

	// Seven free: not yet.
	w.Inventory.Slots[29] = world.ItemStack{}
	dec, err = planStoring(t, reg, "collect 3000 minecraft:cobblestone", w)
	require.NoError(t, err)
	assert.Equal(t, "mine_ore", dec.Invocation.Skill, dec.Reason)
}

// TestAFullInventoryKeepsThePickaxesParts: a metal goal mines raw ores
// with a pickaxe of their level, so the parts of one (Upgrade 2.0's iron
// head, a binding) are not stored away with what the goal has no use
// for, nor the tool station they are built at; the dirt goes.
func TestAFullInventoryKeepsThePickaxesParts(t *testing.T) {
	reg := shipped(t)
	stacks := []world.ItemStack{stack("TConstruct:binding", 1), world.NewStack("TConstruct:pickaxeHead", 2, 1), stack("minecraft:chest", 1),
		stack("TConstruct:ToolStationBlock", 1), stack("minecraft:stick", 1), stack("minecraft:planks", 16)}
	for len(stacks) < 34 {
		stacks = append(stacks, stack("minecraft:dirt", 64))
	}
	w := snapshot("stone_age", oreField(), stacks...)
	w.Machines = []world.Machine{{Kind: world.MachineChest, Pos: world.Pos(3, 64, 3), Formed: true, Slots: map[string]world.ItemStack{}},
		{Kind: world.MachineFurnace, Pos: world.Pos(-3, 64, 3), Formed: true, Slots: map[string]world.ItemStack{}}}
	blockedDirt := loop.Invocation{Skill: "store_items", Params: map[string]any{"item": "minecraft:dirt:0"}}
	dec, err := plan(t, reg, "have 2 minecraft:iron_ingot", w, blockedDirt)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation, dec.Reason)
	assert.NotEqual(t, "store_items", dec.Invocation.Skill, "%v: %s", dec.Invocation, dec.Reason)
	// A goal with no ore in it stores the binding.
	dec, err = plan(t, reg, "collect 3000 minecraft:dirt", w, blockedDirt)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation, dec.Reason)
	assert.Equal(t, "store_items", dec.Invocation.Skill, dec.Reason)
}

// TestAFullInventoryKeepsTheOvensSand: the coke oven's 26 blocks take 175
// sand and 105 clay in all (26 blocks of 4 bricks, 3 unfired bricks from 5
// sand and 3 clay). Held, they stay held when the inventory fills: of an
// input only a stack was kept, and the rest went into a chest, was
// gathered again and stored again until the steps ran out.
func TestAFullInventoryKeepsTheOvensSand(t *testing.T) {
	reg := shipped(t)
	stacks := []world.ItemStack{world.NewTool("minecraft:wooden_pickaxe", 0, 64, 64), stack("minecraft:chest", 1),
		stack("minecraft:sand", 64), stack("minecraft:sand", 64), stack("minecraft:sand", 47),
		stack("minecraft:clay_ball", 64), stack("minecraft:clay_ball", 41)}
	for len(stacks) < 34 {
		stacks = append(stacks, stack("minecraft:dirt", 64))
	}
	w := full(t, stacks...)
	w.Machines = []world.Machine{{Kind: world.MachineChest, Pos: world.Pos(3, 64, 3), Formed: true, Slots: map[string]world.ItemStack{}}}
	blockedDirt := loop.Invocation{Skill: "store_items", Params: map[string]any{"item": "minecraft:dirt:0"}}
	dec, err := plan(t, reg, "have 26 Railcraft:machine.alpha:7", w, blockedDirt)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation, dec.Reason)
	if dec.Invocation.Skill == "store_items" {
		item := dec.Invocation.Params["item"]
		assert.NotEqual(t, "minecraft:sand:0", item, "the oven's sand stays held: %s", dec.Reason)
		assert.NotEqual(t, "minecraft:clay_ball:0", item, "the oven's clay stays held: %s", dec.Reason)
	}
	// Beyond what the oven takes, the sand goes (and what it takes stays).
	w = full(t, append(stacks[:2:2], slices.Repeat([]world.ItemStack{stack("minecraft:sand", 64)}, 32)...)...)
	w.Machines = []world.Machine{{Kind: world.MachineChest, Pos: world.Pos(3, 64, 3), Formed: true, Slots: map[string]world.ItemStack{}}}
	dec, err = plan(t, reg, "have 26 Railcraft:machine.alpha:7", w)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation, dec.Reason)
	assert.Equal(t, &loop.Invocation{Skill: "store_items", Params: map[string]any{"item": "minecraft:sand:0", "keep": 175}}, dec.Invocation, dec.Reason)
}
