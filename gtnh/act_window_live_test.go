package gtnh_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/base"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// The Stone Age's windows live: the client against the test server, which
// plays by the shared rules (crafting by config/recipes.yaml, smelting by
// config/smelting.yaml), in a synctest bubble over in-memory connections.

const liveTick = 5 * time.Millisecond

// stoneAgeClient starts a test server with the inventory and a flat world
// (no trees, no ore) and joins it.
func stoneAgeClient(t *testing.T, inv ...fakeserver.Item) (*fakeserver.Server, *gtnh.Client) {
	t.Helper()
	srv, err := fakeserver.New(fakeserver.Options{Addr: fakeserver.MemoryAddr(), TickDuration: liveTick, Inventory: inv,
		Trees: []fakeserver.Tree{}, Blocks: []fakeserver.Block{}, Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv, joinLive(t, srv)
}

// joinLive joins the test server with a live client.
func joinLive(t *testing.T, srv *fakeserver.Server) *gtnh.Client {
	t.Helper()
	c, err := gtnh.New(gtnh.Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: liveTick,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	require.NoError(t, c.Open(context.Background()))
	gtnh.Eventually(t, "the inventory", func() bool { return c.State().Snapshot().Inventory.FreeSlots() < 36 })
	return c
}

// serverCount is how many of an item the server's player holds.
func serverCount(t *testing.T, srv *fakeserver.Server, name string) int {
	t.Helper()
	p, ok := srv.Player("Bot")
	require.True(t, ok)
	return p.Count(name)
}

// TestCraftOnTheTestServer: GTNH's first crafts, clicked live: planks and
// flint (shapeless) and the crafting table (flint over logs, shaped) in the
// inventory's 2×2 grid, then, at the placed table, sticks, the wooden
// pickaxe and the furnace (cobblestone, flint, cobblestone) in its 3×3
// grid. The server computes each result from the recipe set and takes the
// ingredients; the client, which predicts the result as the vanilla client
// does (the server never sends it), ends with the server's inventory, and
// no click or placement was refused.
func TestCraftOnTheTestServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t,
			fakeserver.Item{Slot: 36, Name: "minecraft:log", Count: 6},
			fakeserver.Item{Slot: 37, Name: "minecraft:gravel", Count: 15},
			fakeserver.Item{Slot: 38, Name: "minecraft:cobblestone", Count: 6})
		ctx := context.Background()
		do := func(a action.Action) ipc.Result {
			t.Helper()
			res := c.Execute(ctx, a)
			require.Equal(t, ipc.OK, res.Code, "%s: %s", a.Kind(), res.Error)
			return res
		}
		do(action.Craft{Item: "minecraft:planks", Count: 3})
		do(action.Craft{Item: "minecraft:flint", Count: 5})
		do(action.Craft{Item: "minecraft:crafting_table", Count: 1})
		table := world.Pos(10, 64, 8)
		do(action.PlaceBlock{Pos: table, Item: "minecraft:crafting_table", Face: "up"})
		name, _ := srv.BlockAt(table.X, table.Y, table.Z)
		require.Equal(t, "minecraft:crafting_table", name)
		do(action.Craft{Item: "minecraft:stick", Count: 1, Table: &table})
		do(action.Craft{Item: "minecraft:wooden_pickaxe", Count: 1, Table: &table})
		do(action.Craft{Item: "minecraft:furnace", Count: 1, Table: &table})

		want := map[string]int{"minecraft:log": 1, "minecraft:planks": 1, "minecraft:stick": 0, "minecraft:gravel": 0,
			"minecraft:flint": 0, "minecraft:cobblestone": 0, "minecraft:wooden_pickaxe": 1, "minecraft:furnace": 1, "minecraft:crafting_table": 0}
		inv := c.State().Snapshot().Inventory
		for item, n := range want {
			assert.Equal(t, n, serverCount(t, srv, item), "the server's %s", item)
			assert.Equal(t, n, inv.CountID(item), "the client's %s", item)
		}
		var crafted []string
		for _, cr := range srv.Crafts() {
			crafted = append(crafted, cr.String())
		}
		assert.Equal(t, []string{"2 minecraft:planks", "2 minecraft:planks", "2 minecraft:planks",
			"1 minecraft:flint", "1 minecraft:flint", "1 minecraft:flint", "1 minecraft:flint", "1 minecraft:flint",
			"1 minecraft:crafting_table", "2 minecraft:stick", "1 minecraft:wooden_pickaxe", "1 minecraft:furnace"}, crafted)
		assert.Empty(t, srv.Refusals())
		assert.Empty(t, srv.Kicks())
	})
}

// TestServerCraftsOnlyTheRecipesPattern: the server matches the grid
// against the recipe's pattern: logs over flint is no crafting table, so
// taking a result the client claims is refused and the grid stays.
func TestServerCraftsOnlyTheRecipesPattern(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t,
			fakeserver.Item{Slot: 9, Name: "minecraft:log", Count: 2},
			fakeserver.Item{Slot: 10, Name: "minecraft:flint", Count: 2})
		ids := srv.IDs()
		logID, _ := ids.ItemID("minecraft:log")
		flintID, _ := ids.ItemID("minecraft:flint")
		tableID, _ := ids.ItemID("minecraft:crafting_table")
		conn := gtnh.RawClicker(c)
		// Logs in the top row, flint in the bottom row: upside down.
		for _, step := range []struct {
			slot    int
			button  int8
			clicked proto17.Slot
		}{
			{9, 0, proto17.Slot{ID: int16(logID), Count: 2}}, {1, 1, proto17.Slot{}}, {2, 1, proto17.Slot{}},
			{10, 0, proto17.Slot{ID: int16(flintID), Count: 2}}, {3, 1, proto17.Slot{}}, {4, 1, proto17.Slot{}},
		} {
			require.True(t, conn(0, step.slot, step.button, step.clicked), "slot %d", step.slot)
		}
		assert.Empty(t, srv.Refusals(), "putting items in the grid is fine")
		assert.False(t, conn(0, 0, 0, proto17.Slot{ID: int16(tableID), Count: 1}), "no table from logs over flint")
		require.Len(t, srv.Refusals(), 1)
		assert.Equal(t, "click", srv.Refusals()[0].Kind)
		assert.Zero(t, serverCount(t, srv, "minecraft:crafting_table"))
		assert.Equal(t, 2, serverCount(t, srv, "minecraft:log"), "the grid still holds the logs")
	})
}

// TestSmeltOnTheTestServer: the smelt skill live (GTNH's "Basic
// Processing"): the furnace from the inventory is placed, opened, given 3
// cobblestone and 2 planks; the server's furnace burns the planks (300
// ticks each), cooks each cobblestone for 200 of its ticks and lights up
// while it burns; the client waits by the window's progress and takes the
// 3 stone. Every action of the skill is accepted by the server.
func TestSmeltOnTheTestServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t,
			fakeserver.Item{Slot: 36, Name: "minecraft:furnace", Count: 1},
			fakeserver.Item{Slot: 37, Name: "minecraft:cobblestone", Count: 3},
			fakeserver.Item{Slot: 38, Name: "minecraft:planks", Count: 2})
		ctx := context.Background()
		acts, err := base.Smelt{}.SuggestActions(c.State().Snapshot(), skills.Params{"item": "minecraft:stone", "count": 3})
		require.NoError(t, err)
		start := time.Now()
		var furnacePos world.BlockPos
		for _, a := range acts {
			if p, ok := a.(action.PlaceBlock); ok {
				furnacePos = p.Pos
			}
			if w, ok := a.(action.Wait); ok {
				// Half the cooking time: the client must wait for the rest
				// by the furnace's progress before it takes the output.
				a = action.Wait{Ticks: w.Ticks / 2}
			}
			res := c.Execute(ctx, a)
			require.Equal(t, ipc.OK, res.Code, "%s: %s", a.Kind(), res.Error)
		}
		elapsed := int(time.Since(start) / liveTick)
		assert.GreaterOrEqual(t, elapsed, 3*200, "three items of 200 server ticks each")
		assert.Equal(t, 3, serverCount(t, srv, "minecraft:stone"))
		assert.Equal(t, 3, c.State().Snapshot().Inventory.CountID("minecraft:stone"))
		assert.Zero(t, serverCount(t, srv, "minecraft:cobblestone"))
		assert.Zero(t, serverCount(t, srv, "minecraft:planks"))
		items, cook, _, itemBurn, ok := srv.FurnaceState(furnacePos)
		require.True(t, ok)
		assert.Empty(t, items, "the furnace gave everything and burnt both planks")
		assert.Zero(t, cook)
		assert.Equal(t, 300, itemBurn, "planks burn 300 ticks")
		var lit bool
		for _, ch := range srv.WorldChanges() {
			lit = lit || ch.Pos == furnacePos && ch.ToName == "minecraft:lit_furnace"
		}
		assert.True(t, lit, "the furnace lit up while burning")
		assert.Len(t, srv.Smelted(), 3)
		assert.Empty(t, srv.Refusals())
	})
}

// TestFurnaceGoingOutEndsTheWait: with fuel for one and a half items, the
// furnace goes out after 300 ticks having made one stone; the client sees
// it go out by the window's burn time and stops waiting for the rest then,
// not after the 600 ticks three items would take.
func TestFurnaceGoingOutEndsTheWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t,
			fakeserver.Item{Slot: 36, Name: "minecraft:furnace", Count: 1},
			fakeserver.Item{Slot: 37, Name: "minecraft:cobblestone", Count: 3},
			fakeserver.Item{Slot: 38, Name: "minecraft:planks", Count: 1})
		ctx := context.Background()
		at := world.Pos(10, 64, 8)
		for _, a := range []action.Action{
			action.PlaceBlock{Pos: at, Item: "minecraft:furnace", Face: "up"},
			action.OpenContainer{Pos: at},
			action.TransferItems{Pos: at, Item: "minecraft:cobblestone", Count: 3, Direction: action.Deposit, Slot: "input"},
			action.TransferItems{Pos: at, Item: "minecraft:planks", Count: 1, Direction: action.Deposit, Slot: "fuel"},
		} {
			res := c.Execute(ctx, a)
			require.Equal(t, ipc.OK, res.Code, "%s: %s", a.Kind(), res.Error)
		}
		start := time.Now()
		res := c.Execute(ctx, action.TransferItems{Pos: at, Item: "minecraft:stone", Count: 3, Direction: action.Withdraw, Slot: "output"})
		waited := int(time.Since(start) / liveTick)
		assert.Equal(t, ipc.Rejected, res.Code, "only one stone was made")
		assert.Contains(t, res.Error, "only 1")
		assert.Less(t, waited, 3*200, "the wait ended when the furnace went out")
		assert.GreaterOrEqual(t, waited, 300-20, "the plank burnt 300 ticks")
		items, _, burn, _, ok := srv.FurnaceState(at)
		require.True(t, ok)
		assert.Zero(t, burn)
		assert.Equal(t, 2, items["input"].Count)
		assert.Equal(t, 1, items["output"].Count)
	})
}

// TestFurnaceOutputAfterItsInput: the server sends the furnace's output
// slot 40 ticks after its input slot (each slot is its own packet, and a
// client can read them apart), and the fuel runs out with the last item.
// After the skill's full cooking wait the client sees the input empty, the
// fire out and two stone in the output: it waits for the third instead of
// failing the withdrawal.
func TestFurnaceOutputAfterItsInput(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, err := fakeserver.New(fakeserver.Options{Addr: fakeserver.MemoryAddr(), TickDuration: liveTick,
			FurnaceOutputLag: 40,
			Inventory: []fakeserver.Item{
				{Slot: 36, Name: "minecraft:furnace", Count: 1},
				{Slot: 37, Name: "minecraft:cobblestone", Count: 3},
				{Slot: 38, Name: "minecraft:planks", Count: 2}},
			Trees: []fakeserver.Tree{}, Blocks: []fakeserver.Block{}, Logf: t.Logf})
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		c := joinLive(t, srv)
		ctx := context.Background()
		at := world.Pos(10, 64, 8)
		for _, a := range []action.Action{
			action.PlaceBlock{Pos: at, Item: "minecraft:furnace", Face: "up"},
			action.OpenContainer{Pos: at},
			action.TransferItems{Pos: at, Item: "minecraft:cobblestone", Count: 3, Direction: action.Deposit, Slot: "input"},
			action.TransferItems{Pos: at, Item: "minecraft:planks", Count: 2, Direction: action.Deposit, Slot: "fuel"},
			action.Wait{Ticks: 3*200 + 10},
		} {
			res := c.Execute(ctx, a)
			require.Equal(t, ipc.OK, res.Code, "%s: %s", a.Kind(), res.Error)
		}
		require.Len(t, srv.Smelted(), 3, "the server made the three stone")
		res := c.Execute(ctx, action.TransferItems{Pos: at, Item: "minecraft:stone", Count: 3, Direction: action.Withdraw, Slot: "output"})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, 3, serverCount(t, srv, "minecraft:stone"))
		assert.Equal(t, 3, c.State().Snapshot().Inventory.CountID("minecraft:stone"))
		assert.Empty(t, srv.Refusals())
	})
}

// TestStationCraftElsewhereIsRefusedClearly: a recipe made at a Tinkers'
// station (config/recipes.yaml's station) asked at a block that is not that
// station is refused, naming the station and the block, and the server saw
// no click.
func TestStationCraftElsewhereIsRefusedClearly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t, fakeserver.Item{Slot: 36, Name: "minecraft:stick", Count: 2})
		table := world.Pos(10, 64, 8)
		res := c.Execute(context.Background(), action.Craft{Item: "TConstruct:binding", Count: 1, Table: &table})
		require.Equal(t, ipc.InvalidParams, res.Code, res.Error)
		assert.Contains(t, res.Error, "TConstruct:binding is made at TConstruct:ToolStationBlock:1, and (10, 64, 8) holds air")
		assert.Empty(t, srv.Crafts())
		assert.Equal(t, 2, serverCount(t, srv, "minecraft:stick"))
	})
}
