package base

import (
	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(RecoverDrops{}) }

// RecoverDrops walks to where the bot died to pick up what it dropped: one
// move_to onto the block (x, y, z), where the items lie; walking over them
// picks them up (the simulator and a server alike). Already there, it has
// nothing to do.
type RecoverDrops struct{}

// Name implements skills.Implementation.
func (RecoverDrops) Name() string { return "recover_drops" }

// SuggestActions implements skills.Implementation.
func (RecoverDrops) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	at := world.Pos(intParam(p, "x", 0), intParam(p, "y", 0), intParam(p, "z", 0))
	if w.Feet() == at {
		return nil, nil
	}
	return []action.Action{action.MoveTo{Pos: at, Radius: 0}}, nil
}
