package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestMoveToLongRoute: a route too long for the exact search's node budget
// (a fence line across the world with one gap far to the side) is planned
// by the long-route planner instead of failing. The budget is lowered so
// that a small world shows it.
func TestMoveToLongRoute(t *testing.T) {
	defer func(n int) { moveMaxNodes = n }(moveMaxNodes)
	moveMaxNodes = 500
	sc, err := ParseScenario("t.yaml", []byte(`name: t
size: {x: 96, z: 96}
player:
  pos: [8, 64, 8]
blocks:
  - {block: minecraft:fence, from: [50, 64, 0], to: [50, 64, 79]}
  - {block: minecraft:fence, from: [50, 64, 82], to: [50, 64, 95]}
`))
	require.NoError(t, err)
	s, err := New(sc, Options{})
	require.NoError(t, err)
	r := exec(t, s, action.MoveTo{Pos: world.Pos(90, 64, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, world.Pos(90, 64, 8), snap(t, s).Feet())
	// Through the gap at z 80–81 and back: more than twice the 82 blocks
	// (380 ticks) of the straight line the fence blocks.
	assert.Greater(t, r.Ticks, int64(2*380))

	moveMaxNodes = 500
	r = exec(t, s, action.MoveTo{Pos: world.Pos(8, 64, 8)})
	require.True(t, r.OK(), r.Error)
}
