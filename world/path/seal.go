package path

import (
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// SealBlocks are the block items a body walls itself in with (a
// shelter's roof, a wall in a tunnel), in the order they are used.
var SealBlocks = []string{"minecraft:dirt", "minecraft:cobblestone", "minecraft:stone", "minecraft:planks", "minecraft:log", "minecraft:netherrack"}

// Seal returns the cells to fill to wall in a body whose feet are at at:
// the open cells beside the feet, beside the head, then above the head,
// in an order where each has a solid block, or one filled before it, to
// be placed against; a cell with none (the edge of a drop in a cave, a
// pillar in a mined-out hall) gets a block under it or beside it first,
// where that one has. ok is false where it
// cannot be done: the body
// could not stand there (the feet's and the head's cells empty air, the
// floor solid), a cell to fill holds something a block does not replace
// (a torch, a flower), a liquid or the unknown, something that falls
// (sand, gravel) stands above one, a machine is in the way, or a mob
// stands in one (a block is not placed into an entity: 1.7.10
// World.canPlaceEntityOnSide checks the block's box against the entities
// there).
func Seal(w *world.Snapshot, at world.BlockPos) ([]world.BlockPos, bool) {
	cell := func(p world.BlockPos) Cell {
		if !w.Known(p) {
			return Unknown
		}
		return ClassifyByTags(w.BlockAt(p))
	}
	machine := func(p world.BlockPos) bool {
		for _, m := range w.Machines {
			if m.Pos == p {
				return true
			}
		}
		return false
	}
	head := at.Up()
	if cell(at) != Passable || cell(head) != Passable || cell(at.Down()) != Solid {
		return nil, false
	}
	if !w.BlockAt(at).IsAir() || !w.BlockAt(head).IsAir() || machine(at) || machine(head) {
		return nil, false
	}
	var around []world.BlockPos
	for _, y := range []int{0, 1} {
		for _, d := range [4][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
			around = append(around, at.Add(d[0], y, d[1]))
		}
	}
	around = append(around, head.Up())
	bodies := map[world.BlockPos]bool{}
	for _, e := range w.Entities {
		if e.Kind == world.EntityMob {
			b := e.Pos.Block()
			bodies[b], bodies[b.Up()] = true, true
		}
	}
	filled := map[world.BlockPos]bool{}
	var seal []world.BlockPos
	for _, p := range around {
		switch cell(p) {
		case Solid:
			continue
		case Passable:
			if !w.BlockAt(p).IsAir() {
				return nil, false // a torch, a flower: not replaced by a block
			}
		default:
			return nil, false // water, lava or the unknown beside the bed
		}
		if rules.Falls(w.BlockAt(p.Up()).ID) || bodies[p] {
			return nil, false
		}
		against := func(p world.BlockPos) bool {
			for _, d := range [6][3]int{{0, -1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}, {0, 1, 0}} {
				n := p.Add(d[0], d[1], d[2])
				if n != at && n != head && (cell(n) == Solid || filled[n]) {
					return true
				}
			}
			return false
		}
		if !against(p) {
			// Nothing to place it against (the edge of a drop in a
			// cave, a pillar in a mined-out hall: air below and
			// around): a block under it first, or else beside it,
			// against one there or placed before, as a player builds
			// out over a drop. 1.7.10 places a block only against a
			// block's face (ItemBlock.onItemUse).
			found := false
			for _, d := range [5][3]int{{0, -1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}} {
				q := p.Add(d[0], d[1], d[2])
				if q == at || q == head || filled[q] || cell(q) != Passable || !w.BlockAt(q).IsAir() || bodies[q] || !against(q) {
					continue
				}
				filled[q] = true
				seal = append(seal, q)
				found = true
				break
			}
			if !found {
				return nil, false
			}
		}
		filled[p] = true
		seal = append(seal, p)
	}
	if rules.Falls(w.BlockAt(head.Up()).ID) {
		return nil, false
	}
	return seal, true
}

// SealWith returns the block item of SealBlocks the inventory holds n of
// (the first in that order), or false.
func SealWith(inv world.Inventory, n int) (string, bool) {
	for _, id := range SealBlocks {
		if inv.CountID(id) >= n {
			return id, true
		}
	}
	return "", false
}
