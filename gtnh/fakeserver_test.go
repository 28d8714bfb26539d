package gtnh

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// TestAgainstTheFakeServer runs the client against the independent
// scripted server of internal/fakeserver (in memory): ping, login, the FML
// handshake with the registry in one message and in FML|MP parts, walking
// to the first tree, felling its trunk with the timing the server checks,
// and collecting the drops.
func TestAgainstTheFakeServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, mode := range []fakeserver.RegistryMode{fakeserver.RegistrySingle, fakeserver.RegistryMultipart} {
			srv, err := fakeserver.New(inMemory(fakeserver.Options{Registry: mode, TickDuration: 5 * time.Millisecond}))
			require.NoError(t, err)
			defer srv.Close()
			c, err := New(Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: 5 * time.Millisecond,
				Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
			require.NoError(t, err)
			defer c.Close()
			require.NoError(t, c.Open(context.Background()))
			ctx := context.Background()
			require.Equal(t, ipc.OK, c.Execute(ctx, action.Equip{Item: "tool:axe"}).Code)
			res := c.Execute(ctx, action.MoveTo{Pos: world.Pos(11, 64, 8)})
			require.Equal(t, ipc.OK, res.Code, res.Error)
			for y := 64; y < 68; y++ {
				res = c.Execute(ctx, action.BreakBlock{Pos: world.Pos(12, y, 8)})
				require.Equal(t, ipc.OK, res.Code, res.Error)
			}
			assert.Equal(t, 4, c.State().Snapshot().Inventory.CountID("minecraft:log"))
			assert.Empty(t, srv.Corrections())
			assert.Empty(t, srv.Kicks())
			assert.Empty(t, c.Stats().Malformed)
			require.NoError(t, c.Close())
		}
	})
}

// rawSections counts the sections of a snapshot that still read their wire
// arrays.
func rawSections(s *world.Snapshot) int {
	n := 0
	s.Blocks.(*chunk.Chunks).ForEachColumn(func(c *chunk.Column) {
		for cy := 0; cy < chunk.ColumnSections; cy++ {
			if sec := c.Section(cy); sec != nil && sec.IsRaw() {
				n++
			}
		}
	})
	return n
}

// TestChunksArePackedWhileIdle: the decoder leaves mixed sections as wire
// arrays; the tick loop packs them (CompactPerTick), unless told not to.
func TestChunksArePackedWhileIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, per := range []int{-1, 0} {
			srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: 5 * time.Millisecond}))
			require.NoError(t, err)
			defer srv.Close()
			c, err := New(Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: 5 * time.Millisecond, CompactPerTick: per,
				Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
			require.NoError(t, err)
			defer c.Close()
			require.NoError(t, c.Open(context.Background()))
			want := c.State().Snapshot().BlockAt(world.Pos(12, 64, 8))
			// Wait 20 ticks, or (packing on) until nothing is left raw.
			start := c.Ticks()
			var after *world.Snapshot
			eventually(t, "20 ticks and, packing on, no raw section", func() bool {
				after = c.State().Snapshot()
				return c.Ticks() >= start+20 && (per < 0 || rawSections(after) == 0)
			})
			if per < 0 {
				assert.Positive(t, rawSections(after), "packing is off: mixed sections keep their wire arrays")
			} else {
				assert.Zero(t, rawSections(after), "the tick loop packs every section")
			}
			assert.Equal(t, want, after.BlockAt(world.Pos(12, 64, 8)), "packing changes no block")
			require.NoError(t, c.Close())
		}
	})
}
