package chain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestAFarTreeIsWalkedToFirst: a tree farther than 32 blocks, or more than
// 8 blocks above the feet (out of a mine), is walked towards ten seconds a
// step, each step to end nearer; a near one is chopped at once; a walk
// that failed twice (blocked) gives way to the chop with its long walk.
func TestAFarTreeIsWalkedToFirst(t *testing.T) {
	reg := shipped(t)
	below := func(b *world.SparseBlocks, depth int) *world.Snapshot {
		w := snapshot("stone_age", b)
		w.Player.Pos.Y -= float64(depth)
		return w
	}
	tests := []struct {
		name string
		w    *world.Snapshot
		want *loop.Invocation
	}{
		{"32 blocks on the level: chopped", below(trunk(world.NewSparseBlocks(), 32, 0, 1), 0),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 1, "radius": 32}}},
		{"33 blocks: walked to first", below(trunk(world.NewSparseBlocks(), 33, 0, 1), 0),
			&loop.Invocation{Skill: "walk_to", Params: map[string]any{"target": "minecraft:log", "near": 32, "leg": 200}}},
		{"20 blocks: chopped", below(trunk(world.NewSparseBlocks(), 20, 0, 1), 0),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 1, "radius": 20}}},
		{"8 blocks up: chopped", below(trunk(world.NewSparseBlocks(), 10, 0, 1), 8),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 1}}},
		{"9 blocks up, out of a mine: walked to first", below(trunk(world.NewSparseBlocks(), 20, 0, 1), 9),
			&loop.Invocation{Skill: "walk_to", Params: map[string]any{"target": "minecraft:log", "near": 21, "leg": 200}}},
		{"9 blocks up and 10 across: walked to first", below(trunk(world.NewSparseBlocks(), 10, 0, 1), 9),
			&loop.Invocation{Skill: "walk_to", Params: map[string]any{"target": "minecraft:log", "near": 13, "leg": 200}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dec, err := plan(t, reg, "collect 3000 minecraft:log", tc.w)
			require.NoError(t, err)
			assert.Equal(t, tc.want, dec.Invocation, dec.Reason)
		})
	}
	walk := loop.Invocation{Skill: "walk_to", Params: map[string]any{"target": "minecraft:log", "near": 32, "leg": 200}}
	dec, err := plan(t, reg, "collect 3000 minecraft:log", below(trunk(world.NewSparseBlocks(), 33, 0, 1), 0), walk)
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 1, "radius": 33}}, dec.Invocation)
}
