package ipctest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/ipctest"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// The default scenario's fixtures: the player starts at (24, 64, 32); a
// tree stands at (27, 36).
var (
	simWalk  = world.Pos(26, 64, 36)
	simBreak = world.Pos(27, 64, 36)
	simOpts  = ipctest.Options{Walk: &simWalk, Break: &simBreak}
)

func newSim(t testing.TB) *sim.Sim {
	t.Helper()
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return w
}

func TestSimInProcess(t *testing.T) {
	ipctest.TestBody(t, func(t *testing.T) ipc.Conn { return ipc.InProcess(newSim(t)) }, simOpts)
}

// serveSim starts a server for a fresh default-scenario sim and stops it
// when the test ends.
func serveSim(t *testing.T) *remote.Server {
	t.Helper()
	srv, err := remote.NewServer(remote.ServerOptions{Body: newSim(t), Log: zerolog.Nop()})
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	return srv
}

func TestRemoteOverUnixSocket(t *testing.T) {
	ipctest.TestBody(t, func(t *testing.T) ipc.Conn {
		srv := serveSim(t)
		dir, err := os.MkdirTemp("", "ipctest")
		require.NoError(t, err)
		t.Cleanup(func() { os.RemoveAll(dir) })
		a := wire.Addr{Network: "unix", Address: filepath.Join(dir, "body.sock")}
		l, err := wire.Listen(a, wire.ListenOptions{})
		require.NoError(t, err)
		go srv.Serve(l)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		c, err := remote.Dial(ctx, a.String(), remote.ClientOptions{Name: "ipctest"})
		require.NoError(t, err)
		return c
	}, simOpts)
}

// pipeEnd joins the read end of one OS pipe and the write end of another:
// what a child process's stdin and stdout look like.
type pipeEnd struct{ r, w *os.File }

func (p pipeEnd) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeEnd) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeEnd) Close() error {
	p.w.Close()
	return p.r.Close()
}

func TestRemoteOverPipes(t *testing.T) {
	ipctest.TestBody(t, func(t *testing.T) ipc.Conn {
		srv := serveSim(t)
		r1, w1, err := os.Pipe()
		require.NoError(t, err)
		r2, w2, err := os.Pipe()
		require.NoError(t, err)
		go srv.ServeConn(pipeEnd{r: r1, w: w2})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		c, err := remote.NewClient(ctx, pipeEnd{r: r2, w: w1}, remote.ClientOptions{Name: "ipctest"})
		require.NoError(t, err)
		return c
	}, simOpts)
}
