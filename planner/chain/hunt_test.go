package chain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// withMobs adds mobs (name at x, z) to a snapshot.
func withMobs(w *world.Snapshot, mobs ...world.Entity) *world.Snapshot {
	for i, m := range mobs {
		m.ID, m.Kind = 100+i, world.EntityMob
		w.Entities = append(w.Entities, m)
	}
	return w
}

func mobAt(name string, x, z float64) world.Entity {
	return world.Entity{Name: name, Pos: world.Vec3{X: x, Y: 64, Z: z}}
}

// TestWoolFromSheep: wool (the bed's carpet and the first line's "Fluffy
// and Red") is hunted from a sheep in the world model, with a sword made
// first; with no sheep within the hunt's radius, only string could make it,
// and nothing produces string; a carpet is crafted from the wool held.
func TestWoolFromSheep(t *testing.T) {
	reg := shipped(t)
	sword := world.NewStack("minecraft:wooden_sword", 0, 1)
	sword.MaxDamage = 59
	tests := []struct {
		name, goal string
		w          *world.Snapshot
		want       *loop.Invocation
		err        string
	}{
		{"a sheep near", "have 6 minecraft:wool", withMobs(snapshot("stone_age", nil, sword), mobAt("sheep", 10.5, 3.5)),
			&loop.Invocation{Skill: "hunt", Params: map[string]any{"target": "sheep", "item": "minecraft:wool", "count": 6}}, ""},
		{"white wool (metadata 0, as the recipes write it), what is missing", "have 3 minecraft:wool:0", withMobs(snapshot("stone_age", nil, sword, world.NewStack("minecraft:wool", 0, 1)), mobAt("sheep", 10.5, 3.5)),
			&loop.Invocation{Skill: "hunt", Params: map[string]any{"target": "sheep", "item": "minecraft:wool", "count": 2}}, ""},
		{"a sword first", "have 1 minecraft:wool", withMobs(snapshot("stone_age", nil, stack("minecraft:planks", 2), stack("minecraft:stick", 1), stack("minecraft:crafting_table", 1)), mobAt("sheep", 10.5, 3.5)),
			&loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:wooden_sword", "count": 1}}, ""},
		{"the nearest kind that drops it", "have 1 minecraft:string", withMobs(snapshot("stone_age", nil, sword), mobAt("sheep", 2.5, 0.5), mobAt("spider", 20.5, 0.5)),
			&loop.Invocation{Skill: "hunt", Params: map[string]any{"target": "spider", "item": "minecraft:string", "count": 1}}, ""},
		{"no sheep in range", "have 1 minecraft:wool", withMobs(snapshot("stone_age", nil, sword), mobAt("sheep", 40.5, 0.5)), nil,
			"no available skill produces minecraft:string"},
		{"a zombie gives no wool", "have 1 minecraft:wool", withMobs(snapshot("stone_age", nil, sword), mobAt("zombie", 4.5, 0.5)), nil,
			"no available skill produces minecraft:string"},
		{"carpet from the wool held", "have 1 minecraft:carpet:0", snapshot("stone_age", nil, world.NewStack("minecraft:wool", 0, 2)),
			&loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:carpet", "count": 1}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dec, err := plan(t, reg, tc.goal, tc.w)
			if tc.err != "" {
				require.ErrorIs(t, err, loop.ErrStuck)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			require.NotNil(t, dec.Invocation)
			assert.Equal(t, tc.want.String(), dec.Invocation.String())
		})
	}
}
