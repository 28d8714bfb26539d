package gtnh

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/ipctest"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestConformance runs the body conformance suite on the live client
// against the scripted server, a fresh server and client per check: the
// fake world's first tree stands at (12, 64, 8).
func TestConformance(t *testing.T) {
	walk, log := world.Pos(11, 64, 8), world.Pos(12, 64, 8)
	ipctest.TestBody(t, func(t *testing.T) ipc.Conn {
		srv, err := fakeserver.New(fakeserver.Options{TickDuration: 5 * time.Millisecond})
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		c, err := New(Config{Address: srv.Addr(), Username: "Bot", Tick: 5 * time.Millisecond,
			Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.ErrorLevel)})
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, c.Open(ctx))
		return ipc.InProcess(c)
	}, ipctest.Options{Walk: &walk, Break: &log})
}
