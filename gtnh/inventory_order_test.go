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
)

// TestInventoryAnswerReachesTheWorldFirst: the server's answer to a use of
// an item (the held stack's Set Slot) is in the world's inventory by the
// time any other goroutine can see it in the session's. A use_item waits
// for the held stack to change in the session; the next use_item finds its
// stack in the world's inventory. When the session showed the change first,
// the next use found the emptied slot's old stack there, held the emptied
// slot and right-clicked with nothing (a second water bucket was not poured
// into a boiler). The test looks at both inventories at the first moment
// another goroutine can, right after each inventory packet (Window Items,
// Set Slot, Held Item Change) was applied, so the bad order is not left to
// the scheduler; it uses both stacks and checks the server was sent each
// one held.
func TestInventoryAnswerReachesTheWorldFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		held := make(chan proto17.Slot, 2)
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			items := make([]proto17.Slot, 45)
			items[36] = proto17.Slot{ID: idDirt, Count: 1}
			items[37] = proto17.Slot{ID: idDirt, Count: 1}
			sc.send(&proto17.WindowItems{WindowID: 0, Items: items})
			for _, slot := range []int16{36, 37} {
				p := expect(sc, func(p *proto17.PlayerBlockPlacement) bool { return p.Face == -1 })
				held <- p.Held
				if p.Held.ID == idDirt {
					sc.send(&proto17.SetSlot{WindowID: 0, Slot: slot})
				}
			}
			// The server picks the held slot too (a plugin's /give
			// and select, for one).
			sc.send(&proto17.HeldItemChange{Slot: 4})
		}))
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		var checks int
		c.inventoryApplied = func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			s := c.sess
			if s == nil || !s.inv.synced {
				return
			}
			checks++
			session := s.inv.worldInventory(c.state.Resolver().IDs(), c.rules)
			assert.Equal(t, session, c.state.Snapshot().Inventory,
				"the session's inventory is visible before the world's has it")
		}
		require.NoError(t, c.Open(context.Background()))
		eventually(t, "the dirt in the hotbar", func() bool { return c.State().Snapshot().Inventory.CountID("minecraft:dirt") == 2 })
		for i := range 2 {
			r := c.Execute(context.Background(), action.UseItem{Item: "minecraft:dirt"})
			require.Equal(t, ipc.OK, r.Code, "%+v", r)
			assert.Equal(t, true, r.Details["held_changed"], "use %d", i+1)
			assert.Equal(t, proto17.Slot{ID: idDirt, Count: 1}, recv(t, held), "use %d holds a dirt stack", i+1)
		}
		assert.Zero(t, c.State().Snapshot().Inventory.CountID("minecraft:dirt"))
		eventually(t, "the server's held slot", func() bool { return c.State().Snapshot().Inventory.Held == 4 })
		c.mu.Lock()
		defer c.mu.Unlock()
		assert.GreaterOrEqual(t, checks, 4, "the Window Items, both Set Slots and the Held Item Change were looked at")
	})
}
