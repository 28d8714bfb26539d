package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func plant(x, y, z int, item string) []action.Action {
	return []action.Action{
		action.MoveTo{Pos: world.Pos(x, y, z), Radius: 3},
		action.PlaceBlock{Pos: world.Pos(x, y, z), Item: item, Face: "up"},
	}
}

func TestPlantSapling(t *testing.T) {
	field := func() *world.SparseBlocks { return ground(world.NewSparseBlocks(), 63, -4, -4, 4, 4) }
	oaks := world.NewInventory(stack("minecraft:sapling", 0, 5))

	tests := []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		want []action.Action
	}{
		{
			name: "one oak sapling on the nearest grass the player does not stand on",
			w:    snap(at(0, 64, 0), field(), oaks),
			want: plant(0, 64, -1, "minecraft:sapling"),
		},
		{
			name: "several saplings keep a free block between them",
			w:    snap(at(0, 64, 0), field(), oaks),
			raw:  map[string]any{"count": 3},
			want: append(append(plant(0, 64, -1, "minecraft:sapling"), plant(0, 64, 1, "minecraft:sapling")...), plant(-2, 64, 0, "minecraft:sapling")...),
		},
		{
			name: "not next to a log or another sapling",
			w: snap(at(0, 64, 0), field().
				SetID(world.Pos(1, 64, 0), "minecraft:log", 0).
				SetID(world.Pos(-1, 64, -2), "minecraft:sapling", 0), oaks),
			want: plant(-1, 64, 0, "minecraft:sapling"),
		},
		{
			name: "tall grass above the soil is replaced, leaves are not",
			w: snap(at(0, 64, 0), field().
				SetID(world.Pos(0, 64, 0), "minecraft:leaves", 0).
				SetID(world.Pos(0, 64, -1), "minecraft:tallgrass", 1), oaks),
			want: plant(0, 64, -1, "minecraft:sapling"),
		},
		{
			name: "dirt works too",
			w:    snap(at(0, 64, 0), world.NewSparseBlocks().SetID(world.Pos(3, 63, 3), "minecraft:dirt", 0), oaks),
			want: plant(3, 64, 3, "minecraft:sapling"),
		},
		{
			name: "birch saplings are named with their metadata",
			w:    snap(at(0, 64, 0), field(), world.NewInventory(stack("minecraft:sapling", 2, 1))),
			want: plant(0, 64, -1, "minecraft:sapling:2"),
		},
		{
			name: "stacks are used in slot order; oak is written :0 next to birch",
			w: snap(at(0, 64, 0), field(), world.NewInventory(
				stack("minecraft:sapling", 0, 1), stack("minecraft:dirt", 0, 3), stack("minecraft:sapling", 2, 4))),
			raw:  map[string]any{"count": 2},
			want: append(plant(0, 64, -1, "minecraft:sapling:0"), plant(0, 64, 1, "minecraft:sapling:2")...),
		},
		{
			name: "fewer free spots than count plants what fits",
			w:    snap(at(0, 64, 0), ground(world.NewSparseBlocks(), 63, 0, 0, 1, 1), oaks),
			raw:  map[string]any{"count": 3},
			want: plant(1, 64, 0, "minecraft:sapling"),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, checkActions(t, PlantSapling{}, tc.w, tc.raw))
		})
	}
}

func TestPlantSaplingFailures(t *testing.T) {
	field := ground(world.NewSparseBlocks(), 63, -4, -4, 4, 4)
	crowdedField := ground(world.NewSparseBlocks(), 63, -1, -1, 1, 1).SetID(world.Pos(0, 64, 0), "minecraft:log", 0)
	tests := []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		code skills.Code
		msg  string
	}{
		{"no sapling", snap(at(0, 64, 0), field, world.NewInventory(stack("minecraft:log", 0, 5))), nil, skills.CodeMissingItems, "no sapling"},
		{"too few saplings", snap(at(0, 64, 0), field, world.NewInventory(stack("minecraft:sapling", 0, 1))), map[string]any{"count": 2}, skills.CodeMissingItems, "only 1"},
		{"no soil", snap(at(0, 64, 0), world.NewSparseBlocks().SetID(world.Pos(0, 63, 0), "minecraft:stone", 0), world.NewInventory(stack("minecraft:sapling", 0, 1))), nil, skills.CodeNoTarget, "no free grass"},
		{"soil out of radius", snap(at(0, 64, 0), world.NewSparseBlocks().SetID(world.Pos(9, 63, 0), "minecraft:grass", 0), world.NewInventory(stack("minecraft:sapling", 0, 1))), nil, skills.CodeNoTarget, "within 8"},
		{"every spot touches a log", snap(at(0, 64, 0), crowdedField, world.NewInventory(stack("minecraft:sapling", 0, 1))), nil, skills.CodeNoTarget, "no free grass"},
		{"the only spot is where the player stands", snap(at(0, 64, 0), ground(world.NewSparseBlocks(), 63, 0, 0, 0, 0), world.NewInventory(stack("minecraft:sapling", 0, 1))), nil, skills.CodeNoTarget, "no free grass"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acts, err := run(t, PlantSapling{}, tc.w, tc.raw)
			f := requireFailure(t, err, tc.code)
			assert.Contains(t, f.Msg, tc.msg)
			assert.Nil(t, acts)
		})
	}
}
