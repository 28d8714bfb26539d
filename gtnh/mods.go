package gtnh

import (
	"errors"
	"fmt"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
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

// gtMachine is what GregTech's messages said about one machine.
type gtMachine struct {
	meta   int
	common modnet.Common
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
}

func newModState() modState {
	return modState{gtm: map[world.BlockPos]gtMachine{}, ovens: map[world.BlockPos]modnet.CokeOven{}, ores: map[world.BlockPos]string{}}
}

// clearWorld forgets the world's mod state (a respawn or a new dimension);
// the formats stay.
func (m *modState) clearWorld() {
	clear(m.gtm)
	clear(m.ovens)
	clear(m.ores)
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
	c.log.Warn().Err(err).Str("message", name).Msg("malformed mod message dropped")
}

// onGregTech reads a GregTech channel message in the server's formats. With
// no formats (a refused version) the message is skipped, and the refusal
// logged once.
func (c *Client) onGregTech(s *session, data []byte) {
	c.mu.Lock()
	f, ferr := s.mods.gt, s.mods.gtErr
	warn := f == nil && ferr != nil && !s.mods.warned
	if warn {
		s.mods.warned = true
	}
	c.mu.Unlock()
	if f == nil {
		if warn {
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
	s.mods.gtm[pos] = gtMachine{meta: int(t.MetaID), common: t.Common}
	c.mu.Unlock()
	c.putGTMachine(pos, info.Kind, t.Common)
}

// putGTMachine puts a GregTech machine into the world, keeping the slots an
// open GUI showed.
func (c *Client) putGTMachine(pos world.BlockPos, kind string, common modnet.Common) {
	c.state.Update(func(tx *world.Tx) {
		m, ok := tx.Machine(pos)
		if !ok || m.Kind != kind {
			m = world.Machine{Kind: kind, Pos: pos}
		}
		m.Formed, m.Active = true, common.Active()
		tx.PutMachine(m)
	})
	c.notify()
}

// gtEvents applies GregTech block events: a new common byte changes a
// known machine's active flag. Batched events of another dimension are
// not the player's.
func (c *Client) gtEvents(s *session, e modnet.BlockEvents) {
	md := modData()
	for _, ev := range e.Events {
		if ev.Event != modnet.EventCommonData {
			continue
		}
		pos := world.Pos(int(ev.X), int(ev.Y), int(ev.Z))
		c.mu.Lock()
		m, ok := s.mods.gtm[pos]
		other := e.HasDimension && e.Dimension != s.dimension
		if ok && !other {
			m.common = modnet.Common(ev.Value)
			s.mods.gtm[pos] = m
		}
		c.mu.Unlock()
		if !ok || other || md.d == nil {
			continue
		}
		if info, known := md.d.Machine(m.meta); known {
			c.putGTMachine(pos, info.Kind, m.common)
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
	if t.ID != modnet.CokeOvenMachineID || c.state.Snapshot().BlockAt(pos).ID != cokeOvenBlock {
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
					m = world.Machine{Kind: world.MachineCokeOven, Pos: o.pos}
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
// messages, and GUIs the data does not describe, are skipped.
func (c *Client) onFMLRuntime(s *session, data []byte) {
	d, err := modnet.FMLDiscriminator(data)
	if err != nil {
		c.modMalformed("PluginMessage(FML)", err)
		return
	}
	if d != modnet.FMLOpenGui {
		c.skip(fmt.Sprintf("FML(%d)", d))
		return
	}
	g, err := modnet.DecodeOpenGui(data)
	if err != nil {
		c.modMalformed("PluginMessage(FML)", err)
		return
	}
	md := modData()
	pos := world.Pos(int(g.X), int(g.Y), int(g.Z))
	var l modnet.ContainerLayout
	ok := false
	if md.d != nil {
		l, ok = md.d.LayoutForOpenGui(g)
		if !ok && g.ModID == "modularui" {
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
		return
	}
	c.openWindow(s, newModContainer(uint8(g.WindowID), l), &pos)
}
