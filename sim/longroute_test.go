package sim

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
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

// TestMoveToLongRouteSeesEdits: the simulation keeps one long-route
// planner across move_to actions, and a block changed between two routes —
// written in place, as the store does into a column no snapshot shares —
// is seen by the next route: a gap opened in the fence shortens it, and
// closing every gap makes the goal unreachable.
func TestMoveToLongRouteSeesEdits(t *testing.T) {
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
	far, home := world.Pos(90, 64, 8), world.Pos(8, 64, 8)
	r := exec(t, s, action.MoveTo{Pos: far})
	require.True(t, r.OK(), r.Error)
	assert.Greater(t, r.Ticks, int64(2*380), "around through the gap at z 80–81")
	require.NotNil(t, s.routes, "the planner is kept for the next route")
	router := s.routes.router
	built := router.Stats().Regions

	setFence := func(block string, zs ...int) {
		s.state.Update(func(tx *world.Tx) {
			before := tx.Column(50>>4, zs[0]>>4)
			for _, z := range zs {
				require.NoError(t, s.set(tx, world.Pos(50, 64, z), block))
			}
			require.Same(t, before, tx.Column(50>>4, zs[0]>>4), "the edit is written in place")
		})
	}
	// Through the gap at z 40–41: about 105 blocks, against 167 through
	// the one at z 80–81; within 2 % of the exact search's cost. A
	// planner that missed the edit still finds the gap, but dearer: its
	// exact legs see it, its portals do not.
	setFence("minecraft:air", 40, 41)
	var best path.Result
	s.state.Update(func(tx *world.Tx) {
		best, err = path.NewFinder().Find(grid{s, tx}, world.Pos(90, 64, 8), path.At(home), path.Options{MaxNodes: 1_000_000})
	})
	require.NoError(t, err)
	require.True(t, best.Complete)
	r = exec(t, s, action.MoveTo{Pos: home})
	require.True(t, r.OK(), r.Error)
	assert.LessOrEqual(t, float64(r.Ticks), math.Ceil(best.Cost*1.02), "through the gap opened at z 40–41, %.1f ticks at best", best.Cost)
	assert.Same(t, router, s.routes.router, "the same planner plans the second route")
	rebuilt := router.Stats().Regions - built
	assert.Positive(t, rebuilt, "the long-route planner planned the route and rebuilt the edited column's regions")
	assert.Less(t, rebuilt, built, "only the edited column's regions are rebuilt")

	setFence("minecraft:fence", 80, 81, 40, 41)
	r = exec(t, s, action.MoveTo{Pos: far})
	require.True(t, r.OK(), r.Error)
	assert.Positive(t, r.Details["dug"], "every gap is closed: no walk crosses, the route breaks through the fence: %+v", r)
}

// TestMoveToLongRouteSeesEditsAtTheFarEdge: the kept planner builds
// nothing again for routes over unchanged columns; edits in the last
// column of the world along x and along z (a world 96 blocks wide has
// columns 0-5) are seen by it too; and a route with another node budget
// gets a planner of its own.
func TestMoveToLongRouteSeesEditsAtTheFarEdge(t *testing.T) {
	defer func(n int) { moveMaxNodes = n }(moveMaxNodes)
	// at places a point of the fence line's axis (a, along the fence) and
	// the crossing axis (b).
	for _, tc := range []struct {
		name string
		at   func(a, b int) world.BlockPos
	}{
		{"along z at x 85", func(a, b int) world.BlockPos { return world.Pos(b, 64, a) }},
		{"along x at z 85", func(a, b int) world.BlockPos { return world.Pos(a, 64, b) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			moveMaxNodes = 150
			p0, p1, p2 := tc.at(0, 85), tc.at(79, 85), tc.at(82, 85)
			p3 := tc.at(95, 85)
			sc, err := ParseScenario("t.yaml", fmt.Appendf(nil, `name: t
size: {x: 96, z: 96}
player:
  pos: [8, 64, 8]
blocks:
  - {block: minecraft:fence, from: [%d, 64, %d], to: [%d, 64, %d]}
  - {block: minecraft:fence, from: [%d, 64, %d], to: [%d, 64, %d]}
`, p0.X, p0.Z, p1.X, p1.Z, p2.X, p2.Z, p3.X, p3.Z))
			require.NoError(t, err)
			s, err := New(sc, Options{})
			require.NoError(t, err)
			far, home := tc.at(8, 92), tc.at(8, 8)
			r := exec(t, s, action.MoveTo{Pos: far})
			require.True(t, r.OK(), r.Error)
			require.NotNil(t, s.routes)
			router := s.routes.router
			// There and back again without edits: the kept regions serve,
			// none is built again.
			r = exec(t, s, action.MoveTo{Pos: home})
			require.True(t, r.OK(), r.Error)
			built := router.Stats().Regions
			r = exec(t, s, action.MoveTo{Pos: far})
			require.True(t, r.OK(), r.Error)
			require.Equal(t, built, router.Stats().Regions, "no edit, no region built again")

			s.state.Update(func(tx *world.Tx) {
				for _, a := range []int{40, 41} {
					require.NoError(t, s.set(tx, tc.at(a, 85), "minecraft:air"))
				}
			})
			var best path.Result
			s.state.Update(func(tx *world.Tx) {
				best, err = path.NewFinder().Find(grid{s, tx}, far, path.At(home), path.Options{MaxNodes: 1_000_000})
			})
			require.NoError(t, err)
			require.True(t, best.Complete)
			r = exec(t, s, action.MoveTo{Pos: home})
			require.True(t, r.OK(), r.Error)
			assert.LessOrEqual(t, float64(r.Ticks), math.Ceil(best.Cost*1.02), "through the gap opened at 40–41, %.1f ticks at best", best.Cost)
			assert.Same(t, router, s.routes.router)
			assert.Greater(t, router.Stats().Regions, built, "the edited column's regions are rebuilt")

			moveMaxNodes = 300
			r = exec(t, s, action.MoveTo{Pos: far})
			require.True(t, r.OK(), r.Error)
			assert.NotSame(t, router, s.routes.router, "another node budget, another planner")
			assert.Equal(t, 300, s.routes.maxNodes)
		})
	}
}
