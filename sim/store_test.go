package sim_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestAFullInventoryGoesIntoAChest: a bot gathering cobblestone with 34 of
// its 36 slots full puts the cobblestone into the chest it holds (placed
// beside it, filled to its 27 stacks) and goes on; the goal counts what
// the chest holds.
func TestAFullInventoryGoesIntoAChest(t *testing.T) {
	stacks := []string{"{item: minecraft:wooden_pickaxe, max_durability: 59}", "{item: minecraft:chest, count: 1}"}
	for range 32 {
		stacks = append(stacks, "{item: minecraft:cobblestone, count: 64}")
	}
	s := flatPlain(t, "["+strings.Join(stacks, ", ")+"]", "[]")
	out, steps, trace := runGoal(t, s, "collect 8 minecraft:cobblestone", chain.Planner{})
	require.True(t, out.GoalMet, trace)
	var used []string
	for _, st := range steps {
		used = append(used, st.Invocation.Skill)
	}
	require.NotEmpty(t, used)
	assert.Equal(t, "store_items", used[0], "the haul goes away first: %v", used)
	assert.Contains(t, used, "mine_ore")
	w := look(t, s)
	chests := 0
	for _, m := range w.Machines {
		if m.Kind == world.MachineChest {
			chests++
		}
	}
	assert.Equal(t, 1, chests, "the chest held was placed")
	cobble := world.MustItem("minecraft:cobblestone")
	assert.Equal(t, 27*64, loop.Stored(w, cobble), "a chest holds 27 stacks; the other 5 stay")
	assert.GreaterOrEqual(t, w.Inventory.Count(cobble), 8, "the goal's 8 gathered since, in the inventory")
}
