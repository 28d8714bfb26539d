package main

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestFullInventoryIntoAChestLive: on the test server, a bot gathering
// cobblestone with 34 of its 36 slots full (a wooden pickaxe, a chest and
// 32 stacks of cobblestone) puts its haul into the chest it holds, placed
// beside it as a vanilla chest of 27 slots, and goes on to mine the 8 the
// goal asks for; the server's chest holds the 27 stacks.
func TestFullInventoryIntoAChestLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inv := []fakeserver.Item{{Slot: 36, Name: "minecraft:wooden_pickaxe", Count: 1}, {Slot: 37, Name: "minecraft:chest", Count: 1}}
		for slot := 9; slot < 36; slot++ {
			inv = append(inv, fakeserver.Item{Slot: slot, Name: "minecraft:cobblestone", Count: 64})
		}
		for slot := 38; slot < 43; slot++ {
			inv = append(inv, fakeserver.Item{Slot: slot, Name: "minecraft:cobblestone", Count: 64})
		}
		srv, code, out, steps := steamAgeRun(t, inMemory(fakeserver.Options{TickDuration: steamTick, Inventory: inv}),
			"collect 8 minecraft:cobblestone", 40)
		require.Equal(t, exitOK, code, out)
		require.NotEmpty(t, steps)
		assert.Equal(t, "store_items", steps[0].Invocation.Skill, "the haul goes away first")
		var chest world.BlockPos
		found := false
		for _, a := range steps[0].Actions {
			if p, ok := a.Action.(action.PlaceBlock); ok && p.Item == "minecraft:chest" {
				found = true
			}
		}
		require.True(t, found, "the chest held was placed: %+v", steps[0].Actions)
		for _, ch := range srv.WorldChanges() {
			if ch.ToName == "minecraft:chest" {
				chest = ch.Pos
			}
		}
		items, ok := srv.ContainerItems(chest)
		require.True(t, ok, "the server has the chest at %v", chest)
		stored := 0
		for _, it := range items {
			assert.Equal(t, "minecraft:cobblestone", it.Name)
			stored += it.Count
		}
		assert.Equal(t, 27*64, stored, "a chest holds 27 stacks")
		p := player(t, srv)
		assert.GreaterOrEqual(t, p.Count("minecraft:cobblestone"), 5*64+8, "the rest, and the 8 mined since")
		assert.Empty(t, srv.Refusals())
	})
}
