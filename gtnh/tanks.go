package gtnh

import (
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Railcraft's water tanks and the fluid amounts of open Railcraft windows
// (docs/gtnh-protocol.md, "The water tank" and "GUI_INTEGER").
//
// A water tank is a hollow 3×3×3 of Railcraft:machine.alpha metadata 14;
// every block sends its tile data (PacketTileEntity) with its cell in the
// pattern, and the master (the bottom centre block) also its water: the
// amount when the data was sent (with the chunk, or when the tank formed).
// Railcraft does not send it again as the tank fills or drains; an open
// tank window sends the amount as it changes (TankManager.updateGuiData),
// and so does a coke oven's window for its creosote.

// rcWaterTank records one water tank block's tile data and puts the tank
// into the world at its master: formed while its master says so (or, before
// the master's data came, while a block of it says it belongs to a formed
// tank), with the water the master reported. A tank known only from its
// other blocks has unknown contents.
func (c *Client) rcWaterTank(s *session, t modnet.RCTile, pos world.BlockPos) {
	w, err := modnet.DecodeWaterTank(t)
	if err != nil {
		c.modMalformed("PluginMessage(RC)", err)
		return
	}
	c.mu.Lock()
	// The tank only takes water (a FilteredTank of water); the server's
	// fluid map, when it came, must name its fluid so.
	if w.Fluid != nil {
		if name, ok := s.fluids.Name(int32(w.Fluid.ID)); ok && name != "water" {
			c.mu.Unlock()
			c.modMalformed("PluginMessage(RC)", &proto17.Error{Packet: "RC TILE_ENTITY water tank", Field: "fluidId",
				Err: proto17.Invalidf("fluid id %d is %q, the water tank holds water", w.Fluid.ID, name)})
			return
		}
	}
	old, had := s.mods.tanks[pos]
	if !had && len(s.mods.tanks) >= maxModEntries {
		countName(c.stats.Skipped, "mod state over limit")
		c.mu.Unlock()
		return
	}
	s.mods.tanks[pos] = w
	var masters []world.BlockPos
	for _, b := range []modnet.WaterTank{old, w} {
		if x, y, z, ok := b.Master(); ok {
			masters = append(masters, world.Pos(int(x), int(y), int(z)))
		}
	}
	// The block itself: a tank believed to be mastered here (from other
	// blocks) is not when this block's data says it is another cell.
	masters = append(masters, pos)
	type tank struct {
		pos    world.BlockPos
		formed bool
		// water is set when this message is the master's own data.
		water *int
	}
	var tanks []tank
	for _, m := range masters {
		tk := tank{pos: m, formed: s.mods.tankFormed(m)}
		if m == pos && w.IsMaster() {
			water := w.Water()
			tk.water = &water
		}
		tanks = append(tanks, tk)
	}
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) {
		for _, tk := range tanks {
			m, ok := tx.Machine(tk.pos)
			switch {
			case !tk.formed && ok && m.Kind == world.MachineWaterTank:
				tx.RemoveMachine(tk.pos)
			case tk.formed:
				if !ok || m.Kind != world.MachineWaterTank {
					m = world.Machine{Kind: world.MachineWaterTank, Pos: tk.pos, ContentsUnknown: true}
				}
				m.Formed = true
				if tk.water != nil {
					setFluid(&m, "water", *tk.water, modnet.WaterTankCapacity)
					m.ContentsUnknown = false
				}
				tx.PutMachine(m)
			}
		}
	})
	c.notify()
}

// tankFormed says whether the water tank whose master is at m is formed:
// as its master's data says, or, until that came, whether a block of the
// tank says it belongs to the tank mastered at m. Client.mu is held.
func (ms *modState) tankFormed(m world.BlockPos) bool {
	if b, ok := ms.tanks[m]; ok {
		return b.IsMaster()
	}
	// The tank's blocks lie at the master plus (-1..1, 0..2, -1..1).
	for dx := -1; dx <= 1; dx++ {
		for dy := 0; dy <= 2; dy++ {
			for dz := -1; dz <= 1; dz++ {
				b, ok := ms.tanks[m.Add(dx, dy, dz)]
				if !ok {
					continue
				}
				if x, y, z, formed := b.Master(); formed && world.Pos(int(x), int(y), int(z)) == m {
					return true
				}
			}
		}
	}
	return false
}

// setFluid sets one of a machine's tanks, copying the map.
func setFluid(m *world.Machine, name string, amount, capacity int) {
	fl := make(map[string]world.FluidTank, len(m.Fluids)+1)
	for k, v := range m.Fluids {
		fl[k] = v
	}
	fl[name] = world.FluidTank{Fluid: name, Amount: amount, Capacity: capacity}
	m.Fluids = fl
}

// onRCGuiInteger reads an RC GUI_INTEGER for the open window: a tank amount
// its layout names (the coke oven's creosote, the water tank's water) sets
// that tank of the machine at the window's position. The machine must be
// known already, from its tile data or the window's slots, and of the
// layout's kind; a water tank must be known from its tile data: the tank
// GUI (EnumGui.TANK) is also the iron and steel tanks', whose capacity
// differs, so a window at a position that is not a known water tank is not
// read. Values for other windows and other data
// ids (a colour) are skipped; an amount outside the tank is malformed.
func (c *Client) onRCGuiInteger(s *session, data []byte) {
	v, err := modnet.DecodeRCGuiInteger(data)
	if err != nil {
		c.modMalformed("PluginMessage(RC)", err)
		return
	}
	c.mu.Lock()
	o := s.inv.open
	if o == nil || o.id != v.WindowID || o.layout == nil || o.pos == nil {
		c.mu.Unlock()
		c.skip("RC GUI_INTEGER (not the open window)")
		return
	}
	name, spec, ok := o.layout.TankForGuiInteger(int(v.DataID))
	var window *int32 // the fluid id the window sent for this tank
	if ok {
		t := o.rcTank(int(v.DataID))
		t.amount, t.amountSeen = v.Value, true
		if t.fluidSeen {
			id := t.fluid
			window = &id
		}
		c.notifyLocked()
	}
	kind, pos := o.layout.Machine, *o.pos
	// The window's own slots make a machine of the layout's kind at its
	// position (syncInventory), so a water tank must be known from its
	// tile data: the iron and steel tanks open the same GUI.
	tank := kind != world.MachineWaterTank || s.mods.tankFormed(pos)
	metal, isMetal := s.mods.metal[pos]
	isMetal = isMetal && metal.IsMaster() && kind == world.MachineWaterTank
	fluids := s.fluids
	c.mu.Unlock()
	if !ok {
		c.skip("RC GUI_INTEGER (not a tank amount)")
		return
	}
	// The window counts the amount as seen once the world model holds it
	// (below), so an action that waited for the window's tanks finds them
	// in the world when the loop observes next.
	defer func() {
		c.mu.Lock()
		o.tanksSeen++
		c.notifyLocked()
		c.mu.Unlock()
	}()
	if isMetal {
		c.metalTankAmount(metal, fluids, window, v.Value)
		return
	}
	if !tank {
		c.skip("RC GUI_INTEGER (no water_tank known there)")
		return
	}
	if v.Value < 0 || int(v.Value) > spec.Capacity {
		c.modMalformed("PluginMessage(RC)", &proto17.Error{Packet: "RC GUI_INTEGER", Field: "value", Offset: 3,
			Err: proto17.Invalidf("%d mB of %s in a tank of %d mB", v.Value, name, spec.Capacity)})
		return
	}
	known := false
	c.state.Update(func(tx *world.Tx) {
		m, ok := tx.Machine(pos)
		if !ok || m.Kind != kind {
			return
		}
		known = true
		setFluid(&m, name, int(v.Value), spec.Capacity)
		m.ContentsUnknown = false
		tx.PutMachine(m)
	})
	if !known {
		c.skip(fmt.Sprintf("RC GUI_INTEGER (no %s known there)", kind))
		return
	}
	c.notify()
}

// onWindowProperty reads a vanilla Window Property for the open window.
// Railcraft sends a tank's fluid id as property 3i of a window whose
// tank i's amount is GUI_INTEGER 3i+1 (TankManager.initGuiData, on
// opening, before the amount; updateGuiData when the fluid changes): it is
// kept with the window, and for an iron or steel tank's window it names the
// tank's fluid through the server's fluid map, with the amount once that
// came. Other properties (a coke oven's cook times, a furnace's progress)
// and other windows' are skipped.
func (c *Client) onWindowProperty(s *session, p *proto17.WindowProperty) {
	c.mu.Lock()
	o := s.inv.open
	if o != nil && o.id == p.WindowID && o.kind == windowFurnace && o.layout == nil && p.Property >= 0 && p.Property < 3 {
		o.furnace.read(int(p.Property), int(p.Value))
		c.notifyLocked()
		c.mu.Unlock()
		return
	}
	if o == nil || o.id != p.WindowID || o.layout == nil || o.pos == nil || p.Property < 0 || p.Property%3 != 0 {
		c.mu.Unlock()
		c.skip(p.PacketName())
		return
	}
	dataID := int(p.Property) + 1
	if _, _, ok := o.layout.TankForGuiInteger(dataID); !ok {
		c.mu.Unlock()
		c.skip(p.PacketName())
		return
	}
	t := o.rcTank(dataID)
	t.fluid, t.fluidSeen = int32(p.Value), true
	amount, haveAmount := t.amount, t.amountSeen
	pos := *o.pos
	metal, isMetal := s.mods.metal[pos]
	isMetal = isMetal && metal.IsMaster() && o.layout.Machine == world.MachineWaterTank
	fluids := s.fluids
	c.notifyLocked()
	c.mu.Unlock()
	if isMetal && haveAmount {
		id := int32(p.Value)
		c.metalTankAmount(metal, fluids, &id, amount)
	}
}

// onForge reads a FORGE channel message: the server's fluid id map
// (FluidIdMapMessage, sent once during the handshake, after the server's
// first HandshakeAck), kept for the session. The dimension message is
// skipped.
func (c *Client) onForge(s *session, data []byte) {
	d, err := modnet.FMLDiscriminator(data)
	if err != nil {
		c.modMalformed("PluginMessage(FORGE)", err)
		return
	}
	if d != modnet.ForgeFluidIDMap {
		c.skip(fmt.Sprintf("FORGE(%d)", d))
		return
	}
	m, err := modnet.DecodeFluidIDMap(data)
	if err != nil {
		c.modMalformed("PluginMessage(FORGE)", err)
		return
	}
	c.mu.Lock()
	s.fluids = m
	c.mu.Unlock()
	c.log.Info().Int("fluids", len(m.Names)).Msg("fluid registry")
}

// metalTankBlock is the block of Railcraft's iron and steel tanks
// (EnumMachineBeta TANK_IRON_* and TANK_STEEL_*).
const metalTankBlock = "Railcraft:machine.beta"

// rcMetalTank records one iron or steel tank block's tile data. The tank is
// put into the world at its master from the master's own data, which names
// its pattern (so its capacity) and holds its fluid: an empty tank or one
// of water is a water_tank, one of another fluid a fluid_tank with that
// fluid, named through the server's fluid id map; a fluid the map does not
// name leaves the tank's contents unknown. The other blocks cannot name
// the master (its height in the pattern depends on a server setting), so
// they are recorded only.
func (c *Client) rcMetalTank(s *session, t modnet.RCTile, pos world.BlockPos) {
	m, err := modnet.DecodeMetalTank(t)
	if err != nil {
		c.modMalformed("PluginMessage(RC)", err)
		return
	}
	c.mu.Lock()
	old, had := s.mods.metal[pos]
	if !had && len(s.mods.metal) >= maxModEntries {
		countName(c.stats.Skipped, "mod state over limit")
		c.mu.Unlock()
		return
	}
	s.mods.metal[pos] = m
	fluids := s.fluids
	c.mu.Unlock()
	if !m.IsMaster() {
		if had && old.IsMaster() {
			c.state.Update(func(tx *world.Tx) {
				if mc, ok := tx.Machine(pos); ok && isTankKind(mc.Kind) {
					tx.RemoveMachine(pos)
				}
			})
			c.notify()
		}
		return
	}
	mc := world.Machine{Kind: world.MachineWaterTank, Pos: pos, Formed: true}
	name, known := "water", true
	if m.Fluid != nil {
		name, known = fluids.Name(int32(m.Fluid.ID))
	}
	switch {
	case !known:
		mc.Kind, mc.ContentsUnknown = world.MachineFluidTank, true
		c.skip("RC tank fluid (not in the server's fluid map)")
	case name != "water":
		mc.Kind = world.MachineFluidTank
		setFluid(&mc, name, m.Amount(), m.Capacity())
	default:
		setFluid(&mc, name, m.Amount(), m.Capacity())
	}
	c.state.Update(func(tx *world.Tx) { tx.PutMachine(mc) })
	c.notify()
}

// isTankKind reports whether a machine kind is a tank's.
func isTankKind(kind string) bool {
	return kind == world.MachineWaterTank || kind == world.MachineFluidTank
}

// metalTankAmount applies an open iron or steel tank window's amount (tank
// 0's GUI_INTEGER) to the tank at its master. The fluid is the one the
// window named (window property 0, window non-nil; -1 is empty), else the
// one the master's tile data named. A fluid the server's fluid map does not
// name, or an amount in a tank said to be empty, leaves the tank's contents
// unknown; the tile data, which the tank sends again when its fluid changes
// (TileTankBase.syncClient), or the window's next values may name it.
func (c *Client) metalTankAmount(m modnet.MetalTank, fluids modnet.FluidIDMap, window *int32, value int32) {
	if value < 0 || int(value) > m.Capacity() {
		c.modMalformed("PluginMessage(RC)", &proto17.Error{Packet: "RC GUI_INTEGER", Field: "value", Offset: 3,
			Err: proto17.Invalidf("%d mB in a tank of %d mB", value, m.Capacity())})
		return
	}
	id, named := int32(-1), false
	switch {
	case window != nil:
		id, named = *window, *window >= 0
	case m.Fluid != nil:
		id, named = int32(m.Fluid.ID), true
	}
	name, known := "water", true // an empty tank is a water tank
	if named {
		name, known = fluids.Name(id)
	} else if value > 0 {
		known = false
	}
	pos := world.Pos(int(m.X), int(m.Y), int(m.Z))
	if !known {
		// Whatever was known of the tank is not its contents now: a
		// fluid_tank of unknown contents, as its tile data would make it.
		c.skip("RC GUI_INTEGER (the tank's fluid is not known)")
		c.state.Update(func(tx *world.Tx) {
			mc, ok := tx.Machine(pos)
			if !ok || !isTankKind(mc.Kind) {
				return
			}
			mc.Kind, mc.Fluids, mc.ContentsUnknown = world.MachineFluidTank, nil, true
			tx.PutMachine(mc)
		})
		c.notify()
		return
	}
	c.state.Update(func(tx *world.Tx) {
		mc, ok := tx.Machine(pos)
		if !ok || !isTankKind(mc.Kind) {
			return
		}
		mc.Kind = world.MachineWaterTank
		if name != "water" {
			mc.Kind = world.MachineFluidTank
		}
		mc.Fluids = map[string]world.FluidTank{name: {Fluid: name, Amount: int(value), Capacity: m.Capacity()}}
		mc.ContentsUnknown = false
		tx.PutMachine(mc)
	})
	c.notify()
}
