package gtnh

import (
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/ipctest"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestConformance runs the body conformance suite on the live client
// against the scripted server, in process and served over the wire
// protocol, with a fresh server and client per check: the fake world's
// first tree stands at (12, 64, 8).
func TestConformance(t *testing.T) {
	walk, log := world.Pos(11, 64, 8), world.Pos(12, 64, 8)
	opts := ipctest.Options{Walk: &walk, Break: &log}
	t.Run("InProcess", func(t *testing.T) {
		if testing.Short() {
			t.Skip("-short (CI's race detector run): the served run below has the same client and server goroutines, and more")
		}
		ipctest.TestBody(t, func(t *testing.T) ipc.Conn { return ipc.InProcess(joined(t)) }, opts)
	})
	// Served: the remote client over pipes in front of the client, as
	// agent serve --body server does.
	t.Run("Served", func(t *testing.T) {
		ipctest.TestBody(t, func(t *testing.T) ipc.Conn {
			srv, err := remote.NewServer(remote.ServerOptions{Body: joined(t), Log: zerolog.Nop()})
			require.NoError(t, err)
			t.Cleanup(func() { srv.Close() })
			client, server := ipctest.Pipes(t)
			go srv.ServeConn(server)
			ctx, cancel := testdeadline.WithCancel(t, "the client's hello")
			defer cancel()
			c, err := remote.NewClient(ctx, client, remote.ClientOptions{Name: "conformance"})
			require.NoError(t, err)
			return c
		}, opts)
	})
}

// joined is a client playing on a fresh scripted server.
func joined(t *testing.T) *Client {
	t.Helper()
	srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: 5 * time.Millisecond}))
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	c, err := New(Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: 5 * time.Millisecond,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.ErrorLevel)})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	ctx, cancel := testdeadline.WithCancel(t, "the join")
	defer cancel()
	require.NoError(t, c.Open(ctx))
	return c
}
