package gtnh

import (
	"context"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// TestWalkingOverPartialBlocks walks the live client over a carpet, onto a
// bottom slab, up a block, over a floating slab and up again, against the
// fake server's collision check (the same shapes): it stands at each
// block's real height and the server never resets it; a line of fences
// next to the path is not jumped.
func TestWalkingOverPartialBlocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		blocks := []fakeserver.Block{
			{X: 9, Y: 64, Z: 8, Name: "minecraft:carpet"},
			{X: 10, Y: 64, Z: 8, Name: "minecraft:stone_slab"},
			{X: 11, Y: 64, Z: 8, Name: "minecraft:cobblestone"},
			{X: 12, Y: 65, Z: 8, Name: "minecraft:stone_slab"},
			{X: 13, Y: 64, Z: 8, Name: "minecraft:cobblestone"},
			{X: 13, Y: 65, Z: 8, Name: "minecraft:cobblestone"},
			{X: 7, Y: 64, Z: 6, Name: "minecraft:chest"},
			{X: 8, Y: 64, Z: 6, Name: "minecraft:chest"},
		}
		for z := 0; z < 16; z++ {
			if z != 8 {
				blocks = append(blocks, fakeserver.Block{X: 11, Y: 64, Z: z, Name: "minecraft:fence"})
			}
		}
		srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: 5 * time.Millisecond, Trees: []fakeserver.Tree{}, Blocks: blocks}))
		require.NoError(t, err)
		defer srv.Close()
		c, err := New(Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: 5 * time.Millisecond,
			Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
		require.NoError(t, err)
		defer c.Close()
		ctx := context.Background()
		require.NoError(t, c.Open(ctx))

		for _, step := range []struct {
			to    world.BlockPos
			feetY float64
		}{
			{world.Pos(9, 64, 8), 64.0625},
			{world.Pos(10, 64, 8), 64.5},
			{world.Pos(11, 65, 8), 65},
			{world.Pos(12, 65, 8), 65.5},
			{world.Pos(13, 66, 8), 66},
			{world.Pos(8, 64, 8), 64},
			{world.Pos(7, 65, 6), 64.875},
			{world.Pos(8, 65, 6), 64.875},
			{world.Pos(8, 64, 8), 64},
		} {
			res := c.Execute(ctx, action.MoveTo{Pos: step.to})
			require.Equal(t, ipc.OK, res.Code, "to %v: %s", step.to, res.Error)
			snap := c.State().Snapshot()
			assert.Equal(t, step.to, path.FeetCell(snapshotGrid(snap, map[[2]int]bool{{0, 0}: true}), ifloor(snap.Player.Pos.X), snap.Player.Pos.Y, ifloor(snap.Player.Pos.Z)))
			assert.InDelta(t, step.feetY, snap.Player.Pos.Y, 1e-6, "standing at %v", step.to)
		}
		assert.Empty(t, srv.Corrections(), "no move was reset")
		assert.Zero(t, c.Stats().Corrections)

		// Around the fence line there is no way but through the one gap.
		res := c.Execute(ctx, action.MoveTo{Pos: world.Pos(12, 64, 2)})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Empty(t, srv.Corrections())
		require.NoError(t, c.Close())
	})
}

// shapeCells is a small world of named blocks for the body: stone below
// y 64, the given blocks, air elsewhere.
func shapeCells(blocks map[world.BlockPos]world.Block) cells {
	at := func(x, y, z int) world.Block {
		if b, ok := blocks[world.Pos(x, y, z)]; ok {
			return b
		}
		if y < 64 {
			return world.NewBlock("minecraft:stone", 0)
		}
		return world.Air
	}
	return cells{
		cell: func(x, y, z int) path.Cell { return path.ClassifyByTags(at(x, y, z)) },
		shape: func(x, y, z int) rules.Shape {
			return rules.ShapeOf(at(x, y, z), func(dy int) world.Block { return at(x, y+dy, z) })
		},
	}
}

// TestBodyLandsOnPartialBlocks: a falling body stops on the real top of a
// slab, a carpet or a fence, not on the cell above.
func TestBodyLandsOnPartialBlocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, c := range []struct {
			block world.Block
			want  float64
		}{
			{world.NewBlock("minecraft:stone_slab", 0), 64.5},
			{world.NewBlock("minecraft:stone_slab", 8), 65},
			{world.NewBlock("minecraft:carpet", 0), 64.0625},
			{world.NewBlock("minecraft:snow_layer", 3), 64.375},
			{world.NewBlock("minecraft:fence", 0), 65.5},
			{world.NewBlock("minecraft:tallgrass", 1), 64},
		} {
			g := shapeCells(map[world.BlockPos]world.Block{world.Pos(0, 64, 0): c.block})
			m := motion{x: 0.5, y: 68, z: 0.5}
			for i := 0; i < 100 && !m.onGround; i++ {
				m.step(g)
			}
			assert.True(t, m.onGround, c.block.ID)
			assert.InDelta(t, c.want, m.y, 1e-9, "%s:%d", c.block.ID, c.block.Meta)
			assert.True(t, supported(g, m.x, m.y, m.z))
		}
	})
}

// TestBodyStepsUpHalfABlock: walking into a bottom slab lifts the body onto
// it without a jump (Entity.stepHeight 0.5); a full block stops it.
func TestBodyStepsUpHalfABlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := shapeCells(map[world.BlockPos]world.Block{
			world.Pos(1, 64, 0): world.NewBlock("minecraft:stone_slab", 0),
			world.Pos(1, 64, 2): world.NewBlock("minecraft:stone", 0),
		})
		m := motion{x: 0.5, y: 64, z: 0.5, onGround: true}
		m.moveAxis(g, 0.3, 0)
		assert.InDelta(t, 0.8, m.x, 1e-9)
		assert.InDelta(t, 64.5, m.y, 1e-9, "stepped onto the slab")
		m = motion{x: 0.5, y: 64, z: 2.5, onGround: true}
		m.moveAxis(g, 0.3, 0)
		assert.Equal(t, 0.5, m.x, "a full block is too high to step onto")
		assert.Equal(t, 64.0, m.y)
		m = motion{x: 0.5, y: 64.2, z: 0.5}
		m.moveAxis(g, 0.3, 0)
		assert.Equal(t, 0.5, m.x, "no step up in the air")
	})
}

// TestPlaceOnAFence: a fence (or a slab) has faces to place against, though
// it is no full block.
func TestPlaceOnAFence(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: 5 * time.Millisecond, Trees: []fakeserver.Tree{},
			Blocks:    []fakeserver.Block{{X: 10, Y: 64, Z: 8, Name: "minecraft:fence"}, {X: 8, Y: 64, Z: 10, Name: "minecraft:stone_slab"}},
			Inventory: []fakeserver.Item{{Slot: 36, Name: "minecraft:dirt", Count: 4}}}))
		require.NoError(t, err)
		defer srv.Close()
		c, err := New(Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: 5 * time.Millisecond,
			Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
		require.NoError(t, err)
		defer c.Close()
		ctx := context.Background()
		require.NoError(t, c.Open(ctx))
		for _, p := range []world.BlockPos{world.Pos(10, 65, 8), world.Pos(8, 65, 10)} {
			res := c.Execute(ctx, action.PlaceBlock{Pos: p, Item: "minecraft:dirt", Face: "auto"})
			require.Equal(t, ipc.OK, res.Code, "%v: %s", p, res.Error)
			assert.Equal(t, "minecraft:dirt", c.State().Snapshot().BlockAt(p).ID)
		}
		require.NoError(t, c.Close())
	})
}

// TestBreakWithoutHarvestSaysSo: a block the held tool cannot harvest
// breaks (slowly) with nothing to collect, and the result says so. A
// vanilla iron pickaxe, which digs nothing in GTNH, is refused before
// anything is sent, and the block stands.
func TestBreakWithoutHarvestSaysSo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: 2 * time.Millisecond, Trees: []fakeserver.Tree{},
			Blocks:    []fakeserver.Block{{X: 10, Y: 64, Z: 8, Name: "minecraft:iron_ore"}, {X: 10, Y: 65, Z: 8, Name: "minecraft:iron_ore"}},
			Inventory: []fakeserver.Item{{Slot: 36, Name: "minecraft:wooden_pickaxe", Count: 1}, {Slot: 37, Name: "minecraft:iron_pickaxe", Count: 1}}}))
		require.NoError(t, err)
		defer srv.Close()
		c, err := New(Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: 2 * time.Millisecond, NoCollectDrops: true,
			Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
		require.NoError(t, err)
		defer c.Close()
		ctx := context.Background()
		require.NoError(t, c.Open(ctx))
		require.Equal(t, ipc.OK, c.Execute(ctx, action.Equip{Item: "minecraft:wooden_pickaxe"}).Code)
		res := c.Execute(ctx, action.BreakBlock{Pos: world.Pos(10, 64, 8)})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, false, res.Details["harvested"], "iron ore needs a pickaxe of GTNH's level 2")
		require.Equal(t, ipc.OK, c.Execute(ctx, action.Equip{Item: "minecraft:iron_pickaxe"}).Code)
		digs := len(srv.Digs())
		res = c.Execute(ctx, action.BreakBlock{Pos: world.Pos(10, 65, 8)})
		require.Equal(t, ipc.Rejected, res.Code, res.Error)
		assert.Contains(t, res.Error, "the held minecraft:iron_pickaxe digs nothing in GTNH")
		assert.Len(t, srv.Digs(), digs, "no dig was sent")
		assert.Equal(t, "minecraft:iron_ore", c.State().Snapshot().BlockAt(world.Pos(10, 65, 8)).ID)
		require.NoError(t, c.Close())
	})
}

// TestBodyStepsOnlyHalfABlock: a bed (0.5625 high) is more than
// Entity.stepHeight and is not walked onto.
func TestBodyStepsOnlyHalfABlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := shapeCells(map[world.BlockPos]world.Block{world.Pos(1, 64, 0): world.NewBlock("minecraft:bed", 0)})
		m := motion{x: 0.5, y: 64, z: 0.5, onGround: true}
		m.moveAxis(g, 0.3, 0)
		assert.Equal(t, 0.5, m.x)
		assert.Equal(t, 64.0, m.y)
	})
}

// TestStepUpNeedsHeadRoomWhereTheBodyIs: Entity.moveEntity lifts the body
// by stepHeight before moving it across, so a bar over the head where the
// body stands (a closed fence gate, 0.2 above it) stops the step even when
// the slab ahead has room above it.
func TestStepUpNeedsHeadRoomWhereTheBodyIs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := shapeCells(map[world.BlockPos]world.Block{
			world.Pos(0, 66, 0): world.NewBlock("minecraft:fence_gate", 1), // a bar from x 0.375 to 0.625, from y 66
			world.Pos(1, 64, 0): world.NewBlock("minecraft:stone_slab", 0),
		})
		m := motion{x: 0.7, y: 64, z: 0.5, onGround: true}
		require.False(t, collides(g, m.x, m.y, m.z), "the body fits under the bar")
		require.False(t, collides(g, 1.0, 64.5, 0.5), "and on the slab")
		m.moveAxis(g, 0.3, 0)
		assert.Equal(t, 0.7, m.x, "no step up into the bar")
		assert.Equal(t, 64.0, m.y)
	})
}

// TestSlabsAndCarpetsAreWalkedOnto: a route onto a bottom slab or a carpet
// in the next column is a walk (the step up), never a jump.
func TestSlabsAndCarpetsAreWalkedOnto(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, b := range []world.Block{world.NewBlock("minecraft:stone_slab", 0), world.NewBlock("minecraft:carpet", 0)} {
			g := shapeCells(map[world.BlockPos]world.Block{world.Pos(1, 64, 0): b})
			top := 64 + rules.ShapeOf(b, nil).Top()
			m := motion{x: 0.5, y: 64, z: 0.5, onGround: true, route: []waypoint{{x: 1.5, y: top, z: 0.5, move: path.MoveWalk}}}
			m.best = math.Inf(1)
			for i := 0; i < 40 && len(m.route) > 0; i++ {
				m.step(g)
				require.True(t, m.onGround, "%s: tick %d left the ground", b.ID, i)
			}
			assert.Empty(t, m.route, b.ID)
			assert.InDelta(t, top, m.y, 1e-9, b.ID)
		}
	})
}

// TestSwimmingUpIsReachedAtTheTop: a waypoint straight above in water is
// reached when the body is there, not as soon as it is under it.
func TestSwimmingUpIsReachedAtTheTop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		water := world.NewBlock("minecraft:water", 0)
		g := shapeCells(map[world.BlockPos]world.Block{world.Pos(0, 64, 0): water, world.Pos(0, 65, 0): water, world.Pos(0, 66, 0): water})
		m := motion{x: 0.5, y: 64, z: 0.5, route: []waypoint{{x: 0.5, y: 66, z: 0.5, move: path.MoveSwimUp}}}
		m.best = math.Inf(1)
		m.step(g)
		require.Len(t, m.route, 1, "still two blocks below the waypoint")
		for i := 0; i < 40 && len(m.route) > 0; i++ {
			m.step(g)
		}
		assert.Empty(t, m.route)
		assert.Greater(t, m.y, 65.4)
	})
}

// TestWaypointHeights: route waypoints stand at the real floor of a slab or
// a carpet cell, so that a slab to a carpet on the block beside it is a
// jump (more than a step up), and at the cell's bottom elsewhere.
func TestWaypointHeights(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		blocks := world.NewSparseBlocks().
			SetID(world.Pos(0, 64, 0), "minecraft:stone_slab", 0).
			SetID(world.Pos(1, 64, 0), "minecraft:stone", 0).
			SetID(world.Pos(1, 65, 0), "minecraft:carpet", 0).
			SetID(world.Pos(2, 64, 0), "minecraft:chest", 0)
		standY := snapshotStandY(&world.Snapshot{Blocks: blocks})
		assert.Equal(t, 64.5, standY(world.Pos(0, 64, 0)))
		assert.Equal(t, 65.0625, standY(world.Pos(1, 65, 0)))
		assert.Equal(t, 65.0, standY(world.Pos(2, 65, 0)), "over a chest: the cell's bottom")
		assert.Equal(t, 64.0, standY(world.Pos(3, 64, 0)))

		g := shapeCells(map[world.BlockPos]world.Block{
			world.Pos(0, 64, 0): world.NewBlock("minecraft:stone_slab", 0),
			world.Pos(1, 64, 0): world.NewBlock("minecraft:stone", 0),
			world.Pos(1, 65, 0): world.NewBlock("minecraft:carpet", 0),
		})
		m := motion{x: 0.5, y: 64.5, z: 0.5, onGround: true,
			route: route([]path.Step{{Pos: world.Pos(0, 64, 0), Move: path.MoveStart}, {Pos: world.Pos(1, 65, 0), Move: path.MoveJump}}, standY)}
		m.best = math.Inf(1)
		for i := 0; i < 60 && len(m.route) > 0; i++ {
			m.step(g)
		}
		assert.Empty(t, m.route, "onto the carpet")
		assert.False(t, m.stuck)
		assert.InDelta(t, 65.0625, m.y, 1e-9)
	})
}
