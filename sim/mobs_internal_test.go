package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestSeesPastACorner: a line of sight that clips a block's corner for
// a twentieth of a block is stopped by it (rayTraceBlocks visits every
// cell on the line; points a quarter block apart would miss that one),
// and the same line a little lower, passing under the corner, is not.
func TestSeesPastACorner(t *testing.T) {
	sc, err := ParseScenario("los.yaml", []byte(`name: los
seed: 1
size: {x: 32, z: 32}
generator: flat
ground_y: 64
player:
  pos: [2, 65, 2]
blocks:
  - {block: "minecraft:stone", pos: [11, 71, 10]}
`))
	require.NoError(t, err)
	s, err := New(sc, Options{})
	require.NoError(t, err)
	s.state.Update(func(tx *world.Tx) {
		s.danger.los = map[[2]world.BlockPos]bool{}
		from := world.Vec3{X: 10.5, Y: 70.4, Z: 10.5}
		// Crosses y = 71 at x = 11.94, leaves the stone's cell at x = 12.
		assert.False(t, s.sees(tx, from, world.Vec3{X: 13.5, Y: 71.65, Z: 10.5}), "the corner stops it")
		// y = 70.98 at x = 12: under the corner all the way (the same
		// pair of cells: forget the first answer).
		s.danger.los = map[[2]world.BlockPos]bool{}
		assert.True(t, s.sees(tx, from, world.Vec3{X: 13.5, Y: 70.0 + 1.55, Z: 10.5}), "under the corner")
		assert.True(t, s.sees(tx, from, world.Vec3{X: 10.5, Y: 70.4, Z: 20.5}), "a clear line")
		assert.False(t, s.sees(tx, world.Vec3{X: 11.5, Y: 71.5, Z: 5.5}, world.Vec3{X: 11.5, Y: 71.5, Z: 15.5}), "straight through it")
		assert.False(t, s.sees(tx, world.Vec3{X: 11.5, Y: 80.5, Z: 10.5}, world.Vec3{X: 11.5, Y: 66.5, Z: 10.5}), "straight down through it")
	})
}
