package path

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func TestClassifyShapes(t *testing.T) {
	for _, c := range []struct {
		id   string
		meta int
		want Cell
	}{
		{"minecraft:stone_slab", 0, Slab},
		{"minecraft:stone_slab", 8, Solid},
		{"minecraft:wooden_slab", 3, Slab},
		{"minecraft:double_stone_slab", 0, Solid},
		{"minecraft:snow_layer", 0, Passable},
		{"minecraft:snow_layer", 1, Low},
		{"minecraft:snow_layer", 2, Slab},
		{"minecraft:snow_layer", 4, Slab},
		{"minecraft:snow_layer", 5, Solid},
		{"minecraft:carpet", 14, Low},
		{"minecraft:trapdoor", 0, Low},
		{"minecraft:trapdoor", 8, Solid},
		{"minecraft:trapdoor", 4 | 2, Passable},
		{"minecraft:fence", 0, Fence},
		{"minecraft:nether_brick_fence", 0, Fence},
		{"minecraft:cobblestone_wall", 1, Fence},
		{"minecraft:fence_gate", 1, Fence},
		{"minecraft:fence_gate", 4 | 1, Passable},
		{"minecraft:wooden_door", 0, Fence},
		{"minecraft:iron_door", 3, Fence},
		{"minecraft:wooden_door", 4, Passable},
		{"minecraft:iron_door", 8, Passable},
		{"minecraft:chest", 2, Solid},
	} {
		assert.Equal(t, c.want, ClassifyByTags(world.NewBlock(c.id, c.meta)), "%s:%d", c.id, c.meta)
		id, ok := rules.Default().IDs.BlockID(c.id)
		require.True(t, ok, c.id)
		assert.Equal(t, c.want, LegacyStateCell(id, c.meta), "numeric %s:%d", c.id, c.meta)
	}
	assert.Equal(t, "fence", Fence.String())
}

// closedDoor is a closed door at x 1 on a floor: its lower half at y 1, its
// upper half (classified open) at y 2.
func closedDoor() *testGrid {
	g := heightWorld(6, "111")
	g.set(1, 1, 0, ClassifyByTags(world.NewBlock("minecraft:wooden_door", 0)))
	g.set(1, 2, 0, ClassifyByTags(world.NewBlock("minecraft:wooden_door", 8)))
	return g
}

// TestPartialBlockMoves: fences cannot be jumped over or stood on, slabs
// are stepped onto and need head room above the raised body, carpets are
// floors a two-high room still fits over.
func TestPartialBlockMoves(t *testing.T) {
	ct := compileCosts(DefaultCosts(), DefaultMaxDrop, false, false)
	card := ct.walk[0]
	slabCeiling := heightWorld(6, "1s")
	slabCeiling.set(1, 3, 0, Solid)
	for _, c := range []struct {
		name     string
		g        *testGrid
		from, to world.BlockPos
		want     int64 // -1: unreachable
		moves    []Move
	}{
		{"a one-block wall is jumped", heightWorld(6, "121"), world.Pos(0, 1, 0), world.Pos(2, 1, 0),
			ct.jump[0][0] + ct.drop[0][0][1], []Move{MoveStart, MoveJump, MoveDrop}},
		{"a fence is not jumped", heightWorld(6, "1f1"), world.Pos(0, 1, 0), world.Pos(2, 1, 0), -1, nil},
		{"a wall of fences on a step is not jumped", heightWorld(6, "2F2"), world.Pos(0, 2, 0), world.Pos(2, 2, 0), -1, nil},
		{"a fence is not stood on", heightWorld(6, "2f"), world.Pos(0, 2, 0), world.Pos(1, 2, 0), -1, nil},
		{"a closed door (its lower half a Fence, the upper open) is not climbed", closedDoor(), world.Pos(0, 1, 0), world.Pos(1, 2, 0), -1, nil},
		{"a slab is stepped onto, the next block jumped", heightWorld(6, "1s2"), world.Pos(0, 1, 0), world.Pos(2, 2, 0),
			card + ct.jump[0][0], []Move{MoveStart, MoveWalk, MoveJump}},
		{"a slab under a low ceiling is no place to stand", slabCeiling, world.Pos(0, 1, 0), world.Pos(1, 1, 0), -1, nil},
		{"a carpet is walked onto", heightWorld(6, "1cc"), world.Pos(0, 1, 0), world.Pos(2, 1, 0),
			2 * card, []Move{MoveStart, MoveWalk, MoveWalk}},
		{"a carpet on a block is jumped onto", heightWorld(6, "1C"), world.Pos(0, 1, 0), world.Pos(1, 2, 0),
			ct.jump[0][0], []Move{MoveStart, MoveJump}},
		{"a drop ends on a slab", heightWorld(6, "4s"), world.Pos(0, 4, 0), world.Pos(1, 1, 0),
			ct.drop[0][0][3], []Move{MoveStart, MoveDrop}},
		{"stepping down off a slab", heightWorld(6, "s1"), world.Pos(0, 1, 0), world.Pos(1, 1, 0),
			card, []Move{MoveStart, MoveWalk}},
		{"off a slab under a block two above the next column", heightWorld(6, "s1").set(1, 3, 0, Solid), world.Pos(0, 1, 0), world.Pos(1, 1, 0), -1, nil},
		{"a carpeted room two blocks high", roomWithCarpet(), world.Pos(0, 1, 1), world.Pos(3, 1, 1),
			3 * card, []Move{MoveStart, MoveWalk, MoveWalk, MoveWalk}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Find(c.g, c.from, At(c.to), Options{})
			require.NoError(t, err)
			if c.want < 0 {
				assert.False(t, res.Complete)
				assert.Equal(t, Unreachable, res.Reason)
				return
			}
			require.True(t, res.Complete, "%s", res.Reason)
			assert.Equal(t, c.want, milliCost(res))
			var moves []Move
			for _, s := range res.Steps {
				moves = append(moves, s.Move)
			}
			assert.Equal(t, c.moves, moves)
			checkPath(t, c.g, res, Options{})
		})
	}
	// From a slab the body passes the corners of a diagonal half a block
	// up: a block two above a corner stops it.
	corner := heightWorld(6, "s1", "11")
	assert.True(t, hasMove(t, corner, world.Pos(0, 1, 0), world.Pos(1, 1, 1), MoveWalk))
	corner.set(1, 3, 0, Solid)
	assert.False(t, hasMove(t, corner, world.Pos(0, 1, 0), world.Pos(1, 1, 1), MoveWalk))
	assert.True(t, hasMove(t, corner, world.Pos(0, 1, 0), world.Pos(0, 1, 1), MoveWalk))
	assert.False(t, hasMove(t, heightWorld(6, "s1", "11").set(1, 3, 1, Solid), world.Pos(0, 1, 0), world.Pos(1, 1, 1), MoveWalk),
		"nor a block two above the diagonal's target")

	// Standing on a slab is standing in its cell: no pillar or dig down
	// from there.
	f := moveGen(t, heightWorld(6, "s"), Options{Dig: true, Place: true}, At(world.Pos(0, 1, 0)))
	for _, m := range f.neighbors(0, 1, 0, Slab) {
		assert.NotContains(t, []Move{MovePillar, MoveDigDown}, m.move)
	}
}

func TestFeetCell(t *testing.T) {
	g := heightWorld(6, "1s2")
	assert.Equal(t, world.Pos(0, 1, 0), FeetCell(g, 0, 1, 0), "on a full block")
	assert.Equal(t, world.Pos(1, 1, 0), FeetCell(g, 1, 1.5, 0), "on a slab: its own cell")
	assert.Equal(t, world.Pos(2, 2, 0), FeetCell(g, 2, 1.875, 0), "on a block lower than 1 (a chest): the cell above")
	assert.Equal(t, world.Pos(2, 2, 0), FeetCell(g, 2, 1.9995, 0), "rounding below a block top")
}

// TestCellOfFloorHeights: a floor up to 0.2 high (2 − 1.8, the body's
// height) still leaves room for the body in two cells and is Low; up to 0.5
// it is a Slab; the bounds are inclusive.
func TestCellOfFloorHeights(t *testing.T) {
	floor := func(h float64) rules.Shape { return rules.Shape{Boxes: []rules.Box{{MaxX: 1, MaxY: h, MaxZ: 1}}} }
	assert.Equal(t, Low, CellOf(floor(0.2)))
	assert.Equal(t, Slab, CellOf(floor(0.2001)))
	assert.Equal(t, Slab, CellOf(floor(0.5)))
	assert.Equal(t, Solid, CellOf(floor(0.5001)))
	assert.Equal(t, Solid, CellOf(floor(1)))
	assert.Equal(t, Fence, CellOf(floor(1.0001)))
}
