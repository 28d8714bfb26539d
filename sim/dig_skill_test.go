package sim_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

// buriedOre: a flat plain (grass, dirt, then stone) with one coal ore ten
// blocks under the player, who holds inv (a YAML list).
func buriedOre(t *testing.T, inv string) *sim.Sim {
	t.Helper()
	return flatPlain(t, inv, `[{block: "minecraft:coal_ore", pos: [8, 53, 8]}]`)
}

// TestMineOreTunnelsToABuriedOre: mine_ore on an ore no walk reaches
// tunnels down to it and mines it, and the loop checks the skill's
// declared effects as for any other step: the ore is gone and coal is in
// the inventory.
func TestMineOreTunnelsToABuriedOre(t *testing.T) {
	const goal = "have 1 minecraft:coal"
	inv := loop.Invocation{Skill: "mine_ore", Params: map[string]any{"target": "minecraft:coal_ore"}}
	// Coal ore needs a level-1 pickaxe in GTNH, and the vanilla iron one
	// digs nothing there: a GregTech pickaxe (the simulator's iron grade).
	out, steps, trace := runGoal(t, buriedOre(t, `[{item: "gregtech:gt.metatool.01:2", count: 1}]`), goal, script.New(inv))
	require.NotEmpty(t, steps, trace)
	assert.Equal(t, loop.Success, steps[0].Verdict, steps[0].Error)
	assert.True(t, out.GoalMet, trace)
	removed := false
	for _, c := range steps[0].Effects {
		removed = removed || c.OK && strings.HasPrefix(c.Effect, "minecraft:coal_ore blocks within 32 removed >= 1")
	}
	assert.True(t, removed, "the ore's removal was checked: %+v", steps[0].Effects)
	assert.Equal(t, 1, steps[0].After.Inventory["minecraft:coal"])
	assert.Positive(t, steps[0].After.Inventory["minecraft:cobblestone"], "the stone of the tunnel")
}
