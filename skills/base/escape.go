package base

import (
	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

func init() { registry.Provide(Escape{}) }

// Escape gets the bot out of water or lava: it picks the nearest place to
// stand on dry ground — two free blocks over a solid one, all known, no
// liquid or danger among them — within radius blocks across and
// escapeRise up or down, and emits one move_to there (swimming up and
// out where the way leads through water). Nearest is straight-line from
// the feet; ties go to the higher place, then the first in x, z order.
// Out of lava, shallow water (the feet in it, the head out) within
// radius comes first, nearest first: lava leaves the bot burning for 15
// s, 15 damage more, and water puts the fire out. No place is
// no_target.
type Escape struct{}

// escapeRise is how far up or down from the feet a place to stand may be:
// out of a pool three deep, or down off a lava fall.
const escapeRise = 4

// shallowWater finds, in column (x, z) at height y, a place to stand in
// water with the head out: water at the feet, a free block over it, a
// solid one under it. Standing there puts out the fire lava set
// (Entity.handleWaterMovement) and costs no air.
func shallowWater(w *world.Snapshot, x, y, z int) bool {
	cell := func(dy int) path.Cell {
		p := world.Pos(x, y+dy, z)
		if !w.Known(p) {
			return path.Unknown
		}
		return path.ClassifyByTags(w.BlockAt(p))
	}
	return cell(0) == path.Water && cell(1) == path.Passable && cell(-1) == path.Solid
}

// Name implements skills.Implementation.
func (Escape) Name() string { return "escape" }

// SuggestActions implements skills.Implementation.
func (Escape) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	radius := intParam(p, "radius", 8)
	feet := w.Feet()
	var best world.BlockPos
	bestD := -1
	if path.InLava(w) {
		for dx := -radius; dx <= radius; dx++ {
			for dz := -radius; dz <= radius; dz++ {
				for y := feet.Y + escapeRise; y >= feet.Y-escapeRise; y-- {
					at := world.Pos(feet.X+dx, y, feet.Z+dz)
					if d := at.DistSq(feet); shallowWater(w, at.X, y, at.Z) && (bestD < 0 || d < bestD || d == bestD && at.Y > best.Y) {
						best, bestD = at, d
					}
				}
			}
		}
		if bestD >= 0 {
			return []action.Action{action.MoveTo{Pos: best, Radius: 0}}, nil
		}
	}
	for dx := -radius; dx <= radius; dx++ {
		for dz := -radius; dz <= radius; dz++ {
			x, z := feet.X+dx, feet.Z+dz
			for y := feet.Y + escapeRise; y >= feet.Y-escapeRise; y-- {
				at, ok := standIn(w, x, z, y, y)
				if !ok || at == feet {
					continue
				}
				d := at.DistSq(feet)
				if bestD < 0 || d < bestD || d == bestD && at.Y > best.Y {
					best, bestD = at, d
				}
			}
		}
	}
	if bestD < 0 {
		what := "water"
		if path.InLava(w) {
			what = "lava"
		}
		return nil, skills.Failf(skills.CodeNoTarget, "no dry place to stand within %d blocks of %v to get out of the %s", radius, feet, what)
	}
	return []action.Action{action.MoveTo{Pos: best, Radius: 0}}, nil
}
