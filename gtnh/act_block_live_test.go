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
