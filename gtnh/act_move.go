package gtnh

import (
	"fmt"
	"maps"
	"math"
	"time"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
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
	cache := map[world.StateID]path.Cell{}
	return path.GridFunc(func(x, y, z int) path.Cell {
		if y < 0 {
			return path.Unknown
		}
		if y > 255 {
			return path.Passable
		}
		if chunks == nil || !loaded[[2]int{x >> 4, z >> 4}] {
			return path.Unknown
		}
		st := chunks.StateAt(x, y, z)
		if c, ok := cache[st]; ok {
			return c
		}
		c := path.ClassifyByTags(chunks.Resolver().Block(st))
		cache[st] = c
		return c
	})
}

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
		s := world.ShapeOf(snap.BlockAt(p), func(dy int) world.Block { return snap.BlockAt(p.Add(0, dy, 0)) })
		if c := path.CellOf(s); c == path.Low || c == path.Slab {
			return float64(p.Y) + s.Top()
		}
		return float64(p.Y)
	}
}

// moveTo plans with the pathfinder over the client's world and walks the
// path tick by tick. A server correction (or a blocked route) stops the
// walk and plans again from where the server put the player.
func (x *act) moveTo(a action.MoveTo) ipc.Result {
	goal := path.Near(a.Pos, a.Radius)
	finder := path.NewFinder()
	steps, replans, rounds := 0, 0, 0
	var why string
	for ; ; rounds++ {
		if err := x.settle(); err != nil {
			return x.fail(err, "landing")
		}
		x.c.mu.Lock()
		loaded := maps.Clone(x.s.loaded)
		x.c.mu.Unlock()
		snap := x.c.state.Snapshot()
		b := x.body()
		grid := snapshotGrid(snap, loaded)
		start := path.FeetCell(grid, ifloor(b.x), b.y, ifloor(b.z))
		if goal.Reached(start) {
			// Stand on the block centre so that reach checks of the plan hold.
			err := x.walk([]waypoint{{x: float64(start.X) + 0.5, y: b.y, z: float64(start.Z) + 0.5}})
			if err != nil && err != errCorrected && err != errStuck {
				return x.fail(err, "centring")
			}
			return ipc.Result{Code: ipc.OK, Details: map[string]any{"steps": steps, "replans": replans, "to": start}}
		}
		if replans > maxReplans || rounds > 2*maxReplans {
			return ipc.Failf(ipc.Interrupted, 0, "move to %v abandoned after %d re-plans: %s", a.Pos, replans-1, why)
		}
		res, err := finder.Find(grid, start, goal, path.Options{MaxNodes: 200_000, MaxTime: 2 * time.Second})
		if err != nil {
			return ipc.Failf(ipc.InvalidParams, 0, "move_to %v: %v", a.Pos, err)
		}
		if !res.Complete {
			return ipc.Failf(ipc.Unreachable, 0, "no walking path from %v to within %.1f of %v (%s after %d nodes)", start, a.Radius, a.Pos, res.Reason, res.Expanded)
		}
		steps += len(res.Steps) - 1
		err = x.walk(route(res.Steps, snapshotStandY(snap)))
		switch {
		case err == nil:
			why = "the walk ended off the goal"
			continue
		case err == errCorrected:
			why = "the server corrected the position"
		case err == errStuck:
			why = "the route was blocked"
		default:
			return x.fail(err, fmt.Sprintf("walking to %v", a.Pos))
		}
		replans++
		x.c.log.Debug().Str("reason", why).Int("replans", replans).Msg("re-planning move")
	}
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
