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
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/base"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestBuildCokeOvenOnTheTestServer: build_structure's actions live, from
// 26 coke oven bricks in the inventory: every brick is placed where the
// blueprint says and accepted; the server forms the oven only when the
// last brick completes Railcraft's pattern and sends the bricks' tile
// packets again with their master, which is all the client learns: its
// world model then shows the formed coke oven, and the goal "build
// coke_oven" (anchored before the first brick) is met, not before.
func TestBuildCokeOvenOnTheTestServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t,
			fakeserver.Item{Slot: 36, Name: fakeserver.CokeOvenBlock, Count: 26, Damage: 7})
		tiers := rules.Default().Tiers
		goal, err := loop.ParseGoal("build coke_oven", tiers)
		require.NoError(t, err)
		goal = goal.Anchor(c.State().Snapshot())
		acts, err := base.BuildStructure{}.SuggestActions(c.State().Snapshot(), skills.Params{"name": "coke_oven"})
		require.NoError(t, err)
		var placed int
		for _, a := range acts {
			if _, ok := a.(action.PlaceBlock); ok {
				placed++
				if placed < 26 {
					assert.False(t, goal.Check(c.State().Snapshot(), tiers, false).Met, "formed after %d bricks", placed)
					assert.Empty(t, srv.FormedCokeOvens(), "formed after %d bricks", placed)
				}
			}
			res := c.Execute(context.Background(), a)
			require.Equal(t, ipc.OK, res.Code, "%s: %s", a.Kind(), res.Error)
		}
		require.Equal(t, 26, placed)
		formed := srv.FormedCokeOvens()
		require.Len(t, formed, 1)
		// The bricks' formed tile packets follow the last placement's
		// block change: let the client read what the server has sent.
		synctest.Wait()
		var oven *world.Machine
		for _, m := range c.State().Snapshot().Machines {
			if m.Kind == world.MachineCokeOven {
				oven = &m
			}
		}
		require.NotNil(t, oven, "the client saw the oven form")
		assert.True(t, oven.Formed)
		assert.Equal(t, formed[0], oven.Pos, "at its master brick")
		assert.True(t, goal.Check(c.State().Snapshot(), tiers, false).Met)
		assert.Zero(t, serverCount(t, srv, fakeserver.CokeOvenBlock))
		assert.Empty(t, srv.Refusals())

		// The formed oven opens at its master as a Railcraft coke oven.
		res := c.Execute(context.Background(), action.OpenContainer{Pos: oven.Pos})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, "railcraft_coke_oven", res.Details["container"])
	})
}

// TestNoOvenWithoutThePattern: 26 bricks that do not make Railcraft's
// pattern (the centre filled, one brick set aside) form nothing, and the
// client sees no oven.
func TestNoOvenWithoutThePattern(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t,
			fakeserver.Item{Slot: 36, Name: fakeserver.CokeOvenBlock, Count: 27, Damage: 7})
		acts, err := base.BuildStructure{}.SuggestActions(c.State().Snapshot(), skills.Params{"name": "coke_oven"})
		require.NoError(t, err)
		var centre world.BlockPos
		// Place the bottom layer and the centre cell above it, then the rest
		// but one brick: the centre is not air, so nothing forms.
		var bottom []action.PlaceBlock
		var rest []action.Action
		for _, a := range acts {
			if p, ok := a.(action.PlaceBlock); ok && len(bottom) < 9 {
				bottom = append(bottom, p)
			}
			rest = append(rest, a)
		}
		require.Len(t, bottom, 9)
		centre = bottom[4].Pos.Add(0, 1, 0)
		for _, a := range rest {
			if p, ok := a.(action.PlaceBlock); ok && p.Pos.Y > bottom[0].Pos.Y && centre != (world.BlockPos{}) {
				res := c.Execute(context.Background(), action.PlaceBlock{Pos: centre, Item: p.Item, Face: "up"})
				require.Equal(t, ipc.OK, res.Code, res.Error)
				centre = world.BlockPos{}
			}
			res := c.Execute(context.Background(), a)
			require.Equal(t, ipc.OK, res.Code, "%s: %s", a.Kind(), res.Error)
		}
		assert.Empty(t, srv.FormedCokeOvens(), "the centre is not air")
		for _, m := range c.State().Snapshot().Machines {
			assert.NotEqual(t, world.MachineCokeOven, m.Kind)
		}
		assert.Empty(t, srv.Refusals())
	})
}

// TestDropsByTheRulesOnTheTestServer: the test server's drops are the
// shared drop table's, given only when the held item harvests the block
// (config/drops.yaml, config/mining.yaml): a clay block gives 4 clay balls
// and gravel gives gravel (GTNH: never flint) by hand; stone broken by hand
// breaks, slowly, and drops nothing.
func TestDropsByTheRulesOnTheTestServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, err := fakeserver.New(fakeserver.Options{Addr: fakeserver.MemoryAddr(), TickDuration: liveTick,
			Inventory: []fakeserver.Item{{Slot: 9, Name: "minecraft:dirt", Count: 1}}, Trees: []fakeserver.Tree{},
			Blocks: []fakeserver.Block{{X: 10, Y: 64, Z: 8, Name: "minecraft:clay"}, {X: 10, Y: 64, Z: 9, Name: "minecraft:gravel"},
				{X: 10, Y: 64, Z: 10, Name: "minecraft:stone"}}})
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		c := joinLive(t, srv)
		for _, p := range []world.BlockPos{world.Pos(10, 64, 8), world.Pos(10, 64, 9), world.Pos(10, 64, 10)} {
			res := c.Execute(context.Background(), action.BreakBlock{Pos: p})
			require.Equal(t, ipc.OK, res.Code, "%v: %s", p, res.Error)
		}
		assert.Equal(t, 4, serverCount(t, srv, "minecraft:clay_ball"))
		assert.Equal(t, 1, serverCount(t, srv, "minecraft:gravel"))
		assert.Zero(t, serverCount(t, srv, "minecraft:flint"))
		assert.Zero(t, serverCount(t, srv, "minecraft:cobblestone"), "stone by hand drops nothing")
		assert.Empty(t, srv.DroppedItems())
		digs := srv.Digs()
		require.Len(t, digs, 3)
		assert.Equal(t, "minecraft:stone", digs[2].Block)
		assert.GreaterOrEqual(t, digs[2].Ticks, 105, "stone by hand: 1.5 × 100 ticks, of which 70 per cent at least")
		assert.Empty(t, srv.Refusals())
	})
}
