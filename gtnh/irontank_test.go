package gtnh

import (
	"context"
	"encoding/binary"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// metalTile is an RC TILE_ENTITY of an iron or steel tank block (id is
// its machine.beta metadata): cell px, py, pz of pattern when formed, and
// its own tank (fluid -1: empty).
func metalTile(t *testing.T, pos world.BlockPos, id int16, formed bool, pattern, px, py, pz int8, fluid int16, amount int32) modnet.RCTile {
	t.Helper()
	be := binary.BigEndian
	b := []byte{modnet.RCTileEntity}
	b = be.AppendUint32(b, uint32(pos.X))
	b = be.AppendUint32(b, uint32(pos.Y))
	b = be.AppendUint32(b, uint32(pos.Z))
	b = be.AppendUint16(b, uint16(id))
	if formed {
		b = append(b, 1, byte(pattern), byte(px), byte(py), byte(pz))
	} else {
		b = append(b, 0)
	}
	b = append(b, 15)
	b = be.AppendUint16(b, uint16(fluid))
	if fluid != -1 {
		b = be.AppendUint32(b, uint32(amount))
		b = be.AppendUint32(b, 0xffffff)
	}
	tile, err := modnet.DecodeRCTile(b)
	require.NoError(t, err)
	return tile
}

func machineAt(c *Client, pos world.BlockPos) (world.Machine, bool) {
	for _, m := range c.State().Snapshot().Machines {
		if m.Pos == pos {
			return m, true
		}
	}
	return world.Machine{}, false
}

// TestIronTankBlocks: an iron or steel tank is a machine at its master
// from the master's own data once the tank is formed, with the capacity
// of its pattern and its fluid named through the server's fluid map: water
// or nothing makes a water_tank, another fluid a fluid_tank, a fluid the
// map does not name (or no map) a fluid_tank of unknown contents. The
// other blocks make no machine; a master that is no longer one removes it.
func TestIronTankBlocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, s := tankClient()
		master := world.Pos(20, 64, 4)
		wall := world.Pos(19, 67, 3)
		put := func(pos world.BlockPos, tile modnet.RCTile) { t.Helper(); c.rcMetalTank(s, tile, pos) }

		// Not formed yet: its blocks, the master-to-be too, make nothing.
		put(master, metalTile(t, master, modnet.IronTankWallID, false, 0, 0, 0, 0, -1, 0))
		put(wall, metalTile(t, wall, modnet.IronTankGaugeID, false, 0, 0, 0, 0, -1, 0))
		_, ok := machineAt(c, master)
		require.False(t, ok, "not formed")
		// Formed: another block's data alone makes nothing either.
		put(wall, metalTile(t, wall, modnet.IronTankWallID, true, 0, 1, 3, 1, -1, 0))
		_, ok = machineAt(c, master)
		require.False(t, ok, "the master's data has not come")

		// No fluid map yet: the master's water cannot be named.
		put(master, metalTile(t, master, modnet.IronTankWallID, true, 0, 2, 0, 2, 1, 100000))
		m, ok := machineAt(c, master)
		require.True(t, ok)
		assert.Equal(t, world.MachineFluidTank, m.Kind)
		assert.True(t, m.ContentsUnknown)
		assert.Equal(t, int64(1), c.Stats().Skipped["RC tank fluid (not in the server's fluid map)"])

		c.onForge(s, fakeserver.ForgeFluidIDMap())
		put(master, metalTile(t, master, modnet.IronTankWallID, true, 0, 2, 0, 2, 1, 100000))
		m, _ = machineAt(c, master)
		assert.Equal(t, world.MachineWaterTank, m.Kind)
		assert.True(t, m.Formed)
		assert.False(t, m.ContentsUnknown)
		assert.Equal(t, map[string]world.FluidTank{"water": {Fluid: "water", Amount: 100000, Capacity: 3 * 3 * 4 * 16000}}, m.Fluids)

		// Another block's data changes nothing.
		put(wall, metalTile(t, wall, modnet.IronTankWallID, true, 0, 1, 3, 1, -1, 0))
		m, _ = machineAt(c, master)
		assert.Equal(t, 100000, m.Fluid("water").Amount)
		assert.Len(t, c.State().Snapshot().Machines, 1)

		// Lava (id 2 in the map): a fluid_tank of lava, out of the water logic.
		put(master, metalTile(t, master, modnet.IronTankWallID, true, 0, 2, 0, 2, 2, 3000))
		m, _ = machineAt(c, master)
		assert.Equal(t, world.MachineFluidTank, m.Kind)
		assert.Equal(t, map[string]world.FluidTank{"lava": {Fluid: "lava", Amount: 3000, Capacity: 576000}}, m.Fluids)
		// Creosote (id 42).
		put(master, metalTile(t, master, modnet.IronTankWallID, true, 0, 2, 0, 2, 42, 64000))
		m, _ = machineAt(c, master)
		assert.Equal(t, world.MachineFluidTank, m.Kind)
		assert.Equal(t, map[string]world.FluidTank{"creosote": {Fluid: "creosote", Amount: 64000, Capacity: 576000}}, m.Fluids)
		// Empty: a water_tank with no water, to be filled.
		put(master, metalTile(t, master, modnet.IronTankWallID, true, 0, 2, 0, 2, -1, 0))
		m, _ = machineAt(c, master)
		assert.Equal(t, world.MachineWaterTank, m.Kind)
		assert.Equal(t, map[string]world.FluidTank{"water": {Fluid: "water", Amount: 0, Capacity: 576000}}, m.Fluids)
		// A fluid id the map does not name.
		put(master, metalTile(t, master, modnet.IronTankWallID, true, 0, 2, 0, 2, 99, 3000))
		m, _ = machineAt(c, master)
		assert.Equal(t, world.MachineFluidTank, m.Kind)
		assert.True(t, m.ContentsUnknown)
		assert.Empty(t, m.Fluids)

		// The tank falls apart: its master says so.
		put(master, metalTile(t, master, modnet.IronTankWallID, false, 0, 0, 0, 0, -1, 0))
		_, ok = machineAt(c, master)
		assert.False(t, ok, "no tank once its master is not formed")

		// A steel 9×9×8 (pattern 19) with the server not allowing stacking:
		// the master is cell 5,1,5.
		steel := world.Pos(50, 70, 50)
		put(steel, metalTile(t, steel, modnet.SteelTankValveID, true, 19, 5, 1, 5, 1, 2000000))
		m, _ = machineAt(c, steel)
		assert.Equal(t, world.FluidTank{Fluid: "water", Amount: 2000000, Capacity: 9 * 9 * 8 * 32000}, m.Fluid("water"))
		// The block at the master's position becomes another cell (of a larger
		// tank mastered elsewhere): no tank there.
		put(steel, metalTile(t, steel, modnet.SteelTankWallID, true, 19, 4, 1, 5, -1, 0))
		_, ok = machineAt(c, steel)
		assert.False(t, ok)

		// Malformed tank data is dropped and counted.
		put(world.Pos(1, 2, 3), modnet.RCTile{X: 1, Y: 2, Z: 3, ID: modnet.IronTankWallID, Body: []byte{1, 20, 1, 1, 1, 15, 0xff, 0xff}})
		assert.Equal(t, int64(1), c.Stats().Malformed["PluginMessage(RC)"])
	})
}

// TestForgeFluidMap: the FORGE channel's fluid id map is kept for the
// session; a malformed one is counted and keeps the old; other FORGE
// messages are skipped. The water tank's fluid must be water by the map.
func TestForgeFluidMap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, s := tankClient()
		c.onForge(s, fakeserver.ForgeFluidIDMap())
		name, ok := s.fluids.Name(2)
		require.True(t, ok)
		assert.Equal(t, "lava", name)
		c.onForge(s, []byte{modnet.ForgeFluidIDMap, 0, 0, 0, 9})
		assert.Equal(t, int64(1), c.Stats().Malformed["PluginMessage(FORGE)"])
		_, ok = s.fluids.Name(2)
		assert.True(t, ok, "the map stays")
		c.onForge(s, []byte{1, 0, 0, 0, 7, 0, 0, 0, 1})
		assert.Equal(t, int64(1), c.Stats().Skipped["FORGE(1)"])
		c.onForge(s, nil)
		assert.Equal(t, int64(2), c.Stats().Malformed["PluginMessage(FORGE)"])

		// A water tank whose master reports lava (id 2) is malformed.
		tile, err := modnet.DecodeRCTile([]byte{0, 0, 0, 0, 10, 0, 0, 0, 70, 0xff, 0xff, 0xff, 0xfb, 0, 14,
			1, 0, 2, 1, 2, 0, 2, 0, 0, 3, 0xe8, 0, 0xff, 0xff, 0xff})
		require.NoError(t, err)
		c.rcWaterTank(s, tile, world.Pos(10, 70, -5))
		assert.Equal(t, int64(3), c.Stats().Malformed["PluginMessage(RC)"]+c.Stats().Malformed["PluginMessage(FORGE)"])
		_, ok = machineAt(c, world.Pos(10, 70, -5))
		assert.False(t, ok)
	})
}

// TestIronTankWindowAmount: an open iron tank window's amount sets the
// tank's fluid (the one its master's data named) within its capacity.
func TestIronTankWindowAmount(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, err := modnet.DefaultData()
		require.NoError(t, err)
		c, s := tankClient()
		c.onForge(s, fakeserver.ForgeFluidIDMap())
		master := world.Pos(20, 64, 4)
		c.rcMetalTank(s, metalTile(t, master, modnet.IronTankWallID, true, 0, 2, 0, 2, 1, 100000), master)
		s.inv.open = newModContainer(3, d.Containers["railcraft_tank"])
		s.inv.open.pos = &master
		gui := func(v int32) { c.onRailcraft(s, fakeserver.RailcraftGuiInteger(3, 1, v)) }
		gui(500000)
		m, _ := machineAt(c, master)
		assert.Equal(t, world.FluidTank{Fluid: "water", Amount: 500000, Capacity: 576000}, m.Fluid("water"),
			"over the water tank's 400 000 is fine in this tank")
		gui(576001)
		assert.Equal(t, int64(1), c.Stats().Malformed["PluginMessage(RC)"])
		// Lava in it: the amount is lava's.
		c.rcMetalTank(s, metalTile(t, master, modnet.IronTankWallID, true, 0, 2, 0, 2, 2, 1000), master)
		gui(2000)
		m, _ = machineAt(c, master)
		assert.Equal(t, world.MachineFluidTank, m.Kind)
		assert.Equal(t, 2000, m.Fluid("lava").Amount)
		assert.Zero(t, m.Fluid("water").Capacity)
		// The window's slots (a railcraft_tank, kind water_tank) keep it a
		// fluid_tank of lava.
		s.inv.open.synced = true
		c.syncInventory(s)
		m, _ = machineAt(c, master)
		assert.Equal(t, world.MachineFluidTank, m.Kind)
		assert.Equal(t, 2000, m.Fluid("lava").Amount)
		// Empty by its data: an amount waits for the data naming the fluid.
		c.rcMetalTank(s, metalTile(t, master, modnet.IronTankWallID, true, 0, 2, 0, 2, -1, 0), master)
		gui(1000)
		m, _ = machineAt(c, master)
		assert.Equal(t, 0, m.Fluid("water").Amount)
		assert.Equal(t, int64(1), c.Stats().Skipped["RC GUI_INTEGER (the tank's fluid is not known)"])
	})
}

// ironTank is the iron tank the tests add to the steam-age world, east of
// the water tank; its master is (21, 64, 13).
var ironTank = fakeserver.IronTank{X: 20, Y: 64, Z: 12, Water: 100000}

// TestIronTankFromTheWorld: the fake server's iron tank is a water_tank at
// its master from the chunk's tile data, its water named through the fluid
// map the handshake brought; a water bucket poured in goes into the
// server's tank and the master's data that follows tells the client.
func TestIronTankFromTheWorld(t *testing.T) {
	for _, tc := range formatsCases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, c := steamAgeServer(t, tc.neid, func(o *fakeserver.Options) {
					o.IronTanks = []fakeserver.IronTank{ironTank}
					o.Inventory = append(o.Inventory, fakeserver.Item{Slot: 38, Name: "minecraft:water_bucket", Count: 1})
				})
				master := ironTank.Master()
				m := machine(t, c, world.MachineWaterTank, master)
				assert.True(t, m.Formed)
				assert.Equal(t, world.FluidTank{Fluid: "water", Amount: 100000, Capacity: 576000}, m.Fluid("water"))
				assert.Empty(t, c.Stats().Malformed)

				ctx := context.Background()
				r := c.Execute(ctx, action.MoveTo{Pos: world.Pos(21, 64, 10), Radius: 1})
				require.Equal(t, ipc.OK, r.Code, r.Error)
				gauge := world.Pos(21, 65, 12)
				r = c.Execute(ctx, action.UseItem{Item: "minecraft:water_bucket", Target: &gauge})
				require.Equal(t, ipc.OK, r.Code, r.Error)
				water, ok := srv.TankWater(master)
				require.True(t, ok)
				assert.Equal(t, 101000, water)
				eventually(t, "the master's new data", func() bool {
					return machine(t, c, world.MachineWaterTank, master).Fluid("water").Amount == 101000
				})
			})
		})
	}
}

// TestForgeFluidMapInParts: a fluid map too large for one packet (a GTNH
// server has thousands of fluids) comes through FML|MP and is kept whole.
func TestForgeFluidMapInParts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, s := tankClient()
		s.fml = newFMLHandshake(nil)
		be := binary.BigEndian
		const n = 3000
		b := be.AppendUint32([]byte{modnet.ForgeFluidIDMap}, n)
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("gt.fluid.%04d", i)
			b = append(append(b, byte(len(name))), name...)
			b = be.AppendUint32(b, uint32(i+1))
		}
		parts, err := proto17.SplitMultipart(modnet.ForgeChannel, b, 32000)
		require.NoError(t, err)
		require.Greater(t, len(parts), 2)
		for _, p := range parts {
			require.NoError(t, c.onPlugin(s, proto17.ChannelFMLMultipart, p))
		}
		name, ok := s.fluids.Name(n)
		require.True(t, ok)
		assert.Equal(t, fmt.Sprintf("gt.fluid.%04d", n-1), name)
		assert.Len(t, s.fluids.Names, n)
	})
}
