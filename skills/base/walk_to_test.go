package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func TestWalkTo(t *testing.T) {
	blocks := world.NewSparseBlocks().SetID(world.Pos(40, 64, 0), "minecraft:log", 0).SetID(world.Pos(50, 64, 0), "minecraft:log", 0)
	w := snap(at(0, 64, 0), blocks, world.NewInventory())

	acts, err := run(t, WalkTo{}, w, map[string]any{"target": "minecraft:log", "near": 20})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.MoveTo{Pos: world.Pos(40, 64, 0), Radius: 19}}, acts, "the nearest, until it is within 20")

	// Near enough already: no walk.
	acts, err = run(t, WalkTo{}, w, map[string]any{"target": "minecraft:log", "near": 40})
	require.NoError(t, err)
	assert.Empty(t, acts)

	// Nothing within the radius.
	_, err = run(t, WalkTo{}, w, map[string]any{"target": "minecraft:log", "radius": 39})
	var f *skills.Failure
	require.ErrorAs(t, err, &f)
	assert.Equal(t, skills.CodeNoTarget, f.Code)
	assert.Contains(t, f.Error(), "no minecraft:log within 39 blocks")
}

// TestWalkToWalksALeg: with leg set, the walk ends where the way found
// passes leg ticks of walking, on the way to the block.
func TestWalkToWalksALeg(t *testing.T) {
	bs := world.NewSparseBlocks()
	for x := -2; x <= 60; x++ {
		for z := -2; z <= 2; z++ {
			bs.SetID(world.Pos(x, 63, z), "minecraft:stone", 0)
		}
	}
	bs.SetID(world.Pos(50, 64, 0), "minecraft:log", 0)
	w := snap(at(0, 64, 0), bs, world.NewInventory())
	acts, err := run(t, WalkTo{}, w, map[string]any{"target": "minecraft:log", "near": 49, "leg": 40})
	require.NoError(t, err)
	require.Len(t, acts, 1)
	mv, ok := acts[0].(action.MoveTo)
	require.True(t, ok, "%v", acts)
	assert.Zero(t, mv.Radius, "a cell of the way")
	assert.Equal(t, 64, mv.Pos.Y)
	assert.Greater(t, mv.Pos.X, 3, "walked on: %v", mv.Pos)
	assert.Less(t, mv.Pos.X, 15, "no more than 40 ticks of walking: %v", mv.Pos)

	// A leg longer than the way: the whole way, to within reach of it.
	acts, err = run(t, WalkTo{}, w, map[string]any{"target": "minecraft:log", "near": 49, "leg": 1200})
	require.NoError(t, err)
	require.Len(t, acts, 1)
	mv, ok = acts[0].(action.MoveTo)
	require.True(t, ok, "%v", acts)
	assert.LessOrEqual(t, mv.Pos.DistSq(world.Pos(50, 64, 0)), 9, "%v", mv.Pos)

	// No leg: one move to within near, the way left to the body.
	acts, err = run(t, WalkTo{}, w, map[string]any{"target": "minecraft:log", "near": 20})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.MoveTo{Pos: world.Pos(50, 64, 0), Radius: 19}}, acts)
}

// TestWalkToWithoutAWay: with leg set and no way found by walking (a wall
// of bedrock across), the move goes towards the block as far as leg ticks
// of walking reach in a straight line, and at least to within near.
func TestWalkToWithoutAWay(t *testing.T) {
	bs := world.NewSparseBlocks()
	for x := -2; x <= 60; x++ {
		for z := -2; z <= 2; z++ {
			bs.SetID(world.Pos(x, 63, z), "minecraft:stone", 0)
		}
	}
	for y := 60; y <= 80; y++ {
		for z := -40; z <= 40; z++ {
			bs.SetID(world.Pos(20, y, z), "minecraft:bedrock", 0)
		}
	}
	bs.SetID(world.Pos(50, 64, 0), "minecraft:log", 0)
	w := snap(at(0, 64, 0), bs, world.NewInventory())
	acts, err := run(t, WalkTo{}, w, map[string]any{"target": "minecraft:log", "near": 49, "leg": 100})
	require.NoError(t, err)
	// 100 ticks walk 21.6 blocks: from 50 away to within 29.
	assert.Equal(t, []action.Action{action.MoveTo{Pos: world.Pos(50, 64, 0), Radius: 29}}, acts, "as far as the leg goes, past near")
	acts, err = run(t, WalkTo{}, w, map[string]any{"target": "minecraft:log", "near": 40, "leg": 1000})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.MoveTo{Pos: world.Pos(50, 64, 0), Radius: workRadius}}, acts, "a leg long enough for the whole way")
	acts, err = run(t, WalkTo{}, w, map[string]any{"target": "minecraft:log", "near": 40, "leg": 20})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.MoveTo{Pos: world.Pos(50, 64, 0), Radius: 39}}, acts, "a short leg still ends within near")
}
