package path

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestNewRouterRejectsOptions: a Router plans walking routes only, and
// its spacing, window, near distance and weight cannot be negative.
func TestNewRouterRejectsOptions(t *testing.T) {
	g := flatWorld(32)
	for name, opt := range map[string]RouteOptions{
		"dig":      {Options: Options{Dig: true}},
		"place":    {Options: Options{Place: true}},
		"spacing":  {Spacing: -1},
		"window":   {Window: -1},
		"near":     {Near: -1},
		"weight":   {Weight: -0.5},
		"max drop": {Options: Options{MaxDrop: -1}},
	} {
		_, err := NewRouter(g, opt)
		assert.Error(t, err, name)
	}
	_, err := NewRouter(g, RouteOptions{Weight: -0.5})
	assert.ErrorContains(t, err, "Weight -0.5")
	_, err = NewRouter(g, RouteOptions{Corridor: -1, Weight: 1})
	assert.NoError(t, err, "a negative corridor turns the corridor off")
}

// TestRouterStartHeights: a start outside the build height is an error,
// not a search.
func TestRouterStartHeights(t *testing.T) {
	r, err := NewRouter(flatWorld(32), RouteOptions{})
	require.NoError(t, err)
	for _, y := range []int{RouteMinY - 1, RouteMaxY + 1} {
		_, err := r.Find(world.Pos(5, y, 5), At(world.Pos(20, 1, 5)))
		assert.Error(t, err, "start at y %d", y)
	}
	rt, err := r.Find(world.Pos(5, 1, 5), At(world.Pos(20, 1, 5)))
	require.NoError(t, err)
	assert.True(t, rt.Complete)
}

// TestRouterNearIsExact: up to RouteOptions.Near blocks (Chebyshev, XZ),
// the exact search alone plans the route, in one leg; one block farther
// the portals do.
func TestRouterNearIsExact(t *testing.T) {
	g := flatWorld(120)
	r, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	from := world.Pos(5, 1, 5)
	near, err := r.Find(from, At(world.Pos(5+DefaultNear, 1, 30)))
	require.NoError(t, err)
	require.True(t, near.Complete)
	assert.Zero(t, near.AbstractExpanded, "a route of DefaultNear blocks is the exact search's")
	assert.Equal(t, 1, near.Legs)
	assert.Equal(t, near.LegExpanded, near.Expanded)
	ex, err := Find(g, from, At(world.Pos(5+DefaultNear, 1, 30)), Options{})
	require.NoError(t, err)
	assert.Equal(t, ex.Cost, near.Cost)

	far, err := r.Find(from, At(world.Pos(6+DefaultNear, 1, 30)))
	require.NoError(t, err)
	require.True(t, far.Complete)
	assert.Positive(t, far.AbstractExpanded, "a route one block longer goes over the portals")
	assert.GreaterOrEqual(t, far.Legs, 2)
	assert.Equal(t, far.CoarseExpanded+far.AbstractExpanded+far.LegExpanded, far.Expanded)
	assert.Positive(t, far.RegionsBuilt)

	again, err := r.Find(from, At(world.Pos(6+DefaultNear, 1, 30)))
	require.NoError(t, err)
	assert.Zero(t, again.RegionsBuilt, "the second route reuses the regions")
	assert.Equal(t, far.Cost, again.Cost)
}

// TestRouterCorridorFrom: a route of 256 blocks (corridorFrom; Chebyshev, XZ)
// lays out a corridor with the greedy search and keeps its portal search
// to it; one block shorter it searches every region.
func TestRouterCorridorFrom(t *testing.T) {
	g := flatWorld(280)
	r, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	from := world.Pos(5, 1, 5)
	long, err := r.Find(from, At(world.Pos(5+256, 1, 40)))
	require.NoError(t, err)
	require.True(t, long.Complete)
	assert.True(t, long.Corridor)
	assert.Positive(t, long.CoarseExpanded, "the greedy search expanded portals")
	assert.Positive(t, long.AbstractExpanded, "and so did the search in the corridor")
	assert.Equal(t, long.CoarseExpanded+long.AbstractExpanded+long.LegExpanded, long.Expanded)

	short, err := r.Find(from, At(world.Pos(4+256, 1, 40)))
	require.NoError(t, err)
	require.True(t, short.Complete)
	assert.False(t, short.Corridor)
	assert.Zero(t, short.CoarseExpanded)
}

// TestRouterNearGoalInUnloadedColumn: a goal within RouteOptions.Near but
// in a column that is not loaded is approached through the frontier, even
// when the grid could answer for its cells: a route never enters a column
// Loaded denies.
func TestRouterNearGoalInUnloadedColumn(t *testing.T) {
	g := flatWorld(64)
	loaded := func(cx, cz int) bool { return cx <= 1 && cz <= 1 }
	r, err := NewRouter(g, RouteOptions{Loaded: loaded})
	require.NoError(t, err)
	rt, err := r.Find(world.Pos(20, 1, 10), At(world.Pos(40, 1, 10)))
	require.NoError(t, err)
	assert.False(t, rt.Complete)
	assert.Equal(t, ReachedFrontier, rt.Reason)
	for _, s := range rt.Steps {
		require.True(t, loaded(s.Pos.X>>4, s.Pos.Z>>4), "step %v is in an unloaded column", s.Pos)
	}
	assert.Equal(t, 31, rt.Steps[len(rt.Steps)-1].Pos.X, "the route ends on the +x edge of the loaded columns")
}

// TestRouterStartInUnloadedColumn: a start in a column that is not loaded
// builds no region there and goes nowhere.
func TestRouterStartInUnloadedColumn(t *testing.T) {
	g := flatWorld(96)
	loaded := func(cx, cz int) bool { return cx != 2 }
	r, err := NewRouter(g, RouteOptions{Loaded: loaded})
	require.NoError(t, err)
	assert.Nil(t, r.regionAt(regionKey{2, 0}), "an unloaded column is no region")
	rt, err := r.Find(world.Pos(40, 1, 10), At(world.Pos(90, 1, 90)))
	require.NoError(t, err)
	assert.False(t, rt.Complete)
	assert.Len(t, rt.Steps, 1, "no step from a start in an unloaded column: %v", rt.Path())
	for k := range r.regions {
		assert.True(t, loaded(k.cx, k.cz), "region %v is cached but not loaded", k)
	}
}

// TestRouterStartOnTheOnlyPortal: a start that is itself a portal — here
// the one way out of a pocket on a region's edge — leaves by that portal's
// links.
func TestRouterStartOnTheOnlyPortal(t *testing.T) {
	g := flatWorld(80)
	wall := func(x, z int) {
		for y := 1; y < 4; y++ {
			g.set(x, y, z, Solid)
		}
	}
	for z := 0; z < 16; z++ {
		wall(14, z)
	}
	wall(15, 6)
	wall(15, 8)
	from := world.Pos(15, 1, 7)
	r, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	rg := r.regionAt(regionKey{0, 0})
	_, isPortal := rg.index[from]
	require.True(t, isPortal, "the start must be a portal for this test")
	rt, err := r.Find(from, At(world.Pos(70, 1, 60)))
	require.NoError(t, err)
	require.True(t, rt.Complete, "%s", rt.Reason)
	checkPath(t, g, rt.Result, Options{})
	assert.Positive(t, rt.AbstractExpanded)
}

// TestRouterRadiusGoalOverWalledRegion: the goal's own region is walled
// off, but its radius reaches into the region west of it (or north of it),
// where the route ends.
func TestRouterRadiusGoalOverWalledRegion(t *testing.T) {
	g := flatWorld(128)
	for i := 80; i < 96; i++ {
		for y := 1; y < 4; y++ {
			g.set(80, y, i, Solid).set(95, y, i, Solid).set(i, y, 80, Solid).set(i, y, 95, Solid)
		}
	}
	r, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	for _, c := range []struct {
		goal Target
		end  regionKey
	}{
		{Near(world.Pos(81, 1, 88), 4), regionKey{4, 5}},
		{Near(world.Pos(88, 1, 81), 4), regionKey{5, 4}},
	} {
		rt, err := r.Find(world.Pos(10, 1, 10), c.goal)
		require.NoError(t, err)
		require.True(t, rt.Complete, "%v: %s", c.goal, rt.Reason)
		checkPath(t, g, rt.Result, Options{})
		end := rt.Steps[len(rt.Steps)-1].Pos
		assert.True(t, c.goal.Reached(end))
		assert.Equal(t, c.end, regionOf(end.X, end.Z), "the goal's region is walled off")
	}
}

// TestRouterOneWayDrop: the only way east is a drop off a cliff on a
// region border (one region wide, so no other border leads into the
// region below); the landings are portals of the region they land in.
func TestRouterOneWayDrop(t *testing.T) {
	g := newTestGrid(96, 8, 16)
	for x := 0; x < 96; x++ {
		for z := 0; z < 16; z++ {
			top := 1
			if x < 16 {
				top = 4 // a plateau three blocks up
			}
			g.column(x, z, top)
		}
	}
	r, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	from, to := world.Pos(5, 4, 10), world.Pos(80, 1, 12)
	rt, err := r.Find(from, At(to))
	require.NoError(t, err)
	require.True(t, rt.Complete, "%s", rt.Reason)
	checkPath(t, g, rt.Result, Options{})
	assert.Positive(t, rt.AbstractExpanded)
	back, err := r.Find(to, At(from))
	require.NoError(t, err)
	assert.False(t, back.Complete, "no way back up")
}

// TestRouterNodeBudget: with a node budget the exact search alone cannot
// meet (a wall in the way), the portals carry a near route, each leg
// within the budget, falling back to the next portal when a leg to a
// farther one runs out of nodes; a budget too small for any leg ends the
// route with that leg's reason.
func TestRouterNodeBudget(t *testing.T) {
	g := wallWorld(128, 25, 100)
	from, to := world.Pos(10, 1, 10), world.Pos(40, 1, 10)
	ex, err := Find(g, from, At(to), Options{MaxNodes: 200})
	require.NoError(t, err)
	require.False(t, ex.Complete, "the test needs the exact search to run out of nodes")
	r, err := NewRouter(g, RouteOptions{Options: Options{MaxNodes: 200}})
	require.NoError(t, err)
	rt, err := r.Find(from, At(to))
	require.NoError(t, err)
	require.True(t, rt.Complete, "%s", rt.Reason)
	checkPath(t, g, rt.Result, Options{})
	assert.True(t, passes(rt, 25, 100, 101))
	full, err := Find(g, from, At(to), Options{})
	require.NoError(t, err)
	assert.LessOrEqual(t, rt.Cost, full.Cost*1.02)

	tiny, err := NewRouter(g, RouteOptions{Options: Options{MaxNodes: 2}})
	require.NoError(t, err)
	rt, err = tiny.Find(from, At(to))
	require.NoError(t, err)
	assert.False(t, rt.Complete)
	assert.Equal(t, NodeBudget, rt.Reason)
	checkPath(t, g, rt.Result, Options{})
}

// TestRouterCorridorAndWeightExpandFewer: on a long route, the portal
// search kept to the corridor expands and builds fewer portals and
// regions than the search over all regions, at the same cost here, and a
// weighted search fewer again, at most Weight times dearer.
func TestRouterCorridorAndWeightExpandFewer(t *testing.T) {
	g := tiled()
	from, to := routeFrom(20, 30, 1000, 0.35)
	route := func(o RouteOptions) Route {
		r, err := NewRouter(g, o)
		require.NoError(t, err)
		rt, err := r.Find(from, At(to))
		require.NoError(t, err)
		require.True(t, rt.Complete, "%+v: %s", o, rt.Reason)
		return rt
	}
	all := route(RouteOptions{Corridor: -1})
	corr := route(RouteOptions{})
	weighted := route(RouteOptions{Corridor: -1, Weight: 1.5})
	t.Logf("portals expanded: all regions %d, corridor %d (+%d greedy), weighted %d; regions built %d, %d, %d",
		all.AbstractExpanded, corr.AbstractExpanded, corr.CoarseExpanded, weighted.AbstractExpanded,
		all.RegionsBuilt, corr.RegionsBuilt, weighted.RegionsBuilt)
	assert.False(t, all.Corridor)
	assert.True(t, corr.Corridor)
	assert.Less(t, corr.AbstractExpanded, all.AbstractExpanded*8/10)
	assert.Less(t, corr.RegionsBuilt, all.RegionsBuilt*8/10)
	assert.InDelta(t, all.Cost, corr.Cost, all.Cost*0.01)
	assert.Less(t, weighted.AbstractExpanded, all.AbstractExpanded/4)
	assert.LessOrEqual(t, weighted.Cost, all.Cost*1.5)
}

// TestRouterInvalidationMatchesFresh: after blocks change, a cached router
// plans the same route as a new one over the changed grid — here through
// a gap opened on the straight line, in a wall inside a region and on
// either side of a region border.
func TestRouterInvalidationMatchesFresh(t *testing.T) {
	for _, wx := range []int{40, 47, 48} {
		g := wallWorld(96, wx, 80)
		r, err := NewRouter(g, RouteOptions{Near: 1})
		require.NoError(t, err)
		from, to := world.Pos(10, 1, 12), world.Pos(85, 1, 12)
		first, err := r.Find(from, At(to))
		require.NoError(t, err)
		require.True(t, first.Complete)
		require.True(t, passes(first, wx, 80, 81))
		for _, z := range []int{12, 13} {
			for y := 1; y < 4; y++ {
				g.set(wx, y, z, Passable)
				r.InvalidateBlock(wx, y, z)
			}
		}
		again, err := r.Find(from, At(to))
		require.NoError(t, err)
		fr, err := NewRouter(g, RouteOptions{Near: 1})
		require.NoError(t, err)
		fresh, err := fr.Find(from, At(to))
		require.NoError(t, err)
		require.True(t, fresh.Complete)
		assert.Equal(t, fresh.Steps, again.Steps, "wall at x=%d", wx)
		assert.True(t, passes(again, wx, 12, 13), "wall at x=%d", wx)
	}
}

// TestRouterBordersOfUnloadedColumns: a border with an unloaded column on
// either side has no links, and no cached region links into an unloaded
// one: routes reach unloaded terrain only through frontier points.
func TestRouterBordersOfUnloadedColumns(t *testing.T) {
	g := flatWorld(96)
	loaded := func(cx, cz int) bool { return cx >= 0 && cx <= 2 && cz >= 0 && cz <= 5 }
	r, err := NewRouter(g, RouteOptions{Loaded: loaded})
	require.NoError(t, err)
	rt, err := r.Find(world.Pos(10, 1, 80), At(world.Pos(90, 1, 20)))
	require.NoError(t, err)
	require.Equal(t, ReachedFrontier, rt.Reason)
	hiOf := func(bk borderKey) regionKey {
		if bk.axis == 0 {
			return regionKey{bk.k.cx + 1, bk.k.cz}
		}
		return regionKey{bk.k.cx, bk.k.cz + 1}
	}
	edge := 0
	for bk, b := range r.borders {
		if !loaded(bk.k.cx, bk.k.cz) || !loaded(hiOf(bk).cx, hiOf(bk).cz) {
			edge++
			assert.Empty(t, b.links, "border %v touches an unloaded column", bk)
		}
	}
	assert.Positive(t, edge, "the route must have built borders with unloaded columns")
	for k, rg := range r.regions {
		for i, ls := range rg.out {
			for _, l := range ls {
				to := regionOf(l.to.X, l.to.Z)
				assert.True(t, loaded(to.cx, to.cz), "region %v portal %v links into unloaded %v", k, rg.portals[i], to)
			}
		}
	}
}

// TestRegionAtBuildHeight: moves from the top of the build height to above
// it stay out of a region's graph (whose positions are numbered up to
// RouteMaxY): its rows are the costs the start's local search finds.
func TestRegionAtBuildHeight(t *testing.T) {
	g := GridFunc(func(x, y, z int) Cell {
		switch {
		case y <= RouteMaxY-1:
			return Solid
		case y == RouteMaxY && x >= 3 && x <= 6 && z >= 3 && z <= 6:
			return Solid // a step onto the last layer: feet at 256 above it
		}
		return Passable
	})
	r, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	k := regionKey{0, 0}
	rg := r.regionAt(k)
	require.NotEmpty(t, rg.portals)
	for i, p := range rg.portals {
		assert.Equal(t, r.localCosts(k, p, rg.portals), r.distRow(rg, int32(i)), "from %v", p)
	}
	rt, err := r.Find(world.Pos(1, RouteMaxY, 1), At(world.Pos(60, RouteMaxY, 50)))
	require.NoError(t, err)
	assert.True(t, rt.Complete, "%s", rt.Reason)
}

// TestRouterStampsWrap: the search stamps of the region graph and of the
// start's local search wrap around after 2³² uses without reading a stale
// position as current.
func TestRouterStampsWrap(t *testing.T) {
	g := tiled()
	ref, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	r, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	k := regionKey{7, 13}
	rg, rrg := r.regionAt(k), ref.regionAt(k)
	want := ref.distRow(rrg, 0)
	p := rrg.portals[len(rrg.portals)/2]
	wantLocal := ref.localCosts(k, p, rrg.portals)

	// Allocate the stamps with nothing stamped: every position still
	// holds stamp 0, which a wrapped counter must not take as current.
	r.rb.scratch.build(r.gen, k, nil, &r.rb.graph)
	r.rb.scratch.cur = math.MaxUint32
	r.local.reset()
	r.local.stamp = math.MaxUint32
	assert.Equal(t, want, r.distRow(rg, 0))
	assert.Equal(t, wantLocal, r.localCosts(k, p, rg.portals))
}

// TestCorridorOf: the corridor is every region within Corridor regions
// (Chebyshev) of the chain's portals.
func TestCorridorOf(t *testing.T) {
	r, err := NewRouter(flatWorld(8), RouteOptions{Corridor: 2})
	require.NoError(t, err)
	got := r.corridorOf([]world.BlockPos{world.Pos(165, 1, 170), world.Pos(175, 1, 170), world.Pos(176, 1, 170)})
	want := map[regionKey]bool{}
	for cx := 8; cx <= 13; cx++ {
		for cz := 8; cz <= 12; cz++ {
			want[regionKey{cx, cz}] = true
		}
	}
	assert.Equal(t, want, got)
}

// TestRouterZeroCostMoves: a cost model whose moves round to zero
// milli-ticks still routes over the portals (costs of 0 between two
// portals are costs, not "unreachable").
func TestRouterZeroCostMoves(t *testing.T) {
	g := flatWorld(96)
	opt := Options{Costs: Costs{Walk: 1e-6, Swim: 1e-6, Jump: 1e-6}}
	r, err := NewRouter(g, RouteOptions{Options: opt})
	require.NoError(t, err)
	from, to := world.Pos(5, 1, 5), world.Pos(90, 1, 80)
	rt, err := r.Find(from, At(to))
	require.NoError(t, err)
	require.True(t, rt.Complete, "%s", rt.Reason)
	assert.Positive(t, rt.AbstractExpanded)
	checkPath(t, g, rt.Result, opt)
}

// TestRouterWarmCacheSameSearch: a long route planned by a router that
// other routes have warmed (regions built, links resolved outside the
// corridor) is the same search as a new router's: the corridor holds
// however much is cached.
func TestRouterWarmCacheSameSearch(t *testing.T) {
	g := tiled()
	from, to := routeFrom(20, 30, 1000, 0.35)
	cold, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	want, err := cold.Find(from, At(to))
	require.NoError(t, err)
	warm, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	for _, p := range [][3]int{{100, 100, 0}, {300, 150, 1}, {500, 300, 2}, {700, 350, 3}, {400, 500, 4}} {
		a, b := routeFrom(p[0], p[1], 200, float64(p[2]))
		_, err := warm.Find(a, At(b))
		require.NoError(t, err)
	}
	got, err := warm.Find(from, At(to))
	require.NoError(t, err)
	assert.Equal(t, want.CoarseExpanded, got.CoarseExpanded)
	assert.Equal(t, want.AbstractExpanded, got.AbstractExpanded)
	assert.Equal(t, want.Steps, got.Steps)
}

// TestRouterSetGrid: after SetGrid and the invalidation of what changed, a
// router plans over the new grid — its move generator included — as a new
// router over that grid does.
func TestRouterSetGrid(t *testing.T) {
	walled := wallWorld(96, 40, 80)
	open := flatWorld(96)
	r, err := NewRouter(walled, RouteOptions{Near: 1})
	require.NoError(t, err)
	from, to := world.Pos(10, 1, 12), world.Pos(85, 1, 12)
	first, err := r.Find(from, At(to))
	require.NoError(t, err)
	require.True(t, passes(first, 40, 80, 81))
	r.SetGrid(open)
	for cx := 0; cx < 6; cx++ {
		for cz := 0; cz < 6; cz++ {
			r.InvalidateColumn(cx, cz)
		}
	}
	got, err := r.Find(from, At(to))
	require.NoError(t, err)
	fr, err := NewRouter(open, RouteOptions{Near: 1})
	require.NoError(t, err)
	want, err := fr.Find(from, At(to))
	require.NoError(t, err)
	require.True(t, want.Complete)
	assert.Equal(t, want.Steps, got.Steps)
	assert.Equal(t, want.AbstractExpanded, got.AbstractExpanded)
}

// TestStandHeightsAtTheBottom: a body may stand with its feet at RouteMinY
// when the feet cell holds its own floor (water, a carpet); on open air it
// needs the solid block below, which the void is not.
func TestStandHeightsAtTheBottom(t *testing.T) {
	for _, c := range []struct {
		bottom Cell
		want   []int
	}{{Water, []int{RouteMinY}}, {Low, []int{RouteMinY}}, {Passable, nil}} {
		g := GridFunc(func(x, y, z int) Cell {
			switch {
			case y < RouteMinY:
				return Unknown
			case y == RouteMinY:
				return c.bottom
			}
			return Passable
		})
		assert.Equal(t, c.want, standHeights(g, 0, 0, nil), "%v at the bottom", c.bottom)
	}
}
