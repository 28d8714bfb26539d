package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// TestMineflayerStepLiquidOnlyOnWalks: mineflayer-pathfinder 2.4.5
// (lib/movements.js) adds liquidCost in getMoveForward and getMoveDiagonal
// only; getMoveJumpUp (2), getMoveDropDown (1), getMoveUp and getMoveDown
// (1) cost the same out of water.
func TestMineflayerStepLiquidOnlyOnWalks(t *testing.T) {
	water := testBlocks{world.Pos(0, 1, 0): benchworld.Water}
	for _, c := range []struct {
		name string
		to   [3]int
		want float64
	}{
		{"jump up out of water", [3]int{1, 2, 0}, 2},
		{"drop out of water", [3]int{1, -1, 0}, 1},
		{"up out of water", [3]int{0, 2, 0}, 1},
		{"down out of water", [3]int{0, 0, 0}, 1},
	} {
		assert.InDelta(t, c.want, MineflayerStep(water, world.Pos(0, 1, 0), world.Pos(c.to[0], c.to[1], c.to[2])), 1e-12, c.name)
	}
}

// TestTickCostDetours: a step that is one of the pathfinder's moves costs
// that move; a corner cut costs the way round and counts as a detour.
func TestTickCostDetours(t *testing.T) {
	g := path.GridFunc(func(x, y, z int) path.Cell {
		if y <= 0 || (x == 1 && z == 0 && y <= 2) {
			return path.Solid
		}
		return path.Passable
	})
	straight := []world.BlockPos{world.Pos(0, 1, 1), world.Pos(1, 1, 1), world.Pos(2, 1, 1)}
	ticks, detours, ok := TickCost(g, straight)
	assert.True(t, ok)
	assert.Zero(t, detours)
	assert.Positive(t, ticks)
	cut := []world.BlockPos{world.Pos(0, 1, 0), world.Pos(1, 1, 1)}
	cutTicks, detours, ok := TickCost(g, cut)
	assert.True(t, ok)
	assert.Equal(t, 1, detours, "the diagonal past the block at (1, 1, 0) is no move")
	assert.InDelta(t, ticks, cutTicks, 1e-9, "the way round is two walks")
}
