package gtnh

import (
	"context"
	"math"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestBreakBlockWaitsForEveryCollectedCount: a dig's action ends once the
// inventory shows all it collected, counted from the inventory before the
// dig: for each item id, the count held before plus the collected stacks'
// counts, every stack of an id added and every id waited for. The drops
// (two stacks of dirt, of 2 and 1, and a log, beside 3 dirt already held)
// are collected at once; the server then shows the log at once and the
// dirt in two Set Slots some ticks apart, so stopping at any id seen, at
// the counts collected without the 3 held, at one stack of dirt or at one
// item a stack ends the action with the dirt short.
func TestBreakBlockWaitsForEveryCollectedCount(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dirtPos := world.Pos(-6, 64, -8)
		drops := []struct {
			id   int32
			item proto17.Slot
		}{{200, proto17.Slot{ID: idDirt, Count: 2}}, {201, proto17.Slot{ID: idDirt, Count: 1}}, {202, proto17.Slot{ID: idLog, Count: 1}}}
		n := newPipeNet(t, playScript(gtnhLogin(map[world.BlockPos][2]int{dirtPos: {idDirt, 0}}), func(sc *serverConn) {
			items := make([]proto17.Slot, 45)
			items[36] = proto17.Slot{ID: idDirt, Count: 3}
			sc.send(&proto17.WindowItems{WindowID: 0, Items: items})
			expect(sc, func(p *proto17.PlayerDigging) bool { return p.Status == proto17.DigFinish })
			sc.send(&proto17.BlockChange{X: -6, Y: 64, Z: -8, BlockID: 0})
			for _, d := range drops {
				sc.send(&proto17.SpawnObject{EntityID: d.id, Type: proto17.ObjectItem, X: proto17.ToFixed(-5.5), Y: proto17.ToFixed(64.1), Z: proto17.ToFixed(-7.5), Data: 1})
				sc.send(&proto17.EntityMetadata{EntityID: d.id, Metadata: proto17.Metadata{{Key: proto17.MetaKeyItem, Type: proto17.MetaSlot, Slot: d.item}}})
			}
			ticks := func(n int) {
				if !botTicks(sc, n) {
					panic(scriptAbort{})
				}
			}
			// Collect all three once the bot stands within a block of them.
			expect(sc, func(p *proto17.ServerboundPlayerPositionAndLook) bool { return math.Hypot(p.X+5.5, p.Z+7.5) < 1.0 })
			for _, d := range drops {
				sc.send(&proto17.CollectItem{CollectedID: d.id, CollectorID: 42})
			}
			sc.send(&proto17.DestroyEntities{IDs: []int32{200, 201, 202}})
			sc.send(&proto17.SetSlot{WindowID: 0, Slot: 37, Item: proto17.Slot{ID: idLog, Count: 1}})
			ticks(10)
			sc.send(&proto17.SetSlot{WindowID: 0, Slot: 36, Item: proto17.Slot{ID: idDirt, Count: 5}})
			ticks(10)
			sc.send(&proto17.SetSlot{WindowID: 0, Slot: 36, Item: proto17.Slot{ID: idDirt, Count: 6}})
		}))
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		require.NoError(t, c.Open(context.Background()))
		eventually(t, "the dirt in the hotbar", func() bool { return c.State().Snapshot().Inventory.CountID("minecraft:dirt") == 3 })
		res := c.Execute(context.Background(), action.BreakBlock{Pos: dirtPos})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Len(t, res.Details["collected"], 3, "%v", res.Details["collected"])
		inv := c.State().Snapshot().Inventory
		assert.Equal(t, 6, inv.CountID("minecraft:dirt"), "3 held, and 2 and 1 collected")
		assert.Equal(t, 1, inv.CountID("minecraft:log"))
	})
}
