package chain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestSpareBeforeTheLastUses: a step that needs a pickaxe, with the best
// held down to fewer than 8 uses, makes another first when it can; with 8
// or more left, a second one with uses left, or nothing to make one from,
// the step runs with what is held.
func TestSpareBeforeTheLastUses(t *testing.T) {
	reg := shipped(t)
	table := func() *world.SparseBlocks {
		return forest(20).SetID(world.Pos(2, 64, 2), "minecraft:crafting_table", 0)
	}
	makings := []world.ItemStack{stack("minecraft:planks", 3), stack("minecraft:stick", 2)}
	with := func(st ...world.ItemStack) []world.ItemStack {
		return append(append([]world.ItemStack{}, makings...), st...)
	}
	const goal = "run mine_ore target=minecraft:stone"
	for _, tc := range []struct {
		name  string
		w     *world.Snapshot
		skill string
	}{
		{"7 uses left: a spare first", snapshot("stone_age", table(), with(pickaxe(7))...), "basic_crafting"},
		{"1 use left: a spare first", snapshot("stone_age", table(), with(pickaxe(1))...), "basic_crafting"},
		{"8 uses left: mine", snapshot("stone_age", table(), with(pickaxe(8))...), "mine_ore"},
		{"a second pickaxe: mine", snapshot("stone_age", table(), with(pickaxe(3), pickaxe(40))...), "mine_ore"},
		{"a pickaxe that does not wear: mine", snapshot("stone_age", table(), with(world.NewStack("minecraft:wooden_pickaxe", 0, 1))...), "mine_ore"},
		{"nothing to make one from: mine", snapshot("stone_age", world.NewSparseBlocks(), pickaxe(3)), "mine_ore"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dec, err := plan(t, reg, goal, tc.w)
			require.NoError(t, err)
			require.NotNil(t, dec.Invocation)
			assert.Equal(t, tc.skill, dec.Invocation.Skill, "%s: %s", dec.Invocation, dec.Reason)
			if tc.skill == "basic_crafting" {
				assert.Equal(t, "minecraft:wooden_pickaxe", dec.Invocation.Params["item"])
			}
		})
	}
}
