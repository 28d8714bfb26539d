package path

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// routeFrom is a route of dist blocks from (x, z) at a bearing (radians
// from +x) on the tiled world.
func routeFrom(x, z, dist int, bearing float64) (world.BlockPos, world.BlockPos) {
	tx := x + int(math.Round(float64(dist)*math.Cos(bearing)))
	tz := z + int(math.Round(float64(dist)*math.Sin(bearing)))
	return tiledStand(x, z), tiledStand(tx, tz)
}

// TestRouterNearOptimal checks routes on the tiled world (hills, trees,
// the pond and the walls with their gaps) against the exact A*: complete,
// valid step by step, and at most 2 % dearer.
func TestRouterNearOptimal(t *testing.T) {
	g := tiled()
	r, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	f := NewFinder()
	for _, c := range []struct {
		x, z, dist int
		bearing    float64
	}{
		{20, 30, 150, 0.35},   // across the wall at x=128, through its gap
		{100, 200, 260, 0},    // along z=200, through the gap at z 220–221
		{300, 40, 220, 1.3},   // mostly +z, over hills
		{500, 500, 240, 3.6},  // -x -z, across the mirrored copy
		{60, 170, 120, -0.15}, // past the pond
		{20, 30, 1000, 0.35},  // a long route: the portal search keeps to a corridor
		{600, 700, 600, 4.2},  // another corridor through regions the first one cached
	} {
		from, to := routeFrom(c.x, c.z, c.dist, c.bearing)
		t.Run(fmt.Sprintf("%v→%v", from, to), func(t *testing.T) {
			rt, err := r.Find(from, At(to))
			require.NoError(t, err)
			require.True(t, rt.Complete, "%s", rt.Reason)
			assert.Positive(t, rt.AbstractExpanded, "the route must come from the portals, not the exact search alone")
			assert.Equal(t, c.dist >= corridorFrom, rt.Corridor, "a long route's portal search keeps to its corridor")
			checkPath(t, g, rt.Result, Options{})
			assert.Equal(t, to, rt.Steps[len(rt.Steps)-1].Pos)
			ex, err := f.Find(g, from, At(to), Options{MaxNodes: 5_000_000})
			require.NoError(t, err)
			require.True(t, ex.Complete)
			ratio := rt.Cost / ex.Cost
			t.Logf("router %.1f ticks (%d portals, %d leg nodes), exact %.1f ticks (%d nodes): ratio %.4f",
				rt.Cost, rt.AbstractExpanded, rt.LegExpanded, ex.Cost, ex.Expanded, ratio)
			assert.GreaterOrEqual(t, ratio, 1-1e-9, "cheaper than the optimum: the costs are wrong")
			assert.LessOrEqual(t, ratio, 1.02)
		})
	}
}

// wallWorld is a flat world with a wall across x = wx (y 1..3) and a
// two-block gap at z gz, gz+1.
func wallWorld(n, wx, gz int) *testGrid {
	g := flatWorld(n)
	for z := 0; z < n; z++ {
		if z == gz || z == gz+1 {
			continue
		}
		for y := 1; y < 4; y++ {
			g.set(wx, y, z, Solid)
		}
	}
	return g
}

// TestRouterInvalidation walls up the gap a cached route went through and
// opens another: after InvalidateBlock the route takes the new gap. The
// wall is inside a region and on either side of a region border, where the
// border's portals must be rebuilt too.
func TestRouterInvalidation(t *testing.T) {
	for _, wx := range []int{40, 47, 48} {
		t.Run(fmt.Sprintf("wall at x=%d", wx), func(t *testing.T) {
			g := wallWorld(96, wx, 50)
			r, err := NewRouter(g, RouteOptions{Near: 1})
			require.NoError(t, err)
			from, to := world.Pos(10, 1, 10), world.Pos(85, 1, 10)
			first, err := r.Find(from, At(to))
			require.NoError(t, err)
			require.True(t, first.Complete)
			assert.True(t, passes(first, wx, 50, 51), "the first route goes through the gap at z 50–51")

			for _, z := range []int{50, 51} {
				for y := 1; y < 4; y++ {
					g.set(wx, y, z, Solid)
					r.InvalidateBlock(wx, y, z)
				}
			}
			for _, z := range []int{90, 91} {
				for y := 1; y < 4; y++ {
					g.set(wx, y, z, Passable)
					r.InvalidateBlock(wx, y, z)
				}
			}
			again, err := r.Find(from, At(to))
			require.NoError(t, err)
			require.True(t, again.Complete, "%s", again.Reason)
			checkPath(t, g, again.Result, Options{})
			assert.True(t, passes(again, wx, 90, 91), "the new route goes through the gap at z 90–91")
			ex, err := Find(g, from, At(to), Options{})
			require.NoError(t, err)
			assert.LessOrEqual(t, again.Cost, ex.Cost*1.02)
		})
	}
}

// passes reports whether a route steps into column x at one of the zs.
func passes(rt Route, x int, zs ...int) bool {
	for _, s := range rt.Steps {
		for _, z := range zs {
			if s.Pos.X == x && s.Pos.Z == z {
				return true
			}
		}
	}
	return false
}

// TestRouterFrontier plans toward a goal in unloaded terrain: the route
// ends on the edge of the loaded columns, at the point that is best for
// the start-to-frontier cost plus the straight estimate beyond — here the
// +z edge, not the +x edge nearest the goal, which lies behind a wall.
func TestRouterFrontier(t *testing.T) {
	g := wallWorld(96, 30, 5)
	maxCX := 2
	loaded := func(cx, cz int) bool { return cx >= 0 && cx <= maxCX && cz >= 0 && cz <= 5 }
	r, err := NewRouter(g, RouteOptions{Loaded: loaded})
	require.NoError(t, err)
	from, goal := world.Pos(10, 1, 80), world.Pos(150, 1, 90)
	rt, err := r.Find(from, At(goal))
	require.NoError(t, err)
	assert.False(t, rt.Complete)
	require.Equal(t, ReachedFrontier, rt.Reason)
	checkPath(t, g, rt.Result, Options{})
	end := rt.Steps[len(rt.Steps)-1].Pos
	for _, s := range rt.Steps {
		require.True(t, loaded(s.Pos.X>>4, s.Pos.Z>>4), "step %v is in an unloaded column", s.Pos)
	}
	assert.Equal(t, 95, end.Z, "the route ends on the +z edge, ended at %v", end)

	// Brute force over the frontier candidates: the exact cost to each plus
	// the heuristic beyond.
	h := moveGen(t, g, Options{}, At(goal))
	score := func(p world.BlockPos) float64 {
		res, err := Find(g, from, At(p), Options{})
		require.NoError(t, err)
		require.True(t, res.Complete)
		return res.Cost + float64(h.heuristic(p.X, p.Y, p.Z))/milli
	}
	best := math.Inf(1)
	for c := 0; c <= 5; c++ {
		for _, t0 := range representatives(regionSide, DefaultSpacing) {
			if c <= 2 {
				best = min(best, score(world.Pos(c*16+t0, 1, 95)))
			}
			best = min(best, score(world.Pos(47, 1, c*16+t0)))
		}
	}
	got := rt.Cost + float64(h.heuristic(end.X, end.Y, end.Z))/milli
	assert.LessOrEqual(t, got, best*1.02, "frontier point %v scores %.1f, the best candidate %.1f", end, got, best)
	nearest := score(world.Pos(47, 1, 89))
	assert.Greater(t, nearest, got*1.2, "the test needs the +x edge to be a clearly worse choice")

	// Once the columns up to a goal load, the cached router completes the
	// route: the new columns and the old frontier are rebuilt.
	maxCX = 5
	for cz := 0; cz <= 5; cz++ {
		for cx := 3; cx <= 5; cx++ {
			r.InvalidateColumn(cx, cz)
		}
	}
	full, err := r.Find(from, At(world.Pos(90, 1, 90)))
	require.NoError(t, err)
	assert.True(t, full.Complete, "%s", full.Reason)
	checkPath(t, g, full.Result, Options{})
}

// TestRouterLoadedGoalUnreachable: a goal in loaded terrain that no walk
// reaches (a block where the head would be, as under a tree trunk whose
// lowest log was just broken) is unreachable: the partial path ends near
// it, never at the edge of the loaded terrain (32 blocks away), although
// the terrain has a frontier and the search reached it.
func TestRouterLoadedGoalUnreachable(t *testing.T) {
	g := flatWorld(96)
	loaded := func(cx, cz int) bool { return cx >= 0 && cx <= 2 && cz >= 0 && cz <= 2 }
	for _, c := range []struct{ from, goal world.BlockPos }{
		{world.Pos(11, 1, 8), world.Pos(12, 1, 8)},  // next to it: the exact search alone
		{world.Pos(40, 1, 40), world.Pos(12, 1, 8)}, // far enough for the portals
	} {
		g.set(c.goal.X, 2, c.goal.Z, Solid)
		r, err := NewRouter(g, RouteOptions{Loaded: loaded})
		require.NoError(t, err)
		rt, err := r.Find(c.from, At(c.goal))
		require.NoError(t, err)
		assert.False(t, rt.Complete)
		assert.Equal(t, Unreachable, rt.Reason, "from %v", c.from)
		end := rt.Steps[len(rt.Steps)-1].Pos
		// The exact search ends next to it; the portal search at the
		// portal nearest to it.
		assert.LessOrEqual(t, max(abs(end.X-c.goal.X), abs(end.Z-c.goal.Z)), 4, "from %v the path ends near the goal, at %v", c.from, end)
		checkPath(t, g, rt.Result, Options{})
	}
}

// TestRouterRadiusGoal: a goal with a radius that reaches into the next
// regions (and is not standable itself) ends within the radius, at a cost
// close to the exact search's.
func TestRouterRadiusGoal(t *testing.T) {
	g := tiled()
	r, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	from, to := routeFrom(20, 30, 300, 0.5)
	goal := Near(to.Add(0, 5, 0), 6) // in the air above the ground, 6 blocks around
	rt, err := r.Find(from, goal)
	require.NoError(t, err)
	require.True(t, rt.Complete, "%s", rt.Reason)
	checkPath(t, g, rt.Result, Options{})
	assert.True(t, goal.Reached(rt.Steps[len(rt.Steps)-1].Pos))
	ex, err := Find(g, from, goal, Options{MaxNodes: 5_000_000})
	require.NoError(t, err)
	require.True(t, ex.Complete)
	assert.LessOrEqual(t, rt.Cost, ex.Cost*1.02)
	assert.GreaterOrEqual(t, rt.Cost, ex.Cost-1e-9)
}
