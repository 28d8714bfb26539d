package gtnh

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
)

// TestObserveWaitsForTheRejoin: after a reconnect the server sends the
// position before the chunks; Observe waits until the player's column is
// there instead of showing an empty world in between (here the chunks of
// the second connection come 300 ms late).
func TestObserveWaitsForTheRejoin(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const tick = 5 * time.Millisecond
		srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: tick,
			// The first connection gets five Map Chunk Bulks; the second
			// connection's first one is held back.
			Faults: fakeserver.Faults{StallAt: fakeserver.StageChunks, Skip: 5, Once: true, StallFor: 300 * time.Millisecond}}))
		require.NoError(t, err)
		defer srv.Close()
		c, err := New(Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: tick,
			Reconnect: Backoff{Enabled: true, Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond},
			Log:       zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
		require.NoError(t, err)
		defer c.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, c.Open(ctx))
		log := srv.Trees()[0]
		require.Equal(t, "minecraft:log", c.State().Snapshot().BlockAt(log).ID)

		require.NoError(t, srv.WaitFor(ctx, func() bool { return len(srv.Players()) == 1 }), "every chunk sent")
		srv.Kick("Server closed")
		require.NoError(t, srv.WaitFor(ctx, func() bool { return len(srv.Strikes()) == 1 }), "the second connection's chunks are held back")
		snap, err := c.Observe(ctx)
		require.NoError(t, err)
		assert.Equal(t, "minecraft:log", snap.BlockAt(log).ID, "the snapshot after the rejoin has the world")
	})
}
