package gtnh

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// TestUseItemSeesALateAnswer: a server that answers a use of an item (the
// held stack's Set Slot) late but within the use's wait is heard, and the
// use reports the held stack changed, not "nothing changed". The wait is
// useAnswerTicks ticks and at least serverFloor(useAnswerTicks): at a 1 ms tick an
// answer 150 ms late comes long after the ticks but within the floor; at a
// 100 ms tick one 650 ms late comes after the floor but within the ticks.
func TestUseItemSeesALateAnswer(t *testing.T) {
	for _, tc := range []struct {
		name       string
		tick, late time.Duration
	}{
		{"within the floor", time.Millisecond, 150 * time.Millisecond},
		{"within the ticks", 100 * time.Millisecond, 650 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				require.Less(t, tc.late, max(useAnswerTicks*tc.tick, serverFloor(useAnswerTicks)), "the answer comes within the wait")
				n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
					items := make([]proto17.Slot, 45)
					items[36] = proto17.Slot{ID: idDirt, Count: 2}
					sc.send(&proto17.WindowItems{WindowID: 0, Items: items})
					expect(sc, func(p *proto17.PlayerBlockPlacement) bool { return p.Face == -1 })
					time.Sleep(tc.late)
					sc.send(&proto17.SetSlot{WindowID: 0, Slot: 36, Item: proto17.Slot{ID: idDirt, Count: 1}})
				}))
				c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods; cfg.Tick = tc.tick })
				require.NoError(t, c.Open(context.Background()))
				eventually(t, "the dirt in the hotbar", func() bool { return c.State().Snapshot().Inventory.CountID("minecraft:dirt") == 2 })
				r := c.Execute(context.Background(), action.UseItem{Item: "minecraft:dirt"})
				require.Equal(t, ipc.OK, r.Code, "%+v", r)
				assert.Equal(t, true, r.Details["held_changed"], "the Set Slot %v late was waited for", tc.late)
			})
		})
	}
}

// TestServerFloor: a wait of n ticks for the server lasts at least what n
// ticks take at the game's tick, and never needs more than minAnswerWait of
// wall time for it.
func TestServerFloor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		assert.Equal(t, time.Duration(0), serverFloor(0))
		assert.Equal(t, 500*time.Millisecond, serverFloor(useAnswerTicks))
		assert.Equal(t, 600*time.Millisecond, serverFloor(dropWaitTicks))
		assert.Equal(t, time.Second, serverFloor(pickupTicks), "1.5 s of game time, capped")
		assert.Equal(t, minAnswerWait, serverFloor(answerTicks))
		assert.Equal(t, time.Second, minAnswerWait)
	})
}
