package base

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func TestStoreItemsFillsTheNearestChestWithRoom(t *testing.T) {
	w, _ := grassland()
	w.Inventory = world.NewInventory(world.NewStack("minecraft:cobblestone", 0, 64), world.NewStack("minecraft:cobblestone", 0, 64),
		world.NewStack("minecraft:cobblestone", 0, 30), world.NewStack("minecraft:dirt", 0, 5))
	full := map[string]world.ItemStack{}
	for i := 0; i < chestSlots; i++ {
		full[strconv.Itoa(i)] = world.NewStack("minecraft:dirt", 0, 64)
	}
	w.Machines = []world.Machine{
		{Kind: world.MachineChest, Pos: world.Pos(2, 65, 0), Formed: true, Slots: full}, // nearest, but full
		{Kind: world.MachineChest, Pos: world.Pos(5, 65, 0), Formed: true, Slots: map[string]world.ItemStack{
			"0": world.NewStack("minecraft:dirt", 0, 64), "1": world.NewStack("minecraft:cobblestone", 0, 60)}},
		{Kind: world.MachineChest, Pos: world.Pos(-3, 65, 0), Formed: true, ContentsUnknown: true},
		{Kind: world.MachineCokeOven, Pos: world.Pos(1, 65, 1), Formed: true},
	}
	acts, err := StoreItems{}.SuggestActions(w, skills.Params{"item": "minecraft:cobblestone", "keep": 8})
	require.NoError(t, err)
	at := world.Pos(5, 65, 0)
	assert.Equal(t, []action.Action{
		action.MoveTo{Pos: at, Radius: workRadius}, action.OpenContainer{Pos: at},
		action.TransferItems{Pos: at, Item: "minecraft:cobblestone", Count: 4, Direction: action.Deposit, Slot: "1"}, // the stack of 60 first
		action.TransferItems{Pos: at, Item: "minecraft:cobblestone", Count: 64, Direction: action.Deposit, Slot: "2"},
		action.TransferItems{Pos: at, Item: "minecraft:cobblestone", Count: 64, Direction: action.Deposit, Slot: "3"},
		action.TransferItems{Pos: at, Item: "minecraft:cobblestone", Count: 18, Direction: action.Deposit, Slot: "4"}, // 8 kept
		action.CloseContainer{},
	}, acts)

	_, err = StoreItems{}.SuggestActions(w, skills.Params{"item": "minecraft:cobblestone", "keep": 158})
	requireFailure(t, err, skills.CodeNoTarget)

	// No chest with room: the one held is placed beside the feet.
	w.Machines = w.Machines[:1]
	_, err = StoreItems{}.SuggestActions(w, skills.Params{"item": "minecraft:cobblestone"})
	requireFailure(t, err, skills.CodeMissingItems)
	w.Inventory.Slots[10] = world.NewStack("minecraft:chest", 0, 1)
	acts, err = StoreItems{}.SuggestActions(w, skills.Params{"item": "minecraft:cobblestone"})
	require.NoError(t, err)
	require.Len(t, acts, 6, "%v", acts)
	place, ok := acts[0].(action.PlaceBlock)
	require.True(t, ok, "%v", acts)
	assert.Equal(t, "minecraft:chest", place.Item)
	assert.Equal(t, 1, place.Pos.DistSq(w.Feet()), "beside the feet")
	assert.Equal(t, action.TransferItems{Pos: place.Pos, Item: "minecraft:cobblestone", Count: 64, Direction: action.Deposit, Slot: "0"}, acts[2])
	assert.Equal(t, action.TransferItems{Pos: place.Pos, Item: "minecraft:cobblestone", Count: 30, Direction: action.Deposit, Slot: "2"}, acts[4])

	// A chest block (never opened) north-east of the feet: the cells
	// north and east of the feet are beside it, and a chest there would
	// join it into a large one; the chest goes south.
	_, bs := grassland()
	w.Blocks = bs
	bs.SetID(world.Pos(1, 65, -1), chestItem, 0)
	acts, err = StoreItems{}.SuggestActions(w, skills.Params{"item": "minecraft:cobblestone"})
	require.NoError(t, err)
	assert.Equal(t, action.PlaceBlock{Pos: world.Pos(0, 65, 1), Item: chestItem, Face: "auto"}, acts[0])

	_, err = StoreItems{}.SuggestActions(w, skills.Params{"item": "not an item"})
	requireFailure(t, err, skills.CodeInvalidParams)
}

// TestStoreItemsDigsANookInATunnel: in a tunnel with no free cell beside
// the feet, the chest goes into a block dug out beside them; not beside
// lava, and not with nothing to dig.
func TestStoreItemsDigsANookInATunnel(t *testing.T) {
	bs := world.NewSparseBlocks()
	for x := -3; x <= 3; x++ {
		for y := 60; y <= 68; y++ {
			for z := -3; z <= 3; z++ {
				bs.SetID(world.Pos(x, y, z), "minecraft:stone", 0)
			}
		}
	}
	bs.Set(world.Pos(0, 64, 0), world.Air).Set(world.Pos(0, 65, 0), world.Air)
	w := snap(at(0, 64, 0), bs, world.NewInventory(world.NewTool("minecraft:wooden_pickaxe", 0, 64, 64),
		world.NewStack("minecraft:chest", 0, 1), world.NewStack("minecraft:dirt", 0, 20)))
	acts, err := StoreItems{}.SuggestActions(w, skills.Params{"item": "minecraft:dirt"})
	require.NoError(t, err)
	north := world.Pos(0, 64, -1)
	assert.Equal(t, []action.Action{
		action.Equip{Item: "tool:pickaxe"}, action.BreakBlock{Pos: north},
		action.PlaceBlock{Pos: north, Item: chestItem, Face: "auto"}, action.OpenContainer{Pos: north},
		action.TransferItems{Pos: north, Item: "minecraft:dirt", Count: 20, Direction: action.Deposit, Slot: "0"},
		action.CloseContainer{},
	}, acts)

	// Lava behind the north block: the east one is dug instead.
	bs.SetID(world.Pos(0, 64, -2), "minecraft:lava", 0)
	acts, err = StoreItems{}.SuggestActions(w, skills.Params{"item": "minecraft:dirt"})
	require.NoError(t, err)
	assert.Equal(t, action.BreakBlock{Pos: world.Pos(1, 64, 0)}, acts[1])

	// Bedrock all around: nowhere to put the chest.
	for _, p := range []world.BlockPos{world.Pos(0, 64, -1), world.Pos(1, 64, 0), world.Pos(0, 64, 1), world.Pos(-1, 64, 0), world.Pos(0, 66, 0)} {
		bs.SetID(p, "minecraft:bedrock", 0)
	}
	_, err = StoreItems{}.SuggestActions(w, skills.Params{"item": "minecraft:dirt"})
	requireFailure(t, err, skills.CodeNoTarget)
}
