package chain

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// walkToSkill walks part of the way to a block in sight (skills/base).
const walkToSkill = "walk_to"

// Bounds of a gathering step's walk: a source farther than walkLeg blocks,
// or more than walkClimb blocks above the feet (the way out of a mine is
// longer than the line to the tree), is walked towards first, walkTicks
// of walking a step, so no step spends long walking before its work
// shows, and between two steps the reflexes look around (a creeper at the
// mouth of the mine is fought or fled, not walked into).
const (
	walkLeg   = 32
	walkClimb = 8
	walkTicks = 200
)

// walkFirst plans the walk towards a gathering skill's nearest source
// when it is far: walk_to the block for walkTicks, checked by the block
// being nearer at the end than at the start. It is nil when the source is
// near, or no walking skill is available.
func (s *search) walkFirst(src world.BlockHit) *loop.Invocation {
	if src.Block.ID == "" || s.find(walkToSkill) == nil {
		return nil
	}
	feet := s.w.Feet()
	dist := math.Sqrt(float64(src.DistSq))
	if dist <= walkLeg && src.Pos.Y-feet.Y <= walkClimb {
		return nil
	}
	inv := &loop.Invocation{Skill: walkToSkill, Params: map[string]any{"target": src.Block.ID, "near": int(math.Ceil(dist)) - 1, "leg": walkTicks}}
	if s.blocked[inv.String()] {
		return nil
	}
	return inv
}
