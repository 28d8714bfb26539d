package gtnh

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
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

// forgetColumn drops a column whose content is no longer known: to the
// pathfinder an unloaded column is Unknown, not air.
func (c *Client) forgetColumn(s *session, cx, cz int) {
	c.markUnknown(fmt.Sprintf("chunk(%d, %d)", cx, cz))
	c.mu.Lock()
	delete(s.loaded, [2]int{cx, cz})
	s.mods.dropColumns(map[[2]int]bool{{cx, cz}: true})
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) { tx.UnloadColumn(cx, cz) })
}

func (c *Client) forgetEntity(s *session, id int32) {
	c.markUnknown(fmt.Sprintf("entity %d", id))
	c.mu.Lock()
	delete(s.entities, id)
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) { tx.RemoveEntity(int(id)) })
}

func (c *Client) send(s *session, p proto17.Packet) error {
	return s.c.write(p)
}

func (c *Client) sendPlugin(s *session, out []pluginOut) error {
	for _, m := range out {
		if err := c.send(s, &proto17.ServerboundPluginMessage{Channel: m.Channel, Data: m.Data}); err != nil {
			return err
		}
	}
	return nil
}

// handle applies one packet.
func (c *Client) handle(s *session, p proto17.Packet) error {
	switch p := p.(type) {
	case *proto17.KeepAlive:
		c.mu.Lock()
		c.stats.KeepAlives++
		c.mu.Unlock()
		return c.send(s, &proto17.ServerboundKeepAlive{ID: p.ID})
	case *proto17.JoinGame:
		return c.onJoin(s, p)
	case *proto17.Chat:
		c.onChat(s, p)
	case *proto17.TimeUpdate:
		c.mu.Lock()
		c.worldAge = p.WorldAge
		c.mu.Unlock()
	case *proto17.SpawnPosition:
		c.mu.Lock()
		s.spawnPoint = world.Pos(int(p.X), int(p.Y), int(p.Z))
		c.mu.Unlock()
	case *proto17.UpdateHealth:
		return c.onHealth(s, p)
	case *proto17.Respawn:
		c.onRespawn(s, p)
	case *proto17.PlayerPositionAndLook:
		return c.onPosition(s, p)
	case *proto17.HeldItemChange:
		if p.Slot >= 0 && p.Slot <= 8 {
			c.mu.Lock()
			s.inv.held = int(p.Slot)
			c.mu.Unlock()
			c.syncInventory(s)
		}
	case *proto17.SpawnPlayer:
		c.putEntity(s, p.EntityID, world.Entity{Kind: world.EntityPlayer, Name: p.Name,
			Pos: world.Vec3{X: proto17.Fixed(p.X), Y: proto17.Fixed(p.Y), Z: proto17.Fixed(p.Z)}})
		c.seePlayer(s, p)
	case *proto17.SpawnObject:
		if p.Type != proto17.ObjectItem {
			c.skip("SpawnObject(other)")
			return nil
		}
		c.putEntity(s, p.EntityID, world.Entity{Kind: world.EntityItem,
			Pos: world.Vec3{X: proto17.Fixed(p.X), Y: proto17.Fixed(p.Y), Z: proto17.Fixed(p.Z)}})
	case *proto17.SpawnMob:
		c.putEntity(s, p.EntityID, world.Entity{Kind: world.EntityMob, Name: mobName(p.Type),
			Pos: world.Vec3{X: proto17.Fixed(p.X), Y: proto17.Fixed(p.Y), Z: proto17.Fixed(p.Z)}})
	case *proto17.DestroyEntities:
		c.mu.Lock()
		for _, id := range p.IDs {
			delete(s.entities, id)
			delete(s.players, id)
		}
		c.notifyLocked()
		c.mu.Unlock()
		c.state.Update(func(tx *world.Tx) {
			for _, id := range p.IDs {
				tx.RemoveEntity(int(id))
			}
		})
	case *proto17.CollectItem:
		c.onCollect(s, p)
	case *proto17.EntityRelativeMove:
		dx, dy, dz := p.Delta()
		c.moveEntity(s, p.EntityID, func(v world.Vec3) world.Vec3 { return world.Vec3{X: v.X + dx, Y: v.Y + dy, Z: v.Z + dz} })
	case *proto17.EntityLookAndRelativeMove:
		dx, dy, dz := p.Delta()
		c.moveEntity(s, p.EntityID, func(v world.Vec3) world.Vec3 { return world.Vec3{X: v.X + dx, Y: v.Y + dy, Z: v.Z + dz} })
	case *proto17.EntityTeleport:
		c.moveEntity(s, p.EntityID, func(world.Vec3) world.Vec3 {
			return world.Vec3{X: proto17.Fixed(p.X), Y: proto17.Fixed(p.Y), Z: proto17.Fixed(p.Z)}
		})
	case *proto17.EntityMetadata:
		c.onMetadata(s, p)
	case *proto17.ChunkData:
		c.onChunk(s, p)
	case *proto17.MapChunkBulk:
		c.onBulk(s, p)
	case *proto17.BlockChange:
		pos := world.Pos(int(p.X), int(p.Y), int(p.Z))
		c.setBlocks(func(tx *world.Tx) { tx.SetState(pos, p.State()) })
		c.tagOreBlocks(s, []world.BlockPos{pos})
	case *proto17.MultiBlockChange:
		bx, bz := int(p.ChunkX)*16, int(p.ChunkZ)*16
		ps := make([]world.BlockPos, len(p.Records))
		for i, r := range p.Records {
			ps[i] = world.Pos(bx+int(r.X), int(r.Y), bz+int(r.Z))
		}
		c.setBlocks(func(tx *world.Tx) {
			for i, r := range p.Records {
				tx.SetState(ps[i], r.State())
			}
		})
		c.tagOreBlocks(s, ps)
	case *proto17.OpenWindow:
		c.onOpenWindow(s, p)
	case *proto17.CloseWindow:
		c.mu.Lock()
		if s.inv.open != nil && s.inv.open.id == p.WindowID {
			s.inv.open = nil
		}
		c.notifyLocked()
		c.mu.Unlock()
	case *proto17.SetSlot:
		c.onSetSlot(s, p)
	case *proto17.WindowItems:
		c.onWindowItems(s, p)
	case *proto17.WindowProperty:
		c.onWindowProperty(s, p)
	case *proto17.ConfirmTransaction:
		c.mu.Lock()
		s.confirm(confirmKey{p.WindowID, p.Action}, p.Accepted)
		c.notifyLocked()
		c.mu.Unlock()
		if !p.Accepted {
			// The server waits for this acknowledgement before it accepts
			// further clicks in the window.
			return c.send(s, &proto17.ServerboundConfirmTransaction{WindowID: p.WindowID, Action: p.Action, Accepted: true})
		}
	case *proto17.PluginMessage:
		return c.onPlugin(s, p.Channel, p.Data)
	case *proto17.Disconnect:
		kick := kickFrom(p.Reason)
		c.mu.Lock()
		joined := s.spawned
		c.mu.Unlock()
		if !joined {
			return &LoginError{Stage: StageJoin, Err: kick}
		}
		return kick
	default:
		c.skip(p.PacketName())
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
		c.state.Update(func(tx *world.Tx) { tx.SetIDMap(world.VanillaIDs()) })
	}
	name := c.cfg.Username
	c.state.Update(func(tx *world.Tx) {
		pl := tx.Player()
		pl.Name = name
		pl.Dimension = dimensionName(dim)
		tx.SetPlayer(pl)
	})
	c.log.Info().Int32("entity", p.EntityID).Int32("dimension", dim).Uint8("mode", p.GameMode).Msg("joined")
	return c.send(s, &proto17.ClientSettings{Locale: "en_US", ViewDistance: int8(c.cfg.ViewDistance), ChatColors: true, Difficulty: 2, ShowCape: true})
}

func (c *Client) onHealth(s *session, p *proto17.UpdateHealth) error {
	c.mu.Lock()
	s.health, s.food = p.Health, p.Food
	c.notifyLocked()
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) { tx.SetHealth(float64(max(p.Health, 0)), float64(p.Food)) })
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

func (c *Client) onChat(s *session, p *proto17.Chat) {
	m := parseChat(p.JSON)
	m.Time = time.Now()
	if m.Sender != "" {
		m.SenderUUID = c.uuidOf(s, m.Sender)
	}
	cmd, verdict := c.guard.check(m, c.cfg.Username)
	// From here on the line never carries the secret.
	m.Text, m.Plain = c.guard.scrub(m.Text), c.guard.scrub(m.Plain)
	c.state.Update(func(tx *world.Tx) { m.Tick = tx.Tick() })
	c.mu.Lock()
	c.chatSeq++
	m.Seq = c.chatSeq
	c.chatLog = append(c.chatLog, m)
	if len(c.chatLog) > maxChatLog {
		c.chatLog = c.chatLog[len(c.chatLog)-maxChatLog:]
	}
	c.mu.Unlock()
	c.log.Info().Str("from", m.Sender).Str("text", m.Plain).Msg("chat")
	switch verdict {
	case verdictNotCommand:
		return
	case verdictObey:
	default:
		c.mu.Lock()
		c.stats.Ignored++
		c.mu.Unlock()
		c.log.Warn().Str("from", m.Sender).Str("uuid", m.SenderUUID).Str("reason", verdictReasons[verdict]).Msg("chat command ignored")
		return
	}
	c.mu.Lock()
	c.stats.Commands++
	c.mu.Unlock()
	c.log.Info().Str("from", cmd.From).Str("command", cmd.Name).Msg("operator command")
	switch cmd.Name {
	case "ping":
		_ = c.say(s, "pong")
	case "status":
		snap := c.state.Snapshot()
		_ = c.say(s, fmt.Sprintf("at %v in %s, health %.0f, food %.0f, tier %s", snap.Feet(), snap.Player.Dimension, snap.Player.Health, snap.Player.Food, snap.TechState))
	default:
		if c.cfg.OnCommand != nil {
			c.cfg.OnCommand(cmd)
		}
	}
}

// say sends one chat line as the server accepts it (see chatLine).
func (c *Client) say(s *session, msg string) error {
	line, err := c.chatLine(msg)
	if err != nil {
		return err
	}
	return c.send(s, &proto17.ServerboundChat{Message: line})
}

// Say sends a chat line on the live connection.
func (c *Client) Say(msg string) error {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if s == nil {
		return ErrNotConnected
	}
	return c.say(s, msg)
}

// maxEntities bounds the entities a session tracks. A vanilla server only
// tracks entities within its tracking range (64 blocks for players, 32 for
// items; EntityTracker.trackEntity), so a busy GTNH base shows hundreds, not
// thousands; a server spawning ever new ids must not grow the world without
// end. Spawns past the bound are skipped (counted as "entity over limit").
const maxEntities = 16384

func (c *Client) putEntity(s *session, id int32, e world.Entity) {
	e.ID = int(id)
	c.mu.Lock()
	if !s.entities[id] && len(s.entities) >= maxEntities {
		countName(c.stats.Skipped, "entity over limit")
		c.mu.Unlock()
		return
	}
	s.entities[id] = true
	c.notifyLocked()
	c.mu.Unlock()
	c.known(fmt.Sprintf("entity %d", id))
	c.state.Update(func(tx *world.Tx) { tx.PutEntity(e) })
}

func (c *Client) moveEntity(s *session, id int32, to func(world.Vec3) world.Vec3) {
	c.mu.Lock()
	ok := s.entities[id]
	c.mu.Unlock()
	if !ok {
		return
	}
	c.state.Update(func(tx *world.Tx) {
		if e, ok := tx.Entity(int(id)); ok {
			e.Pos = to(e.Pos)
			tx.PutEntity(e)
		}
	})
	c.notify()
}

func (c *Client) onMetadata(s *session, p *proto17.EntityMetadata) {
	slot, ok := p.Metadata.Item()
	if !ok {
		return
	}
	c.mu.Lock()
	tracked := s.entities[p.EntityID]
	c.mu.Unlock()
	if !tracked {
		return
	}
	c.state.Update(func(tx *world.Tx) {
		if e, ok := tx.Entity(int(p.EntityID)); ok && e.Kind == world.EntityItem {
			st := toStack(slot, tx.Resolver().IDs())
			e.Item = &st
			tx.PutEntity(e)
		}
	})
	c.notify()
}

// onCollect forgets a collected item and, when the bot collected it,
// records it. Both happen under c.mu: a reader that sees the item gone from
// the world and then takes c.mu finds it recorded (break_block's
// collectDrops reads them in that order).
func (c *Client) onCollect(s *session, p *proto17.CollectItem) {
	var item *world.ItemStack
	c.mu.Lock()
	c.state.Update(func(tx *world.Tx) {
		if e, ok := tx.Entity(int(p.CollectedID)); ok {
			item = e.Item
		}
		tx.RemoveEntity(int(p.CollectedID))
	})
	delete(s.entities, p.CollectedID)
	if p.CollectorID == s.entityID {
		s.collected = append(s.collected, collected{entity: p.CollectedID, item: item, tick: c.ticks.Load()})
		s.collectedN++
		if len(s.collected) > maxCollected {
			s.collected = s.collected[len(s.collected)-maxCollected:]
		}
	}
	c.notifyLocked()
	c.mu.Unlock()
}

// setBlocks applies block changes and wakes the actions waiting on them.
func (c *Client) setBlocks(fn func(tx *world.Tx)) {
	c.state.Update(fn)
	c.notify()
}

// onChunk decodes one column. The sky-light arrays depend on the
// dimension and are not on the wire: when a column does not fit the
// expected setting, the other one is tried and remembered.
func (c *Client) onChunk(s *session, p *proto17.ChunkData) {
	c.mu.Lock()
	dim := s.dimension
	sky := !s.noSky[dim]
	c.mu.Unlock()
	col, err := s.dec.ChunkData(p, sky)
	if err != nil && p.PrimaryMask != 0 && errors.Is(err, proto17.ErrTruncated) || err != nil && errors.Is(err, proto17.ErrInvalid) && strings.Contains(err.Error(), "inflates to") {
		if col2, err2 := s.dec.ChunkData(p, !sky); err2 == nil {
			col, err = col2, nil
			c.mu.Lock()
			s.noSky[dim] = sky
			c.mu.Unlock()
			c.log.Info().Int32("dimension", dim).Bool("sky_light", !sky).Msg("chunk sky-light setting learned")
		}
	}
	if err != nil {
		_ = c.malformed(s, proto17.IDClientboundChunkData, s.buf.Data, err)
		return
	}
	c.applyColumns(s, []proto17.ChunkColumn{col})
}

func (c *Client) onBulk(s *session, p *proto17.MapChunkBulk) {
	cols, err := s.dec.MapChunkBulk(s.cols[:0], p)
	s.cols = cols[:0]
	if err != nil {
		_ = c.malformed(s, proto17.IDClientboundMapChunkBulk, s.buf.Data, err)
		return
	}
	c.applyColumns(s, cols)
}

// maxColumns bounds the chunk columns a session keeps loaded: a view radius
// of 32 chunks, (2·32+1)². Vanilla 1.7.10 servers send at most radius 20
// (PlayerManager.func_152622_a; GTNH's ArchaicFix raises that limit with
// newMaxRenderDistance) and unload what leaves the view, so only a server
// that never unloads reaches the bound. Past it, the column farthest from the
// player (which may be the new one) is dropped for each new one (counted as
// "column over limit").
const maxColumns = 65 * 65

func (c *Client) applyColumns(s *session, cols []proto17.ChunkColumn) {
	var evicted [][2]int
	c.mu.Lock()
	for i := range cols {
		col := &cols[i]
		k := [2]int{col.X, col.Z}
		switch {
		case col.Unload:
			delete(s.loaded, k)
		case s.loaded[k]:
		default:
			// The new column may itself be the farthest: then it goes.
			s.loaded[k] = true
			if len(s.loaded) > maxColumns {
				far := s.farthestColumn()
				delete(s.loaded, far)
				evicted = append(evicted, far)
				countName(c.stats.Skipped, "column over limit")
			}
		}
	}
	// A column evicted and loaded again in the same batch stays; the world
	// unloads the others after this batch loads.
	evicted = slices.DeleteFunc(evicted, func(k [2]int) bool { return s.loaded[k] })
	gone := map[[2]int]bool{}
	for _, col := range cols {
		if col.Unload {
			gone[[2]int{col.X, col.Z}] = true
		}
	}
	for _, k := range evicted {
		gone[k] = true
	}
	s.mods.dropColumns(gone)
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		s.maybeJoined()
		c.mu.Unlock()
	}()
	c.state.Update(func(tx *world.Tx) {
		for _, col := range cols {
			switch {
			case col.Unload:
				tx.UnloadColumn(col.X, col.Z)
			case col.GroundUp:
				tx.LoadColumn(col.Column)
			default:
				for cy := 0; cy < world.ColumnSections; cy++ {
					if col.Mask&(1<<cy) != 0 {
						tx.SetSection(col.X, cy, col.Z, col.Column.Section(cy))
					}
				}
			}
		}
		for _, k := range evicted {
			tx.UnloadColumn(k[0], k[1])
		}
	})
	c.tagOreColumns(s, cols)
	for _, col := range cols {
		c.known(fmt.Sprintf("chunk(%d, %d)", col.X, col.Z))
	}
	c.notify()
}

func (c *Client) onOpenWindow(s *session, p *proto17.OpenWindow) {
	n := int(p.Slots)
	if p.Type == windowWorkbench {
		// The crafting table's slot count is 0 on the wire: result + 3×3.
		n = 10
	}
	w := newContainer(p.WindowID, p.Type, p.Title, n)
	if l, ok := modData().layoutForWindow(int(p.Type), n); ok {
		w.layout = &l
	}
	c.openWindow(s, w, nil)
}

// openWindow makes w the open window: at pos when the server named one (FML
// OpenGui), else at the block open_container clicked.
func (c *Client) openWindow(s *session, w *container, pos *world.BlockPos) {
	c.mu.Lock()
	if s.opening != nil {
		asked := *s.opening
		w.asked = &asked
		if pos == nil {
			pos = &asked
		}
	}
	w.pos = pos
	s.inv.open = w
	c.notifyLocked()
	c.mu.Unlock()
}

func (c *Client) onSetSlot(s *session, p *proto17.SetSlot) {
	c.mu.Lock()
	switch {
	case p.WindowID == cursorWindow && p.Slot == -1:
		s.inv.cursor = p.Item
	case p.WindowID >= 0:
		if sl := s.inv.slot(uint8(p.WindowID), int(p.Slot)); sl != nil {
			*sl = p.Item
		}
	}
	c.notifyLocked()
	c.mu.Unlock()
	c.syncInventory(s)
}

func (c *Client) onWindowItems(s *session, p *proto17.WindowItems) {
	c.mu.Lock()
	for i, it := range p.Items {
		if sl := s.inv.slot(p.WindowID, i); sl != nil {
			*sl = it
		}
	}
	if p.WindowID == 0 {
		s.inv.synced = true
	} else if s.inv.open != nil && s.inv.open.id == p.WindowID {
		s.inv.open.synced = true
	}
	c.notifyLocked()
	c.mu.Unlock()
	c.known("inventory")
	c.syncInventory(s)
}

// syncInventory copies the player window into the world, and an open
// container into the machine at its position (keeping what the machine's
// own messages said: active, formed, fluids).
func (c *Client) syncInventory(s *session) {
	c.mu.Lock()
	inv := s.inv
	var open *container
	// A coal boiler's contents are known once its window has shown the
	// water too (onModularUI), not with its slots alone.
	waterUnknown := false
	if inv.open != nil {
		o := *inv.open
		o.slots = append([]proto17.Slot(nil), inv.open.slots...)
		open = &o
		if o.pos != nil {
			g, ok := s.mods.gtm[*o.pos]
			spec, boiler := coalBoilers[g.meta]
			waterUnknown = ok && boiler && !waterReadable(g, spec, c.ticks.Load())
		}
	}
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) {
		ids := tx.Resolver().IDs()
		tx.SetInventory(inv.worldInventory(ids))
		if open != nil && open.pos != nil && open.synced {
			m := machineOf(open, ids)
			if old, ok := tx.Machine(m.Pos); ok && isTankKind(old.Kind) && isTankKind(m.Kind) {
				m.Kind = old.Kind // an iron tank of another fluid stays a fluid_tank
			}

			old, ok := tx.Machine(m.Pos)
			switch {
			case ok && old.Kind == m.Kind && isTankKind(old.Kind):
				// A tank's window slots say nothing of its fluid: the
				// tile data or the window's tank values do.
				old.Slots = m.Slots
				m = old
			case ok && old.Kind == m.Kind:
				old.Slots, old.ContentsUnknown = m.Slots, waterUnknown
				m = old
			case isTankKind(m.Kind):
				m.ContentsUnknown = true
			}
			tx.PutMachine(m)
		}
	})
}

// machineOf describes an open container as a world machine: its kind and
// slot names from its layout (config/containers.yaml), else chests by slot
// number and furnaces by name.
func machineOf(o *container, ids *world.IDMap) world.Machine {
	m := world.Machine{Kind: world.MachineChest, Pos: *o.pos, Formed: true, Slots: map[string]world.ItemStack{}}
	switch {
	case o.layout != nil:
		m.Kind = o.layout.Machine
	case o.kind == windowFurnace:
		m.Kind = "furnace"
	case o.kind != windowChest:
		m.Kind = "container"
	}
	for _, ns := range o.slotNames() {
		if sl := o.slots[ns.slot]; !sl.Empty() {
			m.Slots[ns.name] = toStack(sl, ids)
		}
	}
	return m
}

// namedSlot is one of a container's own slots with its name.
type namedSlot struct {
	slot int
	name string
}

// slotNames names the container's own slots for transfer_items: a layout's
// named slots (its "chest" range by number from 0), a furnace's input, fuel
// and output, else numbers.
func (o *container) slotNames() []namedSlot {
	var out []namedSlot
	if o.layout != nil {
		for name, r := range o.layout.Slots {
			if name == "player_main" || name == "player_hotbar" {
				continue
			}
			for k := 0; k < r.Count; k++ {
				n := name
				if name == "chest" {
					n = strconv.Itoa(k)
				} else if r.Count > 1 {
					n = name + "_" + strconv.Itoa(k)
				}
				out = append(out, namedSlot{r.First + k, n})
			}
		}
		slices.SortFunc(out, func(a, b namedSlot) int { return a.slot - b.slot })
		return out
	}
	for _, i := range o.own() {
		out = append(out, namedSlot{i, strconv.Itoa(i)})
	}
	if o.kind == windowFurnace && len(out) >= 3 {
		out[0].name, out[1].name, out[2].name = "input", "fuel", "output"
	}
	return out
}

// farthestColumn is the loaded column farthest from the player (Chebyshev
// distance in chunks; ties broken by coordinates, so the choice does not
// depend on map order); Client.mu is held and s.loaded is not empty.
func (s *session) farthestColumn() [2]int {
	px, pz := ifloor(s.body.x)>>4, ifloor(s.body.z)>>4
	var far [2]int
	best := -1
	for k := range s.loaded {
		d := max(absInt(k[0]-px), absInt(k[1]-pz))
		if d > best || d == best && (k[0] < far[0] || k[0] == far[0] && k[1] < far[1]) {
			far, best = k, d
		}
	}
	return far
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
