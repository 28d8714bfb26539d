package path_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/rules"
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

// TestShelteredWithAMobShutIn: a room with a hostile mob inside its walls
// (a skeleton that fell into an old shaft the room was mined into) is
// closed (Enclosed) but no shelter (Sheltered): the skeleton shoots what
// it sees. A mob outside the walls, or a farm animal inside, leaves it
// one.
func TestShelteredWithAMobShutIn(t *testing.T) {
	mobs := rules.Default().Mobs
	feet := world.Pos(0, 60, 0)
	pocket := []world.BlockPos{feet, feet.Up(), world.Pos(1, 61, 0), world.Pos(1, 62, 0), world.Pos(1, 63, 0)}
	w := stoneBox(pocket...)
	require.True(t, path.Enclosed(w, feet))
	assert.True(t, path.Sheltered(w, feet, mobs), "an empty room")

	mob := func(name string, x, y, z float64) world.Entity {
		return world.Entity{ID: 9, Kind: world.EntityMob, Name: name, Pos: world.Vec3{X: x, Y: y, Z: z}}
	}
	cases := []struct {
		name    string
		e       world.Entity
		shelter bool
	}{
		{"a skeleton standing in the pocket", mob("skeleton", 1.7, 62, 0.3), false},
		{"a zombie whose head is in the pocket's lowest cell", mob("zombie", 1.5, 60.2, 0.5), false},
		{"a spider's wide body reaching in from the wall", mob("spider", 2.4, 62, 0.5), false},
		{"a skeleton beyond the wall", mob("skeleton", 2.5, 62, 0.5), true},
		{"a skeleton touching the wall's face", mob("skeleton", 2.3, 62, 0.5), true},
		{"a skeleton on the roof", mob("skeleton", 1.5, 64, 0.5), true},
		{"a pig in the pocket", mob("pig", 1.5, 62, 0.5), true},
		{"an item in the pocket", world.Entity{ID: 3, Kind: world.EntityItem, Name: "skeleton", Pos: world.Vec3{X: 1.5, Y: 62, Z: 0.5}}, true},
	}
	for _, c := range cases {
		w.Entities = []world.Entity{c.e}
		assert.True(t, path.Enclosed(w, feet), c.name)
		assert.Equal(t, c.shelter, path.Sheltered(w, feet, mobs), c.name)
	}
	w.Entities = []world.Entity{mob("skeleton", 1.7, 62, 0.3)}
	assert.False(t, path.Sheltered(stoneBox(append(pocket, column(1, 64, 71)...)...), feet, mobs), "open to the sky")
}
