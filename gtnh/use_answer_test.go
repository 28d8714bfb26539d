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

// TestUseItemSeesALateAnswer: a server that answers a use of an item (the
// held stack's Set Slot) late but within the use's useAnswerTicks (500 ms
// at the game's tick) is heard, and the use reports the held stack changed;
// an answer after the wait is not (the use reports "nothing changed").
func TestUseItemSeesALateAnswer(t *testing.T) {
	for _, tc := range []struct {
		name  string
		late  int // the bot's ticks between the use and the answer
		heard bool
	}{
		{"within the ticks", 8, true},
		{"after the ticks", 14, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
					items := make([]proto17.Slot, 45)
					items[36] = proto17.Slot{ID: idDirt, Count: 2}
					sc.send(&proto17.WindowItems{WindowID: 0, Items: items})
					expect(sc, func(p *proto17.PlayerBlockPlacement) bool { return p.Face == -1 })
					if !botTicks(sc, tc.late) {
						return
					}
					sc.send(&proto17.SetSlot{WindowID: 0, Slot: 36, Item: proto17.Slot{ID: idDirt, Count: 1}})
				}))
				c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods; cfg.Tick = DefaultTick })
				require.NoError(t, c.Open(context.Background()))
				eventually(t, "the dirt in the hotbar", func() bool { return c.State().Snapshot().Inventory.CountID("minecraft:dirt") == 2 })
				r := c.Execute(context.Background(), action.UseItem{Item: "minecraft:dirt"})
				require.Equal(t, ipc.OK, r.Code, "%+v", r)
				assert.Equal(t, tc.heard, r.Details["held_changed"], "the Set Slot %d ticks late", tc.late)
			})
		})
	}
}
