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
// in the inventory, and, with a pickaxe held, a wall left to mine while
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
		if ok && w.Inventory.BestTool(world.MustItem("tool:pickaxe"), 1) >= 0 {
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
// fill to wall the bot in there (sides of the feet, sides of the head, then
// above the head: each has a solid block, or one filled before it, to be
// placed against) and the block to fill them with.
func closeAt(w *world.Snapshot, at world.BlockPos) ([]world.BlockPos, string, bool) {
	cell := func(p world.BlockPos) path.Cell {
		if !w.Known(p) {
			return path.Unknown
		}
		return path.ClassifyByTags(w.BlockAt(p))
	}
	head := at.Up()
	if cell(at) != path.Passable || cell(head) != path.Passable || cell(at.Down()) != path.Solid {
		return nil, "", false
	}
	if !w.BlockAt(at).IsAir() || !w.BlockAt(head).IsAir() || hasMachine(w, at) || hasMachine(w, head) {
		return nil, "", false
	}
	var around []world.BlockPos
	for _, y := range []int{0, 1} {
		for _, d := range [4][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
			around = append(around, at.Add(d[0], y, d[1]))
		}
	}
	around = append(around, head.Up())
	filled := map[world.BlockPos]bool{}
	var seal []world.BlockPos
	for _, p := range around {
		switch cell(p) {
		case path.Solid:
			continue
		case path.Passable:
			if !w.BlockAt(p).IsAir() {
				return nil, "", false // a torch, a flower: not replaced by a block
			}
		default:
			return nil, "", false // water, lava or the unknown beside the bed
		}
		if fallingBlocks[w.BlockAt(p.Up()).ID] {
			return nil, "", false
		}
		against := false
		for _, d := range [6][3]int{{0, -1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}, {0, 1, 0}} {
			n := p.Add(d[0], d[1], d[2])
			if n != at && n != head && (cell(n) == path.Solid || filled[n]) {
				against = true
			}
		}
		if !against {
			return nil, "", false
		}
		filled[p] = true
		seal = append(seal, p)
	}
	if fallingBlocks[w.BlockAt(head.Up()).ID] {
		return nil, "", false
	}
	for _, id := range coverBlocks {
		if w.Inventory.CountID(id) >= len(seal) {
			return seal, id, true
		}
	}
	return nil, "", false
}
