package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func TestGTNHChestAndTorches(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:planks, count: 8}\n    - {item: minecraft:flint, count: 1}\n    - {item: minecraft:stick, count: 3}\n"+
		"    - {item: minecraft:coal, count: 1}\n    - {item: \"minecraft:coal:1\", count: 1}\n    - {item: Railcraft:fuel.coke, count: 1}\n"+
		"blocks:\n  - {block: minecraft:crafting_table, pos: [9, 64, 9]}\n")
	table := world.Pos(9, 64, 9)
	r := exec(t, s, action.Craft{Item: "minecraft:chest", Count: 1, Table: &table})
	assert.Equal(t, ipc.Rejected, r.Code, "eight planks and a flint are not a GTNH chest")

	for _, want := range []int{3, 5, 2} { // coal, then coke, then charcoal (file order)
		r = exec(t, s, action.Craft{Item: "minecraft:torch", Count: 1})
		require.True(t, r.OK(), r.Error)
		assert.Equal(t, want, r.Details["made"])
	}
	inv := snap(t, s).Inventory
	assert.Equal(t, 10, inv.CountID("minecraft:torch"))
	assert.Zero(t, inv.CountID("minecraft:coal"))
	assert.Zero(t, inv.CountID("Railcraft:fuel.coke"))
}

func TestGTNHChestNeedsLogsPlanksAndFlint(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:planks, count: 4}\n    - {item: minecraft:log, count: 4}\n    - {item: minecraft:flint, count: 1}\n"+
		"blocks:\n  - {block: minecraft:crafting_table, pos: [9, 64, 9]}\n")
	table := world.Pos(9, 64, 9)
	r := exec(t, s, action.Craft{Item: "minecraft:chest", Count: 1, Table: &table})
	require.True(t, r.OK(), r.Error)
	inv := snap(t, s).Inventory
	assert.Equal(t, 1, inv.CountID("minecraft:chest"))
	assert.Zero(t, inv.CountID("minecraft:log")+inv.CountID("minecraft:planks")+inv.CountID("minecraft:flint"))
}

// TestGTNHSoftMalletFenceAndStencilTable: the wooden soft mallet from 6
// planks and a stick, the fence from oak planks and sticks, and Tinkers'
// stencil table from sticks, a blank pattern and two fences with the mallet
// left in the grid.
func TestGTNHSoftMalletFenceAndStencilTable(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:planks, count: 12}\n    - {item: minecraft:stick, count: 16}\n    - {item: \"TConstruct:blankPattern\", count: 1}\n"+
		"blocks:\n  - {block: minecraft:crafting_table, pos: [9, 64, 9]}\n")
	table := world.Pos(9, 64, 9)
	r := exec(t, s, action.Craft{Item: "TConstruct:ToolStationBlock:10", Count: 1, Table: &table})
	assert.Equal(t, ipc.Rejected, r.Code, "no fences and no soft mallet yet")

	r = exec(t, s, action.Craft{Item: "gregtech:gt.metatool.01:14", Count: 1, Table: &table})
	require.True(t, r.OK(), r.Error)
	r = exec(t, s, action.Craft{Item: "minecraft:fence", Count: 2, Table: &table})
	require.True(t, r.OK(), r.Error)
	inv := snap(t, s).Inventory
	assert.Zero(t, inv.CountID("minecraft:planks"), "6 for the mallet, 3 for each fence")
	assert.Equal(t, 16-1-12, inv.CountID("minecraft:stick"))
	assert.Equal(t, 2, inv.CountID("minecraft:fence"))

	r = exec(t, s, action.Craft{Item: "minecraft:stick", Count: 1}) // no planks left
	require.False(t, r.OK())
	r = exec(t, s, action.Craft{Item: "TConstruct:ToolStationBlock:10", Count: 1, Table: &table})
	require.True(t, r.OK(), r.Error, "3 sticks, the pattern, 2 fences and the mallet")
	inv = snap(t, s).Inventory
	assert.Equal(t, 1, inv.Count(world.MustItem("TConstruct:ToolStationBlock:10")))
	assert.Equal(t, 1, inv.CountID("gregtech:gt.metatool.01"), "the mallet stays")
	assert.Zero(t, inv.CountID("minecraft:fence")+inv.CountID("minecraft:stick")+inv.CountID("TConstruct:blankPattern"))
}

// TestGTNHCarpetByHandAndTheBed: two white wool side by side make one
// white carpet in the inventory grid (no table), a colour the recipe does
// not take makes none, and three carpets make the white bed with the soft
// mallet left in the grid.
func TestGTNHCarpetByHandAndTheBed(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:wool, count: 6}\n    - {item: \"minecraft:wool:14\", count: 2}\n    - {item: minecraft:planks, count: 3}\n"+
		"    - {item: minecraft:fence, count: 2}\n    - {item: \"gregtech:gt.metatool.01:14\", count: 1}\n"+
		"blocks:\n  - {block: minecraft:crafting_table, pos: [9, 64, 9]}\n")
	table := world.Pos(9, 64, 9)
	r := exec(t, s, action.Craft{Item: "minecraft:carpet", Count: 3})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, 3, r.Details["made"], "6 white wool make 3 carpets")
	r = exec(t, s, action.Craft{Item: "minecraft:carpet", Count: 1})
	assert.Equal(t, ipc.Rejected, r.Code, "the red wool is not white")
	inv := snap(t, s).Inventory
	assert.Equal(t, 3, inv.Count(world.MustItem("minecraft:carpet:0")))
	assert.Zero(t, inv.Count(world.MustItem("minecraft:wool:0")))
	assert.Equal(t, 2, inv.Count(world.MustItem("minecraft:wool:14")))

	r = exec(t, s, action.Craft{Item: "etfuturum:white_bed", Count: 1, Table: &table})
	require.True(t, r.OK(), r.Error)
	inv = snap(t, s).Inventory
	assert.Equal(t, 1, inv.CountID("etfuturum:white_bed"))
	assert.Zero(t, inv.CountID("minecraft:carpet")+inv.CountID("minecraft:planks")+inv.CountID("minecraft:fence"))
	assert.Equal(t, 1, inv.CountID("gregtech:gt.metatool.01"), "the mallet stays")
}
