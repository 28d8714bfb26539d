package base

import (
	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(WalkToRemembered{}) }

// WalkToRemembered walks to the nearest remembered block of an id: the
// snapshot's Recall (the memory file of the run) gives positions the bot
// saw before, nearest first within max_distance, and the skill emits one
// move_to to within 3 blocks of the first. A block already in sight within
// 8 blocks needs no walk (no actions). No memory, or nothing remembered in
// range, is no_target.
type WalkToRemembered struct{}

// nearRadius is the effect's radius: in sight and near enough to mine.
const nearRadius = 8

// Name implements skills.Implementation.
func (WalkToRemembered) Name() string { return "walk_to_remembered" }

// SuggestActions implements skills.Implementation.
func (WalkToRemembered) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	target := p.String("target")
	maxDist := intParam(p, "max_distance", 256)
	id, meta, err := world.SplitID(target)
	if err != nil {
		return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"target\": %v", err)
	}
	match := func(b world.Block) bool { return b.ID == id && (meta < 0 || b.Meta == meta) }
	if w.Blocks != nil && len(w.Blocks.Nearest(w.Feet(), nearRadius, 1, match)) > 0 {
		return nil, nil // already there
	}
	if w.Recall == nil {
		return nil, skills.Failf(skills.CodeNoTarget, "the bot remembers nothing in this run (memory is off; agent run --memory FILE)")
	}
	for _, pos := range w.Recall.RecallBlocks(id, meta, w.Feet(), maxDist, 8) {
		// A remembered block now in sight as something else is gone
		// (the memory forgets it on this look too).
		if w.Known(pos) && !match(w.BlockAt(pos)) {
			continue
		}
		return []action.Action{action.MoveTo{Pos: pos, Radius: 3}}, nil
	}
	return nil, skills.Failf(skills.CodeNoTarget, "no %s remembered within %d blocks", target, maxDist)
}
