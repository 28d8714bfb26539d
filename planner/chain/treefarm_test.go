package chain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// saplingsAt stands n oak saplings on the ground in a row from (3, 64, 3).
func saplingsAt(b *world.SparseBlocks, n int) *world.SparseBlocks {
	for i := range n {
		b.SetID(world.Pos(3+2*i, 64, 3), "minecraft:sapling", 0)
	}
	return b
}

// TestTreeFarm: with no tree in reach the planner grows trees — it plants
// the saplings it holds, breaks leaves for more while fewer than 16 stand
// in the ground, and otherwise waits for them to grow; with nothing to
// grow from it says so.
func TestTreeFarm(t *testing.T) {
	reg := shipped(t)
	leaves := func(b *world.SparseBlocks) *world.SparseBlocks {
		return b.SetID(world.Pos(-4, 67, 2), "minecraft:leaves", 0)
	}
	tests := []struct {
		name   string
		blocks *world.SparseBlocks
		held   int
		want   *loop.Invocation
		err    string
	}{
		{"saplings held: planted", leaves(world.NewSparseBlocks()), 5,
			&loop.Invocation{Skill: "plant_sapling", Params: map[string]any{"count": 5}}, ""},
		{"one sapling held", world.NewSparseBlocks(), 1,
			&loop.Invocation{Skill: "plant_sapling", Params: map[string]any{"count": 1}}, ""},
		{"leaves just past gather_saplings' default radius", world.NewSparseBlocks().SetID(world.Pos(17, 64, 0), "minecraft:leaves", 0), 0,
			&loop.Invocation{Skill: "gather_saplings", Params: map[string]any{"radius": 17}}, ""},
		{"leaves at the default radius", world.NewSparseBlocks().SetID(world.Pos(16, 64, 0), "minecraft:leaves", 0), 0,
			&loop.Invocation{Skill: "gather_saplings"}, ""},
		{"no more than plant_sapling takes at once", world.NewSparseBlocks(), 70,
			&loop.Invocation{Skill: "plant_sapling", Params: map[string]any{"count": 64}}, ""},
		{"none held, leaves near: gather saplings", leaves(saplingsAt(world.NewSparseBlocks(), 15)), 0,
			&loop.Invocation{Skill: "gather_saplings"}, ""},
		{"leaves past gather_saplings' default radius", world.NewSparseBlocks().SetID(world.Pos(30, 67, 0), "minecraft:leaves", 0), 0,
			&loop.Invocation{Skill: "gather_saplings", Params: map[string]any{"radius": 31}}, ""}, // √(30²+3²) = 30.15
		{"leaves far above (from the bottom of a mine): walked to first", world.NewSparseBlocks().SetID(world.Pos(20, 80, 0), "minecraft:leaves", 0), 0,
			&loop.Invocation{Skill: "walk_to", Params: map[string]any{"target": "minecraft:leaves", "near": 25, "leg": 200}}, ""}, // √(20²+16²) = 25.6
		{"leaves 8 above: gathered from here", world.NewSparseBlocks().SetID(world.Pos(20, 72, 0), "minecraft:leaves", 0), 0,
			&loop.Invocation{Skill: "gather_saplings", Params: map[string]any{"radius": 22}}, ""}, // √(20²+8²) = 21.5
		{"leaves 40 away: walked to first", world.NewSparseBlocks().SetID(world.Pos(40, 64, 0), "minecraft:leaves", 0), 0,
			&loop.Invocation{Skill: "walk_to", Params: map[string]any{"target": "minecraft:leaves", "near": 39, "leg": 200}}, ""},
		{"16 saplings in the ground: wait for them", leaves(saplingsAt(world.NewSparseBlocks(), 16)), 0,
			&loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": 1200}}, ""},
		{"saplings planted and no leaves: wait", saplingsAt(world.NewSparseBlocks(), 1), 0,
			&loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": 1200}}, ""},
		{"nothing to grow from", world.NewSparseBlocks(), 0, nil,
			"stuck: no plan: cannot get 10 ore:logWood: chop_tree: no block it gathers ore:logWood from (tagged tree) within 64 blocks, and no tree farm: 0 saplings planted within 64 blocks, 0 held; no leaves within 64 blocks for gather_saplings"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var inv []world.ItemStack
			if tc.held > 0 {
				inv = append(inv, world.NewStack("minecraft:sapling", 0, min(tc.held, 64)))
				if tc.held > 64 {
					inv = append(inv, world.NewStack("minecraft:sapling", 0, tc.held-64))
				}
			}
			dec, err := plan(t, reg, "have 10 ore:logWood", snapshot("stone_age", tc.blocks, inv...))
			if tc.err != "" {
				require.ErrorIs(t, err, loop.ErrStuck)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, dec.Invocation)
		})
	}
	// Leaves out of reach from the ground (gather_saplings failed twice
	// there): as far as the skill looks; then, that blocked too, the wait.
	near := leaves(saplingsAt(world.NewSparseBlocks(), 3))
	dec, err := plan(t, reg, "have 10 ore:logWood", snapshot("stone_age", near), loop.Invocation{Skill: "gather_saplings"})
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "gather_saplings", Params: map[string]any{"radius": 64}}, dec.Invocation)
	dec, err = plan(t, reg, "have 10 ore:logWood", snapshot("stone_age", near), loop.Invocation{Skill: "gather_saplings"},
		loop.Invocation{Skill: "gather_saplings", Params: map[string]any{"radius": 64}})
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": 1200}}, dec.Invocation)
	// A tree in reach is felled, whatever grows.
	dec, err = plan(t, reg, "have 10 ore:logWood", snapshot("stone_age", saplingsAt(trunk(world.NewSparseBlocks(), 5, 0, 4), 3), world.NewStack("minecraft:sapling", 0, 3)))
	require.NoError(t, err)
	assert.Equal(t, "chop_tree", dec.Invocation.Skill)
	// A blocked planting gives way to the next step.
	dec, err = plan(t, reg, "have 10 ore:logWood", snapshot("stone_age", saplingsAt(world.NewSparseBlocks(), 2), world.NewStack("minecraft:sapling", 0, 3)),
		loop.Invocation{Skill: "plant_sapling", Params: map[string]any{"count": 3}})
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": 1200}}, dec.Invocation)
}
