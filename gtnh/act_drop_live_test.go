package gtnh_test

import (
	"context"
	"math"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestDropItemLive: drop_item on the test server throws with Player
// Digging's drop statuses from the held slot: two stacks of dirt from the
// main inventory (one whole, one item by item down to what stays) and
// saplings from the hotbar. The server takes them from the held slot and
// answers with Set Slot; they lie as item entities a few blocks ahead,
// which the client sees; the pickaxe is back in its hotbar slot, and the
// client's inventory is the server's.
func TestDropItemLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t,
			fakeserver.Item{Slot: 36, Name: "minecraft:stone_pickaxe", Count: 1},
			fakeserver.Item{Slot: 37, Name: "minecraft:sapling", Count: 10},
			fakeserver.Item{Slot: 9, Name: "minecraft:dirt", Count: 64},
			fakeserver.Item{Slot: 10, Name: "minecraft:dirt", Count: 40})
		ctx := context.Background()
		res := c.Execute(ctx, action.DropItem{Item: "minecraft:dirt", Count: 100})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		res = c.Execute(ctx, action.DropItem{Item: "minecraft:sapling", Count: 3})
		require.Equal(t, ipc.OK, res.Code, res.Error)

		assert.Equal(t, 4, serverCount(t, srv, "minecraft:dirt"))
		assert.Equal(t, 7, serverCount(t, srv, "minecraft:sapling"))
		p, ok := srv.Player("Bot")
		require.True(t, ok)
		tossed := map[string]int{}
		for _, it := range srv.Tossed() {
			tossed[it.Item.Name] += it.Item.Count
			assert.Greater(t, math.Hypot(it.Pos.X-p.Pos.X, it.Pos.Z-p.Pos.Z), 1.425+0.5, "out of the pickup reach")
		}
		assert.Equal(t, map[string]int{"minecraft:dirt": 100, "minecraft:sapling": 3}, tossed)
		assert.Empty(t, srv.Refusals())
		statuses := map[int8]int{}
		for _, r := range srv.ReceivedNamed("PlayerDigging") {
			statuses[r.Packet.(*proto17.PlayerDigging).Status]++
		}
		assert.Equal(t, map[int8]int{proto17.DigDropStack: 1, proto17.DigDropItem: 36 + 3}, statuses,
			"the whole stack at once, the rest item by item")

		synctest.Wait()
		snap := c.State().Snapshot()
		assert.Equal(t, 4, snap.Inventory.CountID("minecraft:dirt"))
		assert.Equal(t, 7, snap.Inventory.CountID("minecraft:sapling"))
		assert.Equal(t, "minecraft:stone_pickaxe", snap.Inventory.Slots[0].ID, "the pickaxe is back in its hotbar slot")
		seen := map[string]int{}
		for _, e := range snap.EntitiesOfKind(world.EntityItem) {
			if e.Item != nil {
				seen[e.Item.ID] += e.Item.Count
			}
		}
		assert.Equal(t, tossed, seen, "the client sees what lies on the ground")
	})
}

// TestDropItemLiveRefusesMoreThanHeld: asking for more than the
// inventory holds throws nothing.
func TestDropItemLiveRefusesMoreThanHeld(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t, fakeserver.Item{Slot: 36, Name: "minecraft:dirt", Count: 5})
		res := c.Execute(context.Background(), action.DropItem{Item: "minecraft:dirt", Count: 6})
		assert.Equal(t, ipc.InvalidParams, res.Code)
		assert.Contains(t, res.Error, "only 5 minecraft:dirt in the inventory, 6 asked")
		assert.Empty(t, srv.Tossed())
		assert.Equal(t, 5, serverCount(t, srv, "minecraft:dirt"))
	})
}

// TestDropItemLiveInAHole: walled in on every side, the thrown dirt lands
// at the feet, and the server gives it back only after the 40-tick
// pickup delay of a thrown item (not its 10 for a mined block's drop).
func TestDropItemLiveInAHole(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t, fakeserver.Item{Slot: 36, Name: "minecraft:dirt", Count: 20})
		feet := c.State().Snapshot().Feet()
		var walls []fakeserver.Block
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
			for dy := 0; dy < 3; dy++ {
				walls = append(walls, fakeserver.Block{X: feet.X + d[0], Y: feet.Y + dy, Z: feet.Z + d[1], Name: "minecraft:stone"})
			}
		}
		require.NoError(t, srv.SetBlocks(walls...))
		gtnh.Eventually(t, "the walls", func() bool { return c.State().Snapshot().BlockAt(feet.Add(1, 0, 0)).ID == "minecraft:stone" })
		ctx := context.Background()
		res := c.Execute(ctx, action.DropItem{Item: "minecraft:dirt", Count: 5})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		require.Len(t, srv.Tossed(), 5)
		res = c.Execute(ctx, action.Wait{Ticks: 25})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, 15, serverCount(t, srv, "minecraft:dirt"), "not before the delay")
		res = c.Execute(ctx, action.Wait{Ticks: 30})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, 20, serverCount(t, srv, "minecraft:dirt"), "back after 40 ticks")
	})
}
