package gtnh_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
)

// TestEatOnTheTestServer: a hungry player uses bread in the air; the
// server eats it over the food's use duration (hunger × 8 + 8: 32 ticks
// for bread, longer than an ordinary use is waited for), takes one and raises the food level, and
// the client waits for that and sees both. A full player eats nothing.
func TestEatOnTheTestServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, err := fakeserver.New(fakeserver.Options{Addr: fakeserver.MemoryAddr(), TickDuration: liveTick, Food: 10,
			Inventory: []fakeserver.Item{{Slot: 36, Name: "minecraft:bread", Count: 3}},
			Trees:     []fakeserver.Tree{}, Blocks: []fakeserver.Block{}, Logf: t.Logf})
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		c := joinLive(t, srv)
		before := c.State().Snapshot().Player.Food
		require.Equal(t, 10.0, before)

		res := c.Execute(context.Background(), action.UseItem{Item: "minecraft:bread"})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, true, res.Details["held_changed"], "the client waited for the bite")
		snap := c.State().Snapshot()
		assert.Equal(t, 13.0, snap.Player.Food, "bread gives 3")
		assert.Equal(t, 2, serverCount(t, srv, "minecraft:bread"))
		assert.Empty(t, srv.Refusals())
	})
}

// TestFullPlayerEatsNothing: with a full bar the server does not start
// eating (ItemFood.onItemRightClick: canEat(false)); the bread stays.
func TestFullPlayerEatsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t, fakeserver.Item{Slot: 36, Name: "minecraft:bread", Count: 3})
		res := c.Execute(context.Background(), action.UseItem{Item: "minecraft:bread"})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, false, res.Details["held_changed"])
		assert.Equal(t, 3, serverCount(t, srv, "minecraft:bread"))
		assert.Equal(t, 20.0, c.State().Snapshot().Player.Food)
	})
}
