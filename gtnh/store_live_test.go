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
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/base"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// runSkill plays a skill's actions on the live client, each of which must
// succeed.
func runSkill(t *testing.T, c *gtnh.Client, impl skills.Implementation, p skills.Params) []action.Action {
	t.Helper()
	acts, err := impl.SuggestActions(c.State().Snapshot(), p)
	require.NoError(t, err)
	for _, a := range acts {
		res := c.Execute(context.Background(), a)
		require.Equal(t, ipc.OK, res.Code, "%s %+v: %s", a.Kind(), a, res.Error)
	}
	return acts
}

// chestAt is the live client's chest machine at pos.
func chestAt(t *testing.T, c *gtnh.Client, pos world.BlockPos) world.Machine {
	t.Helper()
	for _, m := range c.State().Snapshot().Machines {
		if m.Pos == pos {
			require.Equal(t, world.MachineChest, m.Kind)
			return m
		}
	}
	require.Failf(t, "no chest", "the client knows no chest at %v", pos)
	return world.Machine{}
}

// TestStoreItemsLive: store_items against the test server's vanilla
// chests. The bot holds a chest and 140 cobblestone, of which it keeps 40,
// and no chest is known: the skill places the chest, the server makes it a 27-slot
// chest (BlockChest's TileEntityChest), the right click opens it (Open
// Window type 0, Window Items), and each deposit's clicks are confirmed
// (Confirm Transaction). Then 36 of the 40 go into the same, now known
// chest: 28 first onto its stack of 36 up to 64, the rest into the next empty
// slot. What the server's chest holds is what the client believes; broken,
// the chest gives it all back.
func TestStoreItemsLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t,
			fakeserver.Item{Slot: 36, Name: "minecraft:chest", Count: 1},
			fakeserver.Item{Slot: 37, Name: "minecraft:cobblestone", Count: 64},
			fakeserver.Item{Slot: 38, Name: "minecraft:cobblestone", Count: 36},
			fakeserver.Item{Slot: 40, Name: "minecraft:cobblestone", Count: 40},
			fakeserver.Item{Slot: 39, Name: "minecraft:dirt", Count: 5})
		acts := runSkill(t, c, base.StoreItems{}, skills.Params{"item": "minecraft:cobblestone", "keep": 40})
		place, ok := acts[0].(action.PlaceBlock)
		require.True(t, ok, "the chest held is placed first: %v", acts)
		assert.Equal(t, 40, c.State().Snapshot().Inventory.CountID("minecraft:cobblestone"))
		at := place.Pos
		name, _ := srv.BlockAt(at.X, at.Y, at.Z)
		require.Equal(t, "minecraft:chest", name)
		items, ok := srv.ContainerItems(at)
		require.True(t, ok, "the server has a chest at %v", at)
		assert.Equal(t, map[string]fakeserver.Item{
			"0": {Slot: 0, Name: "minecraft:cobblestone", Count: 64},
			"1": {Slot: 1, Name: "minecraft:cobblestone", Count: 36},
		}, items)
		assert.Equal(t, 40, serverCount(t, srv, "minecraft:cobblestone"), "40 kept")
		assert.Zero(t, serverCount(t, srv, "minecraft:chest"))
		assert.Equal(t, 5, serverCount(t, srv, "minecraft:dirt"), "only the item asked for")
		ch := chestAt(t, c, at)
		assert.False(t, ch.ContentsUnknown)
		assert.Equal(t, 64, ch.Slot("0").Count)
		assert.Equal(t, 36, ch.Slot("1").Count)

		// 36 of the 40 kept go into the same chest, now known.
		acts = runSkill(t, c, base.StoreItems{}, skills.Params{"item": "minecraft:cobblestone", "keep": 4})
		var slots []string
		for _, a := range acts {
			if tr, ok := a.(action.TransferItems); ok {
				slots = append(slots, tr.Slot)
			}
		}
		assert.Equal(t, []string{"1", "2"}, slots, "the stack of 36 first, then an empty slot")
		items, _ = srv.ContainerItems(at)
		assert.Equal(t, map[string]fakeserver.Item{
			"0": {Slot: 0, Name: "minecraft:cobblestone", Count: 64},
			"1": {Slot: 1, Name: "minecraft:cobblestone", Count: 64},
			"2": {Slot: 2, Name: "minecraft:cobblestone", Count: 8},
		}, items)
		assert.Equal(t, 4, serverCount(t, srv, "minecraft:cobblestone"), "4 kept")
		ch = chestAt(t, c, at)
		assert.Equal(t, 8, ch.Slot("2").Count)

		// Broken, the chest drops what it holds (BlockChest.breakBlock) and
		// the bot beside it picks it all up again.
		res := c.Execute(context.Background(), action.BreakBlock{Pos: at})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		_, ok = srv.ContainerItems(at)
		assert.False(t, ok, "no chest left on the server")
		gtnh.Eventually(t, "the 136 stored picked up again", func() bool {
			return serverCount(t, srv, "minecraft:cobblestone") == 140
		})
		assert.Empty(t, srv.Refusals())
		assert.Empty(t, srv.Kicks())
	})
}
