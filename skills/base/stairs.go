package base

import (
	"slices"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// The way up out of a mine: where no walking way leads to a block far
// above (trees on the grass over the tunnels), a player digs a staircase
// towards it, a block up and a block over at a time — the tread it steps
// onto left in place, the two blocks above the tread dug for the body and
// the one over its head dug so it can jump up. walk_to does that for a
// leg when the pathfinder finds no way.

// stairRise: a block more than this far above the feet is climbed to by a
// staircase when no walking way leads there.
const stairRise = 2

// stairBlockTicks is how long one block of a stair is reckoned to take to
// dig: stone (hardness 1.5) with a wooden pickaxe (speed 2) takes
// 1.5 × 30 / 2 = 22.5 ticks (rules.BreakTicks).
const stairBlockTicks = 23

// stairStepTicks is the step up onto a stair, reckoned as two blocks of
// walking (walkTicksPerBlock: 4.6 ticks a block) and the jump.
const stairStepTicks = 10

// stairs plans a staircase from the feet towards target, one stair a
// block over (along the axis the target is farther on) and a block up,
// for as many stairs as fit in leg ticks (at least one): each stair's
// blocks that are not air are broken (a pickaxe equipped first when one
// is held), then the body steps up. It stops before a stair whose tread is
// not solid, whose blocks are unknown, liquid, unbreakable or a machine,
// beside water or lava that would flow in, or under sand or gravel that
// would fall in. Nil when the target is not
// more than stairRise above the feet, straight above, or the first stair
// cannot be dug.
func stairs(w *world.Snapshot, target world.BlockPos, leg int) []action.Action {
	feet := w.Feet()
	if target.Y-feet.Y <= stairRise {
		return nil
	}
	dx, dz := target.X-feet.X, target.Z-feet.Z
	var d [2]int
	switch {
	case dx != 0 && abs(dx) >= abs(dz):
		d = [2]int{dx / abs(dx), 0}
	case dz != 0:
		d = [2]int{0, dz / abs(dz)}
	default:
		return nil // straight up: a pillar, not a staircase
	}
	machines := map[world.BlockPos]bool{}
	for _, m := range w.Machines {
		machines[m.Pos] = true
	}
	dug := map[world.BlockPos]bool{}
	diggable := func(p world.BlockPos) bool {
		if dug[p] {
			return true
		}
		if !w.Known(p) || machines[p] {
			return false
		}
		b := w.BlockAt(p)
		if b.IsAir() {
			return true
		}
		return path.ClassifyByTags(b) == path.Solid && b.ID != "minecraft:bedrock" && !fallingBlocks[b.ID]
	}
	var acts []action.Action
	if w.Inventory.BestTool(world.MustItem("tool:pickaxe"), 1) >= 0 {
		acts = append(acts, action.Equip{Item: "tool:pickaxe"})
	}
	at, spent, stairsDug := feet, 0, 0
	for at.Y < target.Y-1 {
		tread := at.Add(d[0], 0, d[1])
		next := tread.Up()
		cells := []world.BlockPos{at.Up().Up(), next, next.Up()}
		if dug[tread] || !w.Known(tread) || path.ClassifyByTags(w.BlockAt(tread)) != path.Solid {
			break
		}
		ok := true
		var breaks []world.BlockPos
		for _, c := range cells {
			if !diggable(c) {
				ok = false
				break
			}
			if !dug[c] && !w.BlockAt(c).IsAir() {
				breaks = append(breaks, c)
			}
		}
		// Nothing flows in beside the dug cells, nor falls on them.
		for _, c := range cells {
			for _, n := range []world.BlockPos{c.Up(), c.Add(1, 0, 0), c.Add(-1, 0, 0), c.Add(0, 0, 1), c.Add(0, 0, -1)} {
				if dug[n] || slices.Contains(cells, n) {
					continue
				}
				if !w.Known(n) {
					ok = false
					continue
				}
				cell := path.ClassifyByTags(w.BlockAt(n))
				if cell == path.Water || cell == path.Danger || n == c.Up() && fallingBlocks[w.BlockAt(n).ID] {
					ok = false
				}
			}
		}
		cost := stairBlockTicks*len(breaks) + stairStepTicks
		if !ok || stairsDug > 0 && spent+cost > leg {
			break
		}
		for _, c := range breaks {
			acts = append(acts, action.BreakBlock{Pos: c})
			dug[c] = true
		}
		acts = append(acts, action.MoveTo{Pos: next})
		at, spent = next, spent+cost
		stairsDug++
	}
	if stairsDug == 0 {
		return nil
	}
	return acts
}
