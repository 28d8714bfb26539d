package origin

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestServeLiveClient puts the live GTNH client, connected to the scripted
// 1.7.10 server, behind the adapter: the world the server sent reaches the
// origin client, the server's clock comes through the idle poll, and a dig
// breaks a log with the timing the server checks.
//
// The adapter's tests of its own timing run in synctest bubbles; this one
// crosses its real loopback socket, so it runs in wall time, with client
// and server at the game's tick.
func TestServeLiveClient(t *testing.T) {
	srv, err := fakeserver.New(fakeserver.Options{Addr: fakeserver.MemoryAddr(), TickDuration: gtnh.DefaultTick})
	require.NoError(t, err)
	defer srv.Close()
	body, err := gtnh.New(gtnh.Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: gtnh.DefaultTick,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
	require.NoError(t, err)
	defer body.Close()
	require.NoError(t, body.Open(context.Background()))

	cl, _ := serve(t, body, Options{Poll: 20 * time.Millisecond})
	var t0, t1 TimeUpdate
	cl.until(TypeTimeUpdate).decode(t, &t0)
	cl.until(TypeWindowItems)
	cl.until(TypeTimeUpdate).decode(t, &t1)
	assert.Greater(t, t1.Tick, t0.Tick, "the server's clock, passed on while idle")

	cl.send(TypeMoveStep, map[string]any{"x": 11, "y": 64, "z": 8})
	r := cl.result()
	require.True(t, r.OK, "%+v", r)
	cd, ok := chunkAt(t, cl.take(TypeChunkData), 0, 0)
	require.True(t, ok)
	assert.Equal(t, PaletteEntry{ID: "minecraft:log"}, blockIn(t, cd, world.Pos(12, 64, 8)))

	cl.send(TypeBlockDig, map[string]any{"status": "start", "x": 12, "y": 64, "z": 8, "face": 4})
	cl.send(TypeBlockDig, map[string]any{"status": "stop", "x": 12, "y": 64, "z": 8, "face": 4})
	r = cl.result()
	require.True(t, r.OK, "%+v", r)
	assert.Equal(t, "break_block", r.Action)
	assert.Positive(t, r.Ticks)
	assert.Equal(t, 1, body.State().Snapshot().Inventory.CountID("minecraft:log"))
	got := false
	for _, m := range append(cl.take(TypeSetSlot), cl.take(TypeWindowItems)...) {
		got = got || containsLog(t, m)
	}
	assert.True(t, got, "the log reached the client's inventory")
	assert.Empty(t, srv.Corrections())
	assert.Empty(t, srv.Kicks())

}

func containsLog(t *testing.T, m msg) bool {
	switch m.Type {
	case TypeSetSlot:
		var s SetSlot
		m.decode(t, &s)
		return s.Item != nil && s.Item.ID == "minecraft:log"
	case TypeWindowItems:
		var w WindowItems
		m.decode(t, &w)
		for _, it := range w.Items {
			if it != nil && it.ID == "minecraft:log" {
				return true
			}
		}
	}
	return false
}
