// Package ipcenvtest sets up what the IPC transport's and the remote
// planner's tests share: the shipped registry, a simulated world, a short
// socket path, a pair of OS pipes, a goal run's trace and the probe their
// fuzz targets send a server. Only tests import it.
package ipcenvtest

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
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

// RunTrace runs the goal planner on conn until the goal holds or maxSteps
// steps have run, and returns the trace and the outcome.
func RunTrace(t testing.TB, conn ipc.Conn, goalText string, maxSteps int) ([]byte, loop.Outcome) {
	t.Helper()
	reg := Shipped(t)
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

// Probe is what a fuzz target sends a server over one connection: the lines
// in order, the last of them a probe whose message id is "probe". The server
// must answer the probe whatever came before it.
type Probe struct {
	// Serve serves one connection (a server's ServeConn).
	Serve func(io.ReadWriteCloser)
	// Lines are written in order, each followed by a newline.
	Lines [][]byte
	// Skip says whether a message with the probe's id is not yet the answer
	// (for example an error for an input that reused the probe's id).
	Skip func(*wire.Message) bool
}

// Answer writes the probe's lines to a fresh connection served by p.Serve
// and returns the first message with the probe's id that p.Skip does not
// skip. A connection that ends before it, or a line that is not a message,
// fails t. The deadline only keeps a broken server from hanging the fuzzer;
// no outcome depends on it.
func (p Probe) Answer(t testing.TB) (*wire.Message, []byte) {
	t.Helper()
	a, b := net.Pipe()
	go p.Serve(b)
	defer a.Close()
	a.SetDeadline(time.Now().Add(10 * time.Second))
	r := wire.NewReader(a, 1<<20)
	go func() {
		for _, l := range p.Lines {
			a.Write(append(append([]byte(nil), l...), '\n'))
		}
	}()
	for {
		l, err := r.Next()
		if err != nil {
			t.Fatalf("no answer to the probe after %q: %v", p.Lines, err)
		}
		m, err := wire.Decode(l)
		if err != nil {
			t.Fatalf("the server sent %q: %v", l, err)
		}
		if string(m.ID) != `"probe"` || (p.Skip != nil && p.Skip(m)) {
			continue
		}
		return m, l
	}
}
