package peer_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/sim"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base" // provides the Go skills
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

func shipped(t testing.TB) *registry.Registry {
	t.Helper()
	reg, err := registry.LoadConfig(config.FS, registry.Options{})
	require.NoError(t, err)
	require.NoError(t, reg.RegisterProvided())
	require.NoError(t, reg.Finalize())
	return reg
}

func newSim(t testing.TB, seed int64) *sim.Sim {
	t.Helper()
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{Seed: seed})
	require.NoError(t, err)
	return w
}

// sockPath returns a short socket path (Unix socket paths are limited to
// about 100 bytes, and test directories can be longer).
func sockPath(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "ipc")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "planner.sock")
}

// pipeEnd joins the read end of one OS pipe and the write end of another:
// a child's stdin and stdout as its parent sees them.
type pipeEnd struct {
	r *os.File
	w *os.File
}

func (p pipeEnd) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeEnd) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeEnd) Close() error {
	p.w.Close()
	return p.r.Close()
}

var _ io.ReadWriteCloser = pipeEnd{}

func pipePair(t *testing.T) (a, b pipeEnd) {
	t.Helper()
	r1, w1, err := os.Pipe()
	require.NoError(t, err)
	r2, w2, err := os.Pipe()
	require.NoError(t, err)
	return pipeEnd{r: r1, w: w2}, pipeEnd{r: r2, w: w1}
}

// runTrace runs the chaining planner in process on conn and returns the
// trace.
func runTrace(t testing.TB, conn ipc.Conn, goalText string, maxSteps int) ([]byte, loop.Outcome) {
	t.Helper()
	reg := shipped(t)
	g, err := loop.ParseGoal(goalText, reg.Tiers())
	require.NoError(t, err)
	var buf bytes.Buffer
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: conn, Planner: chain.Planner{}, Goal: g,
		Trace: &buf, MaxSteps: maxSteps})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	return buf.Bytes(), out
}
