package gtnh

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestFacingIsTheLookTheServerWasTold: Facing is none before the client has
// told the server a look, and afterwards the yaw and pitch of the last
// Player Look or Player Position And Look the server received.
func TestFacingIsTheLookTheServerWasTold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var last [2]float32
		looks := 0
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			for {
				select {
				case pk := <-sc.in:
					mu.Lock()
					switch p := pk.(type) {
					case *proto17.PlayerLook:
						last, looks = [2]float32{p.Yaw, p.Pitch}, looks+1
					case *proto17.ServerboundPlayerPositionAndLook:
						last, looks = [2]float32{p.Yaw, p.Pitch}, looks+1
					}
					mu.Unlock()
				case <-sc.done:
					return
				}
			}
		}))
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		_, _, ok := c.Facing()
		assert.False(t, ok, "no look told yet")
		require.NoError(t, c.Open(context.Background()))
		// Four blocks west.
		res := c.Execute(context.Background(), action.MoveTo{Pos: world.Pos(-12, 64, -8), Radius: 0})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		synctest.Wait()
		yaw, pitch, ok := c.Facing()
		require.True(t, ok)
		mu.Lock()
		assert.Positive(t, looks)
		assert.Equal(t, last, [2]float32{yaw, pitch}, "the last look the server got")
		mu.Unlock()
		assert.InDelta(t, 90, yaw, 1e-3, "walking west: yaw 90")
		require.NoError(t, c.Close())
	})
}
