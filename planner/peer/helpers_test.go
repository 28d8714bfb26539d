package peer_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/ipcenvtest"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base" // provides the Go skills
)

// The set-up shared with the transport's tests.
var (
	shipped  = ipcenvtest.Shipped
	newSim   = ipcenvtest.NewSim
	pipePair = ipcenvtest.PipePair
)

func sockPath(t testing.TB) string { return ipcenvtest.SockPath(t, "planner.sock") }

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
