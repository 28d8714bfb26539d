package path

import (
	"errors"
	"fmt"
	"time"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// ReachedFrontier: the goal lies in terrain the grid does not know, and the
// path ends at the best point on the edge of the known terrain (Router).
const ReachedFrontier Reason = "frontier"

// Defaults for zero RouteOptions fields.
const (
	// DefaultSpacing is the distance between the portals of a long
	// entrance along a region border, in blocks.
	DefaultSpacing = 8
	// DefaultWindow is the reach of one refinement leg in blocks
	// (Chebyshev XZ distance).
	DefaultWindow = 40
	// DefaultNear is the XZ distance (Chebyshev) below which a route is
	// planned by the exact search alone.
	DefaultNear = 48
	// DefaultCorridor is the default RouteOptions.Corridor.
	DefaultCorridor = 4
)

// corridorFrom is the XZ distance from which a route keeps to a corridor;
// guideWeight weighs the heuristic of the greedy search that lays it out.
const (
	corridorFrom = 256
	guideWeight  = 1.5
)

// RouteOptions tune a Router.
type RouteOptions struct {
	// Options are the exact search's: walking, jumping, dropping and
	// swimming (Dig and Place are refused). MaxNodes bounds each exact
	// search of a route (0: DefaultMaxNodes); MaxTime bounds the whole
	// route (0: no limit).
	Options
	// Loaded reports whether the chunk column (cx, cz) is known; routes
	// never enter other columns, and a goal in one is approached through
	// the frontier (nil: every column is known). With Workers, several
	// goroutines call it at once during Find.
	Loaded func(cx, cz int) bool
	// Spacing is the distance between portals along a long entrance
	// (0: DefaultSpacing). Smaller is closer to optimal and slower.
	Spacing int
	// Window is the reach of one refinement leg (0: DefaultWindow).
	Window int
	// Weight inflates the abstract search's heuristic (weighted A*): the
	// portal route costs at most Weight times the best one over the
	// portals, and far fewer portals are expanded. 0 or 1: none.
	Weight float64
	// Corridor is the half-width, in regions, of the corridor around a
	// route over whole regions that a long route's portal search keeps to
	// (0: DefaultCorridor; negative: no corridor, the portal search is
	// exact over all regions).
	Corridor int
	// Near is the XZ distance below which the exact search alone plans a
	// route (0: DefaultNear).
	Near int
	// Workers is the number of goroutines that compute the costs between
	// the portals of the regions a route builds, and build the borders of
	// the regions beside them, while its search goes on (0 to MaxWorkers,
	// and at most one fewer than GOMAXPROCS; 0: the search does it all
	// itself, when it first needs them). Workers read the grid through
	// views of their own (GridViews), and call Loaded: over a grid without
	// views, or on a single CPU, the search works alone. The routes are the
	// same either way; only the time to the first route through new
	// terrain changes. The workers run only while Find does.
	Workers int
}

// MaxWorkers bounds RouteOptions.Workers.
const MaxWorkers = 16

// GridViews is a Grid that can give other goroutines views of the same
// world: reads through different views may run at the same time (each view
// is read by one goroutine). A grid whose reads are safe for concurrent use
// returns itself.
type GridViews interface {
	Grid
	View() Grid
}

// Route is a Router's result: the path (Result; its Expanded counts every
// node of the abstract search and of the exact legs) and where the time
// went.
type Route struct {
	Result
	// AbstractExpanded counts the portals the abstract search expanded.
	AbstractExpanded int `json:"abstract_expanded"`
	// CoarseExpanded counts the portals the greedy search that lays out
	// a long route's corridor expanded.
	CoarseExpanded int `json:"coarse_expanded"`
	// LegExpanded counts the nodes the exact legs expanded.
	LegExpanded int `json:"leg_expanded"`
	// Corridor reports that the portal search kept to the corridor
	// around the greedy route (false: the route is short, or the search
	// needed every region).
	Corridor bool `json:"corridor"`
	// Legs counts the exact searches that refined the route.
	Legs int `json:"legs"`
	// RegionsBuilt counts the regions whose portals were built (or
	// rebuilt) for this route; cached regions are reused.
	RegionsBuilt int `json:"regions_built"`
	// RowsBuilt counts the portals whose costs inside their region were
	// computed for this route.
	RowsBuilt int `json:"rows_built"`
	// WorkerRows counts those of RowsBuilt that workers computed
	// (RouteOptions.Workers).
	WorkerRows int `json:"worker_rows"`
	// BuildTime is the time spent building regions and rows: a part of
	// Elapsed when the search builds them alone; with workers, their time
	// is added too, so it can exceed Elapsed.
	BuildTime time.Duration `json:"build_time"`
}

// RouterStats count a Router's cached abstraction.
type RouterStats struct {
	// Regions and Borders are the regions and borders built so far
	// (rebuilds included).
	Regions, Borders int
	// Rows counts the portals whose costs to the other portals of their
	// region were computed (each the first time a search expanded it, or
	// by a worker); WorkerRows counts those the workers computed.
	Rows, WorkerRows int
	// BuildTime is the total time spent building them and their rows.
	BuildTime time.Duration
	// Cached is the number of regions in the cache now.
	Cached int
}

// Router plans long walking routes. It keeps the exact A* (Finder) as the
// local planner and adds a hierarchical abstraction in the manner of HPA*
// (Botea, Müller, Schaeffer 2004): the world is cut into 16×16-column
// regions (chunk columns, full height); on each border between two regions
// the cardinal moves across it are grouped into entrances and a few of them
// become portals; inside a region the exact cost between every two of its
// portals is computed once by a search that stays in the region. A route
// is an A* over portals (the same admissible heuristic), refined into a
// walkable path by exact searches between portals a window apart, so every
// step is a move of the exact planner: same move set, no corner cutting.
//
// Regions are built when a route first reaches them and cached; call
// InvalidateBlock when a block changes and InvalidateColumn when a chunk
// column is loaded or unloaded, and the affected regions and borders are
// rebuilt on the next route. A Router is not safe for concurrent use.
type Router struct {
	grid    Grid
	opt     RouteOptions
	spacing int

	gen    *Finder // move generator and heuristic
	finder *Finder // exact legs
	local  localSearch
	rb     rowBuilder // rows the search computes itself

	workers []*rowBuilder // kept from one Find to the next
	pool    *rowPool      // while a Find runs with workers
	// How often the search took a queued region back from the workers
	// and waited for one a worker was computing; onWait, when set, is
	// called before such a wait (tests).
	steals, waits, bordersTaken int
	onWait                      func()

	regions map[regionKey]*region
	borders map[borderKey]*border
	stats   RouterStats

	corridor    map[regionKey]bool // when set, the regions the portal search may enter
	corridorGen uint32             // counts the corridors laid out
	weight      float64            // the current search's heuristic weight

	nodes  []anode
	open   openSet
	search uint32 // stamps regions' node slots
}

// NewRouter returns a Router over g.
func NewRouter(g Grid, opt RouteOptions) (*Router, error) {
	if opt.Dig || opt.Place {
		return nil, errors.New("path: a Router plans walking routes: Options.Dig and Options.Place must be false")
	}
	if opt.Spacing < 0 || opt.Window < 0 || opt.Near < 0 || opt.Weight < 0 {
		return nil, fmt.Errorf("path: RouteOptions Spacing %d, Window %d, Near %d, Weight %v: want ≥ 0", opt.Spacing, opt.Window, opt.Near, opt.Weight)
	}
	if opt.Workers < 0 || opt.Workers > MaxWorkers {
		return nil, fmt.Errorf("path: RouteOptions Workers %d: want 0 to %d", opt.Workers, MaxWorkers)
	}
	o, err := opt.Options.normalize()
	if err != nil {
		return nil, err
	}
	opt.Options = o
	if opt.Spacing == 0 {
		opt.Spacing = DefaultSpacing
	}
	if opt.Window == 0 {
		opt.Window = DefaultWindow
	}
	if opt.Near == 0 {
		opt.Near = DefaultNear
	}
	if opt.Corridor == 0 {
		opt.Corridor = DefaultCorridor
	}
	r := &Router{grid: g, opt: opt, spacing: opt.Spacing, gen: NewFinder(), finder: NewFinder(),
		regions: map[regionKey]*region{}, borders: map[borderKey]*border{}}
	r.weight = opt.Weight
	r.gen.grid, r.gen.maxDrop = g, o.MaxDrop
	r.gen.ct = compileCosts(o.Costs, o.MaxDrop, false, false)
	r.rb.gen = r.gen
	return r, nil
}

// SetGrid replaces the grid, for a world read through a new snapshot. The
// cache stays: invalidate what changed between the two.
func (r *Router) SetGrid(g Grid) {
	r.grid, r.gen.grid = g, g
}

// Stats returns the counts of the cached abstraction.
func (r *Router) Stats() RouterStats {
	s := r.stats
	s.Cached = len(r.regions)
	return s
}

// InvalidateBlock drops what the block at (x, y, z) may have changed: its
// region's portals and costs, and, for a block in a region's edge column,
// the border there and the region across it, whose portals are chosen from
// the moves over that border.
func (r *Router) InvalidateBlock(x, y, z int) {
	k := regionOf(x, z)
	r.dropRegion(k)
	lx, lz := x&(regionSide-1), z&(regionSide-1)
	if lx == 0 {
		r.dropBorder(borderKey{regionKey{k.cx - 1, k.cz}, 0})
	}
	if lx == regionSide-1 {
		r.dropBorder(borderKey{k, 0})
	}
	if lz == 0 {
		r.dropBorder(borderKey{regionKey{k.cx, k.cz - 1}, 1})
	}
	if lz == regionSide-1 {
		r.dropBorder(borderKey{k, 1})
	}
}

// InvalidateColumn drops the region of chunk column (cx, cz), its four
// borders and its four neighbours (whose frontier points depend on whether
// it is loaded): call it when the column loads or unloads.
func (r *Router) InvalidateColumn(cx, cz int) {
	k := regionKey{cx, cz}
	r.dropRegion(k)
	r.dropBorder(borderKey{k, 0})
	r.dropBorder(borderKey{k, 1})
	r.dropBorder(borderKey{regionKey{cx - 1, cz}, 0})
	r.dropBorder(borderKey{regionKey{cx, cz - 1}, 1})
}

// dropBorder forgets a border and the two regions whose portals come from it.
func (r *Router) dropBorder(bk borderKey) {
	delete(r.borders, bk)
	r.dropRegion(bk.k)
	hi := bk.k
	if bk.axis == 0 {
		hi.cx++
	} else {
		hi.cz++
	}
	r.dropRegion(hi)
}

// dropRegion forgets region k; the links of other regions that point into
// it see it is dropped and look up its replacement.
func (r *Router) dropRegion(k regionKey) {
	if rg := r.regions[k]; rg != nil {
		rg.dropped = true
		delete(r.regions, k)
	}
}

// inCorridor reports whether rg is in the current corridor, looking it up
// once per corridor.
func (r *Router) inCorridor(rg *region) bool {
	if rg.corridorGen != r.corridorGen {
		rg.corridorGen, rg.inCorridor = r.corridorGen, r.corridor[rg.k]
	}
	return rg.inCorridor
}

func (r *Router) isLoaded(k regionKey) bool { return r.opt.Loaded == nil || r.opt.Loaded(k.cx, k.cz) }

// anode is a portal the abstract search reached.
type anode struct {
	pos    world.BlockPos
	g, h   int64
	parent int32
	closed bool
	rg     *region
	pi     int32 // portal index in rg; -1 for a start that is no portal
}

// Kinds of the Router's open-set entries (entry.kind).
const (
	kindNode     = iota
	kindGoal     // the node's exact leg reaches the goal: f is exact
	kindFrontier // the node is on the frontier: f assumes open terrain beyond
)

// Find plans a walking route from feet at start to goal. Routes shorter
// than RouteOptions.Near are the exact search's. The error reports invalid
// coordinates; an unreachable goal is a Route with Complete false and the
// best partial path; a goal in unloaded terrain gives a path to the best
// frontier point with Reason ReachedFrontier — walk it, and plan again as
// columns load.
func (r *Router) Find(start world.BlockPos, goal Target) (out Route, err error) {
	began := time.Now()
	if err := checkPos("start", start); err != nil {
		return Route{}, err
	}
	if err := checkGoal(goal); err != nil {
		return Route{}, err
	}
	if start.Y < RouteMinY || start.Y > RouteMaxY {
		return Route{}, fmt.Errorf("path: start %v outside the route heights %d..%d", start, RouteMinY, RouteMaxY)
	}
	statsBefore := r.stats
	r.gen.goal, r.gen.r2 = goal, goal.Radius*goal.Radius
	r.startWorkers()
	defer func() {
		r.stopWorkers()
		out.RegionsBuilt = r.stats.Regions - statsBefore.Regions
		out.RowsBuilt = r.stats.Rows - statsBefore.Rows
		out.WorkerRows = r.stats.WorkerRows - statsBefore.WorkerRows
		out.BuildTime = r.stats.BuildTime - statsBefore.BuildTime
		out.Expanded = out.CoarseExpanded + out.AbstractExpanded + out.LegExpanded
		out.Elapsed = time.Since(began)
	}()

	goalLoaded := r.isLoaded(regionOf(goal.Pos.X, goal.Pos.Z))
	if d := max(abs(goal.Pos.X-start.X), abs(goal.Pos.Z-start.Z)); float64(d) <= float64(r.opt.Near)+goal.Radius && goalLoaded {
		res, err := r.leg(start, goal, &out)
		if err != nil {
			return out, err
		}
		if res.Complete {
			out.Result = res
			return out, nil
		}
	}

	// A long route searches the portals of a corridor around a route over
	// the regions first, and all of them when the corridor holds none.
	var chain []world.BlockPos
	var tail *Result
	var reason Reason
	r.corridor = nil
	if d := max(abs(goal.Pos.X-start.X), abs(goal.Pos.Z-start.Z)); goalLoaded && r.opt.Corridor >= 0 && d >= corridorFrom {
		// The guide: a greedy portal search (heuristic weighted by
		// guideWeight), fast and with the portals' true connectivity.
		r.weight = guideWeight
		guide, gtail, _, err := r.abstract(start, goal, goalLoaded, began, &out)
		r.weight = r.opt.Weight
		if err != nil {
			return out, err
		}
		out.CoarseExpanded, out.AbstractExpanded = out.AbstractExpanded, 0
		if gtail != nil {
			r.corridor = r.corridorOf(guide)
			r.corridorGen++
		}
	}
	if r.corridor != nil {
		chain, tail, reason, err = r.abstract(start, goal, goalLoaded, began, &out)
		if err != nil {
			return out, err
		}
		r.corridor = nil
		out.Corridor = tail != nil
	}
	if tail == nil {
		chain, tail, reason, err = r.abstract(start, goal, goalLoaded, began, &out)
		if err != nil {
			return out, err
		}
	}
	out.Result, err = r.refine(chain, tail, goal, reason, began, &out)
	return out, err
}

// leg runs one exact search.
func (r *Router) leg(from world.BlockPos, goal Target, out *Route) (Result, error) {
	o := r.opt.Options
	o.MaxTime = 0
	res, err := r.finder.Find(r.grid, from, goal, o)
	if err != nil {
		return res, err
	}
	out.Legs++
	out.LegExpanded += res.Expanded
	return res, nil
}

// abstract runs the A* over portals. It returns the chain of portals from
// the start, the exact path from the last one to the goal when it reaches
// the goal (nil otherwise), and the reason the search ended.
func (r *Router) abstract(start world.BlockPos, goal Target, goalLoaded bool, began time.Time, out *Route) ([]world.BlockPos, *Result, Reason, error) {
	r.nodes = r.nodes[:0]
	r.open.reset()
	r.search++
	legs := map[int32]Result{}

	// The regions the goal's ball reaches: a node there tries an exact
	// leg to the goal.
	rad := int(goal.Radius)
	gx0, gx1 := (goal.Pos.X-rad)>>regionShift, (goal.Pos.X+rad)>>regionShift
	gz0, gz1 := (goal.Pos.Z-rad)>>regionShift, (goal.Pos.Z+rad)>>regionShift

	sk := regionOf(start.X, start.Z)
	srg := r.buildRegion(sk)
	h0 := r.hA(start)
	r.nodes = append(r.nodes, anode{pos: start, h: h0, parent: -1, rg: srg, pi: -1})
	if srg != nil {
		r.touch(srg)
		if i, ok := srg.index[start]; ok {
			srg.node[i], r.nodes[0].pi = 0, int32(i)
		}
	}
	r.open.push(entry{f: h0, h: h0, n: 0})

	bestFrontier, bestFrontierF := int32(-1), int64(0)
	best := int32(0)
	reason := Unreachable
	for r.open.Len() > 0 {
		e := r.open.pop()
		switch e.kind {
		case kindGoal:
			res := legs[e.n]
			return r.chain(e.n), &res, Reached, nil
		case kindFrontier:
			return r.chain(e.n), nil, ReachedFrontier, nil
		}
		n := &r.nodes[e.n]
		if n.closed {
			continue
		}
		n.closed = true
		out.AbstractExpanded++
		if b := &r.nodes[best]; n.h < b.h || (n.h == b.h && n.g < b.g) {
			best = e.n
		}
		if r.opt.MaxTime > 0 && out.AbstractExpanded&63 == 0 && time.Since(began) > r.opt.MaxTime {
			reason = TimeBudget
			break
		}
		p, g, rg, i := n.pos, n.g, n.rg, n.pi
		if rg == nil {
			continue
		}
		if cx, cz := p.X>>regionShift, p.Z>>regionShift; cx >= gx0 && cx <= gx1 && cz >= gz0 && cz <= gz1 {
			res, err := r.leg(p, goal, out)
			if err != nil {
				return nil, nil, "", err
			}
			if res.Complete {
				legs[e.n] = res
				r.open.push(entry{f: g + toMilli(res.Cost), n: e.n, kind: kindGoal})
			}
		}
		if i >= 0 && rg.frontier[i] {
			if f := g + r.nodes[e.n].h; bestFrontier < 0 || f < bestFrontierF {
				bestFrontier, bestFrontierF = e.n, f
			}
			if !goalLoaded {
				r.open.push(entry{f: g + n.h, h: n.h, n: e.n, kind: kindFrontier})
			}
		}
		var costs []int64
		switch {
		case e.n == 0:
			costs = r.localCosts(sk, p, rg.portals)
		default:
			costs = r.distRow(rg, i)
		}
		// -1 is unreachable; 0 is a cost (moves may round to 0
		// milli-ticks), and the node's own portal is closed.
		for j, c := range costs {
			if c >= 0 {
				r.relaxA(rg, int32(j), g+c, e.n)
			}
		}
		if i >= 0 {
			dests := rg.dest[i]
			for m, l := range rg.out[i] {
				d := &dests[m]
				if d.rg == nil || d.rg.dropped {
					// Resolve the link's far end once per build of
					// the region it enters.
					tk := regionOf(l.to.X, l.to.Z)
					if r.corridor != nil && !r.corridor[tk] {
						continue
					}
					to := r.buildRegion(tk)
					if to == nil {
						continue
					}
					j, ok := to.index[l.to]
					if !ok {
						continue
					}
					d.rg, d.j = to, int32(j)
				} else if r.corridor != nil && !r.inCorridor(d.rg) {
					continue
				}
				r.relaxA(d.rg, d.j, g+l.cost, e.n)
			}
		}
	}
	// A goal in unloaded terrain is approached through the best frontier
	// point; a goal in loaded terrain that no walk through it reaches (a
	// block in the way, a closed room) is unreachable: the best partial
	// path ends nearest to it, not at the edge of the loaded terrain,
	// however far that is.
	if bestFrontier >= 0 && !goalLoaded {
		return r.chain(bestFrontier), nil, ReachedFrontier, nil
	}
	return r.chain(best), nil, reason, nil
}

// touch readies a region's node slots for the current search.
func (r *Router) touch(rg *region) {
	if rg.stamp == r.search {
		return
	}
	rg.stamp = r.search
	if len(rg.node) != len(rg.portals) {
		rg.node = make([]int32, len(rg.portals))
	}
	for i := range rg.node {
		rg.node[i] = -1
	}
}

// buildRegion is regionAt, timed.
func (r *Router) buildRegion(k regionKey) *region {
	if rg, ok := r.regions[k]; ok {
		return rg
	}
	t := time.Now()
	rg := r.regionAt(k)
	r.stats.BuildTime += time.Since(t)
	return rg
}

// relaxA offers portal j of rg at cost g from node parent.
func (r *Router) relaxA(rg *region, j int32, g int64, parent int32) {
	r.touch(rg)
	if i := rg.node[j]; i >= 0 {
		n := &r.nodes[i]
		if n.closed || g >= n.g {
			return
		}
		n.g, n.parent = g, parent
		r.open.push(entry{f: g + n.h, h: n.h, n: i})
		return
	}
	p := rg.portals[j]
	h := r.hA(p)
	i := int32(len(r.nodes))
	r.nodes = append(r.nodes, anode{pos: p, g: g, h: h, parent: parent, rg: rg, pi: j})
	rg.node[j] = i
	r.open.push(entry{f: g + h, h: h, n: i})
}

// hA is the abstract search's heuristic: the exact search's, inflated by
// RouteOptions.Weight.
func (r *Router) hA(p world.BlockPos) int64 {
	h := r.gen.heuristic(p.X, p.Y, p.Z)
	if r.weight > 1 {
		h = int64(float64(h) * r.weight)
	}
	return h
}

// chain lists the portals from the start to node n.
func (r *Router) chain(n int32) []world.BlockPos {
	var out []world.BlockPos
	for i := n; i >= 0; i = r.nodes[i].parent {
		out = append(out, r.nodes[i].pos)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// refine turns a chain of portals into a walkable path: exact searches from
// the current position to the farthest portal within the window, then to
// the goal itself once it is within the window (or the exact tail the
// abstract search found).
func (r *Router) refine(chain []world.BlockPos, tail *Result, goal Target, reason Reason, began time.Time, out *Route) (Result, error) {
	res := Result{Steps: []Step{{Pos: chain[0], Move: MoveStart}}, Reason: reason}
	cur := chain[0]
	win := r.opt.Window
	add := func(leg Result) {
		off := res.Cost
		for _, s := range leg.Steps[1:] {
			s.Cost += off
			res.Steps = append(res.Steps, s)
		}
		res.Cost = res.Steps[len(res.Steps)-1].Cost
		cur = res.Steps[len(res.Steps)-1].Pos
	}
	i := 0
	for i < len(chain)-1 {
		if tail != nil && float64(max(abs(goal.Pos.X-cur.X), abs(goal.Pos.Z-cur.Z))) <= float64(win)+goal.Radius {
			leg, err := r.leg(cur, goal, out)
			if err != nil {
				return res, err
			}
			if leg.Complete {
				add(leg)
				res.Complete = true
				return res, nil
			}
		}
		j := i + 1
		for j+1 < len(chain) && max(abs(chain[j+1].X-cur.X), abs(chain[j+1].Z-cur.Z)) <= win {
			j++
		}
		leg, err := r.leg(cur, At(chain[j]), out)
		if err != nil {
			return res, err
		}
		if !leg.Complete && j > i+1 {
			j = i + 1
			if leg, err = r.leg(cur, At(chain[j]), out); err != nil {
				return res, err
			}
		}
		add(leg)
		if !leg.Complete {
			res.Reason = leg.Reason
			return res, nil
		}
		i = j
	}
	if tail != nil {
		add(*tail)
		res.Complete = true
		res.Reason = Reached
	}
	return res, nil
}
