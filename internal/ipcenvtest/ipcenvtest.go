// Package ipcenvtest sets up what the IPC transport's and the remote
// planner's tests share: the shipped registry, a simulated world, a short
// socket path and a pair of OS pipes. Only tests import it.
package ipcenvtest

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/sim"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base" // provides the Go skills
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// Shipped is the shipped skill registry, finalized.
func Shipped(t testing.TB) *registry.Registry {
	t.Helper()
	reg, err := registry.LoadConfig(config.FS, registry.Options{})
	require.NoError(t, err)
	require.NoError(t, reg.RegisterProvided())
	require.NoError(t, reg.Finalize())
	return reg
}

// NewSim is the default scenario's world grown from seed.
func NewSim(t testing.TB, seed int64) *sim.Sim {
	t.Helper()
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{Seed: seed})
	require.NoError(t, err)
	return w
}

// SockPath returns a short socket path ending in name (Unix socket paths
// are limited to about 100 bytes, and test directories can be longer).
func SockPath(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "ipc")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, name)
}

// PipeEnd joins the read end of one OS pipe and the write end of another:
// a child's stdin and stdout as its parent sees them.
type PipeEnd struct {
	r *os.File
	w *os.File
}

func (p PipeEnd) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p PipeEnd) Write(b []byte) (int, error) { return p.w.Write(b) }

// Close closes both ends.
func (p PipeEnd) Close() error {
	p.w.Close()
	return p.r.Close()
}

var _ io.ReadWriteCloser = PipeEnd{}

// PipePair returns the two ends of a duplex connection over OS pipes.
func PipePair(t *testing.T) (a, b PipeEnd) {
	t.Helper()
	r1, w1, err := os.Pipe()
	require.NoError(t, err)
	r2, w2, err := os.Pipe()
	require.NoError(t, err)
	return PipeEnd{r: r1, w: w2}, PipeEnd{r: r2, w: w1}
}
