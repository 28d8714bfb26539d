package gtnh

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// steamAgeServer starts the fake server with its steam-age base, in
// NotEnoughIds or vanilla chunk format, and a client joined to it.
func steamAgeServer(t *testing.T, neid bool, mutate func(*fakeserver.Options)) (*fakeserver.Server, *Client) {
	t.Helper()
	o := fakeserver.Options{TickDuration: 5 * time.Millisecond,
		Inventory: []fakeserver.Item{{Slot: 36, Name: "minecraft:iron_axe", Count: 1}, {Slot: 37, Name: "minecraft:coal", Count: 32}}}
	if !neid {
		o.Mods = fakeserver.WithoutMod(fakeserver.DefaultMods(), "neid")
	}
	fakeserver.SteamAge(&o)
	if mutate != nil {
		mutate(&o)
	}
	srv, err := fakeserver.New(o)
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	c, err := New(Config{Address: srv.Addr(), Username: "Bot", Tick: 5 * time.Millisecond,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	require.NoError(t, c.Open(context.Background()))
	return srv, c
}

var formatsCases = []struct {
	name string
	neid bool
}{{"neid", true}, {"vanilla", false}}

// machine waits for the machine of a kind at a position in the world model.
func machine(t *testing.T, c *Client, kind string, pos world.BlockPos) world.Machine {
	t.Helper()
	var got world.Machine
	eventually(t, kind+" at "+pos.String(), func() bool {
		for _, m := range c.State().Snapshot().Machines {
			if m.Kind == kind && m.Pos == pos {
				got = m
				return true
			}
		}
		return false
	})
	return got
}

// TestMachinesAndOresFromTheWorld: the coke oven (from its bricks' RC
// messages, one machine at its master), the boiler (from GregTech's tile
// message) and the ores (GregTech's ORES) are in the world model as soon as
// the chunks and mod messages arrive, before any window is opened.
func TestMachinesAndOresFromTheWorld(t *testing.T) {
	for _, tc := range formatsCases {
		t.Run(tc.name, func(t *testing.T) {
			_, c := steamAgeServer(t, tc.neid, nil)
			oven := machine(t, c, world.MachineCokeOven, world.Pos(3, 64, 1))
			assert.True(t, oven.Formed)
			boiler := machine(t, c, world.MachineSteamBoiler, world.Pos(13, 64, 2))
			assert.True(t, boiler.Formed)
			var ovens int
			for _, m := range c.State().Snapshot().Machines {
				if m.Kind == world.MachineCokeOven {
					ovens++
				}
			}
			assert.Equal(t, 1, ovens, "one machine per oven, at its master, not one per brick")

			eventually(t, "the ores", func() bool {
				return len(c.State().Snapshot().NearestBlocks(64, 0, "ore:oreCopper")) == 3
			})
			snap := c.State().Snapshot()
			small := snap.NearestBlocks(64, 0, "ore:oreSmallCopper")
			require.Len(t, small, 1)
			assert.Equal(t, world.Pos(9, 54, 4), small[0].Pos)
			nether := snap.NearestBlocks(64, 0, "ore:oreNetherrackCopper")
			require.Len(t, nether, 1)
			assert.Equal(t, world.Pos(8, 55, 5), nether[0].Pos)
			assert.Equal(t, "gregtech:gt.blockores", nether[0].Block.ID)
			assert.Empty(t, c.Stats().Malformed)
		})
	}
}

// TestModWindows: open_container, transfer_items and close_container on a
// coke oven (FML OpenGui at the master, clicked on another brick), a
// GregTech boiler (a ModularUI window with the player's inventory first),
// an Iron Chest (FML OpenGui) and a vanilla chest (Open Window); every
// transfer changes the server's containers.
func TestModWindows(t *testing.T) {
	for _, tc := range formatsCases {
		t.Run(tc.name, func(t *testing.T) {
			srv, c := steamAgeServer(t, tc.neid, nil)
			ctx := context.Background()
			do := func(a action.Action) ipc.Result {
				t.Helper()
				r := c.Execute(ctx, a)
				require.Equal(t, ipc.OK, r.Code, "%T %+v: %s", a, a, r.Error)
				return r
			}
			master := world.Pos(3, 64, 1)
			do(action.MoveTo{Pos: world.Pos(3, 64, 4), Radius: 1})
			r := do(action.OpenContainer{Pos: world.Pos(3, 65, 2)})
			assert.Equal(t, "railcraft_coke_oven", r.Details["container"])
			do(action.TransferItems{Pos: world.Pos(3, 65, 2), Item: "minecraft:coal", Count: 10, Direction: action.Deposit, Slot: "input"})
			do(action.TransferItems{Pos: master, Item: "Railcraft:fuel.coke", Count: 12, Direction: action.Withdraw, Slot: "output"})
			do(action.CloseContainer{})
			items, ok := srv.ContainerItems(master)
			require.True(t, ok)
			assert.Equal(t, fakeserver.Item{Slot: 0, Name: "minecraft:coal", Count: 10}, items["input"], "the server's oven got the coal")
			assert.NotContains(t, items, "output", "the server's output slot was emptied")
			p := srv.Players()[0]
			assert.Equal(t, 12, p.Count("Railcraft:fuel.coke"))
			assert.Equal(t, 22, p.Count("minecraft:coal"))
			oven := c.State().Snapshot().Machines
			var seen world.Machine
			for _, m := range oven {
				if m.Pos == master {
					seen = m
				}
			}
			assert.Equal(t, 10, seen.Slot("input").Count, "the window's slots fill the oven's machine")
			assert.True(t, seen.Formed)

			boiler := world.Pos(13, 64, 2)
			do(action.MoveTo{Pos: world.Pos(13, 64, 4), Radius: 1})
			r = do(action.OpenContainer{Pos: boiler})
			assert.Equal(t, "gregtech_coal_boiler", r.Details["container"])
			do(action.TransferItems{Pos: boiler, Item: "minecraft:coal", Count: 6, Direction: action.Deposit, Slot: "fuel"})
			do(action.CloseContainer{})
			items, _ = srv.ContainerItems(boiler)
			assert.Equal(t, 6, items["fuel"].Count, "the coal reached the server's fuel slot (container slot 38)")
			assert.Equal(t, 16, srv.Players()[0].Count("minecraft:coal"))

			iron := world.Pos(6, 64, 12)
			do(action.MoveTo{Pos: world.Pos(6, 64, 10), Radius: 1})
			r = do(action.OpenContainer{Pos: iron})
			assert.Equal(t, "iron_chest_iron", r.Details["container"])
			do(action.TransferItems{Pos: iron, Item: "minecraft:coal", Count: 20, Direction: action.Withdraw})
			do(action.CloseContainer{})
			items, _ = srv.ContainerItems(iron)
			assert.Empty(t, items, "the chest was emptied on the server")

			chest := world.Pos(10, 64, 12)
			do(action.MoveTo{Pos: world.Pos(10, 64, 10), Radius: 1})
			do(action.OpenContainer{Pos: chest})
			do(action.TransferItems{Pos: chest, Item: "minecraft:coal", Count: 5, Direction: action.Deposit})
			do(action.CloseContainer{})
			items, _ = srv.ContainerItems(chest)
			assert.Equal(t, fakeserver.Item{Slot: 0, Name: "minecraft:coal", Count: 5}, items["0"])
			assert.Equal(t, 31, srv.Players()[0].Count("minecraft:coal"))
			assert.Empty(t, srv.Kicks())
			assert.Empty(t, c.Stats().Malformed)
		})
	}
}
