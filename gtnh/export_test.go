package gtnh

import (
	"testing"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// ChestClientForTest is a client of the scripted test server (over a pipe)
// whose world has a chest of ten logs at the returned position, opening its
// window when right-clicked and accepting every click; tap sees the
// session. External tests (package gtnh_test) use it.
func ChestClientForTest(t *testing.T, tap Tap) (*Client, world.BlockPos) {
	chest := world.Pos(-6, 64, -8) // the block confirmClicks answers
	n := newPipeNet(t, playScript(gtnhLogin(map[world.BlockPos][2]int{chest: {idPlanks, 0}}), func(sc *serverConn) {
		confirmClicks(sc, nil)
	}))
	return testClient(t, n, func(cfg *Config) {
		cfg.Mods = testMods
		cfg.Tap = tap
	}), chest
}
