package gtnh

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"time"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// maxReplans bounds the re-plans of one move after server corrections or a
// blocked route.
const maxReplans = 4

// snapshotGrid is the pathfinder's view of a snapshot: cells classified by
// the block's tags (cached per state); columns the server has not sent are
// Unknown.
func snapshotGrid(snap *world.Snapshot, loaded map[[2]int]bool) path.Grid {
	chunks, _ := world.ChunksOf(snap.Blocks)
	return &snapGrid{chunks: chunks, loaded: loaded, cache: map[chunk.StateID]path.Cell{}, lastCell: path.Unknown}
}

// snapGrid is snapshotGrid's grid. It reads whole columns for the
// long-route planner (path.ColumnGrid) with one lookup of the chunk column
// instead of one per block.
type snapGrid struct {
	chunks *chunk.Chunks
	loaded map[[2]int]bool
	cache  map[chunk.StateID]path.Cell
	// last is the state classified last and its cell: most reads repeat
	// the one before (air above the ground, stone below).
	last     chunk.StateID
	lastCell path.Cell
	// memo holds recently classified states, one per slot by a hash of
	// the state, in front of cache: terrain holds a few dozen states, and
	// a slot costs a multiply where the map costs a hash and a probe.
	memo [memoSlots]stateMemo
	// The chunk column read last (column).
	colValid, colKnown bool
	colX, colZ         int
	col                *chunk.Column
}

var (
	_ path.ColumnGrid = (*snapGrid)(nil)
	_ path.GridViews  = (*snapGrid)(nil)
)

// View implements path.GridViews: a view of the same snapshot (which no one
// writes) with its own memory of the last column and state read.
func (g *snapGrid) View() path.Grid {
	return &snapGrid{chunks: g.chunks, loaded: g.loaded, cache: map[chunk.StateID]path.Cell{}, lastCell: path.Unknown}
}

// Cell implements path.Grid.
func (g *snapGrid) Cell(x, y, z int) path.Cell {
	if y < 0 {
		return path.Unknown
	}
	if y > 255 {
		return path.Passable
	}
	col, known := g.column(x>>4, z>>4)
	switch {
	case !known:
		return path.Unknown
	case col == nil:
		return g.classify(chunk.AirState)
	}
	return g.classify(col.StateAt(x, y, z))
}

// Column implements path.ColumnGrid.
func (g *snapGrid) Column(x, z, y0 int, out []path.Cell) {
	col, known := g.column(x>>4, z>>4)
	for i := range out {
		switch y := y0 + i; {
		case y < 0:
			out[i] = path.Unknown
		case y > 255:
			out[i] = path.Passable
		case !known:
			out[i] = path.Unknown
		case col == nil:
			out[i] = g.classify(chunk.AirState)
		default:
			out[i] = g.classify(col.StateAt(x, y, z))
		}
	}
}

// column returns chunk column (cx, cz) (nil: all air) and whether it is
// known, remembering the last one asked for: a search reads the cells
// around one position at a time, nearly all in one column.
func (g *snapGrid) column(cx, cz int) (*chunk.Column, bool) {
	if g.colValid && cx == g.colX && cz == g.colZ {
		return g.col, g.colKnown
	}
	var col *chunk.Column
	known := g.chunks != nil && g.loaded[[2]int{cx, cz}]
	if known {
		col = g.chunks.Column(cx, cz)
	}
	g.colValid, g.colX, g.colZ, g.col, g.colKnown = true, cx, cz, col, known
	return col, known
}

func (g *snapGrid) classify(st chunk.StateID) path.Cell {
	if st == g.last && g.lastCell != path.Unknown {
		return g.lastCell
	}
	m := &g.memo[memoSlot(st)]
	if m.set && m.st == st {
		g.last, g.lastCell = st, m.cell
		return m.cell
	}
	c, ok := g.cache[st]
	if !ok {
		c = path.ClassifyByTags(g.chunks.Resolver().Block(st))
		g.cache[st] = c
	}
	*m = stateMemo{st: st, cell: c, set: true}
	g.last, g.lastCell = st, c
	return c
}

// memoSlots is the size of snapGrid.memo, a power of two.
const memoSlots = 256

// stateMemo is one slot of snapGrid.memo.
type stateMemo struct {
	st   chunk.StateID
	cell path.Cell
	set  bool
}

// memoSlot is st's slot in snapGrid.memo (Fibonacci hashing: the top bits
// of st times 2^32/φ).
func memoSlot(st chunk.StateID) uint32 { return uint32(st) * 2654435769 >> 24 }

// route turns path steps into waypoints at block centres, at the height
// the feet stand there (standY).
func route(steps []path.Step, standY func(world.BlockPos) float64) []waypoint {
	out := make([]waypoint, 0, len(steps))
	for _, st := range steps {
		if st.Move == path.MoveStart {
			continue
		}
		out = append(out, waypoint{x: float64(st.Pos.X) + 0.5, y: standY(st.Pos), z: float64(st.Pos.Z) + 0.5, move: st.Move})
	}
	return out
}

// snapshotStandY is where the feet stand in cell p of a snapshot: on the
// floor inside it (a bottom slab half a block up, a carpet 1/16), else at
// the cell's bottom — the real height the server expects, from the shared
// shape table.
func snapshotStandY(snap *world.Snapshot) func(world.BlockPos) float64 {
	return func(p world.BlockPos) float64 {
		s := rules.ShapeOf(snap.BlockAt(p), func(dy int) world.Block { return snap.BlockAt(p.Add(0, dy, 0)) })
		if c := path.CellOf(s); c == path.Low || c == path.Slab {
			return float64(p.Y) + s.Top()
		}
		return float64(p.Y)
	}
}

// maxStalls bounds the segments in a row that end no nearer the goal: a
// route into unloaded terrain that makes no progress is abandoned.
const maxStalls = 3

// columnWaitTicks bounds one wait at the edge of the loaded terrain for
// the server's next columns (3 s at 20 ticks a second); it ends as soon
// as one arrives. A busy server sends the
// columns around a moved player a few ticks later, a lagging one later
// still.
const columnWaitTicks = 60

// arrivedSince reports whether now holds a column that before did not.
func arrivedSince(now, before map[[2]int]bool) bool {
	for p, in := range now {
		if in && !before[p] {
			return true
		}
	}
	return false
}

// Route budgets: each exact search of a route, and the whole route; and
// the goroutines that compute the costs inside the regions a route builds
// while its search goes on (path.RouteOptions.Workers: at most one fewer
// than the CPUs Go uses, none on one CPU).
const (
	routeMaxNodes = 200_000
	routeMaxTime  = 2 * time.Second
	routeWorkers  = 2
)

// routeCache keeps a path.Router's abstraction in step with the snapshots
// of the client's world: a column whose contents changed between two
// snapshots is a different *chunk.Column (the chunk store copies a column
// a snapshot shares before writing to it), so comparing the pointers
// finds every loaded, unloaded or edited column.
//
// A session keeps one for all its move_to actions (session.routes), so a
// route reuses the regions earlier ones built; it is dropped when the
// player respawns or changes dimension (session.worldGen), and a new
// connection is a new session with an empty one.
type routeCache struct {
	router *path.Router
	loaded map[[2]int]bool
	cols   map[[2]int]*chunk.Column
	gen    uint64 // the session's worldGen it was built for
}

func newRouteCache() (*routeCache, error) {
	rc := &routeCache{cols: map[[2]int]*chunk.Column{}}
	r, err := path.NewRouter(path.GridFunc(func(int, int, int) path.Cell { return path.Unknown }), path.RouteOptions{
		Options: path.Options{MaxNodes: routeMaxNodes, MaxTime: routeMaxTime},
		Loaded:  func(cx, cz int) bool { return rc.loaded[[2]int{cx, cz}] },
		Workers: routeWorkers,
	})
	if err != nil {
		return nil, err
	}
	rc.router = r
	return rc, nil
}

// sync points the router at a new snapshot and drops what changed since
// the last one.
func (rc *routeCache) sync(snap *world.Snapshot, loaded map[[2]int]bool) {
	rc.router.SetGrid(snapshotGrid(snap, loaded))
	rc.loaded = loaded
	// ChunksOf, not a type assertion: with ore position tags the block
	// source is a tagged view over the chunks.
	chunks, _ := world.ChunksOf(snap.Blocks)
	column := func(k [2]int) *chunk.Column {
		if chunks == nil || !loaded[k] {
			return nil
		}
		return chunks.Column(k[0], k[1])
	}
	for k, old := range rc.cols {
		if now := column(k); now != old {
			rc.router.InvalidateColumn(k[0], k[1])
			if now == nil {
				delete(rc.cols, k)
			} else {
				rc.cols[k] = now
			}
		}
	}
	for k := range loaded {
		if _, seen := rc.cols[k]; !seen {
			if col := column(k); col != nil {
				rc.cols[k] = col
				rc.router.InvalidateColumn(k[0], k[1])
			}
		}
	}
}

// moveTo plans with the long-route planner (path.Router) over the client's
// world and walks the path tick by tick. A server correction (or a blocked
// route) stops the walk and plans again from where the server put the
// player. A goal in columns the server has not sent is approached in
// segments: each route ends at the best point on the edge of the loaded
// columns, and the next one is planned from there with the columns that
// arrived meanwhile. Planning runs on the action's goroutine, not the tick
// loop's, so the body keeps ticking while a route is planned.
func (x *act) moveTo(a action.MoveTo) ipc.Result {
	goal := path.Near(a.Pos, a.Radius)
	var rc *routeCache
	defer func() { x.putRoutes(rc) }()
	steps, replans, rounds, segments, stalls := 0, 0, 0, 0, 0
	dug, placed := 0, 0                 // blocks broken and placed by digging routes
	handDug := false                    // a digging route broke by hand what nothing held harvests
	var reasons []string                // why each re-plan was made
	var planning, longest time.Duration // spent planning routes, in all and the longest
	bestDist := math.Inf(1)
	var why string
	for ; ; rounds++ {
		if err := x.settle(); err != nil {
			return x.fail(err, "landing")
		}
		x.c.mu.Lock()
		loaded := maps.Clone(x.s.loaded)
		gen := x.s.worldGen
		x.c.mu.Unlock()
		snap := x.c.state.Snapshot()
		b := x.body()
		if rc == nil || rc.gen != gen {
			var err error
			if rc, err = x.takeRoutes(gen); err != nil {
				return ipc.Failf(ipc.InvalidParams, 0, "move_to %v: %v", a.Pos, err)
			}
		}
		rc.sync(snap, loaded)
		grid := snapshotGrid(snap, loaded)
		start := path.FeetCell(grid, ifloor(b.x), b.y, ifloor(b.z))
		if goal.Reached(start) {
			// Stand on the block centre so that reach checks of the plan hold.
			err := x.walk([]waypoint{{x: float64(start.X) + 0.5, y: b.y, z: float64(start.Z) + 0.5}})
			if err != nil && err != errCorrected && err != errStuck {
				return x.fail(err, "centring")
			}
			details := map[string]any{"steps": steps, "replans": replans, "segments": segments, "to": start,
				"planning_ms": ms(planning), "longest_plan_ms": ms(longest)}
			if dug+placed > 0 {
				details["dug"], details["placed"] = dug, placed
			}
			if len(reasons) > 0 {
				details["replanned_because"] = reasons
			}
			if handDug {
				details["by_hand"] = true
			}
			return ipc.Result{Code: ipc.OK, Details: details}
		}
		if replans > maxReplans || rounds-segments > 2*maxReplans {
			return ipc.Failf(ipc.Interrupted, 0, "move to %v abandoned after %d re-plans: %s", a.Pos, replans-1, why)
		}
		rt, err := rc.router.Find(start, goal)
		planning, longest = planning+rt.Elapsed, max(longest, rt.Elapsed)
		if err != nil {
			return ipc.Failf(ipc.InvalidParams, 0, "move_to %v: %v", a.Pos, err)
		}
		frontier := rt.Reason == path.ReachedFrontier
		if !rt.Complete && !frontier {
			if x.walkOnly {
				return ipc.Failf(ipc.Unreachable, 0, "no walking path from %v to within %.1f of %v (%s after %d nodes)", start, a.Radius, a.Pos, rt.Reason, rt.Expanded)
			}
			// No walking path: dig one (a buried target, the way out of
			// a pit), as the simulator does, and check each dig and
			// placement by the server's answer.
			dr, digWhy, byHand, err := x.digRoute(snap, loaded, start, goal, a.Keep)
			if err != nil {
				return ipc.Failf(ipc.InvalidParams, 0, "move_to %v: %v", a.Pos, err)
			}
			if !dr.Complete {
				return ipc.Failf(ipc.Unreachable, 0, "no path from %v to within %.1f of %v, walking or digging (%s after %d nodes)%s",
					start, a.Radius, a.Pos, dr.Reason, dr.Expanded, digWhy)
			}
			x.c.route.Set(dr.Steps)
			handDug = handDug || byHand
			d, p, err := x.followDig(dr.Steps, byHand)
			dug, placed = dug+d, placed+p
			steps += len(dr.Steps) - 1
			var re *replanError
			switch {
			case err == nil:
				why = "the dig ended off the goal"
				continue
			case errors.As(err, &re):
				why = re.why
			case err == errCorrected:
				why = "the server corrected the position"
			case err == errStuck:
				why = "the route was blocked"
			default:
				return x.fail(err, fmt.Sprintf("digging to %v", a.Pos))
			}
			replans++
			reasons = append(reasons, why)
			x.c.log.Debug().Str("reason", why).Int("replans", replans).Msg("re-planning a dig")
			continue
		}
		if frontier {
			// Progress is measured at the start of each segment.
			if d := math.Sqrt(float64(start.DistSq(a.Pos))); d < bestDist-1 {
				bestDist, stalls = d, 0
			} else if stalls++; stalls > maxStalls {
				return ipc.Failf(ipc.Unreachable, 0, "no walking path from %v toward %v: the loaded terrain ends at %v and no nearer columns arrived", start, a.Pos, rt.Steps[len(rt.Steps)-1].Pos)
			}
			segments++
			x.c.log.Debug().Int("segment", segments).Stringer("to", rt.Steps[len(rt.Steps)-1].Pos).
				Int("portals", rt.AbstractExpanded).Dur("planned_in", rt.Elapsed).Msg("walking to the edge of the loaded terrain")
			if len(rt.Steps) < 2 {
				// Standing on the edge: wait for the server's next columns
				// (a column not loaded when this round began: as the player
				// moves the server also unloads columns behind it, so the
				// count alone can stay the same).
				if _, err := x.serverWait(columnWaitTicks, func() bool { return arrivedSince(x.s.loaded, loaded) }); err != nil {
					return x.fail(err, "waiting for chunks")
				}
				continue
			}
		}
		steps += len(rt.Steps) - 1
		x.c.route.Set(rt.Steps)
		err = x.walk(route(rt.Steps, snapshotStandY(snap)))
		switch {
		case err == nil:
			if !frontier {
				why = "the walk ended off the goal"
			}
			continue
		case err == errCorrected:
			why = "the server corrected the position"
		case err == errStuck:
			why = "the route was blocked"
		default:
			return x.fail(err, fmt.Sprintf("walking to %v", a.Pos))
		}
		replans++
		reasons = append(reasons, why)
		x.c.log.Debug().Str("reason", why).Int("replans", replans).Msg("re-planning move")
	}
}

// ms is d in milliseconds, to a tenth.
func ms(d time.Duration) float64 { return math.Round(float64(d)/1e5) / 10 }

// takeRoutes takes the session's route cache for one move_to: the shared
// one when it was built for world generation gen, else a new one. The
// session holds none while an action uses it, so two actions never share a
// Router (it is not safe for concurrent use).
func (x *act) takeRoutes(gen uint64) (*routeCache, error) {
	x.c.mu.Lock()
	rc := x.s.routes
	x.s.routes = nil
	x.c.mu.Unlock()
	if rc != nil && rc.gen == gen {
		return rc, nil
	}
	rc, err := newRouteCache()
	if err != nil {
		return nil, err
	}
	rc.gen = gen
	return rc, nil
}

// putRoutes hands the route cache back to the session for the next
// move_to, unless the world it describes was left meanwhile.
func (x *act) putRoutes(rc *routeCache) {
	if rc == nil {
		return
	}
	x.c.mu.Lock()
	if rc.gen == x.s.worldGen {
		x.s.routes = rc
	}
	x.c.mu.Unlock()
}

var (
	errCorrected = fmt.Errorf("position corrected")
	errStuck     = fmt.Errorf("stuck")
)

// walk follows waypoints until the last is reached, a correction arrives
// or the body is stuck.
func (x *act) walk(wps []waypoint) error {
	x.c.mu.Lock()
	b := &x.s.body
	b.route, b.stuck = wps, false
	b.best, b.sinceBest = math.Inf(1), 0
	corr := b.corrections
	x.c.mu.Unlock()
	err := x.c.waitFor(x.ctx, x.s, func() bool {
		return len(b.route) == 0 || b.corrections != corr || b.stuck
	})
	x.c.mu.Lock()
	defer x.c.mu.Unlock()
	if err != nil {
		b.route = nil
		return err
	}
	switch {
	case b.corrections != corr:
		return errCorrected
	case b.stuck:
		b.stuck = false
		return errStuck
	}
	return nil
}

// settle waits (up to two seconds of ticks) for a falling body to land.
func (x *act) settle() error {
	_, err := x.within(40, func() bool {
		b := &x.s.body
		return b.onGround || b.vy == 0
	})
	return err
}
