package gtnh

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh/fakeserver"
)

// TestWaitForEndedSession: a wait on a session that has ended fails with
// ErrNotConnected even when its condition holds. The world the condition
// reads outlives the session: once it ended, its columns are unloaded
// (where a block reads as air) and the next session fills them again, so a
// waiter slow to run would take a block the reset removed for one the
// server broke (TestFaultKickWhileDigging failed so under load).
func TestWaitForEndedSession(t *testing.T) {
	const tick = 5 * time.Millisecond
	srv, err := fakeserver.New(fakeserver.Options{TickDuration: tick})
	require.NoError(t, err)
	defer srv.Close()
	c, err := New(Config{Address: srv.Addr(), Username: "Bot", Tick: tick,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.ErrorLevel)})
	require.NoError(t, err)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, c.Open(ctx))
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	require.NoError(t, c.waitFor(ctx, s, func() bool { return true }), "a live session's wait ends when its condition holds")
	ground := c.State().Snapshot().Player.Pos.Block().Add(0, -1, 0)
	require.False(t, c.State().Snapshot().Blocks.BlockAt(ground).IsAir(), "the ground under the player at %v", ground)

	s.end(errors.New("kicked for the test"))
	err = c.waitFor(ctx, s, func() bool { return true })
	require.ErrorIs(t, err, ErrNotConnected)
	assert.Contains(t, err.Error(), "kicked for the test")

	// After the reset a block of the session's world reads as air: the
	// unloaded column. The wait for it to break still fails.
	require.Eventually(t, func() bool {
		return c.State().Snapshot().Blocks.BlockAt(ground).IsAir()
	}, 5*time.Second, time.Millisecond)
	x := &act{c: c, s: s, ctx: ctx}
	gone, err := x.within(1, func() bool { return x.blockAt(ground).IsAir() })
	assert.False(t, gone)
	assert.ErrorIs(t, err, ErrNotConnected)
}
