package main

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// TestCookBeforeEatingLive: hungry on the test server (food 5) with two
// raw beef, planks and a furnace in the inventory, the cook reflex places
// the furnace and smelts the beef through its window (the server cooks it
// by TileEntityFurnace's rules), then the eat reflex eats a cooked one:
// the server's food level rises by 8, not a raw beef's 3.
func TestCookBeforeEatingLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: steamTick, Food: 5, Inventory: []fakeserver.Item{
			{Slot: 36, Name: "minecraft:beef", Count: 2}, {Slot: 37, Name: "minecraft:planks", Count: 4}, {Slot: 38, Name: "minecraft:furnace", Count: 1}}}))
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		recs := runScript(t, srv, "- {skill: wait_for, params: {duration: 20}}\n", quietNights, 3)
		require.Len(t, recs, 3, "%+v", recs)
		require.NotNil(t, recs[0].Reflex)
		assert.Equal(t, "cook", recs[0].Reflex.Name)
		assert.Equal(t, loop.Success, recs[0].Verdict, recs[0].Error)
		require.NotNil(t, recs[1].Reflex)
		assert.Equal(t, "eat", recs[1].Reflex.Name)
		assert.Equal(t, 7.0, recs[1].After.Food, "5 + a cooked beef's 2 (GTNH)")
		p := player(t, srv)
		assert.Equal(t, 1, p.Count("minecraft:cooked_beef"), "one cooked beef left, on the server")
		assert.Zero(t, p.Count("minecraft:beef"))
	})
}
