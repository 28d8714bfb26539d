package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func escapeTo(t *testing.T, w *world.Snapshot, p skills.Params) world.BlockPos {
	t.Helper()
	acts, err := Escape{}.SuggestActions(w, p)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	mv, ok := acts[0].(action.MoveTo)
	require.True(t, ok)
	assert.Zero(t, mv.Radius)
	return mv.Pos
}

// TestEscapeLeavesAPool: at the bottom of a pool three deep and three
// wide, the nearest dry place is on the shore beside it, at the pool's
// top; water cells and the pool's floor are passed over.
func TestEscapeLeavesAPool(t *testing.T) {
	w, bs := stoneFloor()
	// A pool dug into the floor: water from y 61 to 63 over x, z -1..1,
	// stone below and around (the floor at 63 is the shore).
	for x := -3; x <= 3; x++ {
		for z := -3; z <= 3; z++ {
			for y := 58; y <= 62; y++ {
				bs.SetID(world.Pos(x, y, z), "minecraft:stone", 0)
			}
		}
	}
	for x := -1; x <= 1; x++ {
		for z := -1; z <= 1; z++ {
			for y := 61; y <= 63; y++ {
				bs.SetID(world.Pos(x, y, z), "minecraft:water", 0)
			}
		}
	}
	w.Player.Pos = world.Vec3{X: 0.5, Y: 61, Z: 0.5}
	got := escapeTo(t, w, skills.Params{})
	assert.Equal(t, 64, got.Y, "on the shore")
	assert.Equal(t, 13, got.DistSq(world.Pos(0, 61, 0)), "the nearest: two across (x or z), three up")
}

// TestEscapeFromLava: standing in a lava pool, the nearest dry block is
// the next one; one in lava or on lava is not a place to stand.
func TestEscapeFromLava(t *testing.T) {
	w, bs := stoneFloor()
	bs.SetID(world.Pos(0, 64, 0), "minecraft:lava", 0)
	bs.SetID(world.Pos(1, 64, 0), "minecraft:lava", 0)
	bs.SetID(world.Pos(-1, 63, 0), "minecraft:lava", 0)
	bs.SetID(world.Pos(0, 63, 1), "minecraft:water", 0)
	bs.SetID(world.Pos(0, 64, -1), "minecraft:water", 0)
	bs.SetID(world.Pos(0, 65, -1), "minecraft:water", 0) // deep: no place to stand
	got := escapeTo(t, w, skills.Params{})
	assert.Equal(t, 2, got.DistSq(world.Pos(0, 64, 0)), "the four sides are lava, on lava, on water or in water: a diagonal, %v", got)
	assert.Equal(t, 64, got.Y)
}

// TestEscapeWithNowhereToGo: a sea as wide as the radius has no shore.
func TestEscapeWithNowhereToGo(t *testing.T) {
	w, bs := stoneFloor()
	for x := -10; x <= 10; x++ {
		for z := -10; z <= 10; z++ {
			bs.SetID(world.Pos(x, 64, z), "minecraft:water", 0)
			bs.SetID(world.Pos(x, 65, z), "minecraft:water", 0)
		}
	}
	_, err := Escape{}.SuggestActions(w, skills.Params{"radius": 4})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no dry place to stand within 4 blocks")
	assert.Contains(t, err.Error(), "water")
}

// TestEscapeFromLavaToWater: out of lava, shallow water (the feet in it,
// the head out) puts the fire out and comes before dry ground, even
// farther; deep water (the head under) does not count. Out of water the
// shallow water is nothing special.
func TestEscapeFromLavaToWater(t *testing.T) {
	w, bs := stoneFloor()
	bs.SetID(world.Pos(0, 64, 0), "minecraft:lava", 0)
	bs.SetID(world.Pos(2, 63, 0), "minecraft:air", 0)
	bs.SetID(world.Pos(2, 64, 0), "minecraft:water", 0) // deep: water over water
	bs.SetID(world.Pos(2, 63, 0), "minecraft:water", 0)
	bs.SetID(world.Pos(0, 64, 3), "minecraft:water", 0) // shallow
	assert.Equal(t, world.Pos(0, 64, 3), escapeTo(t, w, skills.Params{}))

	bs.SetID(world.Pos(0, 64, 0), "minecraft:air", 0)
	bs.SetID(world.Pos(0, 64, 0), "minecraft:water", 0)
	bs.SetID(world.Pos(0, 65, 0), "minecraft:water", 0)
	got := escapeTo(t, w, skills.Params{})
	assert.Equal(t, 1, got.DistSq(world.Pos(0, 64, 0)), "under water the nearest dry place: %v", got)
}
