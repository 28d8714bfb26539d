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
