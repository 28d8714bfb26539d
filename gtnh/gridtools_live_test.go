package gtnh_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// GregTech's grid tools live: the server keeps a GregTech tool's wear in
// its NBT (GT.ToolStats) and hands the tool back worn after each craft
// (getContainerItem); the client predicts the same NBT, or the next click
// on the tool would be refused.

const (
	mortar = "gregtech:gt.metatool.01:24"
	knife  = "gregtech:gt.metatool.01:34"
	pulp   = "gregtech:gt.metaitem.01:2809"
)

// serverItem is the server's player's first stack of an item.
func serverItem(t *testing.T, srv *fakeserver.Server, name string, meta int) (fakeserver.Item, bool) {
	t.Helper()
	p, ok := srv.Player("Bot")
	require.True(t, ok)
	for _, it := range p.Inventory {
		if it.Name == name && it.Damage == meta {
			return it, true
		}
	}
	return fakeserver.Item{}, false
}

// TestGridToolsWearLive: a flint mortar crafted at the table comes out
// with GregTech's stats (12,800 damage to go); each wood pulp craft wears
// it by 400 on the server, and the client's inventory shows the same
// wear; the knife is crafted beside it. Nothing is refused.
func TestGridToolsWearLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t,
			fakeserver.Item{Slot: 36, Name: "minecraft:crafting_table", Count: 1},
			fakeserver.Item{Slot: 37, Name: "minecraft:flint", Count: 3},
			fakeserver.Item{Slot: 38, Name: "minecraft:stone", Count: 5},
			fakeserver.Item{Slot: 39, Name: "minecraft:log", Count: 3},
			fakeserver.Item{Slot: 40, Name: "minecraft:stick", Count: 1})
		ctx := context.Background()
		do := func(a action.Action) {
			t.Helper()
			res := c.Execute(ctx, a)
			require.Equal(t, ipc.OK, res.Code, "%s: %s", a.Kind(), res.Error)
		}
		table := world.Pos(10, 64, 8)
		do(action.PlaceBlock{Pos: table, Item: "minecraft:crafting_table", Face: "up"})
		do(action.Craft{Item: mortar, Count: 1, Table: &table})
		it, ok := serverItem(t, srv, "gregtech:gt.metatool.01", 24)
		require.True(t, ok, "the server's player has the mortar")
		assert.Zero(t, it.ToolDamage, "a new mortar")
		do(action.Craft{Item: pulp, Count: 3})
		it, _ = serverItem(t, srv, "gregtech:gt.metatool.01", 24)
		assert.Equal(t, 3*400, it.ToolDamage, "three crafts at 400 each (ToolMortar)")
		inv := c.State().Snapshot().Inventory
		st := inv.Slots[inv.Find(world.MustItem(mortar))]
		assert.Equal(t, 3*400, st.Damage, "the client predicted the wear")
		assert.Equal(t, 12800, st.MaxDamage)
		assert.Equal(t, 6, serverCount(t, srv, "gregtech:gt.metaitem.01"), "2 wood pulp a log")
		do(action.Craft{Item: knife, Count: 1})
		_, ok = serverItem(t, srv, "gregtech:gt.metatool.01", 34)
		assert.True(t, ok, "the knife")
		assert.Empty(t, srv.Refusals(), "no click refused: the client's NBT is the server's")
	})
}

// TestWornOutMortarLive: a mortar with one craft left (12,400 of 12,800)
// grinds one log and is gone on both sides; the next craft has no mortar.
func TestWornOutMortarLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t,
			fakeserver.Item{Slot: 36, Name: "gregtech:gt.metatool.01", Damage: 24, Count: 1, ToolDamage: 12400},
			fakeserver.Item{Slot: 37, Name: "minecraft:log", Count: 2})
		gtnh.Eventually(t, "the mortar's wear", func() bool {
			inv := c.State().Snapshot().Inventory
			i := inv.Find(world.MustItem(mortar))
			return i >= 0 && inv.Slots[i].Damage == 12400
		})
		res := c.Execute(context.Background(), action.Craft{Item: pulp, Count: 1})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		_, ok := serverItem(t, srv, "gregtech:gt.metatool.01", 24)
		assert.False(t, ok, "the craft that reaches 12,800 breaks the mortar (doDamage)")
		assert.Equal(t, -1, c.State().Snapshot().Inventory.Find(world.MustItem(mortar)), "and the client knows")
		assert.Equal(t, 2, serverCount(t, srv, "gregtech:gt.metaitem.01"))
		res = c.Execute(context.Background(), action.Craft{Item: pulp, Count: 1})
		assert.NotEqual(t, ipc.OK, res.Code, "no mortar, no pulp")
		assert.Empty(t, srv.Refusals())
	})
}

// TestPaperGivesTheBucketBackLive: 8 wood pulp around a clay bucket of
// water make 2 paper at the table, and the emptied clay bucket goes into
// the inventory (the container item), on the server and in the client's
// prediction alike; filling it again at a water source the player looks at
// makes a clay bucket of water once more.
func TestPaperGivesTheBucketBackLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		water := world.Pos(8, 63, 10)
		srv, err := fakeserver.New(fakeserver.Options{Addr: fakeserver.MemoryAddr(), TickDuration: liveTick,
			Inventory: []fakeserver.Item{
				{Slot: 36, Name: "minecraft:crafting_table", Count: 1},
				{Slot: 37, Name: "gregtech:gt.metaitem.01", Damage: 2809, Count: 8},
				{Slot: 38, Name: "IguanaTweaksTConstruct:clayBucketWater", Count: 1}},
			Trees: []fakeserver.Tree{}, Blocks: []fakeserver.Block{{X: water.X, Y: water.Y, Z: water.Z, Name: "minecraft:water"}}, Logf: t.Logf})
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		c := joinLive(t, srv)
		ctx := context.Background()
		do := func(a action.Action) ipc.Result {
			t.Helper()
			res := c.Execute(ctx, a)
			require.Equal(t, ipc.OK, res.Code, "%s: %s", a.Kind(), res.Error)
			return res
		}
		table := world.Pos(10, 64, 8)
		do(action.PlaceBlock{Pos: table, Item: "minecraft:crafting_table", Face: "up"})
		do(action.Craft{Item: "minecraft:paper", Count: 1, Table: &table})
		assert.Equal(t, 2, serverCount(t, srv, "minecraft:paper"))
		assert.Zero(t, serverCount(t, srv, "IguanaTweaksTConstruct:clayBucketWater"))
		assert.Equal(t, 1, serverCount(t, srv, "IguanaTweaksTConstruct:clayBucketFired"), "the emptied bucket came back")
		assert.Equal(t, 1, c.State().Snapshot().Inventory.CountID("IguanaTweaksTConstruct:clayBucketFired"), "as the client predicted")

		res := do(action.UseItem{Item: "IguanaTweaksTConstruct:clayBucketFired", Target: &water})
		assert.Equal(t, true, res.Details["held_changed"])
		assert.Equal(t, 1, serverCount(t, srv, "IguanaTweaksTConstruct:clayBucketWater"), "filled at the source the player looked at")
		assert.Equal(t, 1, c.State().Snapshot().Inventory.CountID("IguanaTweaksTConstruct:clayBucketWater"))
		assert.Empty(t, srv.Refusals())
	})
}

// TestClickAfterAWindowLeftOpen: a skill that failed with a furnace's
// window still open leaves the server clicking only that window; the next
// craft in the inventory grid (window 0) closes it first, so its clicks
// are not refused.
func TestClickAfterAWindowLeftOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t,
			fakeserver.Item{Slot: 36, Name: "minecraft:furnace", Count: 1},
			fakeserver.Item{Slot: 37, Name: "minecraft:log", Count: 1})
		ctx := context.Background()
		furnace := world.Pos(10, 64, 8)
		res := c.Execute(ctx, action.PlaceBlock{Pos: furnace, Item: "minecraft:furnace", Face: "up"})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		res = c.Execute(ctx, action.OpenContainer{Pos: furnace})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		res = c.Execute(ctx, action.Craft{Item: "minecraft:planks", Count: 1})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, 2, serverCount(t, srv, "minecraft:planks"))
		assert.Empty(t, srv.Refusals())
	})
}
