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
