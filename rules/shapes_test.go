package rules

import (
	"testing"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/stretchr/testify/assert"
)

func TestKnownShapes(t *testing.T) {
	top := func(id string, meta int) float64 { return ShapeOf(newBlock(id, meta), nil).Top() }
	assert.Equal(t, 0.5, top("minecraft:stone_slab", 0), "a bottom slab")
	assert.Equal(t, 1.0, top("minecraft:stone_slab", 8), "a top slab")
	assert.False(t, ShapeOf(newBlock("minecraft:stone_slab", 8), nil).Floor(), "a top slab is no floor in its cell")
	assert.True(t, ShapeOf(newBlock("minecraft:snow_layer", 0), nil).Empty(), "one snow layer has no collision box")
	assert.Equal(t, 0.375, top("minecraft:snow_layer", 3))
	assert.Equal(t, 1.0/16, top("minecraft:carpet", 5))
	assert.Equal(t, 1.5, top("minecraft:fence", 0))
	assert.Equal(t, 1.5, top("minecraft:cobblestone_wall", 0))
	assert.Equal(t, 1.5, top("minecraft:fence_gate", 2))
	assert.True(t, ShapeOf(newBlock("minecraft:fence_gate", 6), nil).Open)
	assert.True(t, ShapeOf(newBlock("minecraft:fence_gate", 6), nil).Empty(), "an open gate has no box")
	assert.Equal(t, 0.1875, top("minecraft:trapdoor", 0))
	assert.Equal(t, []Box{{0, 0.8125, 0, 1, 1, 1}}, ShapeOf(newBlock("minecraft:trapdoor", 8), nil).Boxes)
	assert.Equal(t, []Box{{0.8125, 0, 0, 1, 1, 1}}, ShapeOf(newBlock("minecraft:trapdoor", 4|2), nil).Boxes)
	assert.Equal(t, ShapeFull, ShapeOf(newBlock("minecraft:stone", 0), nil))
	assert.Equal(t, ShapeFull, ShapeOf(game.Block{ID: "gregtech:gt.blockmachines"}, nil), "unknown blocks are full cubes")
	_, ok := KnownShape(game.Block{ID: "gregtech:gt.blockmachines"}, nil)
	assert.False(t, ok)
	assert.True(t, ShapeOf(game.Air, nil).Empty())
}

// TestDoorShapes: BlockDoor.func_150011_b over the state of both halves.
// TestFenceGateBars: BlockFenceGate.getCollisionBoundingBoxFromPool puts a
// closed gate's bar across the cell along x for metadata 0 and 2 and along z
// for 1 and 3.
func TestFenceGateBars(t *testing.T) {
	alongX := Box{0, 0, 0.375, 1, 1.5, 0.625}
	alongZ := Box{0.375, 0, 0, 0.625, 1.5, 1}
	for meta, want := range []Box{alongX, alongZ, alongX, alongZ} {
		assert.Equal(t, []Box{want}, ShapeOf(newBlock("minecraft:fence_gate", meta), nil).Boxes, "meta %d", meta)
	}
}

func TestDoorShapes(t *testing.T) {
	west := Box{0, 0, 0, 0.1875, 1, 1}
	north := Box{0, 0, 0, 1, 1, 0.1875}
	south := Box{0, 0, 0.8125, 1, 1, 1}
	pair := func(lower, upper int) (Shape, Shape) {
		lo, up := newBlock("minecraft:wooden_door", lower), newBlock("minecraft:wooden_door", upper)
		return ShapeOf(lo, func(dy int) game.Block { return up }), ShapeOf(up, func(dy int) game.Block { return lo })
	}
	lo, up := pair(0, 8)
	assert.Equal(t, []Box{west}, lo.Boxes, "closed, facing 0: along the west edge")
	assert.Equal(t, lo, up, "both halves share the state")
	assert.False(t, lo.Open)
	lo, up = pair(4, 8)
	assert.Equal(t, []Box{north}, lo.Boxes, "open, hinge left: along the north edge")
	assert.True(t, up.Open)
	lo, _ = pair(4, 9)
	assert.Equal(t, []Box{south}, lo.Boxes, "open, hinge right: along the south edge")
	alone := ShapeOf(newBlock("minecraft:iron_door", 4), nil)
	assert.ElementsMatch(t, []Box{north, south}, alone.Boxes, "an open lower half without its upper: both hinge sides")
	assert.Len(t, ShapeOf(newBlock("minecraft:iron_door", 8), nil).Boxes, 4, "an upper half alone: every edge")
}
