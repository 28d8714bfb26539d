package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestGuardBands: where a guarded action begins, a zombie within the range
// is in band 1 and one within 3 blocks in band 2; a cow is in none, nor is
// a spider in the daylight; at night the spider is.
func TestGuardBands(t *testing.T) {
	race.SkipOneGoroutine(t, "six 96×96 worlds on one goroutine")
	for _, c := range []struct {
		time   int
		kind   string
		x      float64
		band   int
		reason string
	}{
		{6000, "zombie", 54.5, 1, "6 blocks: within the range of 8"},
		{6000, "zombie", 50.5, 2, "2 blocks: within 3"},
		{6000, "zombie", 58.5, 0, "10 blocks: beyond the range"},
		{6000, "cow", 50.5, 0, "a cow is no threat"},
		{6000, "spider", 50.5, 0, "a spider in the daylight is calm"},
		{18000, "spider", 50.5, 2, "at night it is not"},
	} {
		sc, err := ParseScenario("guard.yaml", []byte(fmt.Sprintf(`name: guard
seed: 1
size: {x: 96, z: 96}
generator: flat
ground_y: 64
mobs: true
night: true
time: %d
player:
  pos: [48, 65, 48]
`, c.time)))
		require.NoError(t, err)
		s, err := New(sc, Options{})
		require.NoError(t, err)
		id, err := s.Summon(c.kind, world.Vec3{X: c.x, Y: 65, Z: 48.5})
		require.NoError(t, err)
		s.state.Update(func(tx *world.Tx) {
			w := s.guardStart(tx, ipc.Guard{Range: 8})
			assert.Equal(t, c.band, w.band[id], c.reason)
		})
	}
}
