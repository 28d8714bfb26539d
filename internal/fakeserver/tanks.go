package fakeserver

import (
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Railcraft water tanks, and the tank values Railcraft windows send
// (docs/gtnh-protocol.md). Sources are GTNewHorizons/Railcraft,
// mods/railcraft/common/...

// WaterTankBlock is a water tank block (Railcraft:machine.alpha metadata
// 14, EnumMachineAlpha.TANK_WATER).
const WaterTankBlock = "Railcraft:machine.alpha"

// WaterTank is a formed Railcraft water tank: a hollow 3×3×3 of 26 tank
// blocks whose lowest corner is X, Y, Z, holding Water mB of its 400 000.
// Its master is the bottom centre block (X+1, Y, Z+1), where its GUI
// opens; right-clicking any block with a water bucket pours the bucket in
// and with an empty bucket fills it (TileTankWater.blockActivated,
// FluidHelper.handleRightClick). It does not collect rain and has no
// neighbours to fill.
type WaterTank struct {
	X, Y, Z int
	Water   int
}

// Master is the position of the tank's master block.
func (t WaterTank) Master() world.BlockPos { return world.Pos(t.X+1, t.Y, t.Z+1) }

const (
	layoutTank = "railcraft_tank"
	// waterTankCapacity is TileTankWater.TANK_CAPACITY, mB.
	waterTankCapacity = 400_000
	// bucketMB is FluidHelper.BUCKET_VOLUME.
	bucketMB = 1000
	// waterFluidID is the Forge fluid id this server gives water (FluidRegistry
	// registers water first, as id 1; ids are the server's own).
	waterFluidID = 1
	// creosoteFluidID is the id it gives Railcraft's creosote.
	creosoteFluidID = 42
	// whiteColor is Fluid.getColor's default, the colour of water and
	// creosote.
	whiteColor = 0xFFFFFF
)

// tankCells calls f for the 26 blocks of a hollow 3×3×3 whose lowest
// corner is x, y, z, with their cell in Railcraft's pattern (1..3 each; the
// pattern has a one-cell border).
func tankCells(x, y, z int, f func(pos world.BlockPos, px, py, pz int)) {
	for dx := 0; dx < 3; dx++ {
		for dy := 0; dy < 3; dy++ {
			for dz := 0; dz < 3; dz++ {
				if dx == 1 && dy == 1 && dz == 1 {
					continue // the centre is air ('A' in the pattern)
				}
				f(world.Pos(x+dx, y+dy, z+dz), dx+1, dy+1, dz+1)
			}
		}
	}
}

// tankBlocks are the blocks of the world's water tanks.
func tankBlocks(o Options) []Block {
	var out []Block
	for _, t := range o.WaterTanks {
		tankCells(t.X, t.Y, t.Z, func(p world.BlockPos, _, _, _ int) {
			out = append(out, Block{X: p.X, Y: p.Y, Z: p.Z, Name: WaterTankBlock, Meta: modnet.WaterTankMachineID})
		})
	}
	return out
}

// addTanks makes a box for each water tank at its master and maps its
// blocks to the master.
func (m *modWorld) addTanks(o Options, newBox func(world.BlockPos, string) *box) error {
	if err := m.addIronTanks(o, newBox); err != nil {
		return err
	}
	m.tanks = o.WaterTanks
	for _, t := range o.WaterTanks {
		if t.Water < 0 || t.Water > waterTankCapacity {
			return fmt.Errorf("fakeserver: water tank at %d,%d,%d holds %d mB, outside 0..%d", t.X, t.Y, t.Z, t.Water, waterTankCapacity)
		}
		b := newBox(t.Master(), layoutTank)
		b.water, b.capacity = t.Water, waterTankCapacity
		tankCells(t.X, t.Y, t.Z, func(p world.BlockPos, _, _, _ int) { m.bricks[p] = t.Master() })
	}
	return nil
}

// RailcraftWaterTank is an RC TILE_ENTITY payload of a water tank block at
// x, y, z, cell (px, py, pz) of a formed tank (PacketTileEntity.writeData;
// TileMultiBlock.writePacketData: hasMaster, pattern 0, the cell; then
// TileTank.writePacketData: the block's own tank, TankManager
// .writePacketData). Only the master's tank holds the water; water < 0 is
// an empty tank (fluid id -1).
func RailcraftWaterTank(x, y, z, px, py, pz int, water int) []byte {
	b := []byte{modnet.RCTileEntity}
	b = be32(b, int32(x))
	b = be32(b, int32(y))
	b = be32(b, int32(z))
	b = be16(b, modnet.WaterTankMachineID)
	b = append(b, 1, 0, byte(px), byte(py), byte(pz))
	if water <= 0 {
		// A tank whose fluid is null writes -1 (an emptied FluidTank sets
		// its fluid to null when drained to 0).
		return be16(b, -1)
	}
	b = be16(b, waterFluidID)
	b = be32(b, int32(water))
	return be32(b, whiteColor)
}

// tankPacketsLocked are the tile messages of the tank blocks in the given
// columns (see modPacketsLocked): every block's, the master's with the
// water it holds now. s.mu is held.
func (s *Server) tankPacketsLocked(in func(x, z int) bool) []proto17.Packet {
	var out []proto17.Packet
	m := s.mods
	for _, t := range m.tanks {
		water := m.boxes[t.Master()].water
		tankCells(t.X, t.Y, t.Z, func(p world.BlockPos, px, py, pz int) {
			if !in(p.X, p.Z) {
				return
			}
			w := -1
			if p == t.Master() {
				w = water
			}
			out = append(out, &proto17.PluginMessage{Channel: modnet.RailcraftChannel,
				Data: RailcraftWaterTank(p.X, p.Y, p.Z, px, py, pz, w)})
		})
	}
	return out
}

// fluidItem is an item stack kind: a registry name and its damage.
type fluidItem struct {
	name   string
	damage int
}

// filledContainers are the full fluid containers this server's
// FluidContainerRegistry knows, with the fluid (a bucket's worth, 1000 mB)
// and the empty container they leave: Forge 1.7.10 registers the water and
// lava buckets (FluidContainerRegistry's static block); GregTech registers
// its cells, gt.metaitem.01 damage 30000 + the material's id
// (GT_MetaGenerated_Item_01's prefix list has cell 31st; Materials.Lava is
// 700), emptied into IC2's empty cell (ItemList.Cell_Empty).
var filledContainers = map[fluidItem]struct {
	fluid string
	empty fluidItem
}{
	{"minecraft:water_bucket", 0}: {"water", fluidItem{"minecraft:bucket", 0}},
	{"minecraft:lava_bucket", 0}:  {"lava", fluidItem{"minecraft:bucket", 0}},
	{MetaItem, 30700}:             {"lava", fluidItem{EmptyCell, 0}},
}

// filledWith returns the full container an empty one becomes with a fluid
// (FluidContainerRegistry.fillFluidContainer).
func filledWith(empty fluidItem, fluid string) (fluidItem, bool) {
	for full, c := range filledContainers {
		if c.empty == empty && c.fluid == fluid {
			return full, true
		}
	}
	return fluidItem{}, false
}

// tankFluid is the fluid a tank box holds ("" when empty).
func (b *box) tankFluid() string {
	if b.water <= 0 {
		return ""
	}
	if b.fluid == "" {
		return "water"
	}
	return b.fluid
}

// tankClickLocked is FluidHelper.handleRightClick on a Railcraft tank
// (called from TileTankWater and TileTankBase.blockActivated with the
// tank's TankManager, so any side): a full container the tank takes
// (StandardTank.fill: its own fluid or any into an empty tank; the water
// tank is a FilteredTank of water) is poured in when the tank has room for
// any of it (the tank takes what fits; the container comes back empty); an
// empty container is filled from a tank holding a container's worth of a
// fluid it can hold. It reports whether the click was handled; otherwise
// (a full container the tank does not take included: handleRightClick
// tries the drain only for an item that is not full) the block opens its
// GUI (TileMachineBase.blockActivated).
func (c *conn) tankClickLocked(out *outbox, b *box) bool {
	s := c.s
	sl, held := c.heldLocked()
	slot := hotbarFirst + c.held
	item := fluidItem{held, int(sl.Damage)}
	put := func(it fluidItem) proto17.Slot {
		id, _ := s.ids.ItemID(it.name)
		return proto17.Slot{ID: int16(id), Count: 1, Damage: int16(it.damage)}
	}
	if full, ok := filledContainers[item]; ok {
		fluid := b.tankFluid()
		if fluid != "" && fluid != full.fluid || !b.metal && full.fluid != "water" {
			return false
		}
		used := min(bucketMB, b.capacity-b.water)
		if used <= 0 {
			return false
		}
		b.water += used
		b.fluid = full.fluid
		c.inv[slot] = put(full.empty)
	} else {
		fluid := b.tankFluid()
		filled, ok := filledWith(item, fluid)
		if !ok || b.water < bucketMB {
			return false
		}
		if sl.Count > 1 {
			// The filled container goes elsewhere and the stack shrinks.
			at, ok := c.addItemLocked(put(filled))
			if !ok {
				return false
			}
			out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(at), Item: c.inv[at]})
			sl.Count--
			c.inv[slot] = sl
		} else {
			c.inv[slot] = put(filled)
		}
		b.water -= bucketMB
	}
	if b.water == 0 {
		b.fluid = "" // an emptied FluidTank's fluid is null
	}
	out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(slot), Item: c.inv[slot]})
	if b.metal {
		// TileTankBase.blockActivated: master.syncClient, whose fluid
		// changed, sends the master's tile data.
		out.to(c, StageNone, ironMasterPacket(b))
	}
	s.notifyLocked()
	s.logf("conn %d: %s on the tank at %v: %d mB of %q", c.id, held, b.pos, b.water, b.tankFluid())
	return true
}

// heldFluidContainerLocked reports whether the player holds a fluid
// container, full or empty (Railcraft's FluidItemHelper.isContainer): one
// this server's registry knows (filledContainers), or one the shared item
// tags name so.
func (c *conn) heldFluidContainerLocked() bool {
	sl, name := c.heldLocked()
	if name == "" {
		return false
	}
	it := fluidItem{name, int(sl.Damage)}
	if _, ok := filledContainers[it]; ok {
		return true
	}
	for full, fc := range filledContainers {
		if fc.empty == it || full == it {
			return true
		}
	}
	for _, t := range rules.Default().Tags.ItemTags(name, int(sl.Damage)) {
		if t == "container_empty" || t == "container_water" || t == "fluid_container" {
			return true
		}
	}
	return false
}

// railcraftTankGui sends what a Railcraft window with a tank sends after
// its slots when it opens (TankManager.initGuiData for tank 0, from
// addCraftingToCrafters): window property 0 the fluid id (-1 when empty),
// RC GUI_INTEGER 1 the amount (0 when empty) and 2 the colour; for the coke
// oven also properties 10 and 11, the cook times (ContainerCokeOven), which
// this oven, which does not cook, has at 0.
func railcraftTankGui(out *outbox, c *conn, w *openWindow) {
	var amount, fluid int
	switch w.box.layout.Kind {
	case layoutTank:
		amount, fluid = w.box.water, int(fluidID(w.box.tankFluid()))
	case layoutCokeOven:
		amount, fluid = w.box.creosote, creosoteFluidID
	default:
		return
	}
	if amount <= 0 {
		amount, fluid = 0, -1
	}
	out.add(windowProperty(c, w.id, 0, fluid))
	for i, v := range [][2]int32{{1, int32(amount)}, {2, whiteColor}} {
		stage := StageNone
		if i == 0 {
			stage = StageTankGui
		}
		out.to(c, stage, &proto17.PluginMessage{Channel: modnet.RailcraftChannel, Data: RailcraftGuiInteger(w.id, uint8(v[0]), v[1])})
	}
	if w.box.layout.Kind == layoutCokeOven {
		out.add(windowProperty(c, w.id, 10, 0), windowProperty(c, w.id, 11, 0))
	}
}

// windowProperty is a vanilla Window Property packet (0x31,
// S31PacketWindowProperty: u8 window, i16 property, i16 value).
func windowProperty(c *conn, window uint8, property, value int) outgoing {
	return outgoing{c: c, p: &proto17.WindowProperty{WindowID: window, Property: int16(property), Value: int16(value)}}
}

// RailcraftGuiInteger is an RC GUI_INTEGER payload (PacketGuiInteger
// .writeData: u8 window id, u8 data id, i32 value).
func RailcraftGuiInteger(window, dataID uint8, value int32) []byte {
	return be32([]byte{modnet.RCGuiInteger, window, dataID}, value)
}

// TankWater returns the water in mB of the water or iron tank whose
// master is at pos (0 when it holds another fluid).
func (s *Server) TankWater(pos world.BlockPos) (int, bool) {
	fluid, amount, ok := s.TankContents(pos)
	if fluid != "water" {
		amount = 0
	}
	return amount, ok
}

// TankContents returns the fluid ("" when empty) and its amount in mB of
// the water or iron tank whose master is at pos.
func (s *Server) TankContents(pos world.BlockPos) (string, int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.mods.boxes[pos]
	if !ok || b.layout.Kind != layoutTank {
		return "", 0, false
	}
	return b.tankFluid(), b.water, true
}

// The server's Forge fluid registry: the ids it gave its fluids at start-up
// (FluidRegistry; water and lava are registered first).
var fluidRegistry = []struct {
	name, defaultName string
	id                int32
}{
	{"water", "minecraft:water", waterFluidID},
	{"lava", "minecraft:lava", lavaFluidID},
	{"creosote", "railcraft:creosote", creosoteFluidID},
}

// lavaFluidID is the Forge fluid id this server gives lava.
const lavaFluidID = 2

// fluidID is the id this server gives a fluid by name: -1 for none ("")
// or a fluid it does not register.
func fluidID(name string) int32 {
	for _, f := range fluidRegistry {
		if f.name == name {
			return f.id
		}
	}
	return -1
}

// ForgeFluidIDMap is the FORGE channel payload of the server's fluid id
// map (ForgeRuntimeCodec discriminator 2, ForgeMessage.FluidIdMapMessage
// .toBytes of Forge 10.13.4.1614: i32 count, count × (FML string name, i32
// id), then count × FML string default name).
func ForgeFluidIDMap() []byte {
	b := be32([]byte{2}, int32(len(fluidRegistry)))
	for _, f := range fluidRegistry {
		b = fmlString(b, f.name)
		b = be32(b, f.id)
	}
	for _, f := range fluidRegistry {
		b = fmlString(b, f.defaultName)
	}
	return b
}

// fmlString is ByteBufUtils.writeUTF8String: a VarInt length, then UTF-8.
func fmlString(b []byte, s string) []byte {
	n := uint32(len(s))
	for n >= 0x80 {
		b = append(b, byte(n)|0x80)
		n >>= 7
	}
	return append(append(b, byte(n)), s...)
}

// MetalTankBlock is the block of Railcraft's iron and steel tanks
// (Railcraft:machine.beta; metadata 0 iron wall, 1 iron gauge,
// EnumMachineBeta TANK_IRON_WALL and TANK_IRON_GAUGE).
const MetalTankBlock = "Railcraft:machine.beta"

const (
	ironWallMeta  = 0
	ironGaugeMeta = 1
	// ironTankCapacity is pattern 0's: 3 × 3 × 4 blocks inside × 16
	// buckets (TileTankBase.onPatternLock, CAPACITY_PER_BLOCK_IRON).
	ironTankCapacity = 3 * 3 * 4 * 16 * bucketMB
	// whitePaint is EnumColor.WHITE's ordinal, a tank block's colour
	// until it is painted.
	whitePaint = 15
)

// IronTank is a formed Railcraft iron tank of the smallest pattern
// (TileTankBase pattern 0: 3×3 inside, 4 high, the server allowing tanks
// to stack, its default): 34 blocks whose lowest corner is X, Y, Z (full
// bottom and top layers, rings between, the middle layers' side centres
// gauges), holding Water mB of its 576 000 of Fluid (a name in the
// server's fluid registry: water when empty, lava, creosote). Its master is
// the bottom centre block (X+1, Y, Z+1), where its GUI opens; a full fluid
// container the tank takes used on any block pours in and an empty one
// takes a container's worth out (TileTankBase.blockActivated,
// FluidHelper.handleRightClick), after which the master sends its tile
// data (syncClient).
type IronTank struct {
	X, Y, Z int
	Water   int
	Fluid   string
}

// Master is the position of the tank's master block.
func (t IronTank) Master() world.BlockPos { return world.Pos(t.X+1, t.Y, t.Z+1) }

// ironTankCells calls f for the tank's blocks with their cell in pattern 0
// (x and z 1..3, y 0..3) and metadata.
func ironTankCells(x, y, z int, f func(pos world.BlockPos, px, py, pz, meta int)) {
	for dy := 0; dy < 4; dy++ {
		for dx := 0; dx < 3; dx++ {
			for dz := 0; dz < 3; dz++ {
				middle := dy == 1 || dy == 2
				if middle && dx == 1 && dz == 1 {
					continue // 'A': air inside
				}
				meta := ironWallMeta
				if middle && (dx == 1) != (dz == 1) {
					meta = ironGaugeMeta // 'W': a gauge or valve
				}
				f(world.Pos(x+dx, y+dy, z+dz), dx+1, dy, dz+1, meta)
			}
		}
	}
}

// ironTankBlocks are the blocks of the world's iron tanks.
func ironTankBlocks(o Options) []Block {
	var out []Block
	for _, t := range o.IronTanks {
		ironTankCells(t.X, t.Y, t.Z, func(p world.BlockPos, _, _, _, meta int) {
			out = append(out, Block{X: p.X, Y: p.Y, Z: p.Z, Name: MetalTankBlock, Meta: meta})
		})
	}
	return out
}

// addIronTanks makes a box for each iron tank at its master and maps its
// blocks to the master.
func (m *modWorld) addIronTanks(o Options, newBox func(world.BlockPos, string) *box) error {
	m.irons = o.IronTanks
	for _, t := range o.IronTanks {
		if t.Water < 0 || t.Water > ironTankCapacity {
			return fmt.Errorf("fakeserver: iron tank at %d,%d,%d holds %d mB, outside 0..%d", t.X, t.Y, t.Z, t.Water, ironTankCapacity)
		}
		if t.Fluid != "" && fluidID(t.Fluid) < 0 {
			return fmt.Errorf("fakeserver: iron tank at %d,%d,%d holds %q, not in the fluid registry", t.X, t.Y, t.Z, t.Fluid)
		}
		b := newBox(t.Master(), layoutTank)
		b.water, b.capacity, b.metal = t.Water, ironTankCapacity, true
		if t.Fluid != "water" {
			b.fluid = t.Fluid
		}
		ironTankCells(t.X, t.Y, t.Z, func(p world.BlockPos, _, _, _, _ int) { m.bricks[p] = t.Master() })
	}
	return nil
}

// RailcraftIronTank is an RC TILE_ENTITY payload of an iron tank block at
// x, y, z with metadata meta, cell (px, py, pz) of a formed pattern-0 tank
// (TileMultiBlock.writePacketData: hasMaster, pattern 0, the cell; then
// TileTankBase.writePacketData: the colour byte, white, and the block's
// own tank). water ≤ 0 is an empty tank (fluid id -1).
func RailcraftIronTank(x, y, z, meta, px, py, pz int, water int) []byte {
	return railcraftIronTank(x, y, z, meta, px, py, pz, waterFluidID, water)
}

// railcraftIronTank is RailcraftIronTank of a tank holding amount mB of
// the fluid with id fluid.
func railcraftIronTank(x, y, z, meta, px, py, pz int, fluid int32, amount int) []byte {
	b := []byte{modnet.RCTileEntity}
	b = be32(b, int32(x))
	b = be32(b, int32(y))
	b = be32(b, int32(z))
	b = be16(b, int16(meta))
	b = append(b, 1, 0, byte(px), byte(py), byte(pz), whitePaint)
	if amount <= 0 || fluid < 0 {
		return be16(b, -1)
	}
	b = be16(b, int16(fluid))
	b = be32(b, int32(amount))
	return be32(b, whiteColor)
}

// ironMasterPacket is the tile message of an iron tank's master (cell 2,
// 0, 2, a wall block) with the fluid its box holds now.
func ironMasterPacket(b *box) *proto17.PluginMessage {
	return &proto17.PluginMessage{Channel: modnet.RailcraftChannel,
		Data: railcraftIronTank(b.pos.X, b.pos.Y, b.pos.Z, ironWallMeta, 2, 0, 2, fluidID(b.tankFluid()), b.water)}
}

// ironTankPacketsLocked are the tile messages of the iron tank blocks in
// the given columns: every block's, the master's with its water. s.mu is
// held.
func (s *Server) ironTankPacketsLocked(in func(x, z int) bool) []proto17.Packet {
	var out []proto17.Packet
	m := s.mods
	for _, t := range m.irons {
		b := m.boxes[t.Master()]
		fluid := fluidID(b.tankFluid())
		ironTankCells(t.X, t.Y, t.Z, func(p world.BlockPos, px, py, pz, meta int) {
			if !in(p.X, p.Z) {
				return
			}
			w := -1
			if p == t.Master() {
				w = b.water
			}
			out = append(out, &proto17.PluginMessage{Channel: modnet.RailcraftChannel,
				Data: railcraftIronTank(p.X, p.Y, p.Z, meta, px, py, pz, fluid, w)})
		})
	}
	return out
}
