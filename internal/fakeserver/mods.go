package fakeserver

import (
	"encoding/binary"
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// The steam-age part of the fake world: Railcraft coke ovens, GregTech coal
// boilers, chests behind GUIs and GregTech ores, told to the client through
// the mod channels a GTNH server uses (docs/gtnh-protocol.md): Railcraft's
// RC tile messages, GregTech's TILE_ENTITY and ORES, FML's OpenGui. The
// windows these open hold the server's own state, which clicks change.

// Modded blocks and items of the steam-age world.
const (
	// CokeOvenBlock is the coke oven brick (Railcraft:machine.alpha
	// metadata 7, EnumMachineAlpha.COKE_OVEN).
	CokeOvenBlock = "Railcraft:machine.alpha"
	// IronChestBlock is an Iron Chest (metadata 0, the iron chest).
	IronChestBlock = "IronChest:BlockIronChest"
	// CokeItem is coal coke.
	CokeItem = "Railcraft:fuel.coke"
)

// CokeOven is a formed Railcraft coke oven: a hollow 3×3×3 of 26 bricks
// whose lowest corner is X, Y, Z. Its master is the bottom centre brick
// (X+1, Y, Z+1), where its GUI opens. Input and Output are what its slots
// hold at the start (Slot unused; an empty Name for none), Creosote the mB
// in its tank, which its window sends.
type CokeOven struct {
	X, Y, Z       int
	Input, Output Item
	Creosote      int
}

// Master is the position of the oven's master brick.
func (o CokeOven) Master() world.BlockPos { return world.Pos(o.X+1, o.Y, o.Z+1) }

// Boiler is a GregTech coal boiler at X, Y, Z: the bronze small coal
// boiler (meta tile entity 100) or, with Steel, the steel high pressure coal
// boiler (101). Water and Steam are in mB and Fuel is in its fuel slot. It
// does not heat up or burn its fuel: Boiling says whether it makes steam
// (above 100 °C with water), which its tile message's update byte tells
// (MTEBoiler.getUpdateData). Temperature is the °C its window shows (20,
// the ambient MTEBoiler starts at, when 0).
type Boiler struct {
	X, Y, Z      int
	Water, Steam int
	Temperature  int
	Fuel         Item
	Boiling      bool
	Steel        bool
}

// coalBoiler is what differs between the two coal boilers (GT5-Unofficial
// gregtech/common/tileentities/boilers): the meta tile entity id, the
// water and steam tanks (getCapacity, mB; MTEBoiler 16 000, MTEBoilerSteel
// 32 000) and the temperature bar's scale (maxProgresstime; MTEBoiler 500,
// MTEBoilerSteel 1000).
type coalBoiler struct {
	meta      int16
	capacity  int
	tempScale int
}

var (
	bronzeBoiler = coalBoiler{meta: 100, capacity: 16000, tempScale: 500}
	steelBoiler  = coalBoiler{meta: 101, capacity: 32000, tempScale: 1000}
)

func (b Boiler) kind() coalBoiler {
	if b.Steel {
		return steelBoiler
	}
	return bronzeBoiler
}

// Chest is a chest at X, Y, Z: an Iron Chest (54 slots, opened by FML
// OpenGui) or, with Vanilla, a vanilla chest (27 slots, Open Window).
// Items go in its slots (Slot is the chest slot).
type Chest struct {
	X, Y, Z int
	Vanilla bool
	Items   []Item
}

// Ore is a GregTech ore at X, Y, Z. Up to GregTech 5.09.51 it is
// gregtech:gt.blockores, whose block metadata is the harvest level, and its
// material comes in an ORES message; when the server's gregtech version
// reads ores from metadata (5.09.52.25 on) it is gregtech:gt.blockores2 with
// the material, stone and small flag in its metadata.
type Ore struct {
	X, Y, Z  int
	Material int // GregTech material id (35 copper)
	Stone    int // 0 stone, 1 netherrack, …
	Small    bool
}

// SteamAge is a steam-age base near the default spawn: a formed coke oven
// with coal coke in its output, a bronze coal boiler with water, an Iron
// Chest and a vanilla chest, and a vein of copper ore (with one small ore
// and one netherrack ore) below the ground, and a Railcraft water tank
// holding 20 000 mB (of 400 000), farther from the spawn than the boiler.
func SteamAge(o *Options) {
	g := o.GroundY
	if g == 0 {
		g = 63
	}
	o.CokeOvens = []CokeOven{{X: 2, Y: g + 1, Z: 0, Output: Item{Name: CokeItem, Count: 12}}}
	o.Boilers = []Boiler{{X: 13, Y: g + 1, Z: 2, Water: 6000, Boiling: true}}
	o.WaterTanks = []WaterTank{{X: 14, Y: g + 1, Z: 12, Water: 20000}}
	o.Chests = []Chest{{X: 6, Y: g + 1, Z: 12, Items: []Item{{Slot: 3, Name: "minecraft:coal", Count: 20}}},
		{X: 10, Y: g + 1, Z: 12, Vanilla: true}}
	o.Ores = []Ore{
		{X: 8, Y: g - 8, Z: 4, Material: 35}, {X: 9, Y: g - 8, Z: 4, Material: 35}, {X: 8, Y: g - 9, Z: 4, Material: 35},
		{X: 9, Y: g - 9, Z: 4, Material: 35, Small: true}, {X: 8, Y: g - 8, Z: 5, Material: 35, Stone: modnet.StoneNetherrack},
	}
}

// Slot names of the containers (config/containers.yaml).
const (
	layoutCokeOven = "railcraft_coke_oven"
	layoutBoiler   = "gregtech_coal_boiler"
	layoutIron     = "iron_chest_iron"
	layoutVanilla  = "vanilla_chest"
	// moduiGuiID is the gui id this server's ModularUI registered its
	// GregTech windows under (assigned at start-up on a real server).
	moduiGuiID = 3
)

// box is the server's state of one container block: its slots by
// container slot, and its layout.
type box struct {
	pos    world.BlockPos
	layout modnet.ContainerLayout
	slots  []proto17.Slot // the container's own slots, by window slot; player slots unused
	water  int            // a boiler's or a water tank's water, mB; an iron tank's fluid
	// fluid is what an iron tank holds when not water ("" for water or
	// nothing; see tankFluid).
	fluid string
	// capacity is a tank's capacity, mB; metal marks an iron tank.
	capacity int
	metal    bool
	steam    int
	temp     int
	boiler   coalBoiler // a boiler's kind
	// creosote is a coke oven's creosote, mB; cookTime its current item's
	// progress, ticks.
	creosote int
	cookTime int
	// cooking and finishedAt are a coke oven's TileMultiBlockOven cooking
	// flag and the clock tick its last item finished.
	cooking    bool
	finishedAt int64
	// furnace is a vanilla furnace's tile state (nil for other boxes).
	furnace *furnace
	// station is a Tinkers' station's tile state (nil for other boxes).
	station *station
}

// modWorld is the mod state of the fake world; guarded by Server.mu.
type modWorld struct {
	data   *modnet.Data
	boxes  map[world.BlockPos]*box           // by GUI position
	bricks map[world.BlockPos]world.BlockPos // coke oven brick → its master
	ovens  []CokeOven
	tanks  []WaterTank
	irons  []IronTank
	boils  []Boiler
	ores   []Ore
	window uint8 // the last window id used
}

// modBlocks are the blocks of the steam-age world.
func modBlocks(o Options) ([]Block, error) {
	var out []Block
	for _, ov := range o.CokeOvens {
		for dx := 0; dx < 3; dx++ {
			for dy := 0; dy < 3; dy++ {
				for dz := 0; dz < 3; dz++ {
					if dx == 1 && dy == 1 && dz == 1 {
						continue // hollow
					}
					out = append(out, Block{X: ov.X + dx, Y: ov.Y + dy, Z: ov.Z + dz, Name: CokeOvenBlock, Meta: modnet.CokeOvenMachineID})
				}
			}
		}
	}
	for _, b := range o.Boilers {
		out = append(out, Block{X: b.X, Y: b.Y, Z: b.Z, Name: MachineBlock, Meta: 1})
	}
	out = append(out, tankBlocks(o)...)
	out = append(out, ironTankBlocks(o)...)
	for _, c := range o.Chests {
		name := IronChestBlock
		if c.Vanilla {
			name = "minecraft:chest"
		}
		out = append(out, Block{X: c.X, Y: c.Y, Z: c.Z, Name: name})
	}
	metaOres := gtFormats(o.Mods).Ores == modnet.OreSourceMetadata
	for _, r := range o.Ores {
		if metaOres {
			// GTOreAdapter.getBlock: material + 1000 × stone (+16000 small,
			// +8000 natural) on gt.blockores2, whose stones 0-6 are the
			// legacy ones.
			b := modnet.OreBlock{Series: 2, StoneIndex: r.Stone, Natural: true,
				Ore: modnet.Ore{Material: r.Material, Stone: r.Stone, Small: r.Small}}
			out = append(out, Block{X: r.X, Y: r.Y, Z: r.Z, Name: OreBlock2, Meta: b.Meta()})
			continue
		}
		out = append(out, Block{X: r.X, Y: r.Y, Z: r.Z, Name: OreBlock, Meta: 1})
	}
	return out, nil
}

// newModWorld builds the containers of the steam-age world.
func newModWorld(o Options, ids *rules.IDMap) (*modWorld, error) {
	d, err := modnet.DefaultData()
	if err != nil {
		return nil, fmt.Errorf("fakeserver: mod data: %w", err)
	}
	m := &modWorld{data: d, boxes: map[world.BlockPos]*box{}, bricks: map[world.BlockPos]world.BlockPos{},
		ovens: o.CokeOvens, boils: o.Boilers, ores: o.Ores}
	stack := func(it Item) (proto17.Slot, error) {
		if it.Name == "" {
			return proto17.Slot{}, nil
		}
		id, ok := ids.ItemID(it.Name)
		if !ok {
			return proto17.Slot{}, fmt.Errorf("fakeserver: item %q is not in the registry", it.Name)
		}
		return proto17.Slot{ID: int16(id), Count: int32(it.Count), Damage: int16(it.Damage)}, nil
	}
	newBox := func(pos world.BlockPos, kind string) *box {
		l := d.Containers[kind]
		b := &box{pos: pos, layout: l, slots: make([]proto17.Slot, l.Size)}
		m.boxes[pos] = b
		return b
	}
	put := func(b *box, slot string, it Item) error {
		i, ok := b.layout.Slot(slot)
		if !ok {
			return fmt.Errorf("fakeserver: %s has no slot %q", b.layout.Kind, slot)
		}
		st, err := stack(it)
		b.slots[i] = st
		return err
	}
	for _, ov := range o.CokeOvens {
		b := newBox(ov.Master(), layoutCokeOven)
		for dx := 0; dx < 3; dx++ {
			for dy := 0; dy < 3; dy++ {
				for dz := 0; dz < 3; dz++ {
					m.bricks[world.Pos(ov.X+dx, ov.Y+dy, ov.Z+dz)] = ov.Master()
				}
			}
		}
		b.creosote = ov.Creosote
		if err := put(b, "input", ov.Input); err != nil {
			return nil, err
		}
		if err := put(b, "output", ov.Output); err != nil {
			return nil, err
		}
	}
	for _, bo := range o.Boilers {
		b := newBox(world.Pos(bo.X, bo.Y, bo.Z), layoutBoiler)
		b.water, b.steam, b.temp, b.boiler = bo.Water, bo.Steam, bo.Temperature, bo.kind()
		if b.temp == 0 {
			b.temp = 20
		}
		if err := put(b, "fuel", bo.Fuel); err != nil {
			return nil, err
		}
	}
	if err := m.addTanks(o, newBox); err != nil {
		return nil, err
	}
	for _, c := range o.Chests {
		kind := layoutIron
		if c.Vanilla {
			kind = layoutVanilla
		}
		b := newBox(world.Pos(c.X, c.Y, c.Z), kind)
		chest := b.layout.Slots["chest"]
		for _, it := range c.Items {
			if it.Slot < 0 || it.Slot >= chest.Count {
				return nil, fmt.Errorf("fakeserver: chest at %d,%d,%d has no slot %d", c.X, c.Y, c.Z, it.Slot)
			}
			st, err := stack(it)
			if err != nil {
				return nil, err
			}
			b.slots[chest.First+it.Slot] = st
		}
	}
	return m, nil
}

// gtFormats are the GregTech formats this server writes: those of its
// gregtech version, or the newest known ones when the version is one a
// client would refuse (the messages are then for the client to skip).
func gtFormats(mods []proto17.ModInfo) modnet.GTFormats {
	for _, m := range mods {
		if m.ModID == "gregtech" {
			if f, err := modnet.GregTechFormats(m.Version); err == nil {
				if !f.Messages() {
					// The 5.09.52 line: ores from metadata; the machine
					// tiles go out in the newest known layout, for the
					// client to skip.
					f.Tile, f.BlockEvent = modnet.TileLayoutCompact, modnet.BlockEventBatched
				}
				return f
			}
		}
	}
	return modnet.GTFormats{Tile: modnet.TileLayoutCompact, BlockEvent: modnet.BlockEventBatched, Ores: modnet.OreSourcePacket}
}

// Payload writers (big-endian, as Java's DataOutput).
func be16(b []byte, v int16) []byte { return binary.BigEndian.AppendUint16(b, uint16(v)) }
func be32(b []byte, v int32) []byte { return binary.BigEndian.AppendUint32(b, uint32(v)) }

// GregTechTile is a GregTech TILE_ENTITY payload (GTPacketTileEntity): a
// machine with no covers, its common byte and update byte.
func GregTechTile(f modnet.GTFormats, x, y, z int, meta int16, common, update uint8) []byte {
	b := []byte{modnet.GTTileEntity}
	b = be32(b, int32(x))
	b = be16(b, int16(y))
	b = be32(b, int32(z))
	if f.Tile == modnet.TileLayoutRID {
		b = be16(b, 0)
	}
	b = be16(b, meta)
	for i := 0; i < 6; i++ {
		b = be32(b, 0)
	}
	b = append(b, common)
	if f.Tile == modnet.TileLayoutRID {
		b = append(b, 0)
	}
	return append(b, update, 0, 0)
}

// GregTechOres is a GregTech ORES payload (PacketOres).
func GregTechOres(x, y, z int, o modnet.Ore) []byte {
	b := []byte{modnet.GTOres}
	b = be32(b, int32(x))
	b = be16(b, int16(y))
	b = be32(b, int32(z))
	return be16(b, int16(o.Meta()))
}

// RailcraftCokeOven is an RC TILE_ENTITY payload of a coke oven brick at
// x, y, z whose oven's master is at master (PacketTileEntity,
// TileMultiBlock and TileMultiBlockOven writePacketData).
func RailcraftCokeOven(x, y, z int, master world.BlockPos, cookTime int32, cooking bool) []byte {
	b := []byte{modnet.RCTileEntity}
	b = be32(b, int32(x))
	b = be32(b, int32(y))
	b = be32(b, int32(z))
	b = be16(b, modnet.CokeOvenMachineID)
	// The brick's cell: the master is cell (2, 1, 2).
	b = append(b, 1, 0, byte(x-master.X+2), byte(y-master.Y+1), byte(z-master.Z+2))
	b = be32(b, cookTime)
	if cooking {
		return append(b, 1)
	}
	return append(b, 0)
}

// OpenGui is an FML OpenGui payload (FMLMessage.OpenGui).
func OpenGui(window int32, mod string, gui int32, x, y, z int) []byte {
	b := []byte{modnet.FMLOpenGui}
	b = be32(b, window)
	b = proto17.AppendVarInt(b, int32(len(mod)))
	b = append(b, mod...)
	b = be32(b, gui)
	b = be32(b, int32(x))
	b = be32(b, int32(y))
	return be32(b, int32(z))
}

// modPackets are the mod messages of the tiles in the given columns, sent
// right after the chunk packet that carries them, as a 1.7.10 server sends
// the tiles' description packets after the chunks (EntityPlayerMP.onUpdate):
// the coke oven bricks, boilers, water tanks and ores there. The mod
// world's layout does not change after New; the water a tank holds does,
// so s.mu is taken (modPacketsLocked is for callers that hold it).
func (s *Server) modPackets(cols map[chunk.ChunkPos]bool) []proto17.Packet {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.modPacketsLocked(cols)
}

// modPacketsLocked is modPackets with s.mu held (a column streamed in as
// the player moves).
func (s *Server) modPacketsLocked(cols map[chunk.ChunkPos]bool) []proto17.Packet {
	var out []proto17.Packet
	m := s.mods
	f := gtFormats(s.opts.Mods)
	in := func(x, z int) bool { return cols[chunk.ChunkPos{X: x >> 4, Z: z >> 4}] }
	for _, ov := range m.ovens {
		for dx := 0; dx < 3; dx++ {
			for dy := 0; dy < 3; dy++ {
				for dz := 0; dz < 3; dz++ {
					if dx == 1 && dy == 1 && dz == 1 || !in(ov.X+dx, ov.Z+dz) {
						continue
					}
					out = append(out, &proto17.PluginMessage{Channel: modnet.RailcraftChannel,
						Data: RailcraftCokeOven(ov.X+dx, ov.Y+dy, ov.Z+dz, ov.Master(), 0, false)})
				}
			}
		}
	}
	for _, bo := range m.boils {
		if !in(bo.X, bo.Z) {
			continue
		}
		var update uint8
		if bo.Boiling {
			update = 1
		}
		out = append(out, &proto17.PluginMessage{Channel: modnet.GregTechChannel,
			Data: GregTechTile(f, bo.X, bo.Y, bo.Z, bo.kind().meta, 2|64, update)})
	}
	out = append(out, s.tankPacketsLocked(in)...)
	out = append(out, s.ironTankPacketsLocked(in)...)
	for _, r := range m.ores {
		// Ores of the metadata format have no tile entity and no message.
		if f.Ores == modnet.OreSourcePacket && in(r.X, r.Z) {
			out = append(out, &proto17.PluginMessage{Channel: modnet.GregTechChannel,
				Data: GregTechOres(r.X, r.Y, r.Z, modnet.Ore{Material: r.Material, Stone: r.Stone, Small: r.Small})})
		}
	}
	return out
}

// openWindow is a container window a player has open.
type openWindow struct {
	id  uint8
	box *box
	// modui marks a ModularUI 1 window (a GregTech machine's). Its widget
	// values are synced as ModularUIContainer.detectAndSendChanges does:
	// none before the client's SYNC_INIT (ready), then every bar once
	// (ModularWindow's initSync), then those that changed since they were
	// last sent (bars).
	modui bool
	ready bool
	bars  []float32
	// sent and sentSlots are a furnace window's properties (cook, burn,
	// item burn) and slots as last sent (ContainerFurnace's last values).
	sent      []int
	sentSlots []proto17.Slot
	// outHeld is set while the output slot's change is held back
	// (Options.FurnaceOutputLag), first seen at server tick outSince.
	outHeld  bool
	outSince int
}

// slotLocked is the stack behind a window slot: the box's own slot or the
// player's inventory.
func (c *conn) slotLocked(w *openWindow, i int) *proto17.Slot {
	l := w.box.layout
	if i < 0 || i >= len(w.box.slots) {
		return nil
	}
	if r := l.Slots["player_main"]; i >= r.First && i < r.First+r.Count {
		return &c.inv[9+i-r.First]
	}
	if r := l.Slots["player_hotbar"]; i >= r.First && i < r.First+r.Count {
		return &c.inv[hotbarFirst+i-r.First]
	}
	return &w.box.slots[i]
}

// windowItemsLocked is the window's full content.
func (c *conn) windowItemsLocked(w *openWindow) *proto17.WindowItems {
	items := make([]proto17.Slot, len(w.box.slots))
	for i := range items {
		items[i] = *c.slotLocked(w, i)
	}
	return &proto17.WindowItems{WindowID: w.id, Items: items}
}

// useBlockLocked opens the GUI of a container block the player
// right-clicked, as the block's onBlockActivated does; it reports whether
// the block has one.
func (c *conn) useBlockLocked(out *outbox, clicked world.BlockPos) bool {
	s := c.s
	m := s.mods
	if c.openVanillaLocked(out, clicked) {
		return true
	}
	pos := clicked
	if master, ok := m.bricks[clicked]; ok {
		pos = master // TileCokeOven.openGui opens at the master
	}
	s.placedChestLocked(pos)
	s.placedStationLocked(pos)
	b, ok := m.boxes[pos]
	if !ok {
		return false
	}
	if c.pos.DistSq(clicked.Center()) >= 64 {
		return true // out of reach: nothing opens
	}
	if b.layout.Kind == layoutTank && c.tankClickLocked(out, b) {
		return true
	}
	if b.layout.Kind == layoutCokeOven && c.heldFluidContainerLocked() {
		return true // TileCokeOven.blockActivated: no GUI while a container is held
	}
	if b.layout.Kind == layoutBoiler {
		// MTEBoiler.onRightclick: a water bucket is poured in (1000 mB,
		// as far as it fits) and handed back empty; anything else opens
		// the GUI.
		if sl, held := c.heldLocked(); held == "minecraft:water_bucket" {
			b.water = min(b.water+1000*int(sl.Count), b.boiler.capacity)
			id, _ := s.ids.ItemID("minecraft:bucket")
			c.inv[hotbarFirst+c.held] = proto17.Slot{ID: int16(id), Count: 1}
			out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(hotbarFirst + c.held), Item: c.inv[hotbarFirst+c.held]})
			s.notifyLocked()
			s.logf("conn %d: poured a water bucket into the boiler at %v: %d mB", c.id, pos, b.water)
			return true
		}
	}
	m.window = m.window%100 + 1 // EntityPlayerMP.getNextWindowId
	s.opened++
	w := &openWindow{id: m.window, box: b}
	c.window = w
	open := b.layout.Open
	switch {
	case open.WindowType != nil:
		out.to(c, StageNone, &proto17.OpenWindow{WindowID: w.id, Type: uint8(*open.WindowType), Title: "container.chest", Slots: uint8(open.Size)})
	case open.Gui != nil:
		out.to(c, StageNone, &proto17.PluginMessage{Channel: modnet.FMLChannel, Data: OpenGui(int32(w.id), open.Mod, int32(*open.Gui), pos.X, pos.Y, pos.Z)})
	default:
		out.to(c, StageNone, &proto17.PluginMessage{Channel: modnet.FMLChannel, Data: OpenGui(int32(w.id), open.Mod, moduiGuiID, pos.X, pos.Y, pos.Z)})
	}
	out.to(c, StageNone, c.windowItemsLocked(w))
	if b.station != nil {
		w.sentSlots = append([]proto17.Slot(nil), b.slots[:ownSlots(b)]...)
	}
	// A ModularUI window's bars wait for the client's SYNC_INIT
	// (onModularUILocked).
	w.modui = b.layout.Kind == layoutBoiler
	railcraftTankGui(out, c, w)
	s.logf("conn %d: opened %s at %v as window %d", c.id, b.layout.Kind, pos, w.id)
	return true
}

// placedChestLocked gives a vanilla chest block that has no box yet (one a
// player placed) its 27 empty slots, as BlockChest.createNewTileEntity
// makes a TileEntityChest for it. A chest beside another is not joined into
// a large chest here (BlockChest.func_149951_m): each opens on its own.
func (s *Server) placedChestLocked(pos world.BlockPos) {
	if _, ok := s.mods.boxes[pos]; ok || s.blockName(s.stateAt(pos)) != "minecraft:chest" {
		return
	}
	l := s.mods.data.Containers[layoutVanilla]
	s.mods.boxes[pos] = &box{pos: pos, layout: l, slots: make([]proto17.Slot, l.Size)}
}

// boilerBars are the values of a boiler window's ProgressBars: the steam,
// water, temperature and fuel bars of MTEBoiler.addUIWidgets, sync ids 4 to
// 7 of window 0, as fractions of the boiler's tanks and of its
// maxProgresstime (the fuel bar, which the client does not read, as empty:
// this boiler burns nothing).
func boilerBars(b *box) []float32 {
	c := float32(b.boiler.capacity)
	return []float32{float32(b.steam) / c, float32(b.water) / c, float32(b.temp) / float32(b.boiler.tempScale), 0}
}

// firstBoilerBar is the sync id of a boiler window's first bar (steam).
const firstBoilerBar = 4

// onModularUILocked applies a client's ModularUI message (CWidgetUpdate),
// as CWidgetUpdate.executeServer and ModularUIContext.readClientPacket do:
// only while a ModularUI window is open (else it is dropped, "hopefully
// harmless ... network lag"), and of the context's own messages only
// SYNC_INIT for the main window (key 0) means anything here: the window is
// initialized and its first sync sends every bar. A payload that does not
// decode is dropped and logged (a real server logs the codec's exception).
func (c *conn) onModularUILocked(out *outbox, data []byte) {
	s := c.s
	u, err := modnet.DecodeClientWidgetUpdate(data)
	if err != nil {
		s.logf("conn %d: a ModularUI message that does not decode: %v", c.id, err)
		return
	}
	w := c.window
	if w == nil || !w.modui {
		return
	}
	if u.Widget != modnet.WidgetInternalSync || u.Code != modnet.CodeSyncInit || u.Window != 0 || w.ready {
		return
	}
	w.ready = true
	s.logf("conn %d: ModularUI window %d initialized by the client", c.id, w.id)
	c.moduiSyncLocked(out)
}

// moduiSyncLocked sends the open ModularUI window's bars that changed since
// they were last sent (all of them on the window's first sync; only a
// ModularUI window is ever ready, onModularUILocked), as
// ModularUIContainer.detectAndSendChanges does every tick once the window is
// initialized; with Options.ModularUI ModularUISilent it sends none.
func (c *conn) moduiSyncLocked(out *outbox) {
	w := c.window
	if w == nil || !w.ready || c.s.opts.ModularUI == ModularUISilent {
		return
	}
	bars := boilerBars(w.box)
	for i, v := range bars {
		if w.bars != nil && w.bars[i] == v {
			continue
		}
		stage := StageNone
		if firstBoilerBar+i == 5 {
			stage = StageBoilerGui // the water bar
		}
		p := modnet.EncodeWidgetUpdate(modnet.WidgetUpdate{Widget: int32(firstBoilerBar + i), Data: modnet.ProgressBarData(v)})
		out.to(c, stage, &proto17.PluginMessage{Channel: modnet.ModularUIChannel, Data: p})
	}
	w.bars = bars
}

// takesOnly are the slots a player cannot put anything into (Railcraft's
// SlotOutput, GregTech's output slots).
var takesOnly = map[string]map[string]bool{
	layoutCokeOven:  {"output": true, "container_output": true},
	layoutTank:      {"output": true},
	layoutBoiler:    {"fluid_out": true, "ash": true},
	layoutFurnace:   {"output": true}, // SlotFurnace
	layoutWorkbench: {"result": true},
	// SlotOnlyTake and SlotTool.
	layoutStencil:     {"pattern": true},
	layoutPartBuilder: {"part": true, "shard": true, "part_bottom": true, "shard_bottom": true},
	layoutToolStation: {"tool": true},
}

// slotName is the layout's name of a box slot ("" for none).
func slotName(l modnet.ContainerLayout, i int) string {
	for name, r := range l.Slots {
		if i >= r.First && i < r.First+r.Count {
			return name
		}
	}
	return ""
}

// clickLocked applies a mode-0 click in the window the player has open as
// 1.7.10's Container.slotClick does, after checking that the client's view
// of the slot matches the server's (NetHandlerPlayServer.processClickWindow
// clicks only the player's openContainer, whose id must be the packet's, and
// compares the packet's stack with the one slotClick returns: the slot's
// before the click). With no container open that is the player's own window
// (window 0, ContainerPlayer), of which the main (9-35) and hotbar (36-44)
// slots, plain slots taking anything, are modelled; the crafting result and
// grid (0-4) and the armour slots (5-8) are not, and clicks on them are
// refused. It reports whether the click was accepted.
func (c *conn) clickLocked(p *proto17.ClickWindow) bool {
	if p.Mode == 2 {
		return c.swapClickLocked(p)
	}
	if p.Mode != 0 || (p.Button != 0 && p.Button != 1) {
		return false
	}
	var sl *proto17.Slot
	outputOnly := false
	switch w := c.window; {
	case w == nil && p.WindowID == 0:
		sl = c.playerWindowSlotLocked(int(p.Slot))
	case w != nil && w.id == p.WindowID:
		sl = c.slotLocked(w, int(p.Slot))
		outputOnly = takesOnly[w.box.layout.Kind][slotName(w.box.layout, int(p.Slot))]
	}
	if sl == nil || !sameStack(*sl, p.Clicked) {
		return false
	}
	grid, isGrid := c.gridLocked(p.WindowID)
	if isGrid && sl == grid.result {
		c.takeResultLocked(grid)
		return true
	}
	if w := c.window; w != nil && w.box.station != nil && stationOutput(w.box, int(p.Slot)) {
		c.takeStationLocked(w.box, int(p.Slot))
		c.clickedFurnaceLocked()
		return true
	}
	defer func() {
		if isGrid {
			c.s.updateResultLocked(grid) // onCraftMatrixChanged
		}
		if w := c.window; w != nil && w.box.station != nil {
			c.s.stationChangedLocked(w.box, int(p.Slot))
		}
		c.clickedFurnaceLocked()
	}()
	cur := &c.cursor
	limit := func(st proto17.Slot) int32 { return int32(maxStack(c.s.itemOf(0, st).Name)) }
	switch {
	case sl.Empty() && cur.Empty():
	case cur.Empty():
		take := sl.Count
		if p.Button == 1 {
			take = (sl.Count + 1) / 2
		}
		*cur = *sl
		cur.Count = take
		sl.Count -= take
		if sl.Count == 0 {
			*sl = proto17.Slot{}
		}
	case outputOnly:
		// Only taking: onto the cursor when the stacks merge.
		if sl.Empty() || !sameItemFS(*sl, *cur) || cur.Count+sl.Count > limit(*cur) {
			return true
		}
		cur.Count += sl.Count
		*sl = proto17.Slot{}
	case sl.Empty():
		n := cur.Count
		if p.Button == 1 {
			n = 1
		}
		*sl = *cur
		sl.Count = n
		cur.Count -= n
	case sameItemFS(*sl, *cur):
		n := cur.Count
		if p.Button == 1 {
			n = 1
		}
		n = min(n, limit(*sl)-sl.Count)
		sl.Count += n
		cur.Count -= n
	default:
		*sl, *cur = *cur, *sl
	}
	if cur.Count <= 0 {
		*cur = proto17.Slot{}
	}
	return true
}

// swapClickLocked applies a mode-2 click (a number key: the slot and
// hotbar slot Button swap), as Container.slotClick does for a slot that
// takes anything; its packet carries no stack (slotClick returns null for
// mode 2, and processClickWindow compares with that). A crafting result,
// an output slot or the armour slots are not modelled and refused.
func (c *conn) swapClickLocked(p *proto17.ClickWindow) bool {
	if p.Button < 0 || p.Button > 8 || !p.Clicked.Empty() {
		return false
	}
	var sl *proto17.Slot
	switch w := c.window; {
	case w == nil && p.WindowID == 0 && p.Slot >= 9:
		sl = c.playerWindowSlotLocked(int(p.Slot))
	case w != nil && w.id == p.WindowID:
		sl = c.slotLocked(w, int(p.Slot))
		if takesOnly[w.box.layout.Kind][slotName(w.box.layout, int(p.Slot))] {
			return false
		}
	}
	if sl == nil {
		return false
	}
	hb := &c.inv[hotbarFirst+int(p.Button)]
	*sl, *hb = *hb, *sl
	if g, ok := c.gridLocked(p.WindowID); ok {
		c.s.updateResultLocked(g)
	}
	if w := c.window; w != nil && w.box.station != nil {
		c.s.stationChangedLocked(w.box, int(p.Slot))
	}
	c.clickedFurnaceLocked()
	return true
}

// playerWindowSlotLocked is the stack behind a slot of the player's own
// window (window 0) that the server models: the crafting result and grid,
// a main or hotbar slot; nil for the armour slots (ContainerPlayer: 0
// crafting result, 1-4 crafting grid, 5-8 armour, 9-35 main, 36-44
// hotbar).
func (c *conn) playerWindowSlotLocked(i int) *proto17.Slot {
	if i < 0 || (i >= 5 && i < 9) || i >= windowSlots {
		return nil
	}
	return &c.inv[i]
}

// sameStack is ItemStack.areItemStacksEqual: same item, count, damage and
// tags (compared by value), or both empty.
func sameStack(a, b proto17.Slot) bool {
	if a.Empty() || b.Empty() {
		return a.Empty() && b.Empty()
	}
	return a.ID == b.ID && a.Count == b.Count && a.Damage == b.Damage && modnet.SameNBT(a.NBT, b.NBT)
}

// sameItemFS reports whether two stacks merge (Container.slotClick: same
// item and damage, ItemStack.areItemStackTagsEqual).
func sameItemFS(a, b proto17.Slot) bool {
	return !a.Empty() && !b.Empty() && a.ID == b.ID && a.Damage == b.Damage && modnet.SameNBT(a.NBT, b.NBT)
}

// closeWindowLocked closes the player's window; a stack left on the
// cursor goes back into the inventory (a real server drops it).
func (c *conn) closeWindowLocked(out *outbox) {
	c.closeGridLocked(out, c.window)
	c.window = nil
	if c.cursor.Empty() {
		return
	}
	st := c.cursor
	c.cursor = proto17.Slot{}
	if slot, ok := c.addItemLocked(st); ok {
		out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(slot), Item: c.inv[slot]})
	}
}

// BoilerWater returns the water in mB of the boiler at a position.
func (s *Server) BoilerWater(pos world.BlockPos) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.mods.boxes[pos]
	if !ok || b.layout.Kind != layoutBoiler {
		return 0, false
	}
	return b.water, true
}

// ContainerItems returns the container at a GUI position (a coke oven's
// master, a boiler, a chest) by slot name: a layout's named slots ("input",
// "output", "fuel", …) and a chest's slots by number ("0", "1", …).
func (s *Server) ContainerItems(pos world.BlockPos) (map[string]Item, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.mods.boxes[pos]
	if !ok {
		return nil, false
	}
	out := map[string]Item{}
	for i, sl := range b.slots {
		name := slotName(b.layout, i)
		if sl.Empty() || name == "player_main" || name == "player_hotbar" {
			continue
		}
		if name == "chest" {
			name = fmt.Sprint(i - b.layout.Slots["chest"].First)
		}
		out[name] = s.itemOf(i, sl)
	}
	return out, true
}
