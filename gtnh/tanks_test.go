package gtnh

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// tankMaster is the master of the steam-age water tank (lowest corner 14,
// 64, 12).
var tankMaster = world.Pos(15, 64, 13)

// TestWaterTankFromTheWorld: the Railcraft water tank is one machine at its
// master, known from its blocks' RC tile data before any window opens,
// with the water its master reported and the tank's capacity.
func TestWaterTankFromTheWorld(t *testing.T) {
	for _, tc := range formatsCases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, c := steamAgeServer(t, tc.neid, nil)
				m := machine(t, c, world.MachineWaterTank, tankMaster)
				eventually(t, "the master's water", func() bool {
					m = machine(t, c, world.MachineWaterTank, tankMaster)
					return !m.ContentsUnknown
				})
				assert.True(t, m.Formed)
				assert.Equal(t, world.FluidTank{Fluid: "water", Amount: 20000, Capacity: 400000}, m.Fluid("water"))
				assert.Len(t, c.State().Snapshot().MachinesOfKind(world.MachineWaterTank, 64), 1, "one machine per tank, at its master")
				assert.Empty(t, c.Stats().Malformed)
			})
		})
	}
}

// TestWaterTankBucketsAndWindow: a water bucket used on any block of the
// tank goes in on the server; the client does not take it for granted (the
// server sends no tile data for it) but reads the new amount from the
// tank's window; opening the window with an empty bucket in hand does not
// fill the bucket from the tank (the hand is emptied first); an empty
// bucket used on the tank takes a bucket of water out.
func TestWaterTankBucketsAndWindow(t *testing.T) {
	for _, tc := range formatsCases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, c := steamAgeServer(t, tc.neid, func(o *fakeserver.Options) {
					o.Inventory = append(o.Inventory, fakeserver.Item{Slot: 38, Name: "minecraft:water_bucket", Count: 1},
						fakeserver.Item{Slot: 39, Name: "minecraft:bucket", Count: 1})
				})
				ctx := context.Background()
				do := func(a action.Action) ipc.Result {
					t.Helper()
					r := c.Execute(ctx, a)
					require.Equal(t, ipc.OK, r.Code, "%T %+v: %s", a, a, r.Error)
					return r
				}
				eventually(t, "the tank's water", func() bool {
					return machine(t, c, world.MachineWaterTank, tankMaster).Fluid("water").Amount == 20000
				})
				do(action.MoveTo{Pos: world.Pos(15, 64, 10), Radius: 1})
				wall := world.Pos(15, 65, 12)
				r := do(action.UseItem{Item: "minecraft:water_bucket", Target: &wall})
				assert.Equal(t, true, r.Details["held_changed"])
				water, ok := srv.TankWater(tankMaster)
				require.True(t, ok)
				assert.Equal(t, 21000, water, "the bucket went into the server's tank")
				assert.Equal(t, 20000, machine(t, c, world.MachineWaterTank, tankMaster).Fluid("water").Amount,
					"not seen yet: Railcraft sends no tile data for it")

				// Holding an empty bucket (two now), open the window.
				do(action.Equip{Item: "minecraft:bucket"})
				r = do(action.OpenContainer{Pos: tankMaster})
				assert.Equal(t, "railcraft_tank", r.Details["container"])
				water, _ = srv.TankWater(tankMaster)
				assert.Equal(t, 21000, water, "opening did not fill a bucket from the tank")
				assert.Equal(t, world.FluidTank{Fluid: "water", Amount: 21000, Capacity: 400000},
					machine(t, c, world.MachineWaterTank, tankMaster).Fluid("water"), "read by the time open_container returns")
				do(action.CloseContainer{})
				assert.Equal(t, 21000, machine(t, c, world.MachineWaterTank, tankMaster).Fluid("water").Amount, "kept after closing")

				r = do(action.UseItem{Item: "minecraft:bucket", Target: &tankMaster})
				assert.Equal(t, true, r.Details["held_changed"])
				water, _ = srv.TankWater(tankMaster)
				assert.Equal(t, 20000, water, "an empty bucket takes a bucket's worth")
				eventually(t, "the filled bucket", func() bool {
					return c.State().Snapshot().Inventory.Count(world.MustItem("minecraft:water_bucket")) == 1
				})
				assert.Empty(t, srv.Kicks())
				assert.Empty(t, c.Stats().Malformed)
			})
		})
	}
}

// TestCokeOvenCreosoteInWindow: the coke oven's window sends its creosote
// amount (RC GUI_INTEGER 1), which fills the oven's creosote tank in the
// world model.
func TestCokeOvenCreosoteInWindow(t *testing.T) {
	for _, tc := range formatsCases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, c := steamAgeServer(t, tc.neid, func(o *fakeserver.Options) { o.CokeOvens[0].Creosote = 12000 })
				ctx := context.Background()
				master := world.Pos(3, 64, 1)
				assert.Empty(t, machine(t, c, world.MachineCokeOven, master).Fluids, "not known before the window")
				for _, a := range []action.Action{action.MoveTo{Pos: world.Pos(3, 64, 4), Radius: 1}, action.OpenContainer{Pos: master}} {
					r := c.Execute(ctx, a)
					require.Equal(t, ipc.OK, r.Code, r.Error)
				}
				assert.Equal(t, world.FluidTank{Fluid: "creosote", Amount: 12000, Capacity: 64000},
					machine(t, c, world.MachineCokeOven, master).Fluid("creosote"), "read by the time open_container returns")
				require.Equal(t, ipc.OK, c.Execute(ctx, action.CloseContainer{}).Code)
				assert.Equal(t, 12000, machine(t, c, world.MachineCokeOven, master).Fluid("creosote").Amount)
				assert.Empty(t, c.Stats().Malformed)
			})
		})
	}
}

func mustWaterTank(t *testing.T, tile modnet.RCTile) modnet.WaterTank {
	t.Helper()
	w, err := modnet.DecodeWaterTank(tile)
	require.NoError(t, err)
	return w
}

// tankClient is a client with no connection, for feeding RC messages.
func tankClient() (*Client, *session) {
	c := &Client{log: zerolog.Nop(), changed: make(chan struct{}), state: world.NewState(world.StateOptions{Rules: rules.Default()}), rules: rules.Default()}
	c.stats.Skipped, c.stats.Malformed = map[string]int64{}, map[string]int64{}
	return c, &session{mods: newModState()}
}

func tankAt(c *Client, pos world.BlockPos) (world.Machine, bool) {
	for _, m := range c.State().Snapshot().Machines {
		if m.Pos == pos {
			return m, m.Kind == world.MachineWaterTank
		}
	}
	return world.Machine{}, false
}

// TestWaterTankBlocks: a tank is at its master; known from another block
// only, its water is unknown; the master's data gives the water and only
// the master's data changes it; a master that says it is no longer formed
// removes the tank, and so does the last block pointing at a master whose
// data never came.
func TestWaterTankBlocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, s := tankClient()
		master := world.Pos(10, 70, -5)
		block := func(x, y, z, px, py, pz, water int) {
			t.Helper()
			tile, err := modnet.DecodeRCTile(fakeserver.RailcraftWaterTank(x, y, z, px, py, pz, water))
			require.NoError(t, err)
			c.rcWaterTank(s, tile, world.Pos(x, y, z))
		}
		// The top north-west corner (cell 1,3,1).
		block(9, 72, -6, 1, 3, 1, -1)
		m, ok := tankAt(c, master)
		require.True(t, ok, "the tank at its master")
		assert.True(t, m.Formed)
		assert.True(t, m.ContentsUnknown, "the master's water has not come")
		assert.Empty(t, m.Fluids)

		block(10, 70, -5, 2, 1, 2, 20000)
		m, _ = tankAt(c, master)
		assert.False(t, m.ContentsUnknown)
		assert.Equal(t, world.FluidTank{Fluid: "water", Amount: 20000, Capacity: 400000}, m.Fluid("water"))

		// A window read later; another block's data (its own empty tank)
		// changes nothing.
		c.state.Update(func(tx *world.Tx) {
			m, _ := tx.Machine(master)
			setFluid(&m, "water", 30000, 400000)
			tx.PutMachine(m)
		})
		block(11, 71, -4, 3, 2, 3, -1)
		m, _ = tankAt(c, master)
		assert.Equal(t, 30000, m.Fluid("water").Amount)
		assert.Len(t, c.State().Snapshot().Machines, 1)

		// The master's tank emptied (fluid -1): 0 mB.
		block(10, 70, -5, 2, 1, 2, -1)
		m, _ = tankAt(c, master)
		assert.Equal(t, world.FluidTank{Fluid: "water", Amount: 0, Capacity: 400000}, m.Fluid("water"))

		// The master falls apart.
		tile, err := modnet.DecodeRCTile([]byte{0, 0, 0, 0, 10, 0, 0, 0, 70, 0xff, 0xff, 0xff, 0xfb, 0, 14, 0, 0xff, 0xff})
		require.NoError(t, err)
		c.rcWaterTank(s, tile, master)
		_, ok = tankAt(c, master)
		assert.False(t, ok, "no tank once its master is not formed")

		// Another tank known from one block only: gone when that block says
		// it no longer belongs to it.
		other := world.Pos(30, 70, 30)
		block(31, 70, 30, 3, 1, 2, -1)
		_, ok = tankAt(c, other)
		require.True(t, ok)
		tile, err = modnet.DecodeRCTile([]byte{0, 0, 0, 0, 31, 0, 0, 0, 70, 0, 0, 0, 30, 0, 14, 0, 0xff, 0xff})
		require.NoError(t, err)
		c.rcWaterTank(s, tile, world.Pos(31, 70, 30))
		_, ok = tankAt(c, other)
		assert.False(t, ok)

		// A block that says the master is at m, while the block at m says it
		// is another cell (of a tank mastered elsewhere): no tank at m.
		m2 := world.Pos(50, 70, 50)
		block(51, 70, 50, 3, 1, 2, -1)
		block(50, 70, 50, 1, 1, 1, -1)
		_, ok = tankAt(c, m2)
		assert.False(t, ok, "the block at m is not a master")
		_, ok = tankAt(c, world.Pos(51, 70, 51))
		assert.True(t, ok, "the tank that block belongs to")

		// Malformed tank data is dropped and counted.
		bad, err := modnet.DecodeRCTile(fakeserver.RailcraftWaterTank(1, 2, 3, 2, 2, 2, -1)) // the air cell
		require.NoError(t, err)
		c.rcWaterTank(s, bad, world.Pos(1, 2, 3))
		assert.Equal(t, int64(1), c.Stats().Malformed["PluginMessage(RC)"])
	})
}

// TestWaterTankDataOnlyOnItsBlock: the tile id is an ordinal within the
// block, so tank data for another block is not a tank.
func TestWaterTankDataOnlyOnItsBlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := steamAgeServer(t, true, nil)
		machine(t, c, world.MachineWaterTank, tankMaster)
		srv.Send(&proto17.PluginMessage{Channel: "RC", Data: fakeserver.RailcraftWaterTank(20, 63, 20, 2, 1, 2, 5000)})
		eventually(t, "the message skipped", func() bool { return c.Stats().Skipped["RC tile (not a coke oven)"] == 1 })
		assert.Len(t, c.State().Snapshot().MachinesOfKind(world.MachineWaterTank, 64), 1)
	})
}

// TestRCGuiInteger: a GUI_INTEGER sets the tank its layout names, for the
// open window only, at a machine of the layout's kind known there; other
// data ids are skipped, amounts outside the tank are malformed.
func TestRCGuiInteger(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, err := modnet.DefaultData()
		require.NoError(t, err)
		c, s := tankClient()
		pos, iron := world.Pos(1, 2, 3), world.Pos(7, 8, 9)
		c.state.Update(func(tx *world.Tx) {
			tx.PutMachine(world.Machine{Kind: world.MachineWaterTank, Pos: pos, Formed: true,
				Fluids: map[string]world.FluidTank{"water": {Fluid: "water", Amount: 5, Capacity: 400000}}})
		})
		tile, err := modnet.DecodeRCTile(fakeserver.RailcraftWaterTank(pos.X, pos.Y, pos.Z, 2, 1, 2, 5))
		require.NoError(t, err)
		s.mods.tanks[pos] = mustWaterTank(t, tile)
		gui := func(window, id uint8, v int32) { c.onRailcraft(s, fakeserver.RailcraftGuiInteger(window, id, v)) }
		water := func() int { m, _ := tankAt(c, pos); return m.Fluid("water").Amount }

		gui(3, 1, 30000) // no window open
		assert.Equal(t, 5, water())
		s.inv.open = newModContainer(3, d.Containers["railcraft_tank"])
		s.inv.open.pos = &pos
		gui(4, 1, 30000) // another window
		gui(3, 2, 0xffffff)
		gui(3, 0, 30000)
		assert.Equal(t, 5, water())
		gui(3, 1, 30000)
		assert.Equal(t, 30000, water())
		gui(3, 1, 400000)
		assert.Equal(t, 400000, water(), "full")
		gui(3, 1, 400001)
		gui(3, 1, -1)
		assert.Equal(t, 400000, water())
		assert.Equal(t, int64(2), c.Stats().Malformed["PluginMessage(RC)"])
		assert.Equal(t, int64(2), c.Stats().Skipped["RC GUI_INTEGER (not a tank amount)"], "the colour and the fluid id's data id")
		assert.Equal(t, int64(2), c.Stats().Skipped["RC GUI_INTEGER (not the open window)"])

		// The tank GUI opened on a block that is not a known water tank (an
		// iron tank, whose capacity differs) is not read, though its window's
		// slots made a machine of the layout's kind there.
		s.inv.open.pos = &iron
		gui(3, 1, 1000)
		_, ok := tankAt(c, iron)
		assert.False(t, ok)
		c.state.Update(func(tx *world.Tx) {
			tx.PutMachine(world.Machine{Kind: world.MachineWaterTank, Pos: iron, Formed: true})
		})
		gui(3, 1, 1000)
		m, _ := tankAt(c, iron)
		assert.Empty(t, m.Fluids)
		assert.Equal(t, int64(2), c.Stats().Skipped["RC GUI_INTEGER (no water_tank known there)"])

		// A coke oven's creosote.
		oven := world.Pos(4, 4, 4)
		c.state.Update(func(tx *world.Tx) {
			tx.PutMachine(world.Machine{Kind: world.MachineCokeOven, Pos: oven, Formed: true})
		})
		s.inv.open = newModContainer(9, d.Containers["railcraft_coke_oven"])
		s.inv.open.pos = &oven
		gui(9, 1, 5000)
		for _, m := range c.State().Snapshot().Machines {
			if m.Pos == oven {
				assert.Equal(t, world.FluidTank{Fluid: "creosote", Amount: 5000, Capacity: 64000}, m.Fluid("creosote"))
			}
		}
		gui(9, 1, 64001)
		assert.Equal(t, int64(3), c.Stats().Malformed["PluginMessage(RC)"])
		c.onRailcraft(s, []byte{modnet.RCGuiInteger, 9, 1})
		assert.Equal(t, int64(4), c.Stats().Malformed["PluginMessage(RC)"], "truncated")
	})
}

// TestWaterTankBlocksBounded: the tank blocks a session keeps are bounded;
// a block past the bound is skipped, a known one still updates.
func TestWaterTankBlocksBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, s := tankClient()
		for i := 0; i < maxModEntries; i++ {
			s.mods.tanks[world.Pos(i, 0, 1000)] = modnet.WaterTank{}
		}
		tile, err := modnet.DecodeRCTile(fakeserver.RailcraftWaterTank(10, 70, -5, 2, 1, 2, 5000))
		require.NoError(t, err)
		c.rcWaterTank(s, tile, world.Pos(10, 70, -5))
		assert.Equal(t, int64(1), c.Stats().Skipped["mod state over limit"])
		assert.Empty(t, c.State().Snapshot().Machines)
		assert.Len(t, s.mods.tanks, maxModEntries)

		tile, err = modnet.DecodeRCTile(fakeserver.RailcraftWaterTank(5, 0, 1000, 2, 1, 2, 5000))
		require.NoError(t, err)
		c.rcWaterTank(s, tile, world.Pos(5, 0, 1000))
		m, ok := tankAt(c, world.Pos(5, 0, 1000))
		require.True(t, ok, "a block already known is updated")
		assert.Equal(t, 5000, m.Fluid("water").Amount)
	})
}

// TestOpenWaitsForTheTanks: open_container returns only once the window's
// tank amounts are read, though the server sends them late (after a stall);
// a skill that closes the window at once still sees them.
func TestOpenWaitsForTheTanks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := steamAgeServer(t, true, func(o *fakeserver.Options) {
			o.CokeOvens[0].Creosote = 12000
			o.Faults = fakeserver.Faults{StallAt: fakeserver.StageTankGui, StallFor: 100 * time.Millisecond}
		})
		ctx := context.Background()
		master := world.Pos(3, 64, 1)
		machine(t, c, world.MachineCokeOven, master)
		for _, a := range []action.Action{action.MoveTo{Pos: world.Pos(3, 64, 4), Radius: 1}, action.OpenContainer{Pos: master}, action.CloseContainer{}} {
			r := c.Execute(ctx, a)
			require.Equal(t, ipc.OK, r.Code, r.Error)
		}
		assert.Equal(t, world.FluidTank{Fluid: "creosote", Amount: 12000, Capacity: 64000},
			machine(t, c, world.MachineCokeOven, master).Fluid("creosote"))
	})
}
