package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// remembered is a memory that holds fixed positions, nearest first, and
// records what it was asked.
type remembered struct {
	pos     []world.BlockPos
	asked   string
	maxDist int
}

func (r *remembered) RecallBlocks(id string, meta int, _ world.BlockPos, maxDist, _ int) []world.BlockPos {
	r.asked, r.maxDist = id, maxDist
	if meta >= 0 && meta != 0 {
		return nil
	}
	return r.pos
}

// unknownBeyond is a block source that knows only what lies within r of
// the origin.
type unknownBeyond struct {
	*world.SparseBlocks
	r int
}

func (u unknownBeyond) Known(p world.BlockPos) bool { return p.DistSq(world.Pos(0, 64, 0)) <= u.r*u.r }

func TestWalkToRemembered(t *testing.T) {
	far, farther := world.Pos(40, 30, 0), world.Pos(60, 30, 0)
	blocks := world.NewSparseBlocks().SetID(world.Pos(3, 63, 0), "minecraft:stone", 0)
	w := snap(at(0, 64, 0), blocks, world.NewInventory())
	// The bot knows the world within 10 blocks; the ore is beyond.
	w.Blocks = unknownBeyond{SparseBlocks: blocks, r: 10}
	mem := &remembered{pos: []world.BlockPos{far, farther}}
	w.Recall = mem

	acts, err := run(t, WalkToRemembered{}, w, map[string]any{"target": "minecraft:iron_ore", "max_distance": 100})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.MoveTo{Pos: far, Radius: 3}}, acts, "the nearest remembered one")
	assert.Equal(t, "minecraft:iron_ore", mem.asked)
	assert.Equal(t, 100, mem.maxDist)

	// Remembered where the bot now sees stone: gone, the next one.
	mem.pos = []world.BlockPos{world.Pos(3, 63, 0), far}
	acts, err = run(t, WalkToRemembered{}, w, map[string]any{"target": "minecraft:iron_ore"})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.MoveTo{Pos: far, Radius: 3}}, acts)

	// Remembered where the bot now knows there is air: gone too.
	mem.pos = []world.BlockPos{world.Pos(2, 64, 0), far}
	acts, err = run(t, WalkToRemembered{}, w, map[string]any{"target": "minecraft:iron_ore"})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.MoveTo{Pos: far, Radius: 3}}, acts)

	// Already in sight within 8 blocks: nothing to do.
	near := snap(at(0, 64, 0), world.NewSparseBlocks().SetID(world.Pos(5, 62, 0), "minecraft:iron_ore", 0), world.NewInventory())
	near.Recall = mem
	acts, err = run(t, WalkToRemembered{}, near, map[string]any{"target": "minecraft:iron_ore"})
	require.NoError(t, err)
	assert.Empty(t, acts)
}

func TestWalkToRememberedFailures(t *testing.T) {
	w := snap(at(0, 64, 0), world.NewSparseBlocks(), world.NewInventory())
	_, err := run(t, WalkToRemembered{}, w, map[string]any{"target": "minecraft:iron_ore"})
	f := requireFailure(t, err, skills.CodeNoTarget)
	assert.Contains(t, f.Msg, "remembers nothing in this run")

	w.Recall = &remembered{}
	_, err = run(t, WalkToRemembered{}, w, map[string]any{"target": "minecraft:iron_ore", "max_distance": 50})
	f = requireFailure(t, err, skills.CodeNoTarget)
	assert.Contains(t, f.Msg, "no minecraft:iron_ore remembered within 50 blocks")
}
