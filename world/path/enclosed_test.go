package path_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// stoneBox is stone filling |x|, |z| <= 8, y 50..70, with the cells given
// dug out; the feet at the origin's column, y 60.
func stoneBox(open ...world.BlockPos) *world.Snapshot {
	bs := world.NewSparseBlocks()
	for x := -8; x <= 8; x++ {
		for z := -8; z <= 8; z++ {
			for y := 50; y <= 70; y++ {
				bs.SetID(world.Pos(x, y, z), "minecraft:stone", 0)
			}
		}
	}
	for _, p := range open {
		bs.SetID(p, "minecraft:air", 0)
	}
	return &world.Snapshot{Blocks: bs}
}

func TestEnclosedRoom(t *testing.T) {
	feet, head := world.Pos(0, 60, 0), world.Pos(0, 61, 0)
	w := stoneBox(feet, head)
	room, ok := path.Room(w, feet)
	assert.True(t, ok, "a pit's two cells under a roof")
	assert.ElementsMatch(t, []world.BlockPos{feet, head}, room)

	// A room mined out of the walls stays closed.
	w = stoneBox(feet, head, world.Pos(1, 61, 0), world.Pos(1, 60, 0), world.Pos(2, 60, 0), world.Pos(1, 59, 0))
	room, ok = path.Room(w, feet)
	assert.True(t, ok)
	assert.Len(t, room, 6)

	cases := map[string]*world.Snapshot{
		"a shaft to the open air":   stoneBox(append([]world.BlockPos{feet}, column(0, 61, 71)...)...),
		"a tunnel past the reach":   stoneBox(append([]world.BlockPos{feet, head}, row(1, path.RoomReach+1)...)...),
		"the feet in a solid block": stoneBox(),
	}
	water := stoneBox(feet, head)
	water.Blocks.(*world.SparseBlocks).SetID(world.Pos(1, 60, 0), "minecraft:water", 0)
	cases["water in the room"] = water
	big := stoneBox(feet, head)
	for x := -3; x <= 3; x++ {
		for z := -3; z <= 3; z++ {
			for y := 60; y <= 61; y++ {
				big.Blocks.(*world.SparseBlocks).SetID(world.Pos(x, y, z), "minecraft:air", 0)
			}
		}
	}
	cases["more cells than a room holds"] = big
	for name, w := range cases {
		_, ok := path.Room(w, feet)
		assert.False(t, ok, name)
		assert.False(t, path.Enclosed(w, feet), name)
	}

	// At the edge of what is known: unknown counts as open.
	edge := world.Pos(8, 60, 0)
	w = stoneBox(edge, edge.Up())
	assert.False(t, path.Enclosed(w, edge), "unknown blocks beside")
	in := edge.Add(-1, 0, 0)
	assert.True(t, path.Enclosed(stoneBox(in, in.Up()), in), "a block in from the edge")

	// RoomCells open cells within the reach: still a room.
	w = stoneBox()
	n := 0
	for y := 60; y <= 60+path.RoomReach && n < path.RoomCells; y++ {
		for x := -path.RoomReach; x <= path.RoomReach && n < path.RoomCells; x++ {
			for z := -path.RoomReach; z <= path.RoomReach && n < path.RoomCells; z++ {
				w.Blocks.(*world.SparseBlocks).SetID(world.Pos(x, y, z), "minecraft:air", 0)
				n++
			}
		}
	}
	room, ok = path.Room(w, feet)
	assert.True(t, ok)
	assert.Len(t, room, path.RoomCells)
}

// column is the cells (x, y, 0) for y from y0 to y1.
func column(x, y0, y1 int) []world.BlockPos {
	var out []world.BlockPos
	for y := y0; y <= y1; y++ {
		out = append(out, world.Pos(x, y, 0))
	}
	return out
}

// row is the cells (x, 60, 0) for x from x0 to x1.
func row(x0, x1 int) []world.BlockPos {
	var out []world.BlockPos
	for x := x0; x <= x1; x++ {
		out = append(out, world.Pos(x, 60, 0))
	}
	return out
}
