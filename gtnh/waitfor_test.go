package gtnh

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
)

// joinedClient starts the fake server with o (at a 5 ms tick unless o
// says otherwise) and a client joined to it, logging errors only; both are
// closed when the test ends.
func joinedClient(t *testing.T, o fakeserver.Options, configure ...func(*Config)) (*fakeserver.Server, *Client) {
	t.Helper()
	if o.TickDuration == 0 {
		o.TickDuration = 5 * time.Millisecond
	}
	srv, err := fakeserver.New(inMemory(o))
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	cfg := Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: o.TickDuration,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)}
	for _, f := range configure {
		f(&cfg)
	}
	c, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	ctx, cancel := testdeadline.WithCancel(t, "the join")
	defer cancel()
	require.NoError(t, c.Open(ctx))
	return srv, c
}

// TestWaitForEndedSession: a wait on a session that has ended fails with
// ErrNotConnected even when its condition holds. The world the condition
// reads outlives the session: once it ended, its columns are unloaded
// (where a block reads as air) and the next session fills them again, so a
// waiter slow to run would take a block the reset removed for one the
// server broke (TestFaultKickWhileDigging failed so under load).
func TestWaitForEndedSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := joinedClient(t, fakeserver.Options{})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c.mu.Lock()
		s := c.sess
		c.mu.Unlock()
		require.NoError(t, c.waitFor(ctx, s, func() bool { return true }), "a live session's wait ends when its condition holds")
		ground := c.State().Snapshot().Player.Pos.Block().Add(0, -1, 0)
		require.False(t, c.State().Snapshot().Blocks.BlockAt(ground).IsAir(), "the ground under the player at %v", ground)

		s.end(errors.New("kicked for the test"))
		err := c.waitFor(ctx, s, func() bool { return true })
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
	})
}

// TestWaitForChecksTheEndUnderTheLock: a waiter whose session ends while
// it waits for c.mu fails, though the session was live when it started to
// wait: the end is checked with c.mu held, right before cond, not before
// taking it (the reset that follows an end takes c.mu too, so a check
// before the lock could pass and cond then read the emptied world).
func TestWaitForChecksTheEndUnderTheLock(t *testing.T) {
	_, c := joinedClient(t, fakeserver.Options{})
	ctx, cancel := testdeadline.WithCancel(t, "the wait")
	defer cancel()

	c.mu.Lock()
	s := c.sess
	done := make(chan error, 1)
	returned := make(chan struct{})
	go func() {
		done <- c.waitFor(ctx, s, func() bool { return true })
		close(returned)
	}()
	// The session ends while the waiter waits for c.mu.
	require.True(t, parkedOnLock("(*Client).waitFor", func() bool { return closed(returned) }), "the waiter waits for c.mu")
	s.end(errors.New("kicked while the waiter waited"))
	c.mu.Unlock()
	select {
	case err := <-done:
		require.ErrorIs(t, err, ErrNotConnected, "the session ended before the waiter held c.mu")
	case <-ctx.Done():
		t.Fatal("the wait did not end")
	}

}
