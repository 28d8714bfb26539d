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
// No such place is no_target.
type Escape struct{}

// escapeRise is how far up or down from the feet a place to stand may be:
// out of a pool three deep, or down off a lava fall.
const escapeRise = 4

// Name implements skills.Implementation.
func (Escape) Name() string { return "escape" }

// SuggestActions implements skills.Implementation.
func (Escape) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	radius := intParam(p, "radius", 8)
	feet := w.Feet()
	var best world.BlockPos
	bestD := -1
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
