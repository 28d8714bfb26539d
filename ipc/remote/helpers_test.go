package remote_test

import (
	"encoding/json"
	"net"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/ipcenvtest"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base" // provides the Go skills
)

// The set-up shared with the remote planner's tests.
var (
	shipped  = ipcenvtest.Shipped
	newSim   = ipcenvtest.NewSim
	pipePair = ipcenvtest.PipePair
	runTrace = ipcenvtest.RunTrace
)

func sockPath(t testing.TB) string { return ipcenvtest.SockPath(t, "body.sock") }

// serve starts a server for body on addr ("unix" or "tcp") and returns its
// address.
func serve(t testing.TB, opts remote.ServerOptions, network string) (string, *remote.Server) {
	t.Helper()
	srv, err := remote.NewServer(opts)
	require.NoError(t, err)
	var a wire.Addr
	if network == "unix" {
		a = wire.Addr{Network: "unix", Address: sockPath(t)}
	} else {
		a = wire.Addr{Network: "tcp", Address: "127.0.0.1:0"}
	}
	l, err := wire.Listen(a, wire.ListenOptions{})
	require.NoError(t, err)
	if network == "tcp" {
		a.Address = l.Addr().(*net.TCPAddr).String()
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	t.Cleanup(func() {
		srv.Close()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-testdeadline.After(t):
			t.Error("Serve did not return after Close")
		}
	})
	return a.String(), srv
}

func dial(t testing.TB, addr string, opts remote.ClientOptions) *remote.Client {
	t.Helper()
	ctx, cancel := testdeadline.WithCancel(t, "the dial of "+addr)
	defer cancel()
	c, err := remote.Dial(ctx, addr, opts)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
