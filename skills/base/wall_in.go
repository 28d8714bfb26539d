package base

import (
	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

func init() { registry.Provide(WallIn{}) }

// WallIn is what a cornered player does when a mob comes and there is no
// room to run (a tunnel the mob blocks, a pit): it walls itself in where
// it stands — a block from the inventory in every open cell beside the
// feet and the head and above the head (path.Seal, as a remembered
// shelter is closed) — so the mob neither reaches it nor sees it (a
// creeper's fuse shrinks out of sight: 1.7.10
// EntityAICreeperSwell.updateTask, canEntityBeSeen).
type WallIn struct{}

// Name implements skills.Implementation.
func (WallIn) Name() string { return "wall_in" }

// SuggestActions implements skills.Implementation.
func (WallIn) SuggestActions(w *world.Snapshot, _ skills.Params) ([]action.Action, error) {
	feet := w.Feet()
	if path.Enclosed(w, feet) {
		return nil, nil // walled in already: nothing to do
	}
	seal, ok := path.Seal(w, feet)
	if !ok {
		return nil, skills.Failf(skills.CodeNoTarget, "cannot wall in at %v: a cell around the feet and the head is liquid, unknown, holds a mob or a machine, or has nothing to place a block against", feet)
	}
	cover, ok := path.SealWith(w.Inventory, len(seal))
	if !ok {
		return nil, skills.Failf(skills.CodeMissingItems, "walling in at %v takes %d blocks of one kind (dirt, cobblestone, stone, planks, logs)", feet, len(seal))
	}
	acts := make([]action.Action, 0, len(seal))
	for _, c := range seal {
		acts = append(acts, action.PlaceBlock{Pos: c, Item: cover, Face: "auto"})
	}
	return acts, nil
}
