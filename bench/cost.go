package bench

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// MineflayerStep is the cost of one step in mineflayer-pathfinder 2.4.5's
// units, as lib/movements.js charges it in walk mode (no digging, no
// placing, no entities, no exclusion areas):
//
//   - getMoveForward: 1, plus liquidCost (1) when the feet start in water;
//   - getMoveJumpUp: 2;
//   - getMoveDropDown: 1, whatever the height;
//   - getMoveDiagonal: Math.SQRT2, plus liquidCost when the feet start in
//     water, plus 1 more when it climbs a block ("cost += 1" in its
//     "jump up by 1" branch): a diagonal jump is √2 + 1, not √2; its drop
//     branch goes down one block at √2;
//   - getMoveUp, getMoveDown: 1.
func MineflayerStep(b Blocks, a, p world.BlockPos) float64 {
	dx, dy, dz := p.X-a.X, p.Y-a.Y, p.Z-a.Z
	inWater := kindOf(b.ID(a.X, a.Y, a.Z)) == water
	liquid := 0.0
	if inWater {
		liquid = 1
	}
	switch abs(dx) + abs(dz) {
	case 0:
		return 1
	case 1:
		switch {
		case dy > 0:
			return 2
		case dy < 0:
			return 1
		}
		return 1 + liquid
	}
	c := math.Sqrt2 + liquid
	if dy > 0 {
		c++
	}
	return c
}

// MineflayerCost is a path's cost in mineflayer-pathfinder's units.
func MineflayerCost(b Blocks, steps []world.BlockPos) float64 {
	total := 0.0
	for i := 1; i < len(steps); i++ {
		total += MineflayerStep(b, steps[i-1], steps[i])
	}
	return total
}

// TickCost is a path's cost in this project's cost model (game ticks,
// path.DefaultCosts): each step costs what the pathfinder's cheapest way
// from its start to its end costs. A step that is one of the pathfinder's
// moves costs that move; one it does not make (a corner cut) costs the way
// round, and is counted in detours. ok is false when a step cannot be made
// at all under the cost model.
func TickCost(g path.Grid, steps []world.BlockPos) (ticks float64, detours int, ok bool) {
	f := path.NewFinder()
	for i := 1; i < len(steps); i++ {
		res, err := f.Find(g, steps[i-1], path.At(steps[i]), path.Options{MaxNodes: 5000})
		if err != nil || !res.Complete {
			return ticks, detours, false
		}
		if len(res.Steps) != 2 {
			detours++
		}
		ticks += res.Cost
	}
	return ticks, detours, true
}
