package chain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
