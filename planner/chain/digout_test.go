package chain

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// walledRoom walls the player (feet at (0, 64, 0)) into a room of width cells
// along x, two high, in wall blocks (floor and roof too), with sand
// outside at (6, 64, 0).
func walledRoom(width int, wall string) *world.SparseBlocks {
	b := world.NewSparseBlocks()
	for x := -1; x <= width; x++ {
		for y := 63; y <= 66; y++ {
			for z := -1; z <= 1; z++ {
				inside := x >= 0 && x < width && (y == 64 || y == 65) && z == 0
				if !inside {
					b.SetID(world.Pos(x, y, z), wall, 0)
				}
			}
		}
	}
	return b.SetID(world.Pos(6, 64, 0), "minecraft:sand", 0)
}

// pick is a wooden pickaxe (GTNH's 64 uses) worn by damage.
func pick(damage int) world.ItemStack {
	st := world.NewStack("minecraft:wooden_pickaxe", 0, 1)
	st.MaxDamage, st.Damage = 64, damage
	return st
}

// TestWalledInPlansThePickaxeFirst: walled into stone with the makings of
// a wooden pickaxe (five logs, six gravel), the plan's first step works
// towards it in place, under its own part of the plan; the goal's work
// (sand outside) waits.
func TestWalledInPlansThePickaxeFirst(t *testing.T) {
	reg := shipped(t)
	w := snapshot("stone_age", walledRoom(2, "minecraft:stone"), stack("minecraft:log", 5), stack("minecraft:gravel", 6))
	dec, err := plan(t, reg, "collect 1 minecraft:sand", w)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "basic_crafting", dec.Invocation.Skill)
	assert.Contains(t, dec.Reason, "walled in")
	assert.Contains(t, dec.Reason, "a pickaxe to dig out with")
	require.NotEmpty(t, dec.Tree.Children)
	assert.Equal(t, "dig out of the walls", dec.Tree.Children[0].Label)
}

// TestWalledInAtTheLastCraft: planks and sticks held and a table placed
// in the room: the step is the pickaxe itself.
func TestWalledInAtTheLastCraft(t *testing.T) {
	reg := shipped(t)
	blocks := walledRoom(2, "minecraft:stone").SetID(world.Pos(1, 64, 0), "minecraft:crafting_table", 0)
	w := snapshot("stone_age", blocks, stack("minecraft:planks", 3), stack("minecraft:stick", 2))
	dec, err := plan(t, reg, "collect 1 minecraft:sand", w)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "basic_crafting", dec.Invocation.Skill)
	assert.Equal(t, "minecraft:wooden_pickaxe", dec.Invocation.Params["item"])
	assert.Contains(t, dec.Reason, "walled in")
}

// TestWalledInBlockedCraft: a pickaxe craft the loop has blocked (it
// failed twice here) is no way out: the plan goes on without it.
func TestWalledInBlockedCraft(t *testing.T) {
	reg := shipped(t)
	blocks := walledRoom(2, "minecraft:stone").SetID(world.Pos(1, 64, 0), "minecraft:crafting_table", 0)
	w := snapshot("stone_age", blocks, stack("minecraft:planks", 3), stack("minecraft:stick", 2))
	craft := loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:wooden_pickaxe", "count": 1}}
	dec, err := plan(t, reg, "collect 1 minecraft:sand", w, craft)
	require.NoError(t, err)
	assert.NotContains(t, dec.Reason, "walled in", "%s", dec.Invocation)
}

// TestWalledInNoRule: the plan goes on as ever when a wall gives way to
// what is held (a pickaxe; dirt, which the hand digs), when nothing to
// make a pickaxe with is held, or when a 3x3 craft has no place for the
// table in the room.
func TestWalledInNoRule(t *testing.T) {
	reg := shipped(t)
	for name, w := range map[string]any{
		"a pickaxe held": snapshot("stone_age", walledRoom(2, "minecraft:stone"), pick(0),
			stack("minecraft:log", 5), stack("minecraft:gravel", 6)),
		"dirt walls":           snapshot("stone_age", walledRoom(2, "minecraft:dirt"), stack("minecraft:log", 5), stack("minecraft:gravel", 6)),
		"nothing to make from": snapshot("stone_age", walledRoom(2, "minecraft:stone"), stack("minecraft:log", 1)),
		"no place for a table": snapshot("stone_age", walledRoom(1, "minecraft:stone"), stack("minecraft:planks", 3), stack("minecraft:stick", 2),
			stack("minecraft:crafting_table", 1)),
		"the table outside the walls": snapshot("stone_age", walledRoom(2, "minecraft:stone").SetID(world.Pos(0, 64, 5), "minecraft:crafting_table", 0),
			stack("minecraft:planks", 3), stack("minecraft:stick", 2)),
		"not walled in": snapshot("stone_age", walledRoom(2, "minecraft:stone").SetID(world.Pos(0, 65, 1), "minecraft:air", 0),
			stack("minecraft:log", 5), stack("minecraft:gravel", 6)),
	} {
		dec, err := plan(t, reg, "collect 1 minecraft:sand", w.(*world.Snapshot))
		if err != nil {
			assert.NotContains(t, err.Error(), "walled in", name)
			continue
		}
		assert.False(t, strings.Contains(dec.Reason, "walled in"), "%s: %s %s", name, dec.Invocation, dec.Reason)
		for _, c := range dec.Tree.Children {
			assert.NotEqual(t, "dig out of the walls", c.Label, name)
		}
	}
}

// TestWallTool: the tool class of the easiest wall, none when a wall
// yields to what is held or needs more than a level-0 tool.
func TestWallTool(t *testing.T) {
	for _, tc := range []struct {
		name  string
		wall  string
		held  []world.ItemStack
		class string
	}{
		{"stone", "minecraft:stone", nil, "pickaxe"},
		{"cobblestone", "minecraft:cobblestone", nil, "pickaxe"},
		{"obsidian", "minecraft:obsidian", nil, ""},
		{"dirt", "minecraft:dirt", nil, ""},
		{"a pickaxe", "minecraft:stone", []world.ItemStack{pick(0)}, ""},
		{"a worn-out pickaxe", "minecraft:stone", []world.ItemStack{pick(64)}, "pickaxe"},
	} {
		s := &search{Planner: Planner{Mining: rules.Default().Mining}, w: snapshot("stone_age", walledRoom(2, tc.wall), tc.held...)}
		class, _, ok := s.wallTool()
		assert.Equal(t, tc.class != "", ok, tc.name)
		assert.Equal(t, tc.class, class, tc.name)
	}
}
