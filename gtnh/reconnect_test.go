package gtnh

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/internal/memnet"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/proto17"
)

const fastTick = 5 * time.Millisecond

// fastBackoff retries every few milliseconds.
var fastBackoff = Backoff{Enabled: true, Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond}

// countingDial dials the in-memory servers and counts the attempts (pings
// included).
func countingDial(n *atomic.Int64) Dialer {
	return func(ctx context.Context, addr string) (net.Conn, error) {
		n.Add(1)
		return memDial(ctx, addr)
	}
}

func fakeClient(t *testing.T, addr string, mutate func(*Config)) *Client {
	t.Helper()
	cfg := Config{Address: addr, Dial: memDial, Username: "Bot", Tick: fastTick, LoginTimeout: 5 * time.Second,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)}
	if mutate != nil {
		mutate(&cfg)
	}
	c, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func fakeServer(t *testing.T, o fakeserver.Options) *fakeserver.Server {
	t.Helper()
	o.TickDuration = fastTick
	srv, err := fakeserver.New(inMemory(o))
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

// kick kicks the player once the server has it in play.
func kick(t *testing.T, srv *fakeserver.Server, reason string) {
	t.Helper()
	eventually(t, "the player in play", func() bool { return len(srv.Players()) >= 1 })
	srv.Kick(reason)
}

func waitDone(t *testing.T, c *Client) {
	t.Helper()
	select {
	case <-c.Done():
	case <-testdeadline.After(t):
		t.Fatal("the client did not stop")
	}
}

// TestPermanentKickEndsReconnecting: a ban at login ends Open at once, a
// ban during play ends the client, with the server's reason and without
// another attempt, although reconnecting is on.
func TestPermanentKickEndsReconnecting(t *testing.T) {
	const banned = "You are banned from this server!\nReason: griefing"
	t.Run("at login", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			srv := fakeServer(t, fakeserver.Options{Faults: fakeserver.Faults{KickAt: fakeserver.StageLogin, KickReason: banned}})
			c := fakeClient(t, srv.Addr(), func(cfg *Config) { cfg.Reconnect = fastBackoff })
			// Bounded, so that a client retrying a ban fails the test.
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			err := c.Open(ctx)
			var ke *KickError
			require.ErrorAs(t, err, &ke)
			assert.Equal(t, "You are banned from this server!\nReason: griefing", ke.Reason)
			<-ctx.Done() // Open's bound, many backoff delays: a retry in the background would have come
			assert.Len(t, srv.Kicks(), 1, "no second attempt")
		})
	})
	t.Run("in play", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			srv := fakeServer(t, fakeserver.Options{})
			c := fakeClient(t, srv.Addr(), func(cfg *Config) { cfg.Reconnect = fastBackoff })
			require.NoError(t, c.Open(context.Background()))
			kick(t, srv, "You are banned from this server.")
			waitDone(t, c)
			var ke *KickError
			require.ErrorAs(t, c.Err(), &ke)
			assert.Equal(t, "You are banned from this server.", ke.Reason)
			synctest.Wait() // the stopped client's goroutines have ended
			assert.Zero(t, c.Stats().Reconnects)
			assert.Len(t, srv.Players(), 0, "no one logged in again")
		})
	})
}

// TestTransientKickReconnects: "Server closed" and a dropped connection are
// worth a retry.
func TestTransientKickReconnects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := fakeServer(t, fakeserver.Options{})
		c := fakeClient(t, srv.Addr(), func(cfg *Config) { cfg.Reconnect = fastBackoff })
		require.NoError(t, c.Open(context.Background()))
		kick(t, srv, "Server closed")
		eventually(t, "a reconnect", func() bool { return c.Stats().Reconnects == 1 && c.Connected() })
		kick(t, srv, "Timed out")
		eventually(t, "a second reconnect", func() bool { return c.Stats().Reconnects == 2 && c.Connected() })
		assert.Nil(t, c.Err())
	})
}

// TestReconnectRetriesTheFirstJoin: with reconnecting on, Open waits for a
// server that is down; without, it fails at once.
func TestReconnectRetriesTheFirstJoin(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		addr := freeAddr(t)
		var dials atomic.Int64
		once := fakeClient(t, addr, func(cfg *Config) { cfg.Dial = countingDial(&dials) })
		err := once.Open(context.Background())
		var le *LoginError
		require.ErrorAs(t, err, &le)
		assert.Equal(t, StageDial, le.Stage)

		dials.Store(0)
		c := fakeClient(t, addr, func(cfg *Config) { cfg.Dial = countingDial(&dials); cfg.Reconnect = fastBackoff })
		opened := make(chan error, 1)
		go func() { opened <- c.Open(context.Background()) }()
		eventually(t, "three refused attempts", func() bool { return dials.Load() >= 3 })
		select {
		case err := <-opened:
			t.Fatalf("Open returned while the server is down: %v", err)
		default:
		}
		fakeServer(t, fakeserver.Options{Addr: addr})
		require.NoError(t, recv(t, opened))
		assert.True(t, c.Connected())

		// A context that ends stops the retries, with the last cause.
		stopped := fakeClient(t, freeAddr(t), func(cfg *Config) { cfg.Reconnect = fastBackoff })
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Millisecond)
		defer cancel()
		err = stopped.Open(ctx)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Contains(t, err.Error(), "refused")
	})
}

// TestModListIsReadAgainAfterAReconnect: the server comes back with
// another mod list; the client pings again and joins with it. A client
// whose mod list is configured keeps it (and this server rejects it, which
// ends reconnecting).
func TestModListIsReadAgainAfterAReconnect(t *testing.T) {
	updated := append(fakeserver.WithoutMod(fakeserver.DefaultMods(), "gregtech"),
		proto17.ModInfo{ModID: "gregtech", Version: "MC1710-5.09.52.100"}, proto17.ModInfo{ModID: "newmod", Version: "1.0"})
	for _, configured := range []bool{false, true} {
		name := "pinged"
		if configured {
			name = "configured"
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				addr := freeAddr(t)
				old, err := fakeserver.New(inMemory(fakeserver.Options{Addr: addr, TickDuration: fastTick}))
				require.NoError(t, err)
				defer old.Close()
				c := fakeClient(t, addr, func(cfg *Config) {
					cfg.Reconnect = fastBackoff
					if configured {
						cfg.Mods = fakeserver.DefaultMods()
					}
				})
				require.NoError(t, c.Open(context.Background()))
				old.Close() // the server restarts with an update
				srv := fakeServer(t, fakeserver.Options{Addr: addr, Mods: updated})
				if configured {
					waitDone(t, c)
					var ke *KickError
					require.ErrorAs(t, c.Err(), &ke)
					assert.Contains(t, ke.Reason, "Mod rejections")
					return
				}
				eventually(t, "a reconnect", func() bool { return c.Stats().Reconnects == 1 && c.Connected() })
				assert.Empty(t, srv.Kicks())
				require.NotNil(t, c.Server())
				assert.Equal(t, updated, c.Server().Mods)
			})
		})
	}
}

// TestAFailedWriteLetsTheReaderGiveTheReason: a server that kicks sends
// Disconnect and closes; the tick's write may fail first, but the session
// ends with the kick the reader then reads. With no reader to end it, the
// write error ends the session after the grace period.
func TestAFailedWriteLetsTheReaderGiveTheReason(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b := memnet.Pipe()
		defer b.Close()
		s := newSession(nil, newConn(a, time.Second, zerolog.Nop()), nil, "")
		writeErr := errors.New("writing Player: broken pipe")
		go s.endAfterWrite(writeErr)
		synctest.Wait() // the write failed first: endAfterWrite waits for the reader
		kick := &KickError{Reason: "Server closed"}
		s.end(kick)
		<-s.ended
		assert.Equal(t, error(kick), s.cause())

		alone := newSession(nil, newConn(b, time.Second, zerolog.Nop()), nil, "")
		start := time.Now()
		alone.endAfterWrite(writeErr)
		assert.Equal(t, writeErr, alone.cause())
		assert.GreaterOrEqual(t, time.Since(start), writeGrace)
	})
}
