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

// TestWalkToDigsStairsUp: from a pocket in solid stone, with no walking
// way to a log 20 blocks up and 10 east, a leg digs a staircase towards
// it: the block over the head and the two above the next tread, then the
// step up, as many stairs as the leg's ticks reckon (three blocks at 23
// ticks and the step at 10: 79 a stair), at least one; short of water,
// gravel and the unknown.
func TestWalkToDigsStairsUp(t *testing.T) {
	rock := func() *world.SparseBlocks {
		bs := world.NewSparseBlocks()
		for x := -3; x <= 14; x++ {
			for z := -3; z <= 3; z++ {
				for y := 40; y <= 70; y++ {
					bs.SetID(world.Pos(x, y, z), "minecraft:stone", 0)
				}
			}
		}
		bs.SetID(world.Pos(0, 50, 0), "minecraft:air", 0).SetID(world.Pos(0, 51, 0), "minecraft:air", 0)
		return bs.SetID(world.Pos(10, 70, 0), "minecraft:log", 0)
	}
	pick := world.NewStack("minecraft:wooden_pickaxe", 0, 1)
	pick.MaxDamage = 59
	leg := func(bs *world.SparseBlocks, ticks int) []action.Action {
		t.Helper()
		return checkActions(t, WalkTo{}, snap(at(0, 50, 0), bs, world.NewInventory(pick)), map[string]any{"target": "minecraft:log", "near": 21, "leg": ticks})
	}
	stair := func(x, y int) []action.Action {
		// From feet (x-1, y-1): over the head, then the next feet and head.
		return []action.Action{action.BreakBlock{Pos: world.Pos(x-1, y+1, 0)}, action.BreakBlock{Pos: world.Pos(x, y, 0)},
			action.BreakBlock{Pos: world.Pos(x, y+1, 0)}, action.MoveTo{Pos: world.Pos(x, y, 0)}}
	}
	want := append(append([]action.Action{action.Equip{Item: "tool:pickaxe"}}, stair(1, 51)...), stair(2, 52)...)
	assert.Equal(t, want, leg(rock(), 200), "two stairs in 200 ticks (158)")
	assert.Equal(t, append(want, stair(3, 53)...), leg(rock(), 237), "three in 237")
	assert.Equal(t, want, leg(rock(), 236), "not in 236")
	assert.Equal(t, want[:5], leg(rock(), 1), "the first stair always")

	// Water beside the second stair: one stair.
	wet := rock().SetID(world.Pos(2, 52, 1), "minecraft:water", 0)
	assert.Equal(t, want[:5], leg(wet, 200))
	// Gravel over the second stair's head: one stair.
	loose := rock().SetID(world.Pos(2, 54, 0), "minecraft:gravel", 0)
	assert.Equal(t, want[:5], leg(loose, 200))
	// A cave under the second stair's tread: one stair.
	cave := rock().SetID(world.Pos(2, 51, 0), "minecraft:air", 0)
	assert.Equal(t, want[:5], leg(cave, 200))
	// Lava by the first stair: no staircase; the straight walk, which
	// the body digs as it can.
	hot := rock().SetID(world.Pos(1, 51, 1), "minecraft:lava", 0)
	acts := leg(hot, 200)
	require.Len(t, acts, 1)
	_, walk := acts[0].(action.MoveTo)
	assert.True(t, walk, "%v", acts)
	// No pickaxe: the stairs all the same, by hand.
	bare := checkActions(t, WalkTo{}, snap(at(0, 50, 0), rock(), world.NewInventory()), map[string]any{"target": "minecraft:log", "near": 21, "leg": 200})
	assert.Equal(t, want[1:], bare)
	// A log two blocks up is no climb.
	low := rock().SetID(world.Pos(10, 70, 0), "minecraft:stone", 0).SetID(world.Pos(10, 52, 0), "minecraft:log", 0)
	acts = checkActions(t, WalkTo{}, snap(at(0, 50, 0), low, world.NewInventory(pick)), map[string]any{"target": "minecraft:log", "near": 9, "leg": 200})
	require.Len(t, acts, 1)
	_, walk = acts[0].(action.MoveTo)
	assert.True(t, walk, "%v", acts)
}
