package gtnh

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestModularUIWindowSendsSyncInit: each ModularUI window the client opens
// (a GregTech boiler's) is answered with the SYNC_INIT ModularUI's own
// client sends, byte for byte, once; a vanilla chest's window and a
// Railcraft coke oven's (an FML OpenGui of another mod) send none.
// Without it the test server, like ModularUI, would never send the
// boiler's bars and the open would not read its water.
func TestModularUIWindowSendsSyncInit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := steamAgeServer(t, true, nil)
		ctx := context.Background()
		boiler, chest, oven := world.Pos(13, 64, 2), world.Pos(10, 64, 12), world.Pos(3, 64, 1)
		for _, a := range []action.Action{
			action.MoveTo{Pos: world.Pos(13, 64, 4), Radius: 1}, action.OpenContainer{Pos: boiler}, action.CloseContainer{},
			action.MoveTo{Pos: world.Pos(10, 64, 10), Radius: 1}, action.OpenContainer{Pos: chest}, action.CloseContainer{},
			action.MoveTo{Pos: world.Pos(3, 64, 4), Radius: 1}, action.OpenContainer{Pos: oven}, action.CloseContainer{},
			action.MoveTo{Pos: world.Pos(13, 64, 4), Radius: 1}, action.OpenContainer{Pos: boiler}, action.CloseContainer{},
		} {
			r := c.Execute(ctx, a)
			require.Equal(t, ipc.OK, r.Code, "%s: %s", a.Kind(), r.Error)
			if _, open := a.(action.OpenContainer); open && a.(action.OpenContainer).Pos == boiler {
				assert.Equal(t, true, r.Details["contents_read"], "the bars came after SYNC_INIT")
			}
		}
		var inits [][]byte
		for _, r := range srv.ReceivedNamed("PluginMessage") {
			if pm, ok := r.Packet.(*proto17.ServerboundPluginMessage); ok && pm.Channel == modnet.ModularUIChannel {
				inits = append(inits, pm.Data)
			}
		}
		require.Len(t, inits, 2, "one SYNC_INIT per boiler window, none for the chest or the oven")
		for _, b := range inits {
			assert.Equal(t, []byte{1, 0xff, 0xff, 0xff, 0xff, 0x0f, 2, 2, 0}, b)
		}
	})
}
