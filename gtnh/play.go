package gtnh

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// readLoop reads and applies packets until the session ends. A packet that
// does not decode is counted and skipped; only I/O errors, a kick and a
// broken handshake end the session.
func (c *Client) readLoop(s *session) {
	defer s.wg.Done()
	// After a failed write the loop reads on for writeGrace, so that a
	// kick's Disconnect, already on its way, gives the session's reason
	// (a ban must end the run, not look like a lost connection).
	var writeErr error
	var writeDeadline time.Time
	for {
		timeout := c.cfg.ReadTimeout
		if writeErr != nil {
			timeout = time.Until(writeDeadline)
			if timeout <= 0 {
				s.end(writeErr)
				return
			}
		}
		if err := s.c.read(&s.buf, timeout); err != nil {
			if writeErr != nil {
				err = writeErr
			}
			c.mu.Lock()
			joined := s.spawned
			c.mu.Unlock()
			if !joined {
				s.end(&LoginError{Stage: StageJoin, Err: fmt.Errorf("connection lost before joining: %w", err)})
			} else {
				s.end(fmt.Errorf("connection lost: %w", err))
			}
			return
		}
		c.mu.Lock()
		c.stats.PacketsIn++
		c.mu.Unlock()
		id := s.buf.ID
		p, err := proto17.Decode(proto17.Play, proto17.Clientbound, id, s.buf.Data, s.c.Formats())
		if err != nil {
			if herr := c.malformed(s, id, s.buf.Data, err); herr != nil {
				s.end(herr)
				return
			}
			continue
		}
		if p == nil {
			c.skip(proto17.PacketName(proto17.Play, proto17.Clientbound, id))
			continue
		}
		if err := badItemNBT(p); err != nil {
			// A stack whose NBT the bounded decoder refuses (an allocation
			// bomb, broken gzip) spoils its packet, as vanilla's
			// PacketBuffer.readItemStackFromBuffer fails the whole packet.
			_ = c.malformed(s, id, s.buf.Data, err)
			continue
		}
		if err := c.handle(s, p); err != nil {
			var we *writeError
			if !errors.As(err, &we) {
				s.end(err)
				return
			}
			if writeErr == nil {
				writeErr, writeDeadline = err, time.Now().Add(writeGrace)
			}
		}
	}
}

// badItemNBT checks the item NBT of the packets that carry stacks the
// world model keeps (Set Slot, Window Items, an item entity's metadata).
func badItemNBT(p proto17.Packet) error {
	check := func(field string, sl proto17.Slot) error {
		if sl.Empty() || sl.NBT == nil {
			return nil
		}
		if _, err := sl.Tag(); err != nil {
			return fmt.Errorf("%s: item NBT: %w", field, err)
		}
		return nil
	}
	switch p := p.(type) {
	case *proto17.SetSlot:
		return check(fmt.Sprintf("slot %d", p.Slot), p.Item)
	case *proto17.WindowItems:
		for i, sl := range p.Items {
			if err := check(fmt.Sprintf("slot %d", i), sl); err != nil {
				return err
			}
		}
	case *proto17.EntityMetadata:
		if sl, ok := p.Metadata.Item(); ok {
			return check("item", sl)
		}
	}
	return nil
}

func (c *Client) skip(name string) {
	c.mu.Lock()
	countName(c.stats.Skipped, name)
	c.mu.Unlock()
}

// maxCountedNames bounds the names Stats.Skipped and Stats.Malformed count
// separately: the server picks packet ids ("Unknown(0x…)") and plugin
// channel names, so a map keyed by them could grow without end. Names past
// the bound are counted under otherName.
const (
	maxCountedNames = 128
	otherName       = "other"
)

// countName counts one event under name in m, or under otherName when m
// already counts maxCountedNames names; Client.mu is held.
func countName(m map[string]int64, name string) {
	if _, ok := m[name]; !ok && len(m) >= maxCountedNames {
		name = otherName
	}
	m[name]++
}

// malformed counts a packet that did not decode and marks what it would
// have changed unknown. During the FML handshake a broken handshake
// message is fatal (the returned error).
func (c *Client) malformed(s *session, id int32, data []byte, err error) error {
	name := proto17.PacketName(proto17.Play, proto17.Clientbound, id)
	c.mu.Lock()
	countName(c.stats.Malformed, name)
	c.mu.Unlock()
	c.log.Warn().Err(err).Str("packet", name).Msg("malformed packet skipped")
	be := binary.BigEndian
	switch id {
	case proto17.IDClientboundPluginMessage:
		if !s.fml.done() && !s.vanilla {
			return &HandshakeError{State: s.fml.state.String(), Got: "a malformed plugin message", Err: err}
		}
	case proto17.IDClientboundChunkData, proto17.IDClientboundMultiBlockChange:
		if len(data) >= 8 {
			c.forgetColumn(s, int(int32(be.Uint32(data))), int(int32(be.Uint32(data[4:]))))
			return nil
		}
	case proto17.IDClientboundBlockChange:
		if len(data) >= 9 {
			x, z := int(int32(be.Uint32(data))), int(int32(be.Uint32(data[5:])))
			c.forgetColumn(s, x>>4, z>>4)
			return nil
		}
	case proto17.IDClientboundMapChunkBulk:
		if len(data) >= 7 {
			n, size := int(int16(be.Uint16(data))), int(int32(be.Uint32(data[2:])))
			off := 7 + size
			for i := 0; i < n && size >= 0 && off+12*(i+1) <= len(data); i++ {
				col := data[off+12*i:]
				c.forgetColumn(s, int(int32(be.Uint32(col))), int(int32(be.Uint32(col[4:]))))
			}
			return nil
		}
	case proto17.IDClientboundSetSlot, proto17.IDClientboundWindowItems:
		c.markUnknown("inventory")
		return nil
	case proto17.IDClientboundSpawnPlayer, proto17.IDClientboundSpawnObject, proto17.IDClientboundSpawnMob:
		if v, n := uvarint(data); n > 0 {
			c.forgetEntity(s, int32(v))
			return nil
		}
	case proto17.IDClientboundEntityMetadata, proto17.IDClientboundEntityTeleport,
		proto17.IDClientboundEntityRelativeMove, proto17.IDClientboundEntityLookAndRelMove:
		if len(data) >= 4 {
			c.forgetEntity(s, int32(be.Uint32(data)))
			return nil
		}
	}
	c.markUnknown(name)
	return nil
}

func uvarint(b []byte) (uint32, int) {
	var v uint32
	for i := 0; i < 5 && i < len(b); i++ {
		v |= uint32(b[i]&0x7F) << (7 * i)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}

func (c *Client) send(s *session, p proto17.Packet) error {
	if err := s.c.write(p); err != nil {
		return err
	}
	c.look.sent(p)
	return nil
}

func (c *Client) sendPlugin(s *session, out []pluginOut) error {
	for _, m := range out {
		if err := c.send(s, &proto17.ServerboundPluginMessage{Channel: m.Channel, Data: m.Data}); err != nil {
			return err
		}
	}
	return nil
}

// onPlugin handles FML|HS (the handshake), FML|MP (multipart carrier) and
// skips other channels.
func (c *Client) onPlugin(s *session, channel string, data []byte) error {
	switch channel {
	case proto17.ChannelFMLMultipart:
		ch, whole, done, err := s.mp.Feed(data)
		if err != nil {
			if !s.fml.done() {
				return &HandshakeError{State: s.fml.state.String(), Got: "a broken FML|MP part", Err: err}
			}
			c.log.Warn().Err(err).Msg("FML|MP message dropped")
			c.mu.Lock()
			countName(c.stats.Malformed, "PluginMessage(FML|MP)")
			c.mu.Unlock()
			return nil
		}
		if !done {
			return nil
		}
		return c.onPlugin(s, ch, whole)
	case proto17.ChannelFMLHandshake:
		return c.onHandshake(s, data)
	case modnet.GregTechChannel:
		c.onGregTech(s, data)
		return nil
	case modnet.RailcraftChannel:
		c.onRailcraft(s, data)
		return nil
	case modnet.FMLChannel:
		return c.onFMLRuntime(s, data)
	case modnet.ModularUIChannel:
		c.onModularUI(s, data)
		return nil
	case modnet.ForgeChannel:
		c.onForge(s, data)
		return nil
	case modnet.BetterQuestingChannel:
		c.onBetterQuesting(s, data)
		return nil
	}
	c.skip("PluginMessage(" + channel + ")")
	return nil
}

// onHandshake advances the FML handshake and applies what it learned: the
// server's mod list decides the formats, its registry becomes the id map.
func (c *Client) onHandshake(s *session, data []byte) error {
	hadMods, hadIDs := s.fml.serverMods != nil, s.fml.ids != nil
	out, err := s.fml.handle(data)
	if err != nil {
		return &LoginError{Stage: StageHandshake, Err: err}
	}
	if !hadMods && s.fml.serverMods != nil && c.cfg.Formats == nil {
		f, ferr := proto17.FormatsFromMods(s.fml.serverMods)
		if ferr != nil {
			return &LoginError{Stage: StageHandshake, Err: ferr}
		}
		if f != s.c.Formats() {
			c.log.Warn().Str("ping", s.c.Formats().String()).Str("handshake", f.String()).Msg("the handshake mod list changes the wire formats")
		}
		s.c.setFormats(f)
		s.dec.Formats = f
		c.log.Info().Int("mods", len(s.fml.serverMods)).Str("formats", f.String()).Msg("server mod list")
	}
	if !hadMods && s.fml.serverMods != nil {
		c.chooseModFormats(s)
	}
	if !hadIDs && s.fml.ids != nil {
		ids := s.fml.ids
		c.state.Update(func(tx *world.Tx) { tx.SetIDMap(ids) })
		ev := c.log.Info().Int("entries", s.fml.registryEntries).Int("blocks", ids.Blocks()).Int("items", ids.Items())
		if s.fml.idErr != nil {
			ev = ev.AnErr("skipped", s.fml.idErr)
		}
		ev.Msg("registry")
	}
	if err := c.sendPlugin(s, out); err != nil {
		return err
	}
	if s.fml.done() {
		c.log.Debug().Msg("FML handshake complete")
	}
	return nil
}

func (c *Client) onJoin(s *session, p *proto17.JoinGame) error {
	if s.fml.started() && !s.fml.done() {
		return &LoginError{Stage: StageHandshake, Err: &HandshakeError{State: s.fml.state.String(), Got: "Join Game before the handshake completed"}}
	}
	// Join Game's dimension is a byte; FML's ServerHello (protocol 2)
	// carries the full int, and a Forge client uses it when it is not 0
	// (NetworkDispatcher.getOverrideDimension of Forge 10.13.4), so that
	// dimensions outside -128..127 survive the login.
	dim := int32(p.Dimension)
	if s.fml.started() && s.fml.dimension != 0 {
		dim = s.fml.dimension
	}
	c.mu.Lock()
	if !s.fml.started() {
		s.vanilla = true
	}
	s.inGame, s.entityID, s.gameMode, s.dimension = true, p.EntityID, p.GameMode, dim
	vanilla := s.vanilla
	c.notifyLocked()
	c.mu.Unlock()
	if vanilla {
		c.log.Info().Msg("no FML handshake: a vanilla server; vanilla ids")
		c.state.Update(func(tx *world.Tx) { tx.SetIDMap(c.rules.IDs) })
	}
	name := c.cfg.Username
	c.state.Update(func(tx *world.Tx) {
		pl := tx.Player()
		pl.Name = name
		pl.Dimension = dimensionName(dim)
		tx.SetPlayer(pl)
	})
	c.log.Info().Int32("entity", p.EntityID).Int32("dimension", dim).Uint8("mode", p.GameMode).Msg("joined")
	if err := c.send(s, &proto17.ClientSettings{Locale: "en_US", ViewDistance: int8(c.cfg.ViewDistance), ChatColors: true, Difficulty: 2, ShowCape: true}); err != nil {
		return err
	}
	if serverHasBetterQuesting(s) {
		return c.requestQuestProgress(s)
	}
	return nil
}

// dayTicks is the length of a Minecraft day (WorldProvider.
// calculateCelestialAngle takes worldTime % 24000).
const dayTicks = 24000

// onTime keeps the world age and the time of day. A negative time of day
// means the daylight cycle is stopped (the doDaylightCycle rule is off:
// S03PacketTimeUpdate negates it) at the time its magnitude gives.
func (c *Client) onTime(_ *session, p *proto17.TimeUpdate) {
	c.mu.Lock()
	c.worldAge = p.WorldAge
	c.mu.Unlock()
	t := p.TimeOfDay
	if t < 0 {
		t = -t
	}
	if t < 0 { // the smallest int64 has no magnitude
		t = 0
	}
	c.state.Update(func(tx *world.Tx) {
		tx.SetTimeOfDay(t % dayTicks)
		tx.SetWorldAge(p.WorldAge)
	})
}

func (c *Client) onHealth(s *session, p *proto17.UpdateHealth) error {
	// The world's health and food change in the same critical section as
	// the session's, so an action that saw the session's food change (a
	// bite) finds it in the world when the loop observes next.
	c.mu.Lock()
	if p.Health <= 0 && s.health > 0 {
		c.stats.Deaths++
		c.diedAt = c.state.Snapshot().Player.Pos
	}
	s.health, s.food = p.Health, p.Food
	c.state.Update(func(tx *world.Tx) { tx.SetHealth(float64(max(p.Health, 0)), float64(p.Food)) })
	c.notifyLocked()
	c.mu.Unlock()
	if p.Health <= 0 && !c.cfg.NoAutoRespawn {
		c.log.Warn().Msg("died; respawning")
		return c.send(s, &proto17.ClientStatus{Action: proto17.StatusRespawn})
	}
	return nil
}

// onRespawn drops the world of the old life or dimension; the server sends
// the chunks around the new position.
func (c *Client) onRespawn(s *session, p *proto17.Respawn) {
	c.reset(s, false)
	c.mu.Lock()
	s.dimension, s.gameMode = p.Dimension, p.GameMode
	s.routes, s.worldGen = nil, s.worldGen+1
	s.body.route = nil
	s.body.corrections++
	s.inv.open = nil
	s.mods.clearWorld()
	c.notifyLocked()
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) { tx.SetDimension(dimensionName(p.Dimension)) })
	c.log.Info().Int32("dimension", p.Dimension).Msg("respawned")
}

// maxEntities bounds the entities a session tracks. A vanilla server only
// tracks entities within its tracking range (64 blocks for players, 32 for
// items; EntityTracker.trackEntity), so a busy GTNH base shows hundreds, not
// thousands; a server spawning ever new ids must not grow the world without
// end. Spawns past the bound are skipped (counted as "entity over limit").
const maxEntities = 16384

// maxColumns bounds the chunk columns a session keeps loaded: a view radius
// of 32 chunks, (2·32+1)². Vanilla 1.7.10 servers send at most radius 20
// (PlayerManager.func_152622_a; GTNH's ArchaicFix raises that limit with
// newMaxRenderDistance) and unload what leaves the view, so only a server
// that never unloads reaches the bound. Past it, the column farthest from the
// player (which may be the new one) is dropped for each new one (counted as
// "column over limit").
const maxColumns = 65 * 65

// namedSlot is one of a container's own slots with its name.
type namedSlot struct {
	slot int
	name string
}

func (c *Client) onHeldItemChange(s *session, p *proto17.HeldItemChange) {
	if p.Slot >= 0 && p.Slot <= 8 {
		c.mu.Lock()
		s.inv.held = int(p.Slot)
		c.syncInventoryLocked(s)
		c.notifyLocked()
		c.mu.Unlock()
		c.inventoryAppliedHook()
	}
}

// onDisconnect ends the session with the kick: a login error before the
// player spawned.
func (c *Client) onDisconnect(s *session, p *proto17.Disconnect) error {
	kick := kickFrom(p.Reason)
	c.mu.Lock()
	joined := s.spawned
	c.mu.Unlock()
	if !joined {
		return &LoginError{Stage: StageJoin, Err: kick}
	}
	return kick
}
