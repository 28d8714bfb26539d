package base

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

func init() { registry.Provide(WalkTo{}) }

// WalkTo walks towards the nearest block of an id in sight, and only part
// of the way: it stops once the block is within near blocks. A long walk
// (out of a mine to the last trees) is then a step of its own, or several,
// each showing its progress when it ends, rather than the first minute of
// the step that works at the end of the way. With leg set it walks no more
// of the way than leg ticks a step (the way found by the pathfinder, cut
// there), so between the legs the reflexes look around (a creeper at the
// mouth of the mine). Where no walking way leads to a block more than two
// above the feet (trees over the tunnels of a mine), a leg digs a
// staircase towards it instead (stairs). Otherwise it emits one move_to; a block
// already within near needs no walk (no actions), and none within radius
// is no_target.
type WalkTo struct{}

// Name implements skills.Implementation.
func (WalkTo) Name() string { return "walk_to" }

// SuggestActions implements skills.Implementation.
func (WalkTo) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	target := p.String("target")
	near := intParam(p, "near", 8)
	radius := intParam(p, "radius", 64)
	m, err := skills.ParseBlockMatcher(target)
	if err != nil {
		return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"target\": %v", err)
	}
	if w.Blocks == nil {
		return nil, skills.Failf(skills.CodeNoTarget, "no blocks observed")
	}
	hits := w.Blocks.Nearest(w.Feet(), radius, 1, m.Matches)
	if len(hits) == 0 {
		return nil, skills.Failf(skills.CodeNoTarget, "no %s within %d blocks", target, radius)
	}
	if hits[0].DistSq <= near*near {
		return nil, nil // near enough
	}
	// A block short of near, so the block is within near where the walk
	// ends wherever the body stops inside the move's radius.
	stop := math.Max(1, float64(near)-1)
	if leg := intParam(p, "leg", 0); leg > 0 {
		// No more of the way than leg ticks of walking: the way to the
		// block found now, cut where its cost passes leg (the whole way
		// when it is shorter).
		res, err := path.Find(path.NewBlockGrid(w.Blocks, nil), w.Feet(), path.Near(hits[0].Pos, workRadius), path.Options{MaxNodes: walkNodes})
		if err == nil && res.Complete && len(res.Steps) > 1 {
			cut := 1
			for i := 1; i < len(res.Steps) && res.Steps[i].Cost <= float64(leg); i++ {
				cut = i
			}
			return []action.Action{action.MoveTo{Pos: res.Steps[cut].Pos}}, nil
		}
		// No way found by walking alone, and the block far above (trees
		// over a mine): a staircase towards it, as far as leg ticks go.
		if climb := stairs(w, hits[0].Pos, leg); climb != nil {
			return climb, nil
		}
		// Otherwise (the body digs where it must): towards the block as
		// far as leg ticks of walking go in a straight line.
		left := math.Sqrt(float64(hits[0].DistSq)) - float64(leg)/walkTicksPerBlock
		stop = math.Min(stop, math.Max(workRadius, math.Ceil(left)))
	}
	return []action.Action{action.MoveTo{Pos: hits[0].Pos, Radius: stop}}, nil
}

// walkTicksPerBlock is walking's pace: 4.317 blocks a second, 20 ticks a
// second (EntityPlayer's base speed 0.1; SharedMonsterAttributes).
const walkTicksPerBlock = 20 / 4.317

// walkNodes bounds the search for the way a leg is cut from.
const walkNodes = 20000
