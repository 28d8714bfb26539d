package fakeserver

import (
	"bufio"
	"crypto/md5"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// windowSlots is the size of the player's inventory window (window 0):
// crafting output, 2×2 grid, armour, 27 main slots, 9 hotbar slots.
const windowSlots = 45

// hotbarFirst is the window-0 slot of hotbar slot 0.
const hotbarFirst = 36

// conn is one client connection. The reader goroutine (serve) owns the
// protocol state; the play state below is guarded by the server's lock.
type conn struct {
	s  *Server
	id int
	nc net.Conn
	br *bufio.Reader

	wmu sync.Mutex // serialises writes; guards reached
	// stalling is set while a stall fault holds the connection silent; a
	// packet for it is dropped then, so that no other goroutine (another
	// player's dig, a broadcast) waits on a stalled connection, as a real
	// server's main thread never waits on one player's network queue.
	stalling atomic.Bool
	reached  map[Stage]int // packets sent per stage

	closeOnce sync.Once
	done      chan struct{}

	lateOnce sync.Once
	late     chan lateBatch // Options.StreamDelay: batches waiting to be sent
	ended    chan struct{}  // closed when serve has finished (the player saved)

	state proto17.State // reader goroutine only (records read it under s.mu)

	// Guarded by s.mu.
	playing       bool
	name, uuid    string
	bqAsm         modnet.BQAssembler // the BetterQuesting message being read
	eid           int32
	pos           world.Vec3 // feet
	onGround      bool
	sneaking      bool        // Entity Action crouch until uncrouch (processEntityAction)
	yaw, pitch    float32     // the player's look, as last sent
	awaitTeleport *world.Vec3 // a reset the client has not confirmed yet
	held          int
	health        float64   // the health (UpdateHealth)
	dead          bool      // died, not yet respawned
	hurt          int       // hurt resistance left (EntityLivingBase.hurtResistantTime)
	lastHurt      float64   // the damage that set it
	food          int       // the food level (UpdateHealth)
	saturation    float64   // the saturation (UpdateHealth)
	air           int       // the air supply (entity metadata 1)
	fire          int       // ticks of fire left (Entity.fire)
	eating        *eatState // an item being eaten
	inv           [windowSlots]proto17.Slot
	dig           *digState
	window        *openWindow // the open container window
	cursor        proto17.Slot
	hostileDug    bool         // the hostile burst after the first dig was sent
	stream        *streamState // Options.Stream: the columns this player has
	nextKeepAlive int32
	lastKeepAlive time.Time
	pendingKA     map[int32]time.Time
}

type digState struct {
	pos   world.BlockPos
	start int // server tick
}

func newConn(s *Server, id int, nc net.Conn) *conn {
	food := rules.Default().Food
	c := &conn{s: s, id: id, nc: nc, br: bufio.NewReaderSize(nc, 1<<16), reached: map[Stage]int{},
		done: make(chan struct{}), ended: make(chan struct{}), pendingKA: map[int32]time.Time{},
		food: food.Stats.MaxFood, health: rules.Default().Mobs.Player.RespawnHealth, air: rules.Default().Mobs.Player.MaxAir}
	if s.opts.Food > 0 && s.opts.Food < food.Stats.MaxFood {
		c.food = s.opts.Food
	}
	c.saturation = min(food.Stats.StartSaturation, float64(c.food))
	return c
}

func (c *conn) close() {
	c.closeOnce.Do(func() {
		close(c.done)
		c.nc.Close()
	})
}

func (c *conn) isClosed() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// serve runs the connection to its end.
func (c *conn) serve() {
	defer func() {
		c.close()
		c.s.mu.Lock()
		if c.playing {
			// A real server saves the player (playerdata) when it leaves.
			c.s.saved[c.name] = &savedPlayer{pos: c.pos, held: c.held, inv: c.inv}
			c.playing = false
		}
		delete(c.s.conns, c.id)
		c.s.notifyLocked()
		c.s.mu.Unlock()
		close(c.ended)
	}()
	err := c.run()
	switch {
	case err == nil, errors.Is(err, errKicked), errors.Is(err, net.ErrClosed):
	default:
		c.s.logf("conn %d: %v", c.id, err)
	}
}

func (c *conn) run() error {
	r, err := c.expect("Handshake")
	if err != nil {
		return err
	}
	hs := r.Packet.(*proto17.Handshake)
	switch hs.NextState {
	case 1:
		c.state = proto17.Status
		return c.status()
	case 2:
		c.state = proto17.Login
		return c.login(hs)
	}
	return fmt.Errorf("handshake: next state %d", hs.NextState)
}

// read reads, decodes and records one packet.
func (c *conn) read() (Record, error) {
	if d := c.s.opts.ReadTimeout; d > 0 {
		c.nc.SetReadDeadline(time.Now().Add(d))
	}
	id, payload, err := readFrame(c.br)
	if err != nil {
		return Record{}, err
	}
	rec := Record{Conn: c.id, Time: time.Now(), State: c.state, ID: id,
		Name: proto17.PacketName(c.state, proto17.Serverbound, id), Payload: payload}
	p, err := proto17.Decode(c.state, proto17.Serverbound, id, payload, c.s.formats)
	rec.Packet, rec.Err = p, err
	if pm, ok := p.(*proto17.ServerboundPluginMessage); ok && pm.Channel == proto17.ChannelFMLHandshake {
		rec.FML, rec.Err = proto17.DecodeFML(pm.Data)
	}
	c.s.mu.Lock()
	c.s.received = append(c.s.received, rec)
	c.s.notifyLocked()
	c.s.mu.Unlock()
	return rec, nil
}

// expect reads one packet that must have the given name and decode.
func (c *conn) expect(name string) (Record, error) {
	r, err := c.read()
	if err != nil {
		return r, err
	}
	if r.Name != name || r.Err != nil || r.Packet == nil {
		return r, fmt.Errorf("%s: expected %s, got %s (%v)", c.state, name, r.Name, r.Err)
	}
	return r, nil
}

// send encodes and sends one packet. stage marks the packet a fault may
// replace (the first one of the stage on this connection).
func (c *conn) send(stage Stage, p proto17.Packet) error {
	payload, err := proto17.Payload(p, c.s.formats)
	if err != nil {
		c.s.logf("conn %d: encoding %s: %v", c.id, p.PacketName(), err)
		c.close()
		return err
	}
	return c.sendRaw(stage, p.PacketID(), payload, p)
}

// sendRaw sends a payload (p is what the record shows; nil for packets
// proto17 has no codec for).
func (c *conn) sendRaw(stage Stage, id int32, payload []byte, p proto17.Packet) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.isClosed() {
		return net.ErrClosed
	}
	if c.stalling.Load() {
		return nil // a stalled connection sends nothing
	}
	f := c.s.opts.Faults
	truncate := false
	if c.strikes(stage) {
		switch {
		case f.KickAt == stage:
			c.s.strike(c.id, stage, "kick")
			c.kickLocked(f.KickReason)
			return errKicked
		case f.StallAt == stage:
			c.s.strike(c.id, stage, "stall")
			c.s.logf("conn %d: stalling for %v (stage %s)", c.id, f.StallFor, stage)
			// The lock is let go while the stall lasts (stalling makes
			// other senders drop their packets), and taken again to send
			// this one, late.
			c.stalling.Store(true)
			c.wmu.Unlock()
			t := time.NewTimer(f.StallFor)
			select {
			case <-t.C:
			case <-c.done:
				t.Stop()
			}
			c.wmu.Lock()
			c.stalling.Store(false)
			if c.isClosed() {
				return net.ErrClosed
			}
		case f.TruncateAt == stage:
			c.s.strike(c.id, stage, "truncate")
			truncate = true
		}
	}
	cut := payload
	if truncate {
		c.s.logf("conn %d: truncating %s (stage %s)", c.id, proto17.PacketName(c.state, proto17.Clientbound, id), stage)
		if f.Truncate == TruncatePayload {
			cut = payload[:len(payload)/2]
		}
	}
	b, err := frame(id, cut)
	if err != nil {
		c.close()
		return err
	}
	if truncate && f.Truncate == TruncateFrame {
		b = b[:max(len(b)/2, 4)]
	}
	// Recorded before it is written, so a client that has read a packet
	// finds it in Sent.
	c.record(id, payload, p)
	c.nc.SetWriteDeadline(time.Now().Add(10 * time.Second))
	_, err = c.nc.Write(b)
	if err != nil {
		c.close()
		return err
	}
	if truncate && f.Truncate == TruncateFrame {
		c.close()
		return net.ErrClosed
	}
	return nil
}

// strikes counts a packet of the stage and reports whether a fault strikes
// it: the occurrence after Faults.Skip others, counted on this connection or,
// with Faults.Once, over the server's life. c.wmu is held.
func (c *conn) strikes(stage Stage) bool {
	f := c.s.opts.Faults
	if stage == StageNone || (f.KickAt != stage && f.TruncateAt != stage && f.StallAt != stage) {
		return false
	}
	var n int
	if f.Once {
		c.s.mu.Lock()
		c.s.reached[stage]++
		n = c.s.reached[stage]
		c.s.mu.Unlock()
	} else {
		c.reached[stage]++
		n = c.reached[stage]
	}
	return n == f.Skip+1
}

func (c *conn) record(id int32, payload []byte, p proto17.Packet) {
	c.s.mu.Lock()
	rec := Record{Conn: c.id, Time: time.Now(), State: c.state, ID: id,
		Name: proto17.PacketName(c.state, proto17.Clientbound, id), Packet: p, Payload: payload}
	if pm, ok := p.(*proto17.PluginMessage); ok && pm.Channel == proto17.ChannelFMLHandshake {
		rec.FML, _ = proto17.DecodeFML(pm.Data)
	}
	c.s.sent = append(c.s.sent, rec)
	c.s.notifyLocked()
	c.s.mu.Unlock()
}

// kick sends a disconnect with the reason and closes the connection.
func (c *conn) kick(reason string) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.kickLocked(reason)
}

func (c *conn) kickLocked(reason string) {
	if c.isClosed() {
		return
	}
	var p proto17.Packet
	switch c.state {
	case proto17.Login:
		p = &proto17.LoginDisconnect{Reason: chatJSON(reason)}
	case proto17.Play:
		p = &proto17.Disconnect{Reason: chatJSON(reason)}
	}
	c.s.logf("conn %d: kick: %s", c.id, reason)
	// Recorded first, so a client that has read the disconnect finds it in
	// Kicks.
	c.s.mu.Lock()
	c.s.kicks = append(c.s.kicks, Kick{Conn: c.id, Reason: reason})
	c.s.notifyLocked()
	c.s.mu.Unlock()
	if p != nil {
		if payload, err := proto17.Payload(p, c.s.formats); err == nil {
			if b, err := frame(p.PacketID(), payload); err == nil {
				c.record(p.PacketID(), payload, p)
				c.nc.SetWriteDeadline(time.Now().Add(5 * time.Second))
				c.nc.Write(b)
			}
		}
	}
	c.close()
}

// replaced ends a connection whose player logged in again: a kick when
// nothing is being sent on it, else (a stalled sender holds the write lock)
// just the close.
func (c *conn) replaced() {
	if c.wmu.TryLock() {
		c.kickLocked("You logged in from another location")
		c.wmu.Unlock()
		return
	}
	c.close()
}

// chatJSON is a plain-text chat component.
func chatJSON(text string) string {
	b, _ := json.Marshal(map[string]string{"text": text})
	return string(b)
}

// status answers a server-list ping.
func (c *conn) status() error {
	if _, err := c.expect("StatusRequest"); err != nil {
		return err
	}
	var st proto17.ServerStatus
	st.Version.Name = "1.7.10"
	st.Version.Protocol = proto17.ProtocolVersion
	st.Players.Max = 20
	c.s.mu.Lock()
	for _, o := range c.s.conns {
		if o.playing {
			st.Players.Online++
		}
	}
	c.s.mu.Unlock()
	st.Description = json.RawMessage(chatJSON(c.s.opts.MOTD))
	if len(c.s.opts.Mods) > 0 {
		st.ModInfo = &proto17.ModInfoList{Type: "FML", ModList: c.s.opts.Mods}
	}
	js, err := json.Marshal(&st)
	if err != nil {
		return err
	}
	if err := c.send(StageStatus, &proto17.StatusResponse{JSON: string(js)}); err != nil {
		return err
	}
	r, err := c.expect("StatusPing")
	if err != nil {
		return err
	}
	return c.send(StageNone, &proto17.StatusPong{Payload: r.Packet.(*proto17.StatusPing).Payload})
}

// OfflineUUID is the UUID an offline-mode server gives a player: a version-3
// UUID of "OfflinePlayer:<name>", as Java's UUID.nameUUIDFromBytes makes it.
func OfflineUUID(name string) string {
	h := md5.Sum([]byte("OfflinePlayer:" + name))
	h[6] = h[6]&0x0F | 0x30
	h[8] = h[8]&0x3F | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// login runs the login state, the FML handshake and the join.
func (c *conn) login(hs *proto17.Handshake) error {
	r, err := c.expect("LoginStart")
	if err != nil {
		return err
	}
	name := r.Packet.(*proto17.LoginStart).Name
	if hs.Protocol != proto17.ProtocolVersion {
		msg := "Outdated client! Please use 1.7.10"
		if hs.Protocol > proto17.ProtocolVersion {
			msg = "Outdated server! I'm still on 1.7.10"
		}
		c.kick(msg)
		return errKicked
	}
	if name == "" {
		c.kick("Invalid username")
		return errKicked
	}
	c.s.mu.Lock()
	var old []*conn
	for _, o := range c.s.conns {
		if o != c && o.name == name {
			old = append(old, o)
		}
	}
	c.s.mu.Unlock()
	for _, o := range old {
		// The same player logging in again replaces its old connection,
		// which is saved first (ServerConfigurationManager.createPlayerForUser
		// in 1.7.10).
		o.replaced()
		<-o.ended
	}
	uuid := OfflineUUID(name)
	if err := c.send(StageLogin, &proto17.LoginSuccess{UUID: uuid, Name: name}); err != nil {
		return err
	}
	c.state = proto17.Play
	c.s.mu.Lock()
	c.name, c.uuid = name, uuid
	c.s.nextEID++
	c.eid = c.s.nextEID
	c.s.mu.Unlock()

	if len(c.s.opts.Mods) > 0 {
		if !hs.FML {
			c.kick("This server requires FML/Forge to be installed. Contact your server admin for more details.")
			return errKicked
		}
		if err := c.fmlHandshake(); err != nil {
			return err
		}
	}
	if err := c.join(); err != nil {
		return err
	}
	return c.play()
}

// Server FML handshake states (Forge 10.13.4's FMLHandshakeServerState).
const (
	fmlHello = iota
	fmlWaitingCAck
	fmlComplete
)

// fmlHandshake runs Forge's server side of FML|HS: REGISTER and ServerHello;
// the client's ClientHello and ModList; the server's ModList; on the client's
// ack (phase 2) the registry and an ack; on its next ack (phase 3) a last ack,
// after which the player joins.
func (c *conn) fmlHandshake() error {
	send := func(stage Stage, m proto17.FMLMessage) error {
		data, err := proto17.EncodeFML(m)
		if err != nil {
			return err
		}
		return c.send(stage, &proto17.PluginMessage{Channel: proto17.ChannelFMLHandshake, Data: data})
	}
	serverChannels := proto17.RegisterPayload(proto17.ChannelFMLHandshake, proto17.ChannelFML, proto17.ChannelFMLMultipart, proto17.ChannelForge, "GregTech", "ModularUI")
	if err := c.send(StageNone, &proto17.PluginMessage{Channel: proto17.ChannelRegister, Data: serverChannels}); err != nil {
		return err
	}
	if err := send(StageServerHello, &proto17.ServerHello{Protocol: proto17.FMLProtocol, Dimension: 0}); err != nil {
		return err
	}
	if c.s.opts.Faults.WrongHandshakeOrder {
		if err := c.sendRegistry(); err != nil {
			return err
		}
		if err := send(StageNone, &proto17.HandshakeAck{Phase: proto17.PhaseServerWaitingCAck}); err != nil {
			return err
		}
	}
	state, sawHello := fmlHello, false
	for {
		r, err := c.read()
		if err != nil {
			return err
		}
		pm, ok := r.Packet.(*proto17.ServerboundPluginMessage)
		if !ok || pm.Channel != proto17.ChannelFMLHandshake {
			continue // REGISTER and anything else: recorded, nothing to do
		}
		if r.Err != nil {
			c.kick("fake server: FML handshake: " + r.Err.Error())
			return errKicked
		}
		switch state {
		case fmlHello:
			switch m := r.FML.(type) {
			case *proto17.ClientHello:
				sawHello = true
				continue
			case *proto17.ModList:
				if !sawHello {
					c.s.logf("conn %d: ModList without ClientHello", c.id)
				}
				if rej := checkModList(c.s.opts.Mods, m.Mods); rej != "" {
					c.kick(rej)
					return errKicked
				}
				if err := send(StageModList, &proto17.ModList{Mods: c.s.opts.Mods}); err != nil {
					return err
				}
				state = fmlWaitingCAck
				continue
			}
			return c.fmlUnexpected("ClientHello or ModList", r.FML)
		case fmlWaitingCAck:
			if ack, ok := r.FML.(*proto17.HandshakeAck); !ok || ack.Phase != proto17.PhaseClientWaitingServerData {
				return c.fmlUnexpected(fmt.Sprintf("HandshakeAck phase %d", proto17.PhaseClientWaitingServerData), r.FML)
			}
			if err := c.sendRegistry(); err != nil {
				return err
			}
			if err := send(StageNone, &proto17.HandshakeAck{Phase: proto17.PhaseServerWaitingCAck}); err != nil {
				return err
			}
			// FMLHandshakeServerState.WAITINGCACK then fires the
			// handshake event, on which Forge's
			// ServerToClientConnectionEstablishedHandler sends the fluid
			// id map on its FORGE channel.
			if err := c.send(StageNone, &proto17.PluginMessage{Channel: proto17.ChannelForge, Data: ForgeFluidIDMap()}); err != nil {
				return err
			}
			state = fmlComplete
		case fmlComplete:
			if ack, ok := r.FML.(*proto17.HandshakeAck); !ok || ack.Phase != proto17.PhaseClientWaitingServerComplete {
				return c.fmlUnexpected(fmt.Sprintf("HandshakeAck phase %d", proto17.PhaseClientWaitingServerComplete), r.FML)
			}
			// The client's acks 4 and 5 follow; the play loop records them.
			return send(StageNone, &proto17.HandshakeAck{Phase: proto17.PhaseServerComplete})
		}
	}
}

// fmlUnexpected kicks a client that broke the handshake order (a real server
// fails with a ClassCastException there).
func (c *conn) fmlUnexpected(want string, got proto17.FMLMessage) error {
	c.kick(fmt.Sprintf("fake server: FML handshake: expected %s, got %s", want, describeFML(got)))
	return errKicked
}

func describeFML(m proto17.FMLMessage) string {
	switch m := m.(type) {
	case *proto17.ServerHello:
		return "ServerHello"
	case *proto17.ClientHello:
		return "ClientHello"
	case *proto17.ModList:
		return "ModList"
	case *proto17.ModIDData:
		return "ModIdData"
	case *proto17.HandshakeAck:
		return fmt.Sprintf("HandshakeAck phase %d", m.Phase)
	case *proto17.HandshakeReset:
		return "HandshakeReset"
	}
	return fmt.Sprintf("%T", m)
}

// checkModList compares the client's mods with the server's: every server
// mod must be there in the same version. It returns the rejection, or "".
func checkModList(server, client []proto17.ModInfo) string {
	have := map[string]string{}
	for _, m := range client {
		have[m.ModID] = m.Version
	}
	var rej []string
	for _, m := range server {
		v, ok := have[m.ModID]
		switch {
		case !ok:
			rej = append(rej, m.ModID+"=missing")
		case v != m.Version:
			rej = append(rej, fmt.Sprintf("%s=%s (server has %s)", m.ModID, v, m.Version))
		}
	}
	if len(rej) == 0 {
		return ""
	}
	sort.Strings(rej)
	return "Mod rejections {" + strings.Join(rej, ", ") + "}"
}

// sendRegistry sends ModIdData: one varshort plugin message, or FML|MP
// parts.
func (c *conn) sendRegistry() error {
	if c.s.opts.Registry == RegistrySingle {
		return c.send(StageRegistry, &proto17.PluginMessage{Channel: proto17.ChannelFMLHandshake, Data: c.s.registry})
	}
	parts, err := proto17.SplitMultipart(proto17.ChannelFMLHandshake, c.s.registry, c.s.opts.PartSize)
	if err != nil {
		return err
	}
	for _, part := range parts {
		if err := c.send(StageRegistry, &proto17.PluginMessage{Channel: proto17.ChannelFMLMultipart, Data: part}); err != nil {
			return err
		}
	}
	return nil
}

// Ids of 1.7.10 clientbound packets proto17 has no codec for; the server
// sends them as a real one does, and clients must skip them.
const (
	idPlayerListItem  = 0x38
	idPlayerAbilities = 0x39
)

// join sends what a 1.7.10 Forge server sends a joining player, in its
// order: Join Game, the brand, the spawn point, abilities, the held slot, the
// player list entry, the position (eye-level y), the time, the inventory,
// health, then the chunks around the spawn.
func (c *conn) join() error {
	s := c.s
	s.mu.Lock()
	c.pos = s.Spawn()
	c.onGround = true
	if sp := s.saved[c.name]; sp != nil {
		// A player who was here before comes back where it left, with its
		// inventory.
		c.pos, c.held, c.inv = sp.pos, sp.held, sp.inv
	} else {
		for _, it := range s.opts.Inventory {
			id, _ := s.ids.ItemID(it.Name)
			c.inv[it.Slot] = proto17.Slot{ID: int16(id), Count: int32(it.Count), Damage: int16(it.Damage)}
			if nbt := s.newToolNBT(c.inv[it.Slot]); nbt != nil && it.ToolDamage > 0 {
				t, _ := modnet.ParseGTTool(nbt)
				t.Damage, t.HasDamage = int64(it.ToolDamage), true
				c.inv[it.Slot].NBT, _ = t.NBT()
			} else {
				c.inv[it.Slot].NBT = nbt
			}
		}
	}
	eid, name, held := c.eid, c.name, c.held
	pos := c.pos
	c.awaitTeleport = &pos
	c.lastKeepAlive = time.Now()
	s.mu.Unlock()

	brand := proto17.AppendVarInt(nil, int32(len("fml,forge")))
	brand = append(brand, "fml,forge"...)
	var abilities []byte
	abilities = append(abilities, 0)                      // flags: survival
	abilities = append(abilities, 0x3D, 0x4C, 0xCC, 0xCD) // flying speed 0.05
	abilities = append(abilities, 0x3D, 0xCC, 0xCC, 0xCD) // walking speed 0.1
	listItem := append(proto17.AppendVarInt(nil, int32(len(name))), name...)
	listItem = append(listItem, 1, 0, 0) // online, ping 0

	spawn := pos.Block()
	steps := []func() error{
		func() error {
			return c.send(StageJoin, &proto17.JoinGame{EntityID: eid, GameMode: 0, Dimension: 0, Difficulty: 1, MaxPlayers: 20, LevelType: "default"})
		},
		func() error { return c.send(StageNone, &proto17.PluginMessage{Channel: "MC|Brand", Data: brand}) },
		func() error {
			return c.send(StageNone, &proto17.SpawnPosition{X: int32(spawn.X), Y: int32(spawn.Y), Z: int32(spawn.Z)})
		},
		func() error { return c.sendRaw(StageNone, idPlayerAbilities, abilities, nil) },
		func() error { return c.send(StageNone, &proto17.HeldItemChange{Slot: int8(held)}) },
		func() error { return c.sendRaw(StageNone, idPlayerListItem, listItem, nil) },
		func() error { return c.send(StagePosition, positionPacket(pos)) },
		func() error { return c.send(StageNone, c.s.timeNow()) },
		func() error { return c.send(StageInventory, c.windowItems()) },
		func() error {
			return c.send(StageNone, &proto17.UpdateHealth{Health: float32(c.health), Food: int16(c.food), Saturation: float32(c.saturation)})
		},
		c.sendChunks,
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	s.mu.Lock()
	c.playing = true
	var out outbox
	for _, it := range s.items {
		// The item entities lying around, as the entity tracker sends them.
		out.add(s.itemPackets(c, it)...)
	}
	for _, m := range s.sortedMobsLocked() {
		if m.dying == 0 {
			out.add(mobPackets(c, m)...)
		}
	}
	if s.opts.Hostile {
		out.add(c.hostileLocked()...)
	}
	s.notifyLocked()
	s.mu.Unlock()
	out.deliver()
	s.logf("conn %d: %s joined as entity %d", c.id, name, eid)
	return nil
}

// positionPacket places the player with its feet at p (the packet carries
// the eye level).
func positionPacket(p world.Vec3) *proto17.PlayerPositionAndLook {
	return &proto17.PlayerPositionAndLook{X: p.X, Y: p.Y + proto17.EyeHeight, Z: p.Z, OnGround: true}
}

// windowItems is the inventory window's content.
func (c *conn) windowItems() *proto17.WindowItems {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return &proto17.WindowItems{WindowID: 0, Items: append([]proto17.Slot(nil), c.inv[:]...)}
}

// sendChunks sends every column, nearest to the spawn first.
func (c *conn) sendChunks() error {
	s := c.s
	s.mu.Lock()
	cols := make([]*chunk.Column, 0, len(s.cols))
	for _, col := range s.cols {
		cols = append(cols, col.Clone())
	}
	sp := chunk.ChunkOf(s.Spawn().Block())
	s.mu.Unlock()
	dist := func(p chunk.ChunkPos) int {
		dx, dz := p.X-sp.X, p.Z-sp.Z
		return dx*dx + dz*dz
	}
	sort.Slice(cols, func(i, j int) bool {
		a, b := cols[i].Pos(), cols[j].Pos()
		if dist(a) != dist(b) {
			return dist(a) < dist(b)
		}
		if a.X != b.X {
			return a.X < b.X
		}
		return a.Z < b.Z
	})
	pkts, err := chunkPackets(cols, s.formats, s.opts.Chunks)
	if err != nil {
		return err
	}
	for _, p := range pkts {
		if err := c.send(StageChunks, p); err != nil {
			return err
		}
		for _, m := range s.modPackets(packetColumns(p)) {
			if err := c.send(StageNone, m); err != nil {
				return err
			}
		}
	}
	return nil
}

// packetColumns are the columns a chunk packet loads (none for an unload).
func packetColumns(p proto17.Packet) map[chunk.ChunkPos]bool {
	cols := map[chunk.ChunkPos]bool{}
	switch p := p.(type) {
	case *proto17.ChunkData:
		if !p.Unload() {
			cols[chunk.ChunkPos{X: int(p.X), Z: int(p.Z)}] = true
		}
	case *proto17.MapChunkBulk:
		for _, bc := range p.Columns {
			cols[chunk.ChunkPos{X: int(bc.X), Z: int(bc.Z)}] = true
		}
	}
	return cols
}

// lateBatch is packets to send at due.
type lateBatch struct {
	due time.Time
	out outbox
}

// sendLate sends out after d, after any batch sent late before it. A
// backlog past the queue's room is sent at once.
func (c *conn) sendLate(out outbox, d time.Duration) {
	c.lateOnce.Do(func() {
		c.late = make(chan lateBatch, 1024)
		go c.deliverLate()
	})
	select {
	case c.late <- lateBatch{due: time.Now().Add(d), out: out}:
	default:
		out.deliver()
	}
}

func (c *conn) deliverLate() {
	for {
		select {
		case <-c.done:
			return
		case b := <-c.late:
			if wait := time.Until(b.due); wait > 0 {
				select {
				case <-time.After(wait):
				case <-c.done:
					return
				}
			}
			b.out.deliver()
		}
	}
}
