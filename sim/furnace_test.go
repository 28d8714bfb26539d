package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// furnaceWorld places a furnace next to the player from the inventory,
// opens it and puts input and fuel in.
func furnaceWorld(t *testing.T, input string, inputs int, fuel string, fuels int) (*Sim, world.BlockPos) {
	t.Helper()
	s := small(t, "  inventory:\n    - {item: \"minecraft:furnace\", count: 1}\n    - {item: \"minecraft:cobblestone\", count: 8}\n"+
		"    - {item: \"minecraft:planks\", count: 8}\n    - {item: \"minecraft:log\", count: 2}\n    - {item: \"minecraft:coal\", count: 2}\n")
	at := world.Pos(9, 64, 8)
	r := exec(t, s, action.PlaceBlock{Pos: at, Item: "minecraft:furnace", Face: "up"})
	require.True(t, r.OK(), r.Error)
	m := machine(t, s, at)
	assert.Equal(t, world.MachineFurnace, m.Kind)
	require.True(t, exec(t, s, action.OpenContainer{Pos: at}).OK())
	if inputs > 0 {
		r = exec(t, s, action.TransferItems{Pos: at, Item: input, Count: inputs, Direction: action.Deposit, Slot: "input"})
		require.True(t, r.OK(), r.Error)
	}
	if fuels > 0 {
		r = exec(t, s, action.TransferItems{Pos: at, Item: fuel, Count: fuels, Direction: action.Deposit, Slot: "fuel"})
		require.True(t, r.OK(), r.Error)
	}
	return s, at
}

// TestFurnaceSmeltsByVanillaRules: a placed furnace takes one fuel item
// when it can smelt, cooks an item in 200 ticks of burning, takes the next
// fuel item when one burns out, and loses an item's progress when the fuel
// runs out. A plank burns 300 ticks: 1.5 items.
func TestFurnaceSmeltsByVanillaRules(t *testing.T) {
	s, at := furnaceWorld(t, "minecraft:cobblestone", 3, "minecraft:planks", 2)
	// The fuel's transfer itself takes game ticks: the furnace lit then.
	lit := int(machine(t, s, at).Progress*200 + 0.5)
	require.Positive(t, lit)
	wait(t, s, 199-lit)
	m := machine(t, s, at)
	assert.True(t, m.Active)
	assert.Empty(t, m.Slots["output"].ID, "an item takes 200 ticks")
	assert.InDelta(t, 199.0/200, m.Progress, 1e-9)
	assert.Equal(t, 1, m.Slots["fuel"].Count, "one plank burns")
	wait(t, s, 1)
	m = machine(t, s, at)
	assert.Equal(t, "minecraft:stone", m.Slots["output"].ID)
	assert.Equal(t, 1, m.Slots["output"].Count)
	assert.Equal(t, 2, m.Slots["input"].Count)

	wait(t, s, 200)
	m = machine(t, s, at)
	assert.Equal(t, 2, m.Slots["output"].Count, "the second plank took over at tick 301")
	assert.Empty(t, m.Slots["fuel"].ID)
	wait(t, s, 200) // the third item is done at tick 600, the second plank burns out at 601
	m = machine(t, s, at)
	assert.Equal(t, 3, m.Slots["output"].Count)
	assert.Empty(t, m.Slots["input"].ID)
	assert.True(t, m.Active, "the second plank has a tick left")
	wait(t, s, 1)
	assert.False(t, machine(t, s, at).Active, "the fuel is spent")

	r := exec(t, s, action.TransferItems{Pos: at, Item: "minecraft:stone", Count: 3, Direction: action.Withdraw, Slot: "output"})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, 3, snap(t, s).Inventory.CountID("minecraft:stone"))
}

// TestFurnaceStopsWithoutFuel: the cooking of an item is lost when the fuel
// runs out before it is done.
func TestFurnaceStopsWithoutFuel(t *testing.T) {
	s, at := furnaceWorld(t, "minecraft:cobblestone", 2, "minecraft:planks", 1)
	lit := int(machine(t, s, at).Progress*200 + 0.5)
	wait(t, s, 350-lit)
	m := machine(t, s, at)
	assert.Equal(t, 1, m.Slots["output"].Count)
	assert.Zero(t, m.Progress, "100 ticks of the second item are lost with the fuel")
	assert.False(t, m.Active)
	assert.Equal(t, 1, m.Slots["input"].Count)
}

// TestFurnaceSlots: the input takes only what smelts (GTNH: no charcoal
// from logs), the fuel slot only what burns, the output nothing.
func TestFurnaceSlots(t *testing.T) {
	s, at := furnaceWorld(t, "", 0, "", 0)
	r := exec(t, s, action.TransferItems{Pos: at, Item: "minecraft:log", Count: 1, Direction: action.Deposit, Slot: "input"})
	assert.False(t, r.OK())
	assert.Contains(t, r.Error, "input slot does not accept")
	r = exec(t, s, action.TransferItems{Pos: at, Item: "minecraft:cobblestone", Count: 1, Direction: action.Deposit, Slot: "fuel"})
	assert.False(t, r.OK())
	r = exec(t, s, action.TransferItems{Pos: at, Item: "minecraft:coal", Count: 1, Direction: action.Deposit, Slot: "fuel"})
	assert.True(t, r.OK(), r.Error)
	r = exec(t, s, action.TransferItems{Pos: at, Item: "minecraft:cobblestone", Count: 1, Direction: action.Deposit, Slot: "output"})
	assert.False(t, r.OK())
	wait(t, s, 50)
	assert.False(t, machine(t, s, at).Active, "fuel is not lit with nothing to smelt")
	assert.Equal(t, 1, machine(t, s, at).Slots["fuel"].Count)
}

// TestFurnaceOutputTakenByExactRef: what a batch left in the output comes
// out by the reference smelt gives it (the item and its metadata, as it
// withdraws a stale output before another batch), and the slot is empty
// after.
func TestFurnaceOutputTakenByExactRef(t *testing.T) {
	s, at := furnaceWorld(t, "minecraft:cobblestone", 1, "minecraft:planks", 1)
	wait(t, s, 250)
	require.Equal(t, 1, machine(t, s, at).Slots["output"].Count)
	r := exec(t, s, action.TransferItems{Pos: at, Item: "minecraft:stone:0", Count: 1, Direction: action.Withdraw, Slot: "output"})
	require.True(t, r.OK(), r.Error)
	assert.Empty(t, machine(t, s, at).Slots["output"].ID)
	assert.Equal(t, 1, snap(t, s).Inventory.CountID("minecraft:stone"))
}

// TestFurnaceInputTakenBack: another batch's input comes out of the input
// slot by the reference smelt gives it, before it is cooked.
func TestFurnaceInputTakenBack(t *testing.T) {
	s, at := furnaceWorld(t, "minecraft:cobblestone", 3, "", 0)
	r := exec(t, s, action.TransferItems{Pos: at, Item: "minecraft:cobblestone:0", Count: 3, Direction: action.Withdraw, Slot: "input"})
	require.True(t, r.OK(), r.Error)
	assert.Empty(t, machine(t, s, at).Slots["input"].ID)
	assert.Equal(t, 8, snap(t, s).Inventory.CountID("minecraft:cobblestone"))
}
