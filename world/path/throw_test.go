package path

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// floorAt is open ground: stone below y 64, air above, and the blocks of
// extra.
func floorAt(extra map[world.BlockPos]string) func(world.BlockPos) world.Block {
	return func(p world.BlockPos) world.Block {
		if id, ok := extra[p]; ok {
			return world.Block{ID: id}
		}
		if p.Y < 64 {
			return world.Block{ID: "minecraft:stone"}
		}
		return world.Block{}
	}
}

func TestThrowLandsAheadOnTheGround(t *testing.T) {
	feet := world.Vec3{X: 10.5, Y: 64, Z: 10.5}
	p, ok := Throw(floorAt(nil), feet, 0) // south, +z
	require.True(t, ok)
	assert.InDelta(t, 64.0, p.Y, 1e-9, "on the ground")
	assert.InDelta(t, 10.5, p.X, 1e-9)
	// 0.3 a tick, slowed by 0.98 in the air for about 11 ticks, then by
	// 0.588 on the ground: a little over three blocks.
	d := p.Z - feet.Z
	assert.Greater(t, d, 3.0)
	assert.Less(t, d, 3.6)
	// Out of a player's pickup reach (its half width 0.3, the reach 1,
	// the item's half width 0.125).
	assert.Greater(t, d, 1.425)

	w, ok := Throw(floorAt(nil), feet, 90) // west, −x
	require.True(t, ok)
	assert.InDelta(t, feet.X-d, w.X, 1e-9, "the same throw westwards")
	assert.InDelta(t, feet.Z, w.Z, 1e-9)
}

func TestThrowStopsAtAWall(t *testing.T) {
	feet := world.Vec3{X: 10.5, Y: 64, Z: 10.5}
	wall := map[world.BlockPos]string{}
	for y := 64; y < 67; y++ {
		wall[world.Pos(10, y, 12)] = "minecraft:stone"
	}
	p, ok := Throw(floorAt(wall), feet, 0)
	require.True(t, ok)
	assert.Less(t, p.Z, 12.0, "the wall at z 12 stops it")
	assert.Greater(t, p.Z, 11.0)
	assert.InDelta(t, 64.0, p.Y, 1e-9)
}

func TestThrowFallsIntoAPit(t *testing.T) {
	feet := world.Vec3{X: 10.5, Y: 64, Z: 10.5}
	pit := map[world.BlockPos]string{}
	for z := 11; z < 20; z++ {
		for y := 60; y < 64; y++ {
			pit[world.Pos(10, y, z)] = "minecraft:air"
		}
	}
	p, ok := Throw(floorAt(pit), feet, 0)
	require.True(t, ok)
	assert.InDelta(t, 60.0, p.Y, 1e-9, "on the pit's floor")
}

func TestBestThrowTakesTheOpenSide(t *testing.T) {
	// A corridor along x: walls at z 9 and z 11, so only east and west
	// are open; east (yaw 270) is walled off two blocks on.
	feet := world.Vec3{X: 10.5, Y: 64, Z: 10.5}
	walls := map[world.BlockPos]string{}
	for x := 0; x < 30; x++ {
		for y := 64; y < 67; y++ {
			walls[world.Pos(x, y, 9)] = "minecraft:stone"
			walls[world.Pos(x, y, 11)] = "minecraft:stone"
		}
	}
	for y := 64; y < 67; y++ {
		walls[world.Pos(12, y, 10)] = "minecraft:stone"
	}
	yaw, p, ok := BestThrow(floorAt(walls), feet)
	require.True(t, ok)
	assert.Equal(t, 90.0, yaw, "west, the open way")
	assert.Greater(t, math.Hypot(p.X-feet.X, p.Z-feet.Z), 3.0)
}

// TestBestThrowNotIntoTheVoid: a way whose item falls out of the world
// (a shaft to the bottom) is not taken, however far it goes.
func TestBestThrowNotIntoTheVoid(t *testing.T) {
	feet := world.Vec3{X: 10.5, Y: 64, Z: 10.5}
	shaft := map[world.BlockPos]string{}
	for x := 5; x < 16; x++ {
		for z := 11; z < 30; z++ {
			for y := 0; y < 64; y++ {
				shaft[world.Pos(x, y, z)] = "minecraft:air"
			}
		}
	}
	_, ok := Throw(floorAt(shaft), feet, 0)
	require.False(t, ok, "south falls out of the world")
	yaw, p, ok := BestThrow(floorAt(shaft), feet)
	require.True(t, ok)
	assert.NotContains(t, []float64{0, 45, 315}, yaw, "not into the shaft")
	assert.InDelta(t, 64.0, p.Y, 1e-9)
}

// TestFallStopsOnlyWhereItReaches: an item a little above a slab's top
// (64.5) that falls less than the gap this tick does not land yet; one
// that falls past it lands on it.
func TestFallStopsOnlyWhereItReaches(t *testing.T) {
	slab := floorAt(map[world.BlockPos]string{world.Pos(10, 64, 10): "minecraft:stone_slab"})
	p := world.Vec3{X: 10.5, Y: 64.9, Z: 10.5}
	_, hit := fall(slab, p, -0.05)
	assert.False(t, hit, "64.85 is still above the slab")
	y, hit := fall(slab, p, -0.5)
	assert.True(t, hit)
	assert.InDelta(t, 64.5, y, 1e-9)
}
