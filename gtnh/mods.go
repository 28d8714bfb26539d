package gtnh

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"sync"
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// The client's reading of the mod channels (docs/gtnh-protocol.md):
// GregTech's machine tiles, block events and ores, Railcraft's coke oven
// bricks, and FML's OpenGui. Decoding is gtnh/modnet's; this file keeps what
// the messages say about the world in the session and turns it into world
// machines and ore blocks.

// shippedData is the mod data shipped with the client (config/gregtech.yaml,
// config/containers.yaml). The files are embedded and checked by the
// modnet tests, so a load error is a build defect; the client then reads
// no mod messages rather than stopping.
var shippedData = sync.OnceValues(modnet.DefaultData)

// mods is the client's view of the mod data.
type mods struct{ d *modnet.Data }

func modData() mods {
	d, _ := shippedData()
	return mods{d}
}

func (m mods) layoutForWindow(windowType, size int) (modnet.ContainerLayout, bool) {
	if m.d == nil {
		return modnet.ContainerLayout{}, false
	}
	return m.d.LayoutForWindow(windowType, size)
}

// maxModEntries bounds each table of mod state a session keeps (GregTech
// machines, coke oven bricks, ores): a server sends these for the loaded
// chunks only, a few thousand at a busy base. Entries past the bound are
// skipped (counted as "mod state over limit").
const maxModEntries = 1 << 16

// gtMachine is what GregTech's messages said about one machine, and for a
// coal boiler what the client can tell of its water.
type gtMachine struct {
	meta   int
	common modnet.Common
	update uint8
	// waterKnown: the boiler's open window has shown its water in this
	// session (onModularUI). Until then its contents are unknown
	// (world.Machine.ContentsUnknown) and a pour teaches nothing.
	waterKnown bool
	// readTick is the client tick the window last showed the water.
	readTick int64
	// waterFloor is a lower bound of a boiler's water in mB at client
	// tick floorTick: the amount its window showed, raised by the water
	// buckets the server took since (see noteUse).
	waterFloor int
	floorTick  int64
	// From the boiler's open window (onModularUI): the steam in mB, and
	// the temperature in °C at client tick tempTick.
	steam, temp           int
	steamKnown, tempKnown bool
	tempTick              int64
}

// boilerSpec is what the client knows of a GregTech coal boiler's tanks
// and heat without its GUI (the small coal boiler's are the simulator's
// numbers, sim/data.go).
type boilerSpec struct {
	capacity       int // getCapacity, mB of water; the steam tank is as large (getSteamCapacity)
	maxTemp        int // getMaxTemperature, °C
	steamPerSecond int // getProductionPerSecond, mB of steam
	// tempScale is maxProgresstime: the window's temperature bar is
	// mTemperature / maxProgresstime (MTEBoiler.addUIWidgets).
	tempScale int
}

// steamPerWater is GTValues.STEAM_PER_WATER: a boiler turns 1 mB of water
// into 160 mB of steam (MTEBoiler.produceSteam).
const steamPerWater = 160

// coalBoilers are the boilers whose water the client estimates and whose
// window it reads, by meta tile entity id (GT5-Unofficial
// gregtech/common/tileentities/boilers):
//   - 100, the bronze small coal boiler: MTEBoiler.getCapacity 16 000 mB,
//     maxProgresstime 500; MTEBoilerBronze: 500 °C, 120 mB of steam a
//     second;
//   - 101, the steel high pressure coal boiler: MTEBoilerSteel (a subclass
//     of MTEBoilerBronze that keeps MTEBoiler.addUIWidgets) overrides
//     getCapacity (32 000 mB), maxProgresstime (1000), getMaxTemperature
//     (1000 °C) and getProductionPerSecond (300 mB).
//
// Other boilers get no water tank in the world model, so the skills leave
// them alone.
var coalBoilers = map[int]boilerSpec{
	100: {capacity: 16000, maxTemp: 500, steamPerSecond: 120, tempScale: 500},
	101: {capacity: 32000, maxTemp: 1000, steamPerSecond: 300, tempScale: 1000},
}

// boilerState fills in what the client can tell of a coal boiler's water
// and heat. GregTech sends neither outside the boiler's GUI (they are
// ModularUI widget values, read by onModularUI while its window is open);
// the tile's update byte is MTEBoiler.getUpdateData, playBoiling, which is
// set only while the boiler is above 100 °C and has water to make steam
// (canNotCreateSteam). So:
//   - contents: unknown (ContentsUnknown) until the window showed the
//     water in this session; a lower bound of the water is not a reading
//     of it, and a skill that compared one with a later reading would see
//     water rise that never did;
//   - water: at least 1 mB while boiling; once the window showed it, at
//     least that amount plus what the water buckets the server took since
//     added (noteUse), less what the boiler can have boiled since at its
//     full rate; 0 ("not known to hold any") otherwise;
//   - temperature: above 100 °C while boiling (reported as 101); otherwise
//     unknown, reported as the boiler's maximum, so that the safety rules
//     (never water a boiler that may be hot and dry) treat it as hot.
func boilerState(m *world.Machine, g gtMachine, spec boilerSpec, now int64) {
	boiling := g.update == 1
	water := 0
	if g.waterFloor > 0 {
		water = max(0, g.waterFloor-int(min(boiledSince(g.floorTick, now, spec), int64(g.waterFloor))))
	}
	if boiling {
		water = max(water, 1)
	}
	m.Fluids = map[string]world.FluidTank{"water": {Fluid: "water", Amount: water, Capacity: spec.capacity}}
	m.ContentsUnknown = !waterReadable(g, spec, now)
	m.Temperature = float64(spec.maxTemp)
	if g.tempKnown {
		// It rises by at most getHeatUpAmount (1 °C) every getHeatUpRate
		// (12) ticks since the window showed it (MTEBoiler.calculateHeatUp).
		rise := (now - g.tempTick + heatUpTicks - 1) / heatUpTicks
		m.Temperature = float64(min(int64(g.temp)+max(rise, 0), int64(spec.maxTemp)))
	}
	if boiling {
		m.Temperature = max(m.Temperature, 101)
		if !g.tempKnown {
			m.Temperature = 101
		}
	}
	if g.steamKnown {
		m.Fluids["steam"] = world.FluidTank{Fluid: "steam", Amount: g.steam, Capacity: spec.capacity}
	}
}

// boiledSince is the most water in mB the boiler can have boiled between
// client ticks since and now, at its full steam rate, a part of a mB
// counted as used.
func boiledSince(since, now int64, spec boilerSpec) int64 {
	used := max(now-since, 0) * int64(spec.steamPerSecond)
	return (used + 20*steamPerWater - 1) / (20 * steamPerWater)
}

// staleWaterMB is how far a boiler's water can have fallen since its window
// showed it before the client stops counting it as known: a bucket. Past
// that the lower bound may sit a bucket or more below the real water, so a
// bucket poured into a boiler that is in fact full would read as water
// that went in; the skills look into the boiler again first. A bronze
// boiler boils a bucket in about 22 minutes, a steel one in about 9.
const staleWaterMB = 1000

// waterReadable says whether the boiler's water counts as known: its
// window showed it in this session, and it cannot have boiled a bucket
// since the window last did (buckets poured since do not renew it: the
// bound they raise keeps the gap the reading had).
func waterReadable(g gtMachine, spec boilerSpec, now int64) bool {
	return g.waterKnown && boiledSince(g.readTick, now, spec) < staleWaterMB
}

// heatUpTicks is MTEBoiler.getHeatUpRate: a burning boiler gains 1 °C
// (getHeatUpAmount) every 12 ticks.
const heatUpTicks = 12

// A coal boiler's ModularUI 1 window (window 0) numbers its ProgressBars
// 4 (steam), 5 (water) and 6 (temperature): MTEBoiler.addUIWidgets, which
// neither coal boiler overrides, adds four SlotWidgets (ids 0-3) and then
// these bars, after the player inventory's SlotGroup, whose slots are
// numbered last (ModularWindow's breadth-first numbering;
// docs/gtnh-protocol.md, "ModularUI widget sync"). Bar 7, the fuel, says
// no more than the tile's active bit and is not read.
const (
	widgetBoilerSteam = 4
	widgetBoilerWater = 5
	widgetBoilerTemp  = 6
)

// onModularUI reads ModularUI 1 widget values: while the open window is a
// coal boiler's, its steam, water and temperature bars replace what the
// client estimated. Other widgets and windows are skipped.
func (c *Client) onModularUI(s *session, data []byte) {
	u, err := modnet.DecodeWidgetUpdate(data)
	if err != nil {
		c.modMalformed("PluginMessage(modularui)", err)
		return
	}
	if u.Window != 0 || u.Widget < widgetBoilerSteam || u.Widget > widgetBoilerTemp {
		c.skip("ModularUI widget")
		return
	}
	c.mu.Lock()
	var pos world.BlockPos
	g, boiler := gtMachine{}, false
	var spec boilerSpec
	w := s.inv.open
	if w != nil && w.pos != nil && w.layout != nil {
		pos = *w.pos
		if g, boiler = s.mods.gtm[pos]; boiler {
			spec, boiler = coalBoilers[g.meta]
		}
	}
	if !boiler {
		c.mu.Unlock()
		c.skip("ModularUI widget")
		return
	}
	v, err := modnet.ProgressBarValue(u)
	if err != nil {
		c.mu.Unlock()
		c.modMalformed("PluginMessage(modularui)", err)
		return
	}
	now := c.ticks.Load()
	switch u.Widget {
	case widgetBoilerSteam:
		g.steam, g.steamKnown = int(math.Round(v*float64(spec.capacity))), true
	case widgetBoilerWater:
		// Exact now, and a lower bound from now on (boilerState lowers it
		// by what the boiler can boil).
		g.waterFloor, g.floorTick = int(math.Round(v*float64(spec.capacity))), now
		g.readTick = now
		g.waterKnown = true
	case widgetBoilerTemp:
		g.temp, g.tempKnown, g.tempTick = int(math.Round(v*float64(spec.tempScale))), true, now
	}
	s.mods.gtm[pos] = g
	c.mu.Unlock()
	c.inventoryAppliedHook()
	if md := modData(); md.d != nil {
		info, _ := md.d.Machine(g.meta)
		c.putGTMachine(pos, info.Kind, g)
	}
	if u.Widget == widgetBoilerWater {
		// The window counts the water as seen only once the world model
		// holds it (above), as the tanks' amounts do: an open_container
		// that waited for the water (act_window.go) ends, and the loop
		// observes the world, right after this. Seen before the world
		// was written, the loop could plan from the estimate the reading
		// replaces (a full boiler taken for a nearly empty one, and two
		// buckets poured into it).
		c.mu.Lock()
		w.waterSeen = true
		c.notifyLocked()
		c.mu.Unlock()
	}
	c.inventoryAppliedHook()
}

// modState is a session's mod state; guarded by Client.mu.
type modState struct {
	// gt are the GregTech formats of the server (nil: not known: no
	// gregtech in the mod list, or a version the client refuses, gtErr).
	gt     *modnet.GTFormats
	gtErr  error
	warned bool // the refusal was logged once
	gtm    map[world.BlockPos]gtMachine
	ovens  map[world.BlockPos]modnet.CokeOven
	ores   map[world.BlockPos]string
	tanks  map[world.BlockPos]modnet.WaterTank // Railcraft water tank blocks (tanks.go)
	metal  map[world.BlockPos]modnet.MetalTank // Railcraft iron and steel tank blocks (tanks.go)
}

func newModState() modState {
	return modState{gtm: map[world.BlockPos]gtMachine{}, ovens: map[world.BlockPos]modnet.CokeOven{}, ores: map[world.BlockPos]string{},
		tanks: map[world.BlockPos]modnet.WaterTank{}, metal: map[world.BlockPos]modnet.MetalTank{}}
}

// clearWorld forgets the world's mod state (a respawn or a new dimension);
// the formats stay.
func (m *modState) clearWorld() {
	clear(m.gtm)
	clear(m.ovens)
	clear(m.ores)
	clear(m.tanks)
	clear(m.metal)
}

// dropColumns forgets the mod state of the positions in the given columns
// (keys are column x, z): the server unloaded them, and sends their tiles'
// data again with the chunks if they come back. The world model drops its
// machines and ore tags there itself (world.Tx.UnloadColumn).
func (m *modState) dropColumns(cols map[[2]int]bool) {
	if len(cols) == 0 {
		return
	}
	in := func(p world.BlockPos) bool { return cols[[2]int{p.X >> 4, p.Z >> 4}] }
	maps.DeleteFunc(m.gtm, func(p world.BlockPos, _ gtMachine) bool { return in(p) })
	maps.DeleteFunc(m.ovens, func(p world.BlockPos, _ modnet.CokeOven) bool { return in(p) })
	maps.DeleteFunc(m.ores, func(p world.BlockPos, _ string) bool { return in(p) })
	maps.DeleteFunc(m.tanks, func(p world.BlockPos, _ modnet.WaterTank) bool { return in(p) })
	maps.DeleteFunc(m.metal, func(p world.BlockPos, _ modnet.MetalTank) bool { return in(p) })
}

// errNoGregTech means the server's mod list has no gregtech entry.
var errNoGregTech = errors.New("gregtech is not in the server's mod list")

// gregTechFormats picks the GregTech formats from the server's mod list.
func gregTechFormats(version string, present bool) (*modnet.GTFormats, error) {
	if !present {
		return nil, errNoGregTech
	}
	f, err := modnet.GregTechFormats(version)
	if err != nil {
		return nil, fmt.Errorf("gregtech messages are not read: %w", err)
	}
	return &f, nil
}

// chooseModFormats reads the GregTech version from the server's mod list;
// Client.mu is not held.
func (c *Client) chooseModFormats(s *session) {
	version, present := "", false
	for _, m := range s.fml.serverMods {
		if m.ModID == "gregtech" {
			version, present = m.Version, true
		}
	}
	f, err := gregTechFormats(version, present)
	c.mu.Lock()
	s.mods.gt, s.mods.gtErr = f, err
	c.mu.Unlock()
	if f != nil {
		c.log.Info().Str("gregtech", version).Str("tile", f.Tile.String()).Str("block_event", f.BlockEvent.String()).
			Str("ores", f.Ores.String()).Msg("gregtech formats")
	}
}

// modMalformed counts a mod message that did not decode; it is dropped.
func (c *Client) modMalformed(name string, err error) {
	c.mu.Lock()
	countName(c.stats.Malformed, name)
	c.mu.Unlock()
	c.log.Warn().Err(err).Str("mod_message", name).Msg("malformed mod message dropped")
}

// onGregTech reads a GregTech channel message in the server's formats. With
// no formats (a refused version) the message is skipped, and the refusal
// logged once.
func (c *Client) onGregTech(s *session, data []byte) {
	c.mu.Lock()
	f, ferr := s.mods.gt, s.mods.gtErr
	unread := f == nil && ferr != nil || f != nil && !f.Messages()
	warn := unread && !s.mods.warned
	if warn {
		s.mods.warned = true
	}
	c.mu.Unlock()
	if f == nil || !f.Messages() {
		if warn && f != nil {
			// GregTech 5.09.52: ores come from block metadata, the tile and
			// block-event formats of the line are not known.
			c.log.Warn().Str("gregtech", f.Version.String()).Msg("GregTech messages skipped: their format in this version is not known (ores are read from block metadata)")
		} else if warn {
			c.log.Warn().Err(ferr).Msg("GregTech messages skipped")
		}
		c.skip("PluginMessage(GregTech)")
		return
	}
	msg, err := modnet.DecodeGregTech(data, *f)
	if err != nil {
		c.modMalformed("PluginMessage(GregTech)", err)
		return
	}
	switch {
	case msg.Tile != nil:
		c.gtTile(s, *msg.Tile)
	case msg.Events != nil:
		c.gtEvents(s, *msg.Events)
	case msg.Ore != nil:
		c.gtOre(s, *msg.Ore)
	default:
		c.skip(fmt.Sprintf("GregTech(%d)", msg.ID))
	}
}

// gtTile records a GregTech machine: its kind from the meta tile entity id
// (config/gregtech.yaml), active and facing from the common byte. Tiles
// that are not machines the data names (pipes, cables, other machines) are
// skipped.
func (c *Client) gtTile(s *session, t modnet.TileEntity) {
	md := modData()
	if md.d == nil {
		c.skip("GregTech tile")
		return
	}
	info, ok := md.d.Machine(int(t.MetaID))
	if !ok {
		c.skip("GregTech tile (not a known machine)")
		return
	}
	pos := world.Pos(int(t.X), int(t.Y), int(t.Z))
	c.mu.Lock()
	if _, had := s.mods.gtm[pos]; !had && len(s.mods.gtm) >= maxModEntries {
		countName(c.stats.Skipped, "mod state over limit")
		c.mu.Unlock()
		return
	}
	g := s.mods.gtm[pos]
	if g.meta != int(t.MetaID) {
		g = gtMachine{meta: int(t.MetaID)}
	}
	g.common, g.update = t.Common, t.Update
	s.mods.gtm[pos] = g
	c.mu.Unlock()
	c.putGTMachine(pos, info.Kind, g)
}

// facingNames are the ForgeDirection constants by ordinal (Forge 1.7.10
// net/minecraftforge/common/util/ForgeDirection: DOWN, UP, NORTH, SOUTH,
// WEST, EAST, then UNKNOWN), as GregTech puts the facing's ordinal into
// bits 0-2 of the common byte (BaseMetaTileEntity: mFacing.ordinal() & 7).
var facingNames = [...]string{"down", "up", "north", "south", "west", "east"}

// facingName names a ForgeDirection ordinal; UNKNOWN (6) and 7 are "".
func facingName(ordinal int) string {
	if ordinal < 0 || ordinal >= len(facingNames) {
		return ""
	}
	return facingNames[ordinal]
}

// putGTMachine puts a GregTech machine into the world, keeping the slots an
// open GUI showed.
func (c *Client) putGTMachine(pos world.BlockPos, kind string, g gtMachine) {
	now := c.ticks.Load()
	c.state.Update(func(tx *world.Tx) {
		m, ok := tx.Machine(pos)
		if !ok || m.Kind != kind {
			m = world.Machine{Kind: kind, Pos: pos}
		}
		m.Formed, m.Active, m.Facing = true, g.common.Active(), facingName(g.common.Facing())
		if spec, ok := coalBoilers[g.meta]; ok && kind == world.MachineSteamBoiler {
			boilerState(&m, g, spec, now)
		}
		tx.PutMachine(m)
	})
	c.notify()
}

// boilerRefreshTicks is how often the tick loop brings the coal boilers'
// estimates up to date (refreshBoilers): once a second.
const boilerRefreshTicks = 20

// refreshBoilers recomputes what the world model says of every coal
// boiler whose window has shown its water: the lower bound falls as time
// passes with no GregTech message about the boiler, and a reading a bucket
// old turns into unknown contents (waterReadable), so a snapshot never
// carries a bound older than a second.
func (c *Client) refreshBoilers(s *session) {
	md := modData()
	if md.d == nil {
		return
	}
	type boiler struct {
		pos  world.BlockPos
		kind string
		g    gtMachine
	}
	var bs []boiler
	c.mu.Lock()
	for pos, g := range s.mods.gtm {
		if _, ok := coalBoilers[g.meta]; !ok || !g.waterKnown {
			continue
		}
		if info, known := md.d.Machine(g.meta); known {
			bs = append(bs, boiler{pos, info.Kind, g})
		}
	}
	c.mu.Unlock()
	for _, b := range bs {
		c.putGTMachine(b.pos, b.kind, b.g)
	}
}

// noteUse learns from a use_item on a block: a water bucket the server
// turned into an empty bucket on a coal boiler was poured into it
// (MTEBoiler.onRightclick: fill(1000 mB), then the bucket is emptied even
// if the tank took less). fill adds min(1000, room), so the water is now at
// least min(floor + 1000, capacity). Of a boiler whose window has not shown
// its water the client learns nothing: the bucket is emptied on a full
// boiler too, and raising a bound of unknown water would read as water
// that went in.
func (c *Client) noteUse(s *session, target world.BlockPos, before, after world.ItemStack) {
	if before.ID != "minecraft:water_bucket" || after.ID != "minecraft:bucket" {
		return
	}
	now := c.ticks.Load()
	c.mu.Lock()
	g, ok := s.mods.gtm[target]
	spec, boiler := coalBoilers[g.meta]
	if !ok || !boiler || !waterReadable(g, spec, now) {
		c.mu.Unlock()
		return
	}
	var cur world.Machine
	boilerState(&cur, g, spec, now)
	g.waterFloor = min(cur.Fluids["water"].Amount+1000, spec.capacity)
	g.floorTick = now
	s.mods.gtm[target] = g
	c.mu.Unlock()
	if md := modData(); md.d != nil {
		info, _ := md.d.Machine(g.meta)
		c.putGTMachine(target, info.Kind, g)
	}
}

// gtEvents applies GregTech block events: a new common byte changes a
// known machine's active flag. Batched events of another dimension are
// not the player's.
func (c *Client) gtEvents(s *session, e modnet.BlockEvents) {
	md := modData()
	for _, ev := range e.Events {
		if ev.Event != modnet.EventCommonData && ev.Event != modnet.EventCustomData {
			continue
		}
		pos := world.Pos(int(ev.X), int(ev.Y), int(ev.Z))
		c.mu.Lock()
		m, ok := s.mods.gtm[pos]
		other := e.HasDimension && e.Dimension != s.dimension
		if ok && !other {
			if ev.Event == modnet.EventCommonData {
				m.common = modnet.Common(ev.Value)
			} else {
				m.update = ev.Value
			}
			s.mods.gtm[pos] = m
		}
		c.mu.Unlock()
		if !ok || other || md.d == nil {
			continue
		}
		if info, known := md.d.Machine(m.meta); known {
			c.putGTMachine(pos, info.Kind, m)
		}
	}
}

// gtOre records the ore at a position by its ore dictionary name.
func (c *Client) gtOre(s *session, u modnet.OreUpdate) {
	md := modData()
	if md.d == nil {
		c.skip("GregTech ore")
		return
	}
	name, err := md.d.OreName(u.Ore)
	if err != nil {
		c.skip("GregTech ore (unknown material)")
		return
	}
	pos := world.Pos(int(u.X), int(u.Y), int(u.Z))
	c.mu.Lock()
	if _, had := s.mods.ores[pos]; !had && len(s.mods.ores) >= maxModEntries {
		countName(c.stats.Skipped, "mod state over limit")
		c.mu.Unlock()
		return
	}
	s.mods.ores[pos] = name
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) { tx.SetBlockTags(pos, []string{name}) })
	c.notify()
}

// cokeOvenBlock is the block of Railcraft's coke oven bricks
// (EnumMachineAlpha.COKE_OVEN: Railcraft:machine.alpha, metadata 7).
const cokeOvenBlock = "Railcraft:machine.alpha"

// onRailcraft reads an RC message: a coke oven brick's tile data. Other
// tiles and types are skipped.
func (c *Client) onRailcraft(s *session, data []byte) {
	typ, err := modnet.RailcraftType(data)
	if err != nil {
		c.modMalformed("PluginMessage(RC)", err)
		return
	}
	if typ == modnet.RCGuiInteger {
		c.onRCGuiInteger(s, data)
		return
	}
	if typ != modnet.RCTileEntity {
		c.skip(fmt.Sprintf("RC(%d)", typ))
		return
	}
	t, err := modnet.DecodeRCTile(data)
	if err != nil {
		c.modMalformed("PluginMessage(RC)", err)
		return
	}
	pos := world.Pos(int(t.X), int(t.Y), int(t.Z))
	// The tile id is an ordinal within the block, so the data is the coke
	// oven's only on a machine.alpha block.
	var block string
	c.state.Update(func(tx *world.Tx) { block = tx.BlockAt(pos).ID })
	if t.ID == modnet.WaterTankMachineID && block == cokeOvenBlock {
		c.rcWaterTank(s, t, pos)
		return
	}
	if tank, _ := modnet.IsMetalTankID(t.ID); tank && block == metalTankBlock {
		c.rcMetalTank(s, t, pos)
		return
	}
	if t.ID != modnet.CokeOvenMachineID || block != cokeOvenBlock {
		c.skip("RC tile (not a coke oven)")
		return
	}
	co, err := modnet.DecodeCokeOven(t)
	if err != nil {
		c.modMalformed("PluginMessage(RC)", err)
		return
	}
	c.mu.Lock()
	old, had := s.mods.ovens[pos]
	if !had && len(s.mods.ovens) >= maxModEntries {
		countName(c.stats.Skipped, "mod state over limit")
		c.mu.Unlock()
		return
	}
	s.mods.ovens[pos] = co
	var masters []world.BlockPos
	for _, b := range []modnet.CokeOven{old, co} {
		if x, y, z, ok := b.Master(); ok {
			masters = append(masters, world.Pos(int(x), int(y), int(z)))
		}
	}
	if had && old.IsMaster() || co.IsMaster() {
		masters = append(masters, pos)
	}
	type oven struct {
		pos     world.BlockPos
		formed  bool
		cooking bool
	}
	var ovens []oven
	for _, m := range masters {
		b, ok := s.mods.ovens[m]
		ovens = append(ovens, oven{pos: m, formed: ok && b.IsMaster(), cooking: b.Cooking})
	}
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) {
		for _, o := range ovens {
			m, ok := tx.Machine(o.pos)
			switch {
			case !o.formed && ok && m.Kind == world.MachineCokeOven:
				tx.RemoveMachine(o.pos)
			case o.formed:
				if !ok || m.Kind != world.MachineCokeOven {
					// Railcraft sends no contents outside the GUI.
					m = world.Machine{Kind: world.MachineCokeOven, Pos: o.pos, ContentsUnknown: true}
				}
				if m.Active && !o.cooking {
					// It stopped cooking: what it cooked, and what is
					// left of its input, is seen only in its GUI.
					m.ContentsUnknown = true
				}
				m.Formed, m.Active = true, o.cooking
				tx.PutMachine(m)
			}
		}
	})
	c.notify()
}

// onFMLRuntime reads FML's runtime channel: OpenGui opens a mod window at a
// position, with the slot layout the data gives its mod and gui id (or, for
// a ModularUI window, the GregTech machine at the position). Other FML
// messages, and GUIs the data does not describe, are skipped. The error is
// the connection's (a ModularUI window's SYNC_INIT could not be sent).
func (c *Client) onFMLRuntime(s *session, data []byte) error {
	d, err := modnet.FMLDiscriminator(data)
	if err != nil {
		c.modMalformed("PluginMessage(FML)", err)
		return nil
	}
	if d != modnet.FMLOpenGui {
		c.skip(fmt.Sprintf("FML(%d)", d))
		return nil
	}
	g, err := modnet.DecodeOpenGui(data)
	if err != nil {
		c.modMalformed("PluginMessage(FML)", err)
		return nil
	}
	md := modData()
	pos := world.Pos(int(g.X), int(g.Y), int(g.Z))
	var l modnet.ContainerLayout
	ok := false
	moduiWindow := g.ModID == modularUIModID
	if md.d != nil {
		l, ok = md.d.LayoutForOpenGui(g)
		if !ok && moduiWindow {
			c.mu.Lock()
			m, known := s.mods.gtm[pos]
			c.mu.Unlock()
			if known {
				l, ok = md.d.LayoutForGregTech(m.meta)
			}
		}
	}
	if !ok {
		c.skip("FML OpenGui (unknown GUI)")
		c.log.Warn().Str("mod", g.ModID).Int32("gui", g.GuiID).Int32("window", g.WindowID).Msg("a mod window with no known slot layout was not opened")
		return nil
	}
	c.openWindow(s, newModContainer(uint8(g.WindowID), l), &pos)
	if moduiWindow {
		return c.initModularUI(s)
	}
	return nil
}

// modularUIModID is the mod id in the FML OpenGui of a ModularUI 1 window
// (UIBuilder opens it through FMLNetworkHandler.openGui with ModularUI's own
// mod instance), whatever mod's machine it shows.
const modularUIModID = "modularui"

// initModularUI tells the server's ModularUI that the client has built the
// window it just opened, as ModularUI's own client does as soon as it has
// (ModularUIContext.initialize sends CWidgetUpdate INTERNAL_SYNC/SYNC_INIT
// for the main window, key 0). The server's ModularUIContainer syncs no
// widget of a window before it is initialized, so without this a GregTech
// machine's window shows its slots but never its bars (a boiler's water,
// steam and heat). The message goes on the modularui channel whether or not
// the server listed the channel: a server without ModularUI sends no
// ModularUI windows.
func (c *Client) initModularUI(s *session) error {
	c.log.Debug().Msg("ModularUI window built: sending SYNC_INIT")
	return c.send(s, &proto17.ServerboundPluginMessage{Channel: modnet.ModularUIChannel, Data: modnet.SyncInit(0)})
}

// joinSettleTicks is how long a join waits, after the player's column
// arrived, for the data that follows the chunks: the tile data of the
// machines in view (Railcraft sends a brick's data as its tile description
// packet after the chunk, EntityPlayerMP.onUpdate in 1.7.10; GregTech on
// the machine's next update). Without it the first decision of a run could
// see the coke ovens and boilers around the player missing.
const joinSettleTicks = 10

// settle waits joinSettleTicks ticks (of the configured tick length) after
// the join; a session that ends meanwhile was joined and is left to the
// supervisor.
func (c *Client) settle(ctx context.Context, s *session) error {
	t := time.NewTimer(joinSettleTicks * c.cfg.Tick)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-s.ended:
		// Joined, then lost: the supervisor handles the end like any
		// other.
		return nil
	case <-ctx.Done():
		return &LoginError{Stage: StageJoin, Err: fmt.Errorf("settling after the join: %w", ctx.Err())}
	}
}
