package path

import (
	"math"
	"math/bits"
	"sync/atomic"
	"time"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// Regions of the long-route abstraction: 16×16 columns (a chunk column),
// the full build height.
const (
	regionShift = 4
	regionSide  = 1 << regionShift
	// RouteMinY and RouteMaxY bound the heights a Router searches: the
	// 1.7.10 build height.
	RouteMinY = 0
	RouteMaxY = 255
	routeH    = RouteMaxY - RouteMinY + 1
)

// regionKey names a region by its chunk coordinates.
type regionKey struct{ cx, cz int }

func regionOf(x, z int) regionKey { return regionKey{x >> regionShift, z >> regionShift} }

// borderKey names the border between region k and its +x (axis 0) or +z
// (axis 1) neighbour.
type borderKey struct {
	k    regionKey
	axis uint8
}

// link is a move across a border between two portals.
type link struct {
	from, to world.BlockPos
	cost     int64
}

// border holds the portals chosen on one border and the moves across it.
type border struct {
	links []link
}

// region holds a region's portals (its ends of the border links, plus the
// frontier points facing unloaded neighbours) and the exact costs between
// them inside the region.
type region struct {
	k        regionKey
	portals  []world.BlockPos
	index    map[world.BlockPos]int
	frontier []bool
	out      [][]link // links leaving each portal
	dest     [][]dest // the far end of each of out, resolved on first use
	// dist[i] is the cost from portal i to each portal inside the region
	// (-1: not reachable inside it), all rows computed at once the first
	// time a search expands one of its portals (distRow), or by a worker
	// (rowPool) once the region is built. rows says which: dist may be
	// read only once rows is rowsDone.
	dist  [][]int64
	rows  atomic.Int32
	ready chan struct{} // closed when a queued region's rows are done

	// The abstract search's node of each portal, valid while stamp is
	// the Router's current search.
	node  []int32
	stamp uint32

	// dropped is set when the Router forgets the region: links into it
	// resolve their far end again.
	dropped bool
	// inCorridor is whether the region is in the Router's corridor
	// number corridorGen.
	inCorridor  bool
	corridorGen uint32
}

// dest is a link's far end: portal j of region rg.
type dest struct {
	rg *region
	j  int32
}

// standHeights appends the feet heights a body may stand at in column
// (x, z), reading each cell once.
func standHeights(g Grid, x, z int, out []int) []int {
	var col [routeH + 3]Cell
	if cg, ok := g.(ColumnGrid); ok {
		cg.Column(x, z, RouteMinY-1, col[:])
	} else {
		for y := RouteMinY - 1; y <= RouteMaxY+2; y++ {
			col[y-RouteMinY+1] = g.Cell(x, y, z)
		}
	}
	at := func(y int) Cell { return col[y-RouteMinY+1] }
	for y := RouteMinY; y <= RouteMaxY; y++ {
		feet, head := at(y), at(y+1)
		if !isClear(head) {
			continue
		}
		ok := false
		switch feet {
		case Passable:
			ok = at(y-1) == Solid
		case Water, Low:
			ok = true
		case Slab:
			ok = y+2 > RouteMaxY+1 || isClear(at(y+2))
		}
		if ok {
			out = append(out, y)
		}
	}
	return out
}

// crossHeights appends the feet heights in column (x, z) a body may stand
// at and step from into the column beside it across a border, standing at
// one of the heights ya there (ascending): a move changes the height by at
// most a jump up (+1) or a drop (−MaxDrop), and ends where a body may
// stand, so only the heights from y−1 to y+MaxDrop of each y in ya can
// start one. It reads a few cells per height instead of the column.
func crossHeights(gen *Finder, x, z int, ya, out []int) []int {
	next := RouteMinY
	for _, y := range ya {
		for h := max(y-1, next); h <= min(y+gen.maxDrop, RouteMaxY); h++ {
			if standsAt(gen.grid, x, h, z) {
				out = append(out, h)
			}
			next = h + 1
		}
	}
	return out
}

// standsAt is standHeights' rule at one height.
func standsAt(g Grid, x, y, z int) bool {
	if !isClear(g.Cell(x, y+1, z)) {
		return false
	}
	switch g.Cell(x, y, z) {
	case Passable:
		return g.Cell(x, y-1, z) == Solid
	case Water, Low:
		return true
	case Slab:
		return y+2 > RouteMaxY+1 || isClear(g.Cell(x, y+2, z))
	}
	return false
}

// crossing is one cardinal move pair across a border at offset t along it:
// a on the low side, b on the high side, with the costs of a→b and b→a
// (-1 when that move does not exist).
type crossing struct {
	t      int
	a, b   world.BlockPos
	ab, ba int64
}

// buildBorder finds the cardinal moves across the border bk and keeps those
// of the chosen portals: the moves are grouped into entrances (runs of
// neighbouring offsets whose heights differ by at most one block on both
// sides) and each entrance keeps its two ends and a crossing every
// r.spacing offsets between them, as in HPA*.
func (r *Router) buildBorder(bk borderKey) *border { return r.borderWith(r.gen, bk) }

// borderWith is buildBorder reading the grid through gen (a worker's view).
func (r *Router) borderWith(gen *Finder, bk borderKey) *border {
	return r.scanBorderWith(gen, bk, func(x, z int, near, dst []int) []int { return crossHeights(gen, x, z, near, dst) })
}

// scanBorder is buildBorder with far giving the heights of the far column
// to try, from the standing heights of the near one (crossHeights; the
// tests pass a whole-column scan to check it against).
func (r *Router) scanBorder(bk borderKey, far func(x, z int, near, dst []int) []int) *border {
	return r.scanBorderWith(r.gen, bk, far)
}

// scanBorderWith is scanBorder with the grid and the moves of gen. It reads
// nothing of r but its options (Loaded, the spacing), so workers may run it.
func (r *Router) scanBorderWith(gen *Finder, bk borderKey, far func(x, z int, near, dst []int) []int) *border {
	b := &border{}
	lo, hi := bk.k, bk.k
	if bk.axis == 0 {
		hi.cx++
	} else {
		hi.cz++
	}
	if !r.isLoaded(lo) || !r.isLoaded(hi) {
		return b
	}
	var cs []crossing
	var ya, yb []int
	for t := 0; t < regionSide; t++ {
		var ax, az, bx, bz int
		if bk.axis == 0 {
			ax, az = lo.cx<<regionShift+regionSide-1, lo.cz<<regionShift+t
			bx, bz = ax+1, az
		} else {
			ax, az = lo.cx<<regionShift+t, lo.cz<<regionShift+regionSide-1
			bx, bz = ax, az+1
		}
		ya = standHeights(gen.grid, ax, az, ya[:0])
		for _, y := range ya {
			for _, m := range gen.neighbors(ax, y, az, gen.grid.Cell(ax, y, az)) {
				if m.x == bx && m.z == bz {
					cs = append(cs, crossing{t: t, a: world.Pos(ax, y, az), b: world.Pos(bx, m.y, bz), ab: m.cost, ba: -1})
				}
			}
		}
		yb = far(bx, bz, ya, yb[:0])
		for _, y := range yb {
			for _, m := range gen.neighbors(bx, y, bz, gen.grid.Cell(bx, y, bz)) {
				if m.x != ax || m.z != az {
					continue
				}
				merged := false
				for i := range cs {
					if cs[i].t == t && cs[i].a.Y == m.y && cs[i].b.Y == y {
						cs[i].ba, merged = m.cost, true
					}
				}
				if !merged {
					cs = append(cs, crossing{t: t, a: world.Pos(ax, m.y, az), b: world.Pos(bx, y, bz), ab: -1, ba: m.cost})
				}
			}
		}
	}
	// Entrances: chains over consecutive offsets.
	var chains [][]crossing
	for _, c := range cs {
		joined := false
		for i := range chains {
			last := chains[i][len(chains[i])-1]
			if last.t == c.t-1 && abs(last.a.Y-c.a.Y) <= 1 && abs(last.b.Y-c.b.Y) <= 1 {
				chains[i] = append(chains[i], c)
				joined = true
				break
			}
		}
		if !joined {
			chains = append(chains, []crossing{c})
		}
	}
	for _, ch := range chains {
		for _, i := range representatives(len(ch), r.spacing) {
			c := ch[i]
			if c.ab >= 0 {
				b.links = append(b.links, link{c.a, c.b, c.ab})
			}
			if c.ba >= 0 {
				b.links = append(b.links, link{c.b, c.a, c.ba})
			}
		}
	}
	return b
}

// representatives picks the indices of an entrance of n crossings that
// become portals: both ends, and one every spacing between them.
func representatives(n, spacing int) []int {
	if n <= 0 {
		return nil
	}
	if n == 1 {
		return []int{0}
	}
	out := []int{0}
	for i := spacing; i < n-1-spacing/2; i += spacing {
		out = append(out, i)
	}
	return append(out, n-1)
}

// borderAt returns the border bk, building it when it is not cached (or
// taking it from the workers, who build borders ahead of the search).
func (r *Router) borderAt(bk borderKey) *border {
	if b, ok := r.borders[bk]; ok {
		return b
	}
	var b *border
	if r.pool != nil {
		b = r.pool.take(bk)
	}
	if b != nil {
		r.bordersTaken++
	} else {
		b = r.buildBorder(bk)
		r.stats.Borders++
	}
	if p := r.pool; p != nil {
		// The workers read the map while they run.
		p.mu.Lock()
		defer p.mu.Unlock()
	}
	r.borders[bk] = b
	return b
}

// regionAt returns region k, building it (and its borders) when it is not
// cached; nil when k is not loaded.
func (r *Router) regionAt(k regionKey) *region {
	if rg, ok := r.regions[k]; ok {
		return rg
	}
	if !r.isLoaded(k) {
		return nil
	}
	rg := &region{k: k, index: map[world.BlockPos]int{}}
	add := func(p world.BlockPos, frontier bool) int {
		i, ok := rg.index[p]
		if !ok {
			i = len(rg.portals)
			rg.index[p] = i
			rg.portals = append(rg.portals, p)
			rg.frontier = append(rg.frontier, false)
			rg.out = append(rg.out, nil)
		}
		if frontier {
			rg.frontier[i] = true
		}
		return i
	}
	for _, bk := range []borderKey{{k, 0}, {k, 1}, {regionKey{k.cx - 1, k.cz}, 0}, {regionKey{k.cx, k.cz - 1}, 1}} {
		for _, l := range r.borderAt(bk).links {
			if regionOf(l.from.X, l.from.Z) == k {
				i := add(l.from, false)
				rg.out[i] = append(rg.out[i], l)
			}
			if regionOf(l.to.X, l.to.Z) == k {
				add(l.to, false)
			}
		}
	}
	r.addFrontier(k, add)
	r.regions[k] = rg
	r.stats.Regions++
	rg.dest = make([][]dest, len(rg.portals))
	for i, ls := range rg.out {
		rg.dest[i] = make([]dest, len(ls))
	}
	if r.pool != nil && len(rg.portals) > 0 {
		r.pool.queue(rg)
	}
	return rg
}

// distRow returns the costs from portal i of rg to its other portals. The
// first row a search needs computes the region's rows at once (rowBuilder),
// unless a worker has them: done, they are read; being computed, the search
// waits for them; queued, the search takes the job back and computes them
// itself. Computing only the rows of the portals a search expands (two
// thirds of them) is slower: the graph must be kept or built again, and the
// searches over it are cheap while it is in the CPU's cache.
func (r *Router) distRow(rg *region, i int32) []int64 {
	for {
		st := rg.rows.Load()
		switch {
		case st == rowsDone:
			return rg.dist[i]
		case st == rowsRunning:
			r.waits++
			if r.onWait != nil {
				r.onWait()
			}
			<-rg.ready
			continue
		case st == rowsQueued:
			if !rg.rows.CompareAndSwap(rowsQueued, rowsRunning) {
				continue // a worker took it meanwhile
			}
			r.steals++
		}
		t := time.Now()
		rg.dist = r.rb.rows(rg.k, rg.portals)
		rg.rows.Store(rowsDone)
		if st == rowsQueued {
			close(rg.ready)
		}
		r.stats.Rows += len(rg.portals)
		r.stats.BuildTime += time.Since(t)
		return rg.dist[i]
	}
}

// The states of a region's rows (region.rows).
const (
	rowsNone    = iota // not computed, not queued
	rowsQueued         // waiting for a worker (region.ready is made)
	rowsRunning        // being computed; region.ready is closed when done
	rowsDone           // region.dist holds them
)

// rowBuilder computes the costs between the portals of a region: it
// generates the moves inside the region, from the positions its portals
// reach, into a compact graph (portalGraph), then runs a Dijkstra over that
// graph from each portal, which costs a fraction of one that generates the
// moves as it goes (localCosts). Each goroutine that computes rows has its
// own, with its own view of the grid (gen.grid).
type rowBuilder struct {
	gen     *Finder // move generator
	scratch graphScratch
	graph   portalGraph
}

// rows returns the costs from each portal of region k to each of them (-1:
// not reachable inside the region).
func (b *rowBuilder) rows(k regionKey, portals []world.BlockPos) [][]int64 {
	g := &b.graph
	b.scratch.build(b.gen, k, portals, g)
	buckets := g.lo >= 1 && g.hi/g.lo < maxBuckets/4
	n := len(portals)
	all := make([]int64, n*n)
	out := make([][]int64, n)
	for j := range portals {
		row := all[j*n : (j+1)*n : (j+1)*n]
		if buckets {
			b.scratch.dial(g, int32(j), row)
		} else {
			b.scratch.dijkstra(g, int32(j), row)
		}
		out[j] = row
	}
	return out
}

// maxBuckets bounds the ring of graphScratch.dial.
const maxBuckets = 1 << 10

// portalGraph is the positions of one region that its portals reach by
// moves inside it, numbered, and those moves in compressed rows (the
// moves of node v are start[v]..start[v+1]).
type portalGraph struct {
	target []int32 // portal index of each node, -1 for none
	portal []int32 // node of each portal
	start  []int32
	to     []int32
	cost   []int64
	lo, hi int64 // the cheapest and dearest move
}

// graphScratch is the reusable state of building graphs and searching
// them.
type graphScratch struct {
	id    []int32  // node of each dense position, valid where stamp matches
	stamp []uint32 // per dense position
	cur   uint32
	nodes []int32 // dense position of each node
	dist  []int64
	done  []bool
	heap  openSet
	ring  [][]int32 // dial's buckets
}

// build numbers the positions of region k that the portals reach by moves
// inside it into g, and records those moves, generated by gen over its grid.
func (gs *graphScratch) build(gen *Finder, k regionKey, portals []world.BlockPos, g *portalGraph) {
	const size = regionSide * regionSide * routeH
	if gs.id == nil {
		gs.id, gs.stamp = make([]int32, size), make([]uint32, size)
	}
	gs.cur++
	if gs.cur == 0 {
		clear(gs.stamp)
		gs.cur = 1
	}
	x0, z0 := k.cx<<regionShift, k.cz<<regionShift
	idx := func(x, y, z int) int32 {
		return int32(((y-RouteMinY)<<regionShift|(z-z0))<<regionShift | (x - x0))
	}
	gs.nodes = gs.nodes[:0]
	g.target, g.portal = g.target[:0], g.portal[:0]
	g.start, g.to, g.cost = g.start[:0], g.to[:0], g.cost[:0]
	node := func(d int32) int32 {
		if gs.stamp[d] == gs.cur {
			return gs.id[d]
		}
		v := int32(len(gs.nodes))
		gs.stamp[d], gs.id[d] = gs.cur, v
		gs.nodes = append(gs.nodes, d)
		g.target = append(g.target, -1)
		return v
	}
	for i, p := range portals {
		v := node(idx(p.X, p.Y, p.Z))
		g.target[v] = int32(i)
		g.portal = append(g.portal, v)
	}
	g.lo, g.hi = 0, 0
	for v := 0; v < len(gs.nodes); v++ {
		g.start = append(g.start, int32(len(g.to)))
		d := int(gs.nodes[v])
		x, z, y := x0+d&(regionSide-1), z0+(d>>regionShift)&(regionSide-1), RouteMinY+d>>(2*regionShift)
		for _, m := range gen.neighbors(x, y, z, gen.grid.Cell(x, y, z)) {
			if m.x>>regionShift != k.cx || m.z>>regionShift != k.cz || m.y < RouteMinY || m.y > RouteMaxY {
				continue
			}
			if len(g.to) == 0 || m.cost < g.lo {
				g.lo = m.cost
			}
			g.hi = max(g.hi, m.cost)
			g.to = append(g.to, node(idx(m.x, m.y, m.z)))
			g.cost = append(g.cost, m.cost)
		}
	}
	g.start = append(g.start, int32(len(g.to)))
	if n := len(gs.nodes); cap(gs.dist) < n {
		gs.dist, gs.done = make([]int64, n), make([]bool, n)
	}
}

// reset readies dist (unreached: math.MaxInt64) and done for a search of
// g and row for its costs.
func (gs *graphScratch) reset(g *portalGraph, row []int64) ([]int64, []bool) {
	for j := range row {
		row[j] = -1
	}
	n := len(g.target)
	dist, done := gs.dist[:n], gs.done[:n]
	for v := range dist {
		dist[v] = math.MaxInt64
	}
	clear(done)
	return dist, done
}

// dijkstra fills row with the costs from portal i of g to each portal (-1:
// not reachable in the region), with a binary heap.
func (gs *graphScratch) dijkstra(g *portalGraph, i int32, row []int64) {
	dist, done := gs.reset(g, row)
	src := g.portal[i]
	dist[src] = 0
	h := &gs.heap
	h.reset()
	h.push(entry{f: 0, n: src})
	left := len(row)
	for h.Len() > 0 && left > 0 {
		e := h.pop()
		v := e.n
		if done[v] {
			continue
		}
		done[v] = true
		if t := g.target[v]; t >= 0 {
			row[t] = e.f
			left--
		}
		for a := g.start[v]; a < g.start[v+1]; a++ {
			w, nd := g.to[a], e.f+g.cost[a]
			if nd < dist[w] {
				dist[w] = nd
				h.push(entry{f: nd, n: w})
			}
		}
	}
}

// dial is dijkstra with a bucket queue (Dial's algorithm with buckets w
// wide, w ≤ lo, the cheapest move): a node in bucket k has a cost below
// (k+1)·w, and a move from it costs at least w, so it cannot lower another
// node of bucket k: every node of a bucket is final when the bucket is
// reached, in any order. The costs are the same as dijkstra's. w is the
// power of two at most lo, so that a bucket is a shift and its place in the
// ring (of at least hi/w+2 buckets, hi the dearest move, which holds every
// pending cost) a mask. It needs 1 ≤ lo and hi/lo < maxBuckets/4.
func (gs *graphScratch) dial(g *portalGraph, i int32, row []int64) {
	dist, done := gs.reset(g, row)
	shift := uint(bits.Len64(uint64(g.lo)) - 1)
	ring := 1 << bits.Len64(uint64(g.hi>>shift)+1) // > hi/w+1
	mask := ring - 1
	if len(gs.ring) < ring {
		gs.ring = append(gs.ring, make([][]int32, ring-len(gs.ring))...)
	}
	bs := gs.ring[:ring]
	for b := range bs {
		bs[b] = bs[b][:0]
	}
	src := g.portal[i]
	dist[src] = 0
	bs[0] = append(bs[0], src)
	left := len(row)
	// A ring of empty buckets in a row holds nothing pending: the
	// search is over.
	for k, empty := 0, 0; left > 0 && empty < ring; k++ {
		slot := k & mask
		// Moves out of bucket k land in later buckets, never in this
		// one: it does not grow while it is read.
		cur := bs[slot]
		if len(cur) == 0 {
			empty++
			continue
		}
		empty = 0
		for _, v := range cur {
			if done[v] {
				continue
			}
			done[v] = true
			d := dist[v]
			if t := g.target[v]; t >= 0 {
				row[t] = d
				left--
			}
			// A done node's cost is final and no dearer than nd.
			to, cost := g.to[g.start[v]:g.start[v+1]], g.cost[g.start[v]:g.start[v+1]]
			for a, w := range to {
				if nd := d + cost[a]; nd < dist[w] {
					dist[w] = nd
					s := int(nd>>shift) & mask
					bs[s] = append(bs[s], w)
				}
			}
		}
		bs[slot] = cur[:0]
	}
}

// addFrontier adds, for each side of region k whose neighbour is not
// loaded, the standing positions of its edge column every r.spacing blocks
// (and at both ends): the points a route into unloaded terrain heads for.
func (r *Router) addFrontier(k regionKey, add func(world.BlockPos, bool) int) {
	x0, z0 := k.cx<<regionShift, k.cz<<regionShift
	sides := []struct {
		n      regionKey
		x, z   int // first column of the edge
		dx, dz int // along the edge
	}{
		{regionKey{k.cx - 1, k.cz}, x0, z0, 0, 1},
		{regionKey{k.cx + 1, k.cz}, x0 + regionSide - 1, z0, 0, 1},
		{regionKey{k.cx, k.cz - 1}, x0, z0, 1, 0},
		{regionKey{k.cx, k.cz + 1}, x0, z0 + regionSide - 1, 1, 0},
	}
	var ys []int
	for _, s := range sides {
		if r.isLoaded(s.n) {
			continue
		}
		for _, t := range representatives(regionSide, r.spacing) {
			x, z := s.x+s.dx*t, s.z+s.dz*t
			ys = standHeights(r.grid, x, z, ys[:0])
			for _, y := range ys {
				add(world.Pos(x, y, z), true)
			}
		}
	}
}

// localCosts is the cost from p to each of targets by moves that stay in
// region k (Dijkstra; -1 for targets not reachable inside the region).
func (r *Router) localCosts(k regionKey, p world.BlockPos, targets []world.BlockPos) []int64 {
	out := make([]int64, len(targets))
	l := &r.local
	l.reset()
	x0, z0 := k.cx<<regionShift, k.cz<<regionShift
	idx := func(x, y, z int) int { return ((y-RouteMinY)<<regionShift|(z-z0))<<regionShift | (x - x0) }
	want := map[int]int{}
	for i, t := range targets {
		out[i] = -1
		want[idx(t.X, t.Y, t.Z)] = i
	}
	left := len(want)
	start := idx(p.X, p.Y, p.Z)
	l.set(start, 0)
	l.heap.push(entry{f: 0, n: int32(start)})
	for l.heap.Len() > 0 && left > 0 {
		e := l.heap.pop()
		d, n := e.f, e.n
		if l.done[n] == l.stamp || d > l.dist[n] {
			continue
		}
		l.done[n] = l.stamp
		if i, ok := want[int(n)]; ok {
			out[i] = d
			left--
		}
		x, z, y := x0+int(n)&(regionSide-1), z0+int(n>>regionShift)&(regionSide-1), RouteMinY+int(n>>(2*regionShift))
		for _, m := range r.gen.neighbors(x, y, z, r.grid.Cell(x, y, z)) {
			if m.x>>regionShift != k.cx || m.z>>regionShift != k.cz || m.y < RouteMinY || m.y > RouteMaxY {
				continue
			}
			j := idx(m.x, m.y, m.z)
			nd := d + m.cost
			if l.seen[j] != l.stamp || nd < l.dist[j] {
				l.set(j, nd)
				l.heap.push(entry{f: nd, n: int32(j)})
			}
		}
	}
	return out
}

// localSearch is the reusable state of localCosts: dense arrays over one
// region's positions, reset by a stamp.
type localSearch struct {
	dist  []int64
	seen  []uint32
	done  []uint32
	stamp uint32
	heap  openSet
}

func (l *localSearch) reset() {
	const n = regionSide * regionSide * routeH
	if l.dist == nil {
		l.dist, l.seen, l.done = make([]int64, n), make([]uint32, n), make([]uint32, n)
	}
	l.stamp++
	if l.stamp == 0 {
		clear(l.seen)
		clear(l.done)
		l.stamp = 1
	}
	l.heap.reset()
}

func (l *localSearch) set(i int, d int64) { l.dist[i], l.seen[i] = d, l.stamp }
