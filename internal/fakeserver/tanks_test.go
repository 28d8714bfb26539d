package fakeserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// openGui reads until an FML OpenGui arrives.
func (c *tclient) openGui() modnet.OpenGui {
	c.t.Helper()
	p := c.until("OpenGui", func(p proto17.Packet) bool {
		pm, ok := p.(*proto17.PluginMessage)
		return ok && pm.Channel == modnet.FMLChannel && len(pm.Data) > 0 && pm.Data[0] == modnet.FMLOpenGui
	})
	g, err := modnet.DecodeOpenGui(p.(*proto17.PluginMessage).Data)
	require.NoError(c.t, err)
	return g
}

// TestWaterTankClicksAndWindow: the water tank as Railcraft has it. A water
// bucket on any block pours in what fits and comes back empty; an empty
// bucket takes a bucket's worth; a water bucket on a full tank opens the GUI
// (FluidHelper.handleRightClick fails, TileMachineBase.blockActivated opens
// it) at the master, which sends the fluid id as window property 0 and the
// amount and colour as RC GUI_INTEGER 1 and 2 after the slots. A coke oven
// opens nothing while a bucket is held.
func TestWaterTankClicksAndWindow(t *testing.T) {
	o := Options{Inventory: []Item{{Slot: 36, Name: "minecraft:water_bucket", Count: 1}}}
	SteamAge(&o)
	master := o.WaterTanks[0].Master()
	o.WaterTanks[0].Water = waterTankCapacity - 500
	s := newServer(t, o)
	c, _ := enter(t, s, "bot")
	c.moveTo(15.5, 64, 10.5)
	id := func(name string) int16 { n, ok := s.IDs().ItemID(name); require.True(t, ok); return int16(n) }
	water := proto17.Slot{ID: id("minecraft:water_bucket"), Count: 1}
	empty := proto17.Slot{ID: id("minecraft:bucket"), Count: 1}
	click := func(p world.BlockPos, held proto17.Slot) {
		c.write(&proto17.PlayerBlockPlacement{X: int32(p.X), Y: uint8(p.Y), Z: int32(p.Z), Face: proto17.FaceNorth, Held: held})
	}
	wall := world.Pos(15, 65, 12)
	amount := func() int { a, ok := s.TankWater(master); require.True(t, ok); return a }

	click(wall, water)
	ss := untilType[*proto17.SetSlot](c)
	assert.Equal(t, empty, ss.Item, "the bucket comes back empty")
	assert.Equal(t, waterTankCapacity, amount(), "500 mB fitted")

	click(wall, empty)
	ss = untilType[*proto17.SetSlot](c)
	assert.Equal(t, water, ss.Item, "filled")
	assert.Equal(t, waterTankCapacity-1000, amount())

	// Full (as if it rained): the water bucket does not fit and the GUI
	// opens.
	s.mu.Lock()
	s.mods.boxes[master].water = waterTankCapacity
	s.mu.Unlock()
	click(wall, water)
	g := c.openGui()
	assert.Equal(t, modnet.OpenGui{WindowID: g.WindowID, ModID: "Railcraft", GuiID: 20, X: int32(master.X), Y: int32(master.Y), Z: int32(master.Z)}, g)
	wi := untilType[*proto17.WindowItems](c)
	assert.Equal(t, uint8(g.WindowID), wi.WindowID)
	assert.Len(t, wi.Items, 38)
	prop := untilType[*proto17.WindowProperty](c)
	assert.Equal(t, proto17.WindowProperty{WindowID: uint8(g.WindowID), Property: 0, Value: waterFluidID}, *prop)
	for _, want := range []struct {
		data  uint8
		value int32
	}{{1, waterTankCapacity}, {2, whiteColor}} {
		p := untilType[*proto17.PluginMessage](c)
		require.Equal(t, modnet.RailcraftChannel, p.Channel)
		v, err := modnet.DecodeRCGuiInteger(p.Data)
		require.NoError(t, err)
		assert.Equal(t, modnet.RCGuiValue{WindowID: uint8(g.WindowID), DataID: want.data, Value: want.value}, v)
	}
	assert.Equal(t, waterTankCapacity, amount(), "nothing poured")
	c.write(&proto17.ServerboundCloseWindow{WindowID: uint8(g.WindowID)})

	// A coke oven brick clicked with a water bucket: no GUI. The tank
	// clicked next opens its own (gui 20), the first GUI to come.
	c.moveTo(9.5, 64, 7.5) // steps under the 10-block move limit
	c.moveTo(3.5, 64, 4.5)
	click(world.Pos(3, 65, 2), water)
	c.moveTo(9.5, 64, 7.5)
	c.moveTo(15.5, 64, 10.5)
	click(wall, water)
	w2 := c.openGui()
	assert.Equal(t, int32(20), w2.GuiID)
	c.write(&proto17.ServerboundCloseWindow{WindowID: uint8(w2.WindowID)})

	// Less than a bucket in the tank: an empty bucket takes nothing, and
	// the GUI opens.
	s.mu.Lock()
	s.mods.boxes[master].water = 0
	s.mu.Unlock()
	click(wall, water)
	untilType[*proto17.SetSlot](c)
	s.mu.Lock()
	s.mods.boxes[master].water = 999
	s.mu.Unlock()
	click(wall, empty)
	assert.Equal(t, int32(20), c.openGui().GuiID)
	assert.Equal(t, 999, amount())
}

// TestIronTankShapeAndData: the iron tank is pattern 0 of TileTankBase
// (3×3 inside, 4 high): full bottom and top layers of walls, rings between
// whose side centres are gauges, 34 blocks; every block's tile data
// decodes as the client reads it, the master's with the water; the fluid
// map decodes with water, lava and creosote under this server's ids.
func TestIronTankShapeAndData(t *testing.T) {
	tank := IronTank{X: 20, Y: 64, Z: 12, Water: 100000}
	blocks := ironTankBlocks(Options{IronTanks: []IronTank{tank}})
	metas := map[int]int{}
	at := map[world.BlockPos]int{}
	for _, b := range blocks {
		require.Equal(t, MetalTankBlock, b.Name)
		metas[b.Meta]++
		at[world.Pos(b.X, b.Y, b.Z)] = b.Meta
	}
	assert.Equal(t, map[int]int{ironWallMeta: 26, ironGaugeMeta: 8}, metas)
	assert.Equal(t, ironGaugeMeta, at[world.Pos(21, 65, 12)], "a side centre of a middle layer")
	assert.Equal(t, ironWallMeta, at[world.Pos(20, 65, 12)], "a corner")
	_, inside := at[world.Pos(21, 65, 13)]
	assert.False(t, inside, "air inside")
	assert.Equal(t, ironWallMeta, at[tank.Master()])

	masters := 0
	ironTankCells(tank.X, tank.Y, tank.Z, func(p world.BlockPos, px, py, pz, meta int) {
		w := -1
		if p == tank.Master() {
			w = tank.Water
		}
		tile, err := modnet.DecodeRCTile(RailcraftIronTank(p.X, p.Y, p.Z, meta, px, py, pz, w))
		require.NoError(t, err)
		m, err := modnet.DecodeMetalTank(tile)
		require.NoError(t, err, "block %v cell %d,%d,%d", p, px, py, pz)
		if m.IsMaster() {
			masters++
			assert.Equal(t, tank.Master(), p)
			assert.Equal(t, tank.Water, m.Amount())
			assert.Equal(t, ironTankCapacity, m.Capacity())
		}
	})
	assert.Equal(t, 1, masters)

	fl, err := modnet.DecodeFluidIDMap(ForgeFluidIDMap())
	require.NoError(t, err)
	assert.Equal(t, map[int32]string{waterFluidID: "water", lavaFluidID: "lava", creosoteFluidID: "creosote"}, fl.Names)
	assert.Len(t, fl.Defaults, 3)
}

// TestTankClicksWithOtherContainers: FluidHelper.handleRightClick with the
// other fluid containers the server knows. A lava bucket on the empty water
// tank (a FilteredTank of water) pours nothing and the GUI opens; on an empty
// iron tank it pours in and comes back empty, and so does GregTech's lava
// cell, which leaves an empty cell; an empty bucket takes a bucket of lava
// out, and the master sends its data, naming lava, after each.
func TestTankClicksWithOtherContainers(t *testing.T) {
	o := Options{Inventory: []Item{{Slot: 36, Name: "minecraft:lava_bucket", Count: 1},
		{Slot: 37, Name: MetaItem, Damage: 30700, Count: 1}, {Slot: 38, Name: "minecraft:bucket", Count: 1}}}
	SteamAge(&o)
	o.WaterTanks[0].Water = 0
	iron := IronTank{X: 20, Y: 64, Z: 12}
	o.IronTanks = []IronTank{iron}
	s := newServer(t, o)
	c, _ := enter(t, s, "bot")
	id := func(name string) int16 { n, ok := s.IDs().ItemID(name); require.True(t, ok); return int16(n) }
	click := func(p world.BlockPos) {
		c.write(&proto17.PlayerBlockPlacement{X: int32(p.X), Y: uint8(p.Y), Z: int32(p.Z), Face: proto17.FaceNorth})
	}
	contents := func(master world.BlockPos) (string, int) {
		f, a, ok := s.TankContents(master)
		require.True(t, ok)
		return f, a
	}

	c.moveTo(15.5, 64, 10.5)
	click(world.Pos(15, 65, 12))
	g := c.openGui()
	assert.Equal(t, int32(20), g.GuiID, "the water tank takes no lava: its GUI opens")
	f, a := contents(o.WaterTanks[0].Master())
	assert.Equal(t, "", f)
	assert.Zero(t, a)
	c.write(&proto17.ServerboundCloseWindow{WindowID: uint8(g.WindowID)})

	c.moveTo(21.5, 64, 10.5)
	gauge := world.Pos(21, 65, 12)
	master := func() modnet.MetalTank {
		t.Helper()
		p := c.until("the iron tank master's data", func(p proto17.Packet) bool {
			pm, ok := p.(*proto17.PluginMessage)
			return ok && pm.Channel == modnet.RailcraftChannel && len(pm.Data) > 0 && pm.Data[0] == modnet.RCTileEntity
		})
		tile, err := modnet.DecodeRCTile(p.(*proto17.PluginMessage).Data)
		require.NoError(t, err)
		m, err := modnet.DecodeMetalTank(tile)
		require.NoError(t, err)
		return m
	}
	for _, step := range []struct {
		hotbar int16
		after  proto17.Slot
		amount int
	}{
		{0, proto17.Slot{ID: id("minecraft:bucket"), Count: 1}, 1000},
		{1, proto17.Slot{ID: id(EmptyCell), Count: 1}, 2000},
		{2, proto17.Slot{ID: id("minecraft:lava_bucket"), Count: 1}, 1000},
	} {
		c.write(&proto17.ServerboundHeldItemChange{Slot: step.hotbar})
		click(gauge)
		ss := untilType[*proto17.SetSlot](c)
		assert.Equal(t, step.after, ss.Item, "hotbar %d", step.hotbar)
		f, a := contents(iron.Master())
		assert.Equal(t, "lava", f)
		assert.Equal(t, step.amount, a)
		m := master()
		require.True(t, m.IsMaster())
		require.NotNil(t, m.Fluid)
		assert.Equal(t, lavaFluidID, int(m.Fluid.ID))
		assert.Equal(t, step.amount, m.Amount())
	}
}
