package bench

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// testBlocks is a small world: grass at y 0 everywhere, air above, plus
// the blocks set.
type testBlocks map[world.BlockPos]int

func (t testBlocks) ID(x, y, z int) int {
	if id, ok := t[world.Pos(x, y, z)]; ok {
		return id
	}
	if y <= 0 {
		return benchworld.Grass
	}
	return benchworld.Air
}

func ps(xyz ...[3]int) []world.BlockPos {
	out := make([]world.BlockPos, len(xyz))
	for i, p := range xyz {
		out[i] = world.Pos(p[0], p[1], p[2])
	}
	return out
}

func TestCheckWalk(t *testing.T) {
	cob := benchworld.Cobblestone
	for _, c := range []struct {
		name                string
		blocks              testBlocks
		path                []world.BlockPos
		invalid, cuts, hurt int
	}{
		{"walk and diagonal", nil, ps([3]int{0, 1, 0}, [3]int{1, 1, 0}, [3]int{2, 1, 1}), 0, 0, 0},
		{"tall grass is walked through", testBlocks{world.Pos(1, 1, 0): benchworld.TallGrass, world.Pos(1, 1, 1): benchworld.TallGrass},
			ps([3]int{0, 1, 0}, [3]int{1, 1, 1}), 0, 0, 0},
		{"corner cut at the feet", testBlocks{world.Pos(1, 1, 0): cob}, ps([3]int{0, 1, 0}, [3]int{1, 1, 1}), 1, 1, 0},
		{"corner cut at the head", testBlocks{world.Pos(0, 2, 1): benchworld.Leaves}, ps([3]int{0, 1, 0}, [3]int{1, 1, 1}), 1, 1, 0},
		{"corner cut above the head on a diagonal jump", testBlocks{world.Pos(1, 1, 1): cob, world.Pos(1, 3, 0): cob},
			ps([3]int{0, 1, 0}, [3]int{1, 2, 1}), 1, 1, 0},
		{"a diagonal jump with clear corners", testBlocks{world.Pos(1, 1, 1): cob}, ps([3]int{0, 1, 0}, [3]int{1, 2, 1}), 0, 0, 0},
		{"the ground in a corner of a diagonal drop is no cut", testBlocks{world.Pos(0, 1, 0): cob, world.Pos(1, 1, 0): cob, world.Pos(0, 1, 1): cob},
			ps([3]int{0, 2, 0}, [3]int{1, 1, 1}), 0, 0, 0},
		{"jump under a ceiling", testBlocks{world.Pos(1, 1, 0): cob, world.Pos(0, 3, 0): cob}, ps([3]int{0, 1, 0}, [3]int{1, 2, 0}), 1, 0, 0},
		{"jump of two", testBlocks{world.Pos(1, 1, 0): cob, world.Pos(1, 2, 0): cob}, ps([3]int{0, 1, 0}, [3]int{1, 3, 0}), 1, 0, 0},
		{"not a neighbour", nil, ps([3]int{0, 1, 0}, [3]int{2, 1, 0}), 1, 0, 0},
		{"standing in the air", nil, ps([3]int{0, 1, 0}, [3]int{1, 2, 0}), 1, 0, 0},
		{"body in a wall", testBlocks{world.Pos(1, 2, 0): cob}, ps([3]int{0, 1, 0}, [3]int{1, 1, 0}), 1, 0, 0},
		{"drop through a block", testBlocks{world.Pos(0, 1, 0): cob, world.Pos(0, 2, 0): cob, world.Pos(0, 3, 0): cob, world.Pos(1, 3, 0): cob},
			ps([3]int{0, 4, 0}, [3]int{1, 1, 0}), 1, 0, 0},
		{"a drop of four hurts but is walkable", testBlocks{world.Pos(0, 1, 0): cob, world.Pos(0, 2, 0): cob, world.Pos(0, 3, 0): cob, world.Pos(0, 4, 0): cob},
			ps([3]int{0, 5, 0}, [3]int{1, 1, 0}), 0, 0, 1},
		{"a drop of three does not hurt", testBlocks{world.Pos(0, 1, 0): cob, world.Pos(0, 2, 0): cob, world.Pos(0, 3, 0): cob},
			ps([3]int{0, 4, 0}, [3]int{1, 1, 0}), 0, 0, 0},
		{"swimming up", testBlocks{world.Pos(0, 1, 0): benchworld.Water, world.Pos(0, 2, 0): benchworld.Water}, ps([3]int{0, 1, 0}, [3]int{0, 2, 0}), 0, 0, 0},
		{"flying up", nil, ps([3]int{0, 1, 0}, [3]int{0, 2, 0}), 1, 0, 0},
		{"standing still is no step", nil, ps([3]int{0, 1, 0}, [3]int{0, 1, 0}), 1, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := CheckWalk(c.blocks, c.path)
			assert.Len(t, w.Invalid, c.invalid, "%v", w.Invalid)
			assert.Equal(t, c.cuts, w.CornerCuts)
			assert.Equal(t, c.hurt, w.FallDamage)
			assert.Equal(t, c.invalid == 0, w.Valid())
			assert.Equal(t, len(c.path)-1, w.Steps)
		})
	}
}

// TestMineflayerStep checks the per-move costs of mineflayer-pathfinder
// 2.4.5 (lib/movements.js) as MineflayerStep applies them.
func TestMineflayerStep(t *testing.T) {
	water := testBlocks{world.Pos(0, 1, 0): benchworld.Water}
	for _, c := range []struct {
		name   string
		blocks testBlocks
		to     [3]int
		want   float64
	}{
		{"forward", nil, [3]int{1, 1, 0}, 1},
		{"jump up", nil, [3]int{0, 2, 1}, 2},
		{"drop down three", nil, [3]int{-1, -2, 0}, 1},
		{"diagonal", nil, [3]int{1, 1, 1}, math.Sqrt2},
		{"diagonal jump up is √2 + 1", nil, [3]int{1, 2, -1}, math.Sqrt2 + 1},
		{"diagonal drop", nil, [3]int{-1, 0, -1}, math.Sqrt2},
		{"forward out of water adds liquidCost", water, [3]int{1, 1, 0}, 2},
		{"diagonal out of water adds liquidCost", water, [3]int{1, 1, 1}, math.Sqrt2 + 1},
		{"up", nil, [3]int{0, 2, 0}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.InDelta(t, c.want, MineflayerStep(c.blocks, world.Pos(0, 1, 0), world.Pos(c.to[0], c.to[1], c.to[2])), 1e-12)
		})
	}
}

func TestSample(t *testing.T) {
	s := Sample{5, 1, 3}
	assert.Equal(t, 3.0, s.Median())
	lo, hi := s.Range()
	assert.Equal(t, [2]float64{1, 5}, [2]float64{lo, hi})
	assert.Equal(t, 2.5, Sample{4, 1, 2, 3}.Median())
	assert.True(t, math.IsNaN(Sample{}.Median()))
	assert.Equal(t, Sample{5, 1, 3}, s, "Median must not reorder the sample")
}
