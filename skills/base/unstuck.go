package base

import (
	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

func init() { registry.Provide(Unstuck{}) }

// Unstuck gets a bot that makes no progress out of where it is: it picks a
// free place to stand about distance blocks away and emits one move_to
// there. The body walks when it can and otherwise digs or pillars its way
// (move_to's fallback in the simulator and on a server), so a bot boxed in,
// in a pit or wedged in a corner comes out. The direction is the attempt's
// in the compass order N, E, S, W, NE, SE, SW, NW (attempt 0 north), and
// the next ones in that order when the column there has no place to stand;
// in a column, the highest place within distance blocks up or down is
// taken (up and out of a pit first). No place in any direction is
// no_target.
type Unstuck struct{}

// Name implements skills.Implementation.
func (Unstuck) Name() string { return "unstuck" }

// compass is the order the attempts go in: the four sides, then the
// diagonals.
var compass = [8][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}}

// SuggestActions implements skills.Implementation.
func (Unstuck) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	dist := intParam(p, "distance", 5)
	attempt := intParam(p, "attempt", 0)
	feet := w.Feet()
	for i := range len(compass) {
		d := compass[(attempt+i)%len(compass)]
		x, z := feet.X+d[0]*dist, feet.Z+d[1]*dist
		if at, ok := standIn(w, x, z, feet.Y+dist, feet.Y-dist); ok {
			return []action.Action{action.MoveTo{Pos: at, Radius: 1}}, nil
		}
	}
	return nil, skills.Failf(skills.CodeNoTarget, "no free place to stand %d blocks from %v in any direction", dist, feet)
}

// standIn finds the highest place in column (x, z) between top and bottom
// where the player can stand: two passable blocks over a solid one, all
// known, none of them water or a danger.
func standIn(w *world.Snapshot, x, z, top, bottom int) (world.BlockPos, bool) {
	cell := func(y int) (path.Cell, bool) {
		p := world.Pos(x, y, z)
		if !w.Known(p) {
			return path.Unknown, false
		}
		return path.ClassifyByTags(w.BlockAt(p)), true
	}
	for y := top; y >= bottom; y-- {
		head, ok1 := cell(y + 1)
		body, ok2 := cell(y)
		floor, ok3 := cell(y - 1)
		if ok1 && ok2 && ok3 && head == path.Passable && body == path.Passable && floor == path.Solid {
			return world.Pos(x, y, z), true
		}
	}
	return world.BlockPos{}, false
}
