package gtnh

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// confirmClicks accepts every click; onClick runs first and may answer
// more.
func confirmClicks(sc *serverConn, onClick func(*proto17.ClickWindow)) {
	for {
		var p proto17.Packet
		select {
		case p = <-sc.in:
		case <-sc.done:
			return
		}
		switch p := p.(type) {
		case *proto17.ClickWindow:
			if onClick != nil {
				onClick(p)
			}
			sc.send(&proto17.ConfirmTransaction{WindowID: p.WindowID, Action: p.Action, Accepted: true})
		case *proto17.PlayerBlockPlacement:
			if p.X == -6 && p.Y == 64 && p.Z == -8 {
				sc.send(&proto17.OpenWindow{WindowID: 3, Type: windowChest, Title: "container.chest", Slots: 27, UseTitle: false})
				items := make([]proto17.Slot, 27+36)
				items[0] = proto17.Slot{ID: idLog, Count: 10}
				sc.send(&proto17.WindowItems{WindowID: 3, Items: items})
			}
		}
	}
}

func TestContainerTransferWithClicks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		chest := world.Pos(-6, 64, -8)
		var clicks []proto17.ClickWindow
		n := newPipeNet(t, playScript(gtnhLogin(map[world.BlockPos][2]int{chest: {idPlanks, 0}}), func(sc *serverConn) {
			confirmClicks(sc, func(p *proto17.ClickWindow) { clicks = append(clicks, *p) })
		}))
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		require.NoError(t, c.Open(context.Background()))
		ctx := context.Background()
		res := c.Execute(ctx, action.TransferItems{Pos: chest, Item: "minecraft:log", Count: 4, Direction: action.Withdraw})
		assert.Equal(t, ipc.Rejected, res.Code, "not open yet")
		res = c.Execute(ctx, action.OpenContainer{Pos: chest})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		m := c.State().Snapshot().Machines
		require.Len(t, m, 1)
		assert.Equal(t, 10, m[0].Slots["0"].Count)
		res = c.Execute(ctx, action.TransferItems{Pos: chest, Item: "minecraft:log", Count: 4, Direction: action.Withdraw})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		snap := c.State().Snapshot()
		assert.Equal(t, 4, snap.Inventory.CountID("minecraft:log"))
		assert.Equal(t, 6, snap.Machines[0].Slots["0"].Count)
		// Pick up 10, four right clicks, put 6 back; the first click claims
		// the stack the slot held.
		require.Len(t, clicks, 6)
		assert.Equal(t, int32(10), clicks[0].Clicked.Count)
		assert.Equal(t, int8(1), clicks[1].Button)
		res = c.Execute(ctx, action.TransferItems{Pos: chest, Item: "minecraft:log", Count: 1, Slot: "5", Direction: action.Deposit})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, 1, c.State().Snapshot().Machines[0].Slots["5"].Count)
		res = c.Execute(ctx, action.TransferItems{Pos: chest, Item: "minecraft:log", Count: 50, Direction: action.Deposit})
		assert.Equal(t, ipc.InvalidParams, res.Code)
		assert.Equal(t, ipc.OK, c.Execute(ctx, action.CloseContainer{}).Code)
	})
}

func TestCraftPlanksInTheInventoryGrid(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			items := make([]proto17.Slot, 45)
			items[36] = proto17.Slot{ID: idLog, Count: 3}
			sc.send(&proto17.WindowItems{WindowID: 0, Items: items})
			grid := 0
			confirmClicks(sc, func(p *proto17.ClickWindow) {
				switch {
				case p.WindowID == 0 && p.Slot >= 1 && p.Slot <= 4 && p.Button == 1:
					grid++
					sc.send(&proto17.SetSlot{WindowID: 0, Slot: 0, Item: proto17.Slot{ID: idPlanks, Count: 2}})
				case p.WindowID == 0 && p.Slot == 0:
					assert.Equal(t, int32(2), p.Clicked.Count, "the result claimed")
					grid--
					if grid > 0 {
						sc.send(&proto17.SetSlot{WindowID: 0, Slot: 0, Item: proto17.Slot{ID: idPlanks, Count: 2}})
					} else {
						sc.send(&proto17.SetSlot{WindowID: 0, Slot: 0})
					}
				}
			})
		}))
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		require.NoError(t, c.Open(context.Background()))
		eventually(t, "the inventory", func() bool { return c.State().Snapshot().Inventory.CountID("minecraft:log") == 3 })
		res := c.Execute(context.Background(), action.Craft{Item: "minecraft:planks", Count: 1})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		inv := c.State().Snapshot().Inventory
		assert.Equal(t, 2, inv.CountID("minecraft:planks"))
		assert.Equal(t, 2, inv.CountID("minecraft:log"))
		res = c.Execute(context.Background(), action.Craft{Item: "minecraft:chest", Count: 1})
		assert.Equal(t, ipc.Rejected, res.Code, "missing ingredients")
	})
}
