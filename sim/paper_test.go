package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestClayBucketToPaper: GTNH's water before any iron. The mortar grinds
// each clay ball into a small pile of clay dust, 4 piles make a dust, 5
// dusts at a crafting table the unfired clay bucket; fired, it fills at a
// water source, and 8 wood pulp around it make 2 paper, the empty fired
// bucket coming back to the inventory for the next batch.
func TestClayBucketToPaper(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:clay_ball, count: 20}\n"+
		"    - {item: \"gregtech:gt.metatool.01:24\", count: 1}\n"+
		"    - {item: \"gregtech:gt.metaitem.01:2809\", count: 16}\n"+
		"    - {item: IguanaTweaksTConstruct:clayBucketFired, count: 1}\n"+
		"blocks:\n  - {block: minecraft:crafting_table, pos: [9, 64, 9]}\n  - {block: minecraft:water, pos: [7, 63, 8]}\n")
	table, water := world.Pos(9, 64, 9), world.Pos(7, 63, 8)

	r := exec(t, s, action.Craft{Item: "gregtech:gt.metaitem.01:2805", Count: 1})
	assert.Equal(t, ipc.Rejected, r.Code, "no small piles yet: %s", r.Error)
	r = exec(t, s, action.Craft{Item: "gregtech:gt.metaitem.01:1805", Count: 20})
	require.True(t, r.OK(), r.Error)
	r = exec(t, s, action.Craft{Item: "gregtech:gt.metaitem.01:2805", Count: 5})
	require.True(t, r.OK(), r.Error)
	inv := snap(t, s).Inventory
	assert.Zero(t, inv.CountID("minecraft:clay_ball"))
	assert.Zero(t, inv.Count(world.MustItem("gregtech:gt.metaitem.01:1805")))
	assert.Equal(t, 5, inv.Count(world.MustItem("gregtech:gt.metaitem.01:2805")), "4 small piles a dust")
	assert.Equal(t, 1, inv.Count(world.MustItem("gregtech:gt.metatool.01:24")), "the mortar stays in the grid")

	r = exec(t, s, action.Craft{Item: "IguanaTweaksTConstruct:clayBucketUnfired", Count: 1})
	assert.Equal(t, ipc.Rejected, r.Code, "a fixed 3x3 pattern: not in the inventory grid")
	r = exec(t, s, action.Craft{Item: "IguanaTweaksTConstruct:clayBucketUnfired", Count: 1, Table: &table})
	require.True(t, r.OK(), r.Error)
	inv = snap(t, s).Inventory
	assert.Zero(t, inv.Count(world.MustItem("gregtech:gt.metaitem.01:2805")), "5 clay dust")
	assert.Equal(t, 1, inv.CountID("IguanaTweaksTConstruct:clayBucketUnfired"))

	r = exec(t, s, action.UseItem{Item: "IguanaTweaksTConstruct:clayBucketUnfired", Target: &water})
	assert.Equal(t, ipc.Rejected, r.Code, "an unfired bucket holds no water")
	r = exec(t, s, action.Craft{Item: "minecraft:paper", Count: 1, Table: &table})
	assert.Equal(t, ipc.Rejected, r.Code, "no water yet")

	for batch := 1; batch <= 2; batch++ {
		r = exec(t, s, action.UseItem{Item: "IguanaTweaksTConstruct:clayBucketFired", Target: &water})
		require.True(t, r.OK(), r.Error)
		inv = snap(t, s).Inventory
		assert.Equal(t, 1, inv.CountID("IguanaTweaksTConstruct:clayBucketWater"))
		assert.Zero(t, inv.CountID("IguanaTweaksTConstruct:clayBucketFired"))

		r = exec(t, s, action.Craft{Item: "minecraft:paper", Count: 1, Table: &table})
		require.True(t, r.OK(), r.Error)
		assert.Equal(t, 2, r.Details["made"])
		inv = snap(t, s).Inventory
		assert.Equal(t, 2*batch, inv.CountID("minecraft:paper"))
		assert.Equal(t, 16-8*batch, inv.Count(world.MustItem("gregtech:gt.metaitem.01:2809")), "8 wood pulp a batch")
		assert.Zero(t, inv.CountID("IguanaTweaksTConstruct:clayBucketWater"))
		assert.Equal(t, 1, inv.CountID("IguanaTweaksTConstruct:clayBucketFired"), "the empty bucket comes back, batch %d", batch)
	}
}

// TestIronBucketPaperGivesTheBucketBack: the other paper recipe takes a
// vanilla water bucket and gives the empty bucket back; with no room for
// it the craft is refused and nothing is used up.
func TestIronBucketPaperGivesTheBucketBack(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:water_bucket, count: 1}\n"+
		"    - {item: \"gregtech:gt.metaitem.01:2809\", count: 8}\n"+
		"blocks:\n  - {block: minecraft:crafting_table, pos: [9, 64, 9]}\n")
	table := world.Pos(9, 64, 9)
	r := exec(t, s, action.Craft{Item: "minecraft:paper", Count: 1, Table: &table})
	require.True(t, r.OK(), r.Error)
	inv := snap(t, s).Inventory
	assert.Equal(t, 2, inv.CountID("minecraft:paper"))
	assert.Equal(t, 1, inv.CountID("minecraft:bucket"))
	assert.Zero(t, inv.CountID("minecraft:water_bucket"))

	// A full inventory: the water bucket's slot takes the paper (16 wood
	// pulp keep theirs) and the bucket has nowhere to go.
	fill := "  inventory:\n    - {item: minecraft:water_bucket, count: 1}\n    - {item: \"gregtech:gt.metaitem.01:2809\", count: 16}\n"
	for i := 0; i < 34; i++ {
		fill += "    - {item: minecraft:cobblestone, count: 64}\n"
	}
	s = small(t, fill+"blocks:\n  - {block: minecraft:crafting_table, pos: [9, 64, 9]}\n")
	r = exec(t, s, action.Craft{Item: "minecraft:paper", Count: 1, Table: &table})
	require.Equal(t, ipc.Rejected, r.Code, r.Error)
	assert.Contains(t, r.Error, "minecraft:bucket given back")
	inv = snap(t, s).Inventory
	assert.Equal(t, 1, inv.CountID("minecraft:water_bucket"), "nothing used up")
	assert.Equal(t, 16, inv.Count(world.MustItem("gregtech:gt.metaitem.01:2809")))
	assert.Zero(t, inv.CountID("minecraft:paper"))
}
