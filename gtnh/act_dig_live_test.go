package gtnh_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// digServer is the test server's flat world (grass at 63 over dirt and
// stone) with extra blocks, the player's feet at spawn.
func digServer(t *testing.T, spawn world.BlockPos, blocks []fakeserver.Block, inv ...fakeserver.Item) *fakeserver.Server {
	t.Helper()
	srv, err := fakeserver.New(fakeserver.Options{Addr: fakeserver.MemoryAddr(), TickDuration: liveTick, Inventory: inv,
		Spawn: [3]float64{float64(spawn.X) + 0.5, float64(spawn.Y), float64(spawn.Z) + 0.5},
		Trees: []fakeserver.Tree{}, Blocks: blocks, Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

// TestMoveOutOfAPitLive: the player stands at the bottom of a pit three
// blocks deep whose walls are stone it cannot break by hand; move_to a
// spot on the ground beside it pillars up live, one dirt block at the top
// of each jump, until one jump takes it onto the rim, and walks on. Each
// placement counts only when the server shows the block: the server holds
// two dirt blocks in the pit, its player has three of the five left, and
// it refused and corrected nothing.
func TestMoveOutOfAPitLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var blocks []fakeserver.Block
		for y := 61; y <= 63; y++ {
			blocks = append(blocks, fakeserver.Block{X: 8, Y: y, Z: 8, Name: "minecraft:air"})
			for dx := -1; dx <= 1; dx++ {
				for dz := -1; dz <= 1; dz++ {
					if dx != 0 || dz != 0 {
						blocks = append(blocks, fakeserver.Block{X: 8 + dx, Y: y, Z: 8 + dz, Name: "minecraft:stone"})
					}
				}
			}
		}
		srv := digServer(t, world.Pos(8, 61, 8), blocks, fakeserver.Item{Slot: 36, Name: "minecraft:dirt", Count: 5})
		c := joinLive(t, srv)
		goal := world.Pos(12, 64, 8)
		res := c.Execute(context.Background(), action.MoveTo{Pos: goal})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, 2, res.Details["placed"], "a pillar of two, then a jump onto the rim")
		assert.Equal(t, 0, res.Details["dug"])
		p, ok := srv.Player("Bot")
		require.True(t, ok)
		assert.Equal(t, goal, p.Pos.Block(), "the server has the player at the goal")
		for y := 61; y <= 62; y++ {
			name, _ := srv.BlockAt(8, y, 8)
			assert.Equal(t, "minecraft:dirt", name, "the pillar at y %d", y)
		}
		assert.Equal(t, 3, serverCount(t, srv, "minecraft:dirt"))
		assert.Empty(t, srv.Refusals(), "no placement or move refused or corrected")
	})
}

// pitWalls are a pit at (8, 61..63, 8) whose walls and floor (from
// y floor up) are of block wall.
func pitWalls(wall string, floor int) []fakeserver.Block {
	var blocks []fakeserver.Block
	for y := floor; y <= 60; y++ {
		for dx := -1; dx <= 1; dx++ {
			for dz := -1; dz <= 1; dz++ {
				blocks = append(blocks, fakeserver.Block{X: 8 + dx, Y: y, Z: 8 + dz, Name: wall})
			}
		}
	}
	for y := 61; y <= 63; y++ {
		blocks = append(blocks, fakeserver.Block{X: 8, Y: y, Z: 8, Name: "minecraft:air"})
		for dx := -1; dx <= 1; dx++ {
			for dz := -1; dz <= 1; dz++ {
				if dx != 0 || dz != 0 {
					blocks = append(blocks, fakeserver.Block{X: 8 + dx, Y: y, Z: 8 + dz, Name: wall})
				}
			}
		}
	}
	return blocks
}

// TestMoveOutOfAPitByHandLive: the same pit with nothing to pillar with
// and nothing that harvests stone: move_to breaks its way out by hand at
// the slow rate, every dig accepted by the server at its time.
func TestMoveOutOfAPitByHandLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := digServer(t, world.Pos(8, 61, 8), pitWalls("minecraft:stone", 61), fakeserver.Item{Slot: 36, Name: "minecraft:stick", Count: 1})
		c := joinLive(t, srv)
		res := c.Execute(context.Background(), action.MoveTo{Pos: world.Pos(12, 64, 8)})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, true, res.Details["by_hand"])
		assert.Positive(t, res.Details["dug"])
		assert.Empty(t, srv.Refusals(), "every dig by hand accepted at its time")
		require.Len(t, srv.Players(), 1)
		assert.Zero(t, srv.Players()[0].Count("minecraft:cobblestone"), "stone drops nothing to the hand")
	})
}

// TestMoveToKeepsItsKeepListLive: out of the stone pit with a wooden
// pickaxe and five dirt, told to keep the walls beside the pit's column,
// move_to pillars up live rather than cut a staircase through them, and
// the server still holds every one of them.
func TestMoveToKeepsItsKeepListLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var walls []world.BlockPos
		for y := 61; y <= 63; y++ {
			for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				walls = append(walls, world.Pos(8+d[0], y, 8+d[1]))
			}
		}
		srv := digServer(t, world.Pos(8, 61, 8), pitWalls("minecraft:stone", 61),
			fakeserver.Item{Slot: 36, Name: "minecraft:wooden_pickaxe", Count: 1}, fakeserver.Item{Slot: 37, Name: "minecraft:dirt", Count: 5})
		c := joinLive(t, srv)
		res := c.Execute(context.Background(), action.MoveTo{Pos: world.Pos(12, 64, 8), Keep: walls})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Positive(t, res.Details["placed"], "pillared up")
		for _, p := range walls {
			name, _ := srv.BlockAt(p.X, p.Y, p.Z)
			assert.Equal(t, "minecraft:stone", name, "%v kept", p)
		}
		assert.Empty(t, srv.Refusals())
	})
}

// TestMoveOutOfAnObsidianPitLive: walls and floor the hand would take
// 5,000 ticks a block to break: move_to fails saying what is missing, and the server
// saw no dig or placement.
func TestMoveOutOfAnObsidianPitLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := digServer(t, world.Pos(8, 61, 8), pitWalls("minecraft:obsidian", 58), fakeserver.Item{Slot: 36, Name: "minecraft:stick", Count: 1})
		c := joinLive(t, srv)
		res := c.Execute(context.Background(), action.MoveTo{Pos: world.Pos(12, 64, 8)})
		require.Equal(t, ipc.Unreachable, res.Code, "%s %v", res.Error, res.Details)
		assert.Contains(t, res.Error, "minecraft:obsidian needs a pickaxe of harvest level 5")
		assert.Contains(t, res.Error, "no dirt or cobblestone")
		assert.Empty(t, srv.Refusals())
	})
}

// TestDigDownToADeepPocketLive: a gravel pocket 16 blocks under open
// ground, reached with a wooden pickaxe: the live client's digging search
// is weighted as the simulator's (digroute.Weight), so it digs down
// instead of searching the whole loaded surface within the route's cost
// and running out of its nodes; every dig accepted by the server.
func TestDigDownToADeepPocketLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pocket := world.Pos(14, 47, 16)
		srv := digServer(t, world.Pos(8, 64, 8), []fakeserver.Block{{X: pocket.X, Y: pocket.Y, Z: pocket.Z, Name: "minecraft:gravel"}},
			fakeserver.Item{Slot: 36, Name: "minecraft:wooden_pickaxe", Count: 1})
		c := joinLive(t, srv)
		res := c.Execute(context.Background(), action.MoveTo{Pos: pocket, Radius: 3})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		name, _ := srv.BlockAt(pocket.X, pocket.Y, pocket.Z)
		assert.Equal(t, "minecraft:gravel", name, "the pocket itself is left to mine")
		assert.Empty(t, srv.Refusals())
	})
}

// TestTunnelToABuriedBlockLive: coal ore buried in the stone under a
// bedrock cover, no way down but digging beside the cover: move_to within
// 2 of it digs a shaft and a tunnel under the cover live with the wooden
// pickaxe, taken in hand for the stone (a stick is held at first; the
// dirt goes as fast by hand), every dig accepted by the server at its
// time; break_block then mines the ore and the coal is collected.
func TestTunnelToABuriedBlockLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ore := world.Pos(8, 56, 13)
		blocks := []fakeserver.Block{{X: ore.X, Y: ore.Y, Z: ore.Z, Name: "minecraft:coal_ore"}}
		for x := 4; x <= 12; x++ {
			for z := 10; z <= 16; z++ {
				blocks = append(blocks, fakeserver.Block{X: x, Y: 63, Z: z, Name: "minecraft:bedrock"})
			}
		}
		srv := digServer(t, world.Pos(8, 64, 8), blocks,
			fakeserver.Item{Slot: 36, Name: "minecraft:stick", Count: 1}, fakeserver.Item{Slot: 38, Name: "minecraft:wooden_pickaxe", Count: 1})
		c := joinLive(t, srv)
		res := c.Execute(context.Background(), action.MoveTo{Pos: ore, Radius: 2})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		dug, _ := res.Details["dug"].(int)
		assert.GreaterOrEqual(t, dug, 10, "down through the grass, dirt and stone and along")
		under := 0 // cells dug out under the cover: the tunnel
		for x := 4; x <= 12; x++ {
			for z := 10; z <= 16; z++ {
				for y := 54; y < 63; y++ {
					if name, _ := srv.BlockAt(x, y, z); name == "minecraft:air" {
						under++
					}
				}
			}
		}
		assert.GreaterOrEqual(t, under, 2, "a tunnel under the cover")
		p, ok := srv.Player("Bot")
		require.True(t, ok)
		assert.LessOrEqual(t, p.Pos.Block().DistSq(ore), 4, "the server has the player within 2 of the ore")
		accepted := 0
		for _, d := range srv.Digs() {
			assert.True(t, d.Accepted, "%s at %v: %s", d.Block, d.Pos, d.Reason)
			if d.Accepted {
				accepted++
			}
		}
		assert.Equal(t, dug, accepted, "every dig the move counted the server made")
		name, _ := srv.BlockAt(ore.X, ore.Y, ore.Z)
		assert.Equal(t, "minecraft:coal_ore", name, "the route leaves its goal standing")

		for _, d := range srv.Digs() {
			if d.Block == "minecraft:stone" {
				assert.Equal(t, "minecraft:wooden_pickaxe", d.Held, "stone at %v dug with the pickaxe", d.Pos)
			}
		}
		res = c.Execute(context.Background(), action.BreakBlock{Pos: ore})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Zero(t, serverCount(t, srv, "minecraft:coal"), "in GTNH coal ore needs a level-1 pickaxe: the wooden one gets nothing")
		assert.Equal(t, false, res.Details["harvested"])
		assert.Positive(t, serverCount(t, srv, "minecraft:cobblestone"), "the tunnel's stone collected")
		assert.Empty(t, srv.Refusals(), "no dig, placement or move refused or corrected")
	})
}

// TestLiveDigCountsOnlyWhatTheServerBreaks: a client set to finish its
// digs at half the vanilla time digs too early for the server, which
// refuses every finish and sends the block back: move_to counts none of
// those digs, tries again from where the player stands a bounded number of
// times and fails saying the server did not break the block; the
// client's world still shows it.
func TestLiveDigCountsOnlyWhatTheServerBreaks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := digServer(t, world.Pos(8, 64, 8), []fakeserver.Block{}, fakeserver.Item{Slot: 36, Name: "minecraft:wooden_pickaxe", Count: 1})
		c, err := gtnh.New(gtnh.Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: liveTick, BreakFactor: 0.5,
			Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		require.NoError(t, c.Open(context.Background()))
		gtnh.Eventually(t, "the inventory", func() bool { return c.State().Snapshot().Inventory.FreeSlots() < 36 })
		res := c.Execute(context.Background(), action.MoveTo{Pos: world.Pos(8, 56, 8), Radius: 2})
		require.Equal(t, ipc.Interrupted, res.Code, res.Error)
		assert.Contains(t, res.Error, "the server did not break minecraft:grass at (8, 63, 8)")
		digs := srv.Digs()
		require.NotEmpty(t, digs)
		for _, d := range digs {
			assert.False(t, d.Accepted, "%s at %v", d.Block, d.Pos)
		}
		assert.Equal(t, "minecraft:grass", c.State().Snapshot().BlockAt(world.Pos(8, 63, 8)).ID, "the client's world keeps the block")
		p, ok := srv.Player("Bot")
		require.True(t, ok)
		assert.Equal(t, world.Pos(8, 64, 8), p.Pos.Block())
	})
}

// TestLiveDigReplansAfterACorrection: the server puts the player back on
// the surface two blocks aside while it digs its shaft (a position
// correction): the route stops there, move_to plans again from where the
// server put the player and still reaches the buried ore, every dig
// accepted.
func TestLiveDigReplansAfterACorrection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ore := world.Pos(8, 56, 13)
		srv := digServer(t, world.Pos(8, 64, 13), []fakeserver.Block{{X: ore.X, Y: ore.Y, Z: ore.Z, Name: "minecraft:coal_ore"}},
			fakeserver.Item{Slot: 36, Name: "minecraft:wooden_pickaxe", Count: 1})
		c := joinLive(t, srv)
		done := make(chan ipc.Result, 1)
		go func() { done <- c.Execute(context.Background(), action.MoveTo{Pos: ore, Radius: 2}) }()
		accepted := func() int {
			n := 0
			for _, d := range srv.Digs() {
				if d.Accepted {
					n++
				}
			}
			return n
		}
		require.NoError(t, srv.WaitFor(context.Background(), func() bool { return accepted() >= 2 }))
		srv.Send(&proto17.PlayerPositionAndLook{X: 10.5, Y: 64 + proto17.EyeHeight, Z: 13.5, OnGround: true})
		res := <-done
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Positive(t, res.Details["replans"], "planned again after the correction")
		assert.Contains(t, res.Details["replanned_because"], "the server corrected the position")
		p, ok := srv.Player("Bot")
		require.True(t, ok)
		assert.LessOrEqual(t, p.Pos.Block().DistSq(ore), 4, "the server has the player within 2 of the ore")
		for _, d := range srv.Digs() {
			assert.True(t, d.Accepted, "%s at %v: %s", d.Block, d.Pos, d.Reason)
		}
		assert.Empty(t, srv.Refusals())
	})
}

// TestLiveDigReplansAroundABlockPutBack: the player at the bottom of an
// open shaft tunnels towards buried ore through stone and an air pocket
// on the way; while it digs its first blocks, the server fills the pocket
// with cobblestone (a block change the route did not expect: that step
// breaks nothing). Before stepping in the client sees the block in its way
// and plans again over the world the server shows, digs the cobblestone
// out and reaches the ore, every dig accepted.
func TestLiveDigReplansAroundABlockPutBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ore := world.Pos(8, 57, 15)
		pocket := world.Pos(8, 58, 11)
		blocks := []fakeserver.Block{{X: ore.X, Y: ore.Y, Z: ore.Z, Name: "minecraft:coal_ore"},
			{X: 8, Y: 57, Z: 11, Name: "minecraft:air"}, {X: pocket.X, Y: pocket.Y, Z: pocket.Z, Name: "minecraft:air"}}
		for y := 57; y <= 63; y++ {
			blocks = append(blocks, fakeserver.Block{X: 8, Y: y, Z: 8, Name: "minecraft:air"})
		}
		srv := digServer(t, world.Pos(8, 57, 8), blocks, fakeserver.Item{Slot: 36, Name: "minecraft:wooden_pickaxe", Count: 1})
		c := joinLive(t, srv)
		done := make(chan ipc.Result, 1)
		go func() { done <- c.Execute(context.Background(), action.MoveTo{Pos: ore, Radius: 1}) }()
		require.NoError(t, srv.WaitFor(context.Background(), func() bool { return len(srv.Digs()) >= 1 }))
		require.NoError(t, srv.SetBlocks(fakeserver.Block{X: pocket.X, Y: pocket.Y, Z: pocket.Z, Name: "minecraft:cobblestone"}))
		res := <-done
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Contains(t, res.Details["replanned_because"], fmt.Sprintf("minecraft:cobblestone at %v stands in the way", pocket))
		name, _ := srv.BlockAt(pocket.X, pocket.Y, pocket.Z)
		assert.Equal(t, "minecraft:air", name, "the cobblestone in the pocket dug out")
		p, ok := srv.Player("Bot")
		require.True(t, ok)
		assert.LessOrEqual(t, p.Pos.Block().DistSq(ore), 1)
		for _, d := range srv.Digs() {
			assert.True(t, d.Accepted, "%s at %v: %s", d.Block, d.Pos, d.Reason)
		}
		assert.Empty(t, srv.Refusals())
	})
}

// TestBridgeOverATrenchLive: a trench two blocks wide and nine deep cuts
// the loaded world in two; move_to across it bridges live, placing dirt
// against the face of the block beside each gap (the server shows each
// block before the step onto it), and walks on.
func TestBridgeOverATrenchLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var blocks []fakeserver.Block
		for z := -32; z < 48; z++ {
			for x := 9; x <= 10; x++ {
				for y := 55; y <= 63; y++ {
					blocks = append(blocks, fakeserver.Block{X: x, Y: y, Z: z, Name: "minecraft:air"})
				}
			}
		}
		srv := digServer(t, world.Pos(8, 64, 8), blocks, fakeserver.Item{Slot: 36, Name: "minecraft:dirt", Count: 5})
		c := joinLive(t, srv)
		goal := world.Pos(12, 64, 8)
		res := c.Execute(context.Background(), action.MoveTo{Pos: goal})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, 2, res.Details["placed"])
		p, ok := srv.Player("Bot")
		require.True(t, ok)
		assert.Equal(t, goal, p.Pos.Block())
		assert.Equal(t, 3, serverCount(t, srv, "minecraft:dirt"))
		assert.Empty(t, srv.Refusals())
	})
}

// pitBlocks is a pit at (8, 61..63, 8) in stone walls, as
// TestMoveOutOfAPitLive has it.
func pitBlocks() []fakeserver.Block {
	var blocks []fakeserver.Block
	for y := 61; y <= 63; y++ {
		blocks = append(blocks, fakeserver.Block{X: 8, Y: y, Z: 8, Name: "minecraft:air"})
		for dx := -1; dx <= 1; dx++ {
			for dz := -1; dz <= 1; dz++ {
				if dx != 0 || dz != 0 {
					blocks = append(blocks, fakeserver.Block{X: 8 + dx, Y: y, Z: 8 + dz, Name: "minecraft:stone"})
				}
			}
		}
	}
	return blocks
}

// TestPillarOffAFurnaceLive: the pit's floor is a furnace (the player's
// own, left where it smelted); pillaring up places the first dirt against
// the furnace's top face. The server uses a clicked furnace — opens its
// window and places nothing — unless the player sneaks, so the client
// crouches for each placement as a player holds shift.
func TestPillarOffAFurnaceLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		blocks := append(pitBlocks(), fakeserver.Block{X: 8, Y: 60, Z: 8, Name: "minecraft:furnace"})
		srv := digServer(t, world.Pos(8, 61, 8), blocks, fakeserver.Item{Slot: 36, Name: "minecraft:dirt", Count: 5})
		c := joinLive(t, srv)
		goal := world.Pos(12, 64, 8)
		res := c.Execute(context.Background(), action.MoveTo{Pos: goal})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, 2, res.Details["placed"])
		name, _ := srv.BlockAt(8, 61, 8)
		assert.Equal(t, "minecraft:dirt", name, "the first pillar block on the furnace")
		name, _ = srv.BlockAt(8, 60, 8)
		assert.Equal(t, "minecraft:furnace", name)
		p, ok := srv.Player("Bot")
		require.True(t, ok)
		assert.Equal(t, goal, p.Pos.Block())
		assert.Empty(t, srv.Refusals())
	})
}

// TestPitUnderGravelLive: the player stands in a hole two blocks deep
// whose roof is dirt with gravel on it. Breaking the roof would drop the
// gravel through the head room onto the feet (a falling block passes
// through players); the route out digs a staircase through the wall
// instead, the gravel stays where it is, and the server corrects nothing.
func TestPitUnderGravelLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		blocks := []fakeserver.Block{
			{X: 8, Y: 61, Z: 8, Name: "minecraft:air"}, {X: 8, Y: 62, Z: 8, Name: "minecraft:air"},
			{X: 8, Y: 63, Z: 8, Name: "minecraft:dirt"}, {X: 8, Y: 64, Z: 8, Name: "minecraft:gravel"},
		}
		srv := digServer(t, world.Pos(8, 61, 8), blocks, fakeserver.Item{Slot: 36, Name: "minecraft:wooden_pickaxe", Count: 1})
		c := joinLive(t, srv)
		goal := world.Pos(12, 64, 8)
		res := c.Execute(context.Background(), action.MoveTo{Pos: goal})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Empty(t, srv.Falls(), "nothing fell")
		name, _ := srv.BlockAt(8, 64, 8)
		assert.Equal(t, "minecraft:gravel", name)
		p, ok := srv.Player("Bot")
		require.True(t, ok)
		assert.Equal(t, goal, p.Pos.Block())
		assert.Empty(t, srv.Refusals())
	})
}
