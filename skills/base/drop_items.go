package base

import (
	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(DropItems{}) }

// DropItems throws away every item matching item beyond keep, as a player
// with a full inventory throws junk out (Q) instead of walking to a chest:
// one drop_item action. The items lie a few blocks ahead for five minutes
// and can be picked up again. Nothing beyond keep is no_target.
type DropItems struct{}

// Name implements skills.Implementation.
func (DropItems) Name() string { return "drop_items" }

// SuggestActions implements skills.Implementation.
func (DropItems) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	want := p.String("item")
	m, err := world.ParseItemMatcher(want)
	if err != nil {
		return nil, skills.Failf(skills.CodeInvalidParams, "item: %v", err)
	}
	keep := intParam(p, "keep", 0)
	held := w.Inventory.Count(m)
	extra := min(held-keep, action.MaxDropCount)
	if extra <= 0 {
		return nil, skills.Failf(skills.CodeNoTarget, "%d %s held, %d to keep: nothing to throw away", held, want, keep)
	}
	return []action.Action{action.DropItem{Item: want, Count: extra}}, nil
}
