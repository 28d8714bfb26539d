package peer_test

import (
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/ipcenvtest"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base" // provides the Go skills
)

// The set-up shared with the transport's tests.
var (
	shipped  = ipcenvtest.Shipped
	newSim   = ipcenvtest.NewSim
	pipePair = ipcenvtest.PipePair
	runTrace = ipcenvtest.RunTrace
)

func sockPath(t testing.TB) string { return ipcenvtest.SockPath(t, "planner.sock") }
