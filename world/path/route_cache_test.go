package path

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// assertCacheFresh checks every border and region a Router has cached
// against a fresh build from the grid as it is now: no stale entry may
// survive an invalidation.
func assertCacheFresh(t *testing.T, r *Router) {
	t.Helper()
	fresh, err := NewRouter(r.grid, r.opt)
	require.NoError(t, err)
	for bk, b := range r.borders {
		assert.Equal(t, fresh.buildBorder(bk).links, b.links, "border %v is stale", bk)
	}
	for k, rg := range r.regions {
		st := rg.rows.Load()
		require.True(t, st == rowsNone || st == rowsDone, "region %v left with its costs queued or being computed (%d)", k, st)
		frg := fresh.regionAt(k)
		require.NotNil(t, frg, "region %v is cached but not loaded", k)
		assert.Equal(t, frg.portals, rg.portals, "portals of region %v are stale", k)
		assert.Equal(t, frg.frontier, rg.frontier, "frontier of region %v is stale", k)
		for i, row := range rg.dist {
			if row != nil {
				assert.Equal(t, fresh.distRow(frg, int32(i)), row, "costs of region %v are stale", k)
			}
		}
		assert.Equal(t, frg.out, rg.out, "links of region %v are stale", k)
		for i, ds := range rg.dest {
			for m, d := range ds {
				if d.rg == nil || d.rg.dropped {
					continue
				}
				assert.Same(t, r.regions[d.rg.k], d.rg, "link %v of region %v leads into a region no longer cached", rg.out[i][m], k)
				assert.Equal(t, rg.out[i][m].to, d.rg.portals[d.j], "link %v of region %v leads to another portal", rg.out[i][m], k)
			}
		}
	}
}

// TestRouterCacheInvalidation changes random blocks (many in the edge
// columns of regions, where borders are) and loads and unloads columns,
// invalidating each change, plans a route after each round and checks
// that everything cached matches a fresh build.
func TestRouterCacheInvalidation(t *testing.T) { cacheRounds(t, 0) }

// cacheRounds is TestRouterCacheInvalidation with the workers given; it
// returns the rows they computed.
func cacheRounds(t *testing.T, workers int) int {
	const n = 80
	rng := rand.New(rand.NewPCG(7, 9))
	g := flatWorld(n)
	for i := 0; i < 150; i++ {
		x, z := rng.IntN(n), rng.IntN(n)
		g.set(x, 1, z, Solid).set(x, 2, z, Solid)
	}
	unloaded := map[regionKey]bool{}
	r, err := NewRouter(shared{g}, RouteOptions{Near: 1, Workers: workers, Loaded: func(cx, cz int) bool { return !unloaded[regionKey{cx, cz}] }})
	require.NoError(t, err)
	worked := 0
	edge := []int{0, 15, 1, 14, 7}
	for round := 0; round < 40; round++ {
		for i := 0; i < 4; i++ {
			cx, cz := rng.IntN(n/16), rng.IntN(n/16)
			x, z := cx*16+edge[rng.IntN(len(edge))], cz*16+edge[rng.IntN(len(edge))]
			if rng.IntN(2) == 0 {
				x = cx*16 + rng.IntN(16)
			}
			c := Passable
			if g.Cell(x, 1, z) == Passable {
				c = Solid
			}
			y := 1 + rng.IntN(2)
			g.set(x, y, z, c)
			r.InvalidateBlock(x, y, z)
		}
		if round%5 == 4 {
			k := regionKey{rng.IntN(n / 16), rng.IntN(n / 16)}
			unloaded[k] = !unloaded[k]
			r.InvalidateColumn(k.cx, k.cz)
		}
		from, to := world.Pos(rng.IntN(n), 1, rng.IntN(n)), world.Pos(rng.IntN(n), 1, rng.IntN(n))
		if !standableAt(g, from.X, from.Y, from.Z) || unloaded[regionOf(from.X, from.Z)] {
			continue
		}
		rt, err := r.Find(from, At(to))
		require.NoError(t, err)
		worked += rt.WorkerRows
		if len(rt.Steps) > 1 {
			checkPath(t, g, rt.Result, Options{})
		}
		assertCacheFresh(t, r)
	}
	assert.NotEmpty(t, r.regions)
	return worked
}

// TestRegionCostsExact checks the cached abstraction of regions of the
// tiled world against independent searches: each cost between two
// portals of a region is the exhaustive search's over the region alone
// (the grid masked outside it), and each link is a move the move generator
// offers at that cost.
func TestRegionCostsExact(t *testing.T) {
	g := tiled()
	r, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	for _, k := range []regionKey{{7, 13}, {2, 3}, {3, 11}, {23, 18}} {
		rg := r.regionAt(k)
		require.NotNil(t, rg)
		require.NotEmpty(t, rg.portals)
		masked := GridFunc(func(x, y, z int) Cell {
			if regionOf(x, z) != k {
				return Unknown
			}
			return g.Cell(x, y, z)
		})
		for i, p := range rg.portals {
			dist := dijkstra(t, masked, p, Options{})
			for j, q := range rg.portals {
				want, ok := dist[q]
				if !ok {
					want = -1
				}
				assert.Equal(t, want, r.distRow(rg, int32(i))[j], "region %v: %v→%v", k, p, q)
			}
			f := moveGen(t, g, Options{}, At(p))
			for _, l := range rg.out[i] {
				found := false
				for _, m := range f.neighbors(p.X, p.Y, p.Z, g.Cell(p.X, p.Y, p.Z)) {
					found = found || (world.Pos(m.x, m.y, m.z) == l.to && m.cost == l.cost)
				}
				assert.True(t, found, "link %v→%v at %d is no move", l.from, l.to, l.cost)
				assert.NotEqual(t, k, regionOf(l.to.X, l.to.Z), "a link leaves the region")
			}
		}
	}
}

func TestRepresentatives(t *testing.T) {
	for _, c := range []struct {
		n, spacing int
		want       []int
	}{
		{0, 8, nil}, {1, 8, []int{0}}, {2, 8, []int{0, 1}}, {10, 8, []int{0, 9}},
		{16, 8, []int{0, 8, 15}}, {16, 4, []int{0, 4, 8, 12, 15}}, {13, 4, []int{0, 4, 8, 12}},
	} {
		assert.Equal(t, c.want, representatives(c.n, c.spacing), "n %d spacing %d", c.n, c.spacing)
	}
}

// TestBenchGridColumn checks ColumnGrid.Column against Cell, inside the
// world, outside it and across both height bounds, and that standHeights
// finds the same heights through either.
func TestBenchGridColumn(t *testing.T) {
	g := NewBenchGrid(sharedWorld())
	out := make([]Cell, routeH+3)
	for _, c := range [][2]int{{0, 0}, {17, 200}, {255, 255}, {128, 64}, {-1, 5}, {5, 256}, {256, 5}, {256, 255}, {300, -20}} {
		x, z := c[0], c[1]
		g.Column(x, z, RouteMinY-1, out)
		for i, got := range out {
			require.Equal(t, g.Cell(x, RouteMinY-1+i, z), got, "column (%d, %d) at y %d", x, z, RouteMinY-1+i)
		}
		cellOnly := GridFunc(g.Cell)
		assert.Equal(t, standHeights(cellOnly, x, z, nil), standHeights(g, x, z, nil), "column (%d, %d)", x, z)
	}
	assert.NotEmpty(t, standHeights(g, 17, 200, nil))
}

// TestRegionCostsQueues checks the bucket queue (dial) against the binary
// heap (dijkstra) on every portal of regions of the tiled world, and that
// a cost model whose cheapest move rounds to zero milli-ticks, which the
// buckets cannot take, still gets exact costs from the heap.
func TestRegionCostsQueues(t *testing.T) {
	g := tiled()
	r, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	for _, k := range []regionKey{{7, 13}, {2, 3}, {3, 11}, {23, 18}, {8, 0}} {
		rg := r.regionAt(k)
		gr := &portalGraph{}
		r.rb.scratch.build(r.gen, k, rg.portals, gr)
		require.GreaterOrEqual(t, gr.lo, int64(1))
		for i := range rg.portals {
			a, b := make([]int64, len(rg.portals)), make([]int64, len(rg.portals))
			r.rb.scratch.dial(gr, int32(i), a)
			r.rb.scratch.dijkstra(gr, int32(i), b)
			require.Equal(t, b, a, "region %v portal %d", k, i)
		}
	}

	cheap, err := NewRouter(g, RouteOptions{Options: Options{Costs: Costs{Walk: 1e-6, Swim: 1e-6, Jump: 1e-6}}})
	require.NoError(t, err)
	k := regionKey{7, 13}
	rg := cheap.regionAt(k)
	gr := &portalGraph{}
	cheap.rb.scratch.build(cheap.gen, k, rg.portals, gr)
	require.Zero(t, gr.lo, "the cost model must give moves of zero milli-ticks")
	masked := GridFunc(func(x, y, z int) Cell {
		if regionOf(x, z) != k {
			return Unknown
		}
		return g.Cell(x, y, z)
	})
	for i, p := range rg.portals {
		dist := dijkstra(t, masked, p, cheap.opt.Options)
		for j, q := range rg.portals {
			want, ok := dist[q]
			if !ok {
				want = -1
			}
			assert.Equal(t, want, cheap.distRow(rg, int32(i))[j], "%v→%v", p, q)
		}
	}
}

// fullScanBorder is buildBorder reading both columns of each offset whole
// (standHeights on each side), as it did before crossHeights: the
// reference for buildBorder, which reads the far column only near the
// heights that can cross.
func fullScanBorder(r *Router, bk borderKey) *border {
	return r.scanBorder(bk, func(x, z int, _, dst []int) []int { return standHeights(r.grid, x, z, dst) })
}

// TestBorderReadsNearCrossings checks the borders of rough random worlds
// (water, lava, pits, pillars, slabs, carpets, fences, overhangs), of the
// tiled world and of the wall world, with drops of 1 to 6 blocks, against
// full scans of both columns.
func TestBorderReadsNearCrossings(t *testing.T) {
	type testWorld struct {
		name string
		g    Grid
		n    int // regions along x and z
	}
	worlds := []testWorld{{"tiled", tiled(), 20}, {"wall", wallWorld(64, 40, 20), 4}}
	for seed := uint64(0); seed < 8; seed++ {
		worlds = append(worlds, testWorld{fmt.Sprintf("random %d", seed), randomWorld(seed, 48, 48), 3})
	}
	links := 0
	for _, w := range worlds {
		for _, drop := range []int{1, 3, 6} {
			r, err := NewRouter(w.g, RouteOptions{Options: Options{MaxDrop: drop}})
			require.NoError(t, err)
			for cx := 0; cx < w.n; cx++ {
				for cz := 0; cz < w.n; cz++ {
					for axis := uint8(0); axis < 2; axis++ {
						bk := borderKey{regionKey{cx, cz}, axis}
						got := r.buildBorder(bk).links
						require.Equal(t, fullScanBorder(r, bk).links, got, "%s, drop %d, border %v", w.name, drop, bk)
						links += len(got)
					}
				}
			}
		}
	}
	assert.Greater(t, links, 1000)
}

// TestDialRandomGraphs checks the bucket queue against the binary heap on
// random graphs whose move costs spread over a range like the walker's
// (the cheapest a walk, the dearest a long drop in water), and over a
// narrow and a wide range.
func TestDialRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var gs graphScratch
	for _, span := range [][2]int64{{4633, 30000}, {1000, 1001}, {1, 200}, {7, 7}} {
		for n := 0; n < 60; n++ {
			nodes := 2 + rng.IntN(300)
			g := &portalGraph{lo: span[1], hi: span[0]}
			for v := 0; v < nodes; v++ {
				g.start = append(g.start, int32(len(g.to)))
				g.target = append(g.target, -1)
				for e := rng.IntN(8); e > 0; e-- {
					c := span[0] + rng.Int64N(span[1]-span[0]+1)
					g.to = append(g.to, int32(rng.IntN(nodes)))
					g.cost = append(g.cost, c)
					g.lo, g.hi = min(g.lo, c), max(g.hi, c)
				}
			}
			g.start = append(g.start, int32(len(g.to)))
			for _, v := range rng.Perm(nodes)[:1+rng.IntN(min(nodes, 20))] {
				g.target[v] = int32(len(g.portal))
				g.portal = append(g.portal, int32(v))
			}
			if cap(gs.dist) < nodes {
				gs.dist, gs.done = make([]int64, nodes), make([]bool, nodes)
			}
			for i := range g.portal {
				a, b := make([]int64, len(g.portal)), make([]int64, len(g.portal))
				gs.dial(g, int32(i), a)
				gs.dijkstra(g, int32(i), b)
				require.Equal(t, b, a, "costs %v, graph %d, portal %d", span, n, i)
			}
		}
	}
}

// TestRegionGraphGrows: a region graph one node larger than the one built
// before it gets search state for every node, and a portal the others
// cannot reach (a pit walled in 4 high) is -1 to them and 0 to itself,
// with either queue.
func TestRegionGraphGrows(t *testing.T) {
	g := GridFunc(func(x, y, z int) Cell {
		switch {
		case y <= 63:
			return Solid
		case y <= 67 && max(abs(x-10), abs(z-10)) == 1:
			return Solid
		}
		return Passable
	})
	r, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	k := regionKey{0, 0}
	open, pit := world.Pos(2, 64, 2), world.Pos(10, 64, 10)
	var gs graphScratch
	gr := &portalGraph{}
	gs.build(r.gen, k, []world.BlockPos{open}, gr)
	n := len(gr.target)
	require.Greater(t, n, 200)
	row := make([]int64, 1)
	gs.dijkstra(gr, 0, row)
	assert.Equal(t, []int64{0}, row)

	gs.build(r.gen, k, []world.BlockPos{open, pit}, gr)
	require.Len(t, gr.target, n+1, "the pit is one node more")
	require.GreaterOrEqual(t, gr.lo, int64(1))
	for i, want := range [][]int64{{0, -1}, {-1, 0}} {
		a, b := make([]int64, 2), make([]int64, 2)
		gs.dial(gr, int32(i), a)
		gs.dijkstra(gr, int32(i), b)
		assert.Equal(t, want, a, "dial from portal %d", i)
		assert.Equal(t, want, b, "dijkstra from portal %d", i)
	}
}
