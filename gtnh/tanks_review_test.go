package gtnh

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestIronTankWindowBeforeTheMap: an iron tank whose master's data came
// before the server's fluid map has unknown contents; once the map names
// its fluid, the open window's amount makes them known, a full tank's
// amount (its capacity) included.
func TestIronTankWindowBeforeTheMap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, err := modnet.DefaultData()
		require.NoError(t, err)
		c, s := tankClient()
		master := world.Pos(20, 64, 4)
		c.rcMetalTank(s, metalTile(t, master, modnet.IronTankWallID, true, 0, 2, 0, 2, 1, 100000), master)
		m, _ := machineAt(c, master)
		require.True(t, m.ContentsUnknown, "no map: the fluid is not named")

		c.onForge(s, fakeserver.ForgeFluidIDMap())
		s.inv.open = newModContainer(3, d.Containers["railcraft_tank"])
		s.inv.open.pos = &master
		c.onRailcraft(s, fakeserver.RailcraftGuiInteger(3, 1, 576000))
		m, _ = machineAt(c, master)
		assert.False(t, m.ContentsUnknown, "the window showed the amount of a named fluid")
		assert.Equal(t, world.FluidTank{Fluid: "water", Amount: 576000, Capacity: 576000}, m.Fluid("water"))
		assert.Zero(t, c.Stats().Malformed["PluginMessage(RC)"], "a full tank is not malformed")
	})
}

// TestTankWindowAtAnotherBlock: a tank window opened at an iron tank block
// that is not the master reads no amount into the machine its slots made
// there; a coke oven window's creosote does not go into a water tank at
// its position.
func TestTankWindowAtAnotherBlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, err := modnet.DefaultData()
		require.NoError(t, err)
		c, s := tankClient()
		c.onForge(s, fakeserver.ForgeFluidIDMap())
		wall := world.Pos(19, 67, 3)
		c.rcMetalTank(s, metalTile(t, wall, modnet.IronTankWallID, true, 0, 1, 3, 1, -1, 0), wall)
		c.state.Update(func(tx *world.Tx) {
			tx.PutMachine(world.Machine{Kind: world.MachineWaterTank, Pos: wall, Formed: true})
		})
		s.inv.open = newModContainer(3, d.Containers["railcraft_tank"])
		s.inv.open.pos = &wall
		c.onRailcraft(s, fakeserver.RailcraftGuiInteger(3, 1, 1000))
		m, ok := machineAt(c, wall)
		require.True(t, ok)
		assert.Empty(t, m.Fluids, "not the master: the amount is not this block's")
		assert.Equal(t, int64(1), c.Stats().Skipped["RC GUI_INTEGER (no water_tank known there)"])

		tank := world.Pos(4, 4, 4)
		c.state.Update(func(tx *world.Tx) {
			tx.PutMachine(world.Machine{Kind: world.MachineWaterTank, Pos: tank, Formed: true})
		})
		s.inv.open = newModContainer(9, d.Containers["railcraft_coke_oven"])
		s.inv.open.pos = &tank
		c.onRailcraft(s, fakeserver.RailcraftGuiInteger(9, 1, 5000))
		m, _ = machineAt(c, tank)
		assert.Equal(t, world.MachineWaterTank, m.Kind)
		assert.Empty(t, m.Fluids, "creosote is not a water tank's")
		assert.Equal(t, int64(1), c.Stats().Skipped["RC GUI_INTEGER (no coke_oven known there)"])
	})
}

// TestBoiledSinceNeverNegative: a reading from a later tick than now
// (the tick counter is behind it) means nothing boiled, not water gained.
func TestBoiledSinceNeverNegative(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for meta, spec := range coalBoilers {
			assert.Zero(t, boiledSince(1000, 0, spec), "boiler %d", meta)
			m := world.Machine{}
			boilerState(&m, gtMachine{meta: meta, waterKnown: true, waterFloor: 2000, floorTick: 1000, readTick: 1000}, spec, 0)
			assert.Equal(t, 2000, m.Fluid("water").Amount, "boiler %d", meta)
		}
	})
}

// TestOpenTankWithBucketsInTheHotbar: open_container holds the last hotbar
// slot when it is the only one without a bucket; with buckets in every
// hotbar slot it moves the held one into the main inventory, and only with
// the main inventory full too does it refuse to click the tank (the click
// would fill or empty the held bucket instead of opening the window).
func TestOpenTankWithBucketsInTheHotbar(t *testing.T) {
	for _, tc := range []struct {
		name           string
		free, mainFull bool
	}{
		{"a free hotbar slot", true, false},
		{"room in the main inventory", false, false},
		{"everything full", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, c := steamAgeServer(t, false, func(o *fakeserver.Options) {
					o.Inventory = nil
					for i := range 9 {
						if tc.free && i == 8 {
							continue
						}
						name := "minecraft:bucket"
						if i%2 == 1 {
							name = "minecraft:water_bucket"
						}
						o.Inventory = append(o.Inventory, fakeserver.Item{Slot: 36 + i, Name: name, Count: 1})
					}
					for i := 9; i < 36 && tc.mainFull; i++ {
						o.Inventory = append(o.Inventory, fakeserver.Item{Slot: i, Name: "minecraft:cobblestone", Count: 64})
					}
				})
				ctx := context.Background()
				eventually(t, "the tank's water", func() bool {
					return machine(t, c, world.MachineWaterTank, tankMaster).Fluid("water").Amount == 20000
				})
				r := c.Execute(ctx, action.MoveTo{Pos: world.Pos(15, 64, 10), Radius: 1})
				require.Equal(t, ipc.OK, r.Code, r.Error)
				r = c.Execute(ctx, action.OpenContainer{Pos: tankMaster})
				if tc.mainFull {
					assert.Equal(t, ipc.Rejected, r.Code)
					assert.Contains(t, r.Error, "every hotbar slot holds a bucket or cell")
				} else {
					require.Equal(t, ipc.OK, r.Code, r.Error)
					assert.Equal(t, "railcraft_tank", r.Details["container"])
					assert.True(t, c.State().Snapshot().Inventory.HeldStack().Empty(), "the hand is empty")
					r = c.Execute(ctx, action.CloseContainer{})
					require.Equal(t, ipc.OK, r.Code, r.Error)
				}
				water, ok := srv.TankWater(tankMaster)
				require.True(t, ok)
				assert.Equal(t, 20000, water, "no bucket filled or emptied into the tank")
				assert.Empty(t, srv.Kicks())
			})
		})
	}
}

// TestTankDataLeavesOtherMachines: a tank block's data and a tank window's
// amount touch only a tank at their position: another machine known there
// (the block was replaced since the tank's data came) stays as it is.
func TestTankDataLeavesOtherMachines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, err := modnet.DefaultData()
		require.NoError(t, err)
		c, s := tankClient()
		c.onForge(s, fakeserver.ForgeFluidIDMap())
		oven := func(p world.BlockPos) {
			c.state.Update(func(tx *world.Tx) {
				tx.PutMachine(world.Machine{Kind: world.MachineCokeOven, Pos: p, Formed: true})
			})
		}

		// A water tank block that belongs to no tank, where a coke oven is.
		p := world.Pos(7, 64, 7)
		oven(p)
		c.rcWaterTank(s, modnet.RCTile{X: 7, Y: 64, Z: 7, ID: modnet.WaterTankMachineID, Body: []byte{0, 0xff, 0xff}}, p)
		m, ok := machineAt(c, p)
		require.True(t, ok, "the coke oven stays")
		assert.Equal(t, world.MachineCokeOven, m.Kind)

		// An iron tank's master record, and a coke oven in the world there now.
		master := world.Pos(20, 64, 4)
		c.rcMetalTank(s, metalTile(t, master, modnet.IronTankWallID, true, 0, 2, 0, 2, 1, 100000), master)
		oven(master)
		s.inv.open = newModContainer(3, d.Containers["railcraft_tank"])
		s.inv.open.pos = &master
		c.onRailcraft(s, fakeserver.RailcraftGuiInteger(3, 1, 1000))
		m, _ = machineAt(c, master)
		assert.Equal(t, world.MachineCokeOven, m.Kind)
		assert.Empty(t, m.Fluids, "a tank window's amount is not the oven's")
	})
}

// TestTankBlocksLeaveWithTheirColumn: the water tank and iron tank blocks
// the session keeps go with their column (the server sends their data
// again if it comes back) and with the world; other columns' stay.
func TestTankBlocksLeaveWithTheirColumn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &session{mods: newModState()}
		gone, kept := world.Pos(1<<4|3, 40, 2<<4|5), world.Pos(2<<4|3, 40, 1<<4|5)
		for _, p := range []world.BlockPos{gone, kept} {
			s.mods.tanks[p] = modnet.WaterTank{}
			s.mods.metal[p] = modnet.MetalTank{}
		}
		s.mods.dropColumns(map[[2]int]bool{{1, 2}: true})
		_, tank := s.mods.tanks[gone]
		_, metal := s.mods.metal[gone]
		assert.False(t, tank, "water tank block of the dropped column")
		assert.False(t, metal, "iron tank block of the dropped column")
		_, tank = s.mods.tanks[kept]
		_, metal = s.mods.metal[kept]
		assert.True(t, tank && metal, "the other column's")

		s.mods.clearWorld()
		assert.Empty(t, s.mods.tanks)
		assert.Empty(t, s.mods.metal)
	})
}

// TestIronTankBlocksBounded: the iron and steel tank blocks a session keeps
// are bounded; a block past the bound is skipped, a known one still
// updates.
func TestIronTankBlocksBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, s := tankClient()
		c.onForge(s, fakeserver.ForgeFluidIDMap())
		for i := 0; i < maxModEntries; i++ {
			s.mods.metal[world.Pos(i, 0, 1000)] = modnet.MetalTank{}
		}
		p := world.Pos(20, 64, 4)
		c.rcMetalTank(s, metalTile(t, p, modnet.IronTankWallID, true, 0, 2, 0, 2, 1, 5000), p)
		assert.Equal(t, int64(1), c.Stats().Skipped["mod state over limit"])
		assert.Empty(t, c.State().Snapshot().Machines)
		assert.Len(t, s.mods.metal, maxModEntries)

		known := world.Pos(5, 0, 1000)
		c.rcMetalTank(s, metalTile(t, known, modnet.IronTankWallID, true, 0, 2, 0, 2, 1, 5000), known)
		m, ok := machineAt(c, known)
		require.True(t, ok, "a block already known is updated")
		assert.Equal(t, 5000, m.Fluid("water").Amount)
	})
}

// TestOpenReturnsOnceTheTanksAreRead: open_container waits for a window's
// tank amounts only until they are read, not for the whole answer time.
func TestOpenReturnsOnceTheTanksAreRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := steamAgeServer(t, true, func(o *fakeserver.Options) { o.CokeOvens[0].Creosote = 12000 })
		ctx := context.Background()
		master := world.Pos(3, 64, 1)
		machine(t, c, world.MachineCokeOven, master)
		r := c.Execute(ctx, action.MoveTo{Pos: world.Pos(3, 64, 4), Radius: 1})
		require.Equal(t, ipc.OK, r.Code, r.Error)
		start := c.ticks.Load()
		r = c.Execute(ctx, action.OpenContainer{Pos: master})
		require.Equal(t, ipc.OK, r.Code, r.Error)
		assert.Less(t, c.ticks.Load()-start, int64(answerTicks), "returned when the amounts came")
		assert.Equal(t, 12000, machine(t, c, world.MachineCokeOven, master).Fluid("creosote").Amount)
	})
}
