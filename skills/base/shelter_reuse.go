package base

import (
	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// shelterReuse is how far (in blocks) a remembered shelter may be for the
// bot to walk back to it rather than dig a new one.
const shelterReuse = 16

// reuse plans going back into a shelter the memory remembers (the bot was
// walled in there on an earlier night) within shelterReuse blocks, nearest
// first, and closing it again: every open cell beside the feet and the
// head, and above the head, gets a block from the inventory (the roof it
// climbed out through, the room it mined while it waited). A shelter is
// taken only when it is still one to stand in (the floor solid, the feet
// and head cells free of blocks and liquids) and safe to close: no
// water, lava or unknown cell around it, nothing that falls above the
// head, each block placed against one already there, and blocks enough
// in the inventory, and, with a pickaxe held that the shelter mines with
// (shelterPick), a wall left to mine while
// the bot waits there (see wallToMine). ok is false when there is no memory or no such
// shelter.
func (sk Shelter) reuse(w *world.Snapshot, feet world.BlockPos) ([]action.Action, bool) {
	rec, ok := w.Recall.(world.ShelterRecaller)
	if !ok {
		return nil, false
	}
	set := sk.Rules
	if set == nil {
		set = rules.Default()
	}
	for _, at := range rec.RecallShelters(feet, shelterReuse, 4) {
		seal, cover, ok := closeAt(w, at)
		if _, mines := shelterPick(w, set); ok && mines {
			// Closed again, the bot with a pickaxe must have walls to
			// mine while it waits, as in a new pit: an earlier night's
			// room open to the outside (the way it climbed out) leaves
			// none.
			closed := map[world.BlockPos]world.Block{}
			for _, p := range seal {
				closed[p] = set.Tags.Block(cover, 0)
			}
			there := withBlocks(w, closed)
			there.Player.Pos = world.Vec3{X: float64(at.X) + 0.5, Y: float64(at.Y), Z: float64(at.Z) + 0.5}
			_, ok = sk.wallToMine(there, set, at)
		}
		if ok {
			acts := []action.Action{action.MoveTo{Pos: at}}
			for _, p := range seal {
				acts = append(acts, action.PlaceBlock{Pos: p, Item: cover, Face: "auto"})
			}
			return acts, true
		}
	}
	return nil, false
}

// closeAt checks the shelter whose feet are at: it returns the cells to
// fill to wall the bot in there (path.Seal) and the block to fill them
// with.
func closeAt(w *world.Snapshot, at world.BlockPos) ([]world.BlockPos, string, bool) {
	seal, ok := path.Seal(w, at)
	if !ok {
		return nil, "", false
	}
	cover, ok := path.SealWith(w.Inventory, len(seal))
	return seal, cover, ok
}
