package fakeserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Record is one packet the server received or sent.
type Record struct {
	Conn  int // connection number, from 1
	Time  time.Time
	State proto17.State
	ID    int32
	Name  string // proto17.PacketName, e.g. "PlayerDigging"
	// Packet is the decoded packet; nil when proto17 has no codec for the
	// id (or, for received packets, when decoding failed: see Err).
	Packet proto17.Packet
	// FML is the decoded message of an FML|HS plugin message.
	FML proto17.FMLMessage
	// Payload is the packet's bytes after the id.
	Payload []byte
	// Err is why a received packet could not be decoded.
	Err error
}

// WorldChange is one block the world changed.
type WorldChange struct {
	Conn     int // the player's connection, 0 for changes a test made
	Pos      world.BlockPos
	From, To chunk.StateID
	// FromName and ToName are the registry names of the states' blocks.
	FromName, ToName string
	Cause            string // "dig", "place" or "SetBlocks"
}

// Dig is the server's verdict on one finished dig (status 2), or on an
// instant break at the start.
type Dig struct {
	Conn  int
	Pos   world.BlockPos
	Block string // registry name of the block
	Held  string // registry name of the held item, "" for the hand
	// Ticks is the number of server ticks between start and finish.
	Ticks int
	// Needed is the least number of ticks the server would have accepted
	// (DigThreshold of the vanilla break time, with the held item and the
	// on-ground flag at the finish).
	Needed   int
	Accepted bool
	Reason   string // why it was refused
}

// Correction is a Player Position And Look the server sent to reset a
// player who moved illegally.
type Correction struct {
	Conn     int
	From, To world.Vec3 // the refused position and the one the player was reset to (feet)
	Reason   string     // "moved too quickly", "moved wrongly" or "outside the world"
}

// Kick is a disconnect the server sent.
type Kick struct {
	Conn   int
	Reason string
}

// savedPlayer is what the server keeps of a player who left.
type savedPlayer struct {
	pos  world.Vec3
	held int
	inv  [windowSlots]proto17.Slot
}

// Strike is a fault the server committed.
type Strike struct {
	Conn  int
	Stage Stage
	Fault string // "kick", "truncate" or "stall"
	Time  time.Time
}

// PlayerInfo is a joined player as the server sees it.
type PlayerInfo struct {
	Conn     int
	Name     string
	UUID     string // hyphenated
	EntityID int32
	// Pos is the last accepted position of the feet.
	Pos      world.Vec3
	OnGround bool
	// HeldSlot is the selected hotbar slot (0..8).
	HeldSlot int
	// Health, Food and Dead are the player's bars and whether it died and
	// has not respawned yet (playing players only).
	Health float64
	Food   int
	Dead   bool
	// Inventory holds the non-empty window-0 slots.
	Inventory []Item
}

// Count is how many items of the registry name the player holds.
func (p PlayerInfo) Count(name string) int {
	n := 0
	for _, it := range p.Inventory {
		if it.Name == name {
			n += it.Count
		}
	}
	return n
}

// DroppedItem is an item entity lying in the world.
type DroppedItem struct {
	EntityID int32
	Pos      world.Vec3
	Item     Item // Slot is unused
}

// Server is a scripted fake GTNH server on 127.0.0.1. It is for tests only:
// see the package documentation.
type Server struct {
	opts     Options
	formats  proto17.Formats
	ids      *rules.IDMap
	registry []byte // the encoded FML|HS ModIdData message
	start    time.Time

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every event
	closed   bool
	ln       net.Listener
	addr     string
	down     bool // between the two halves of a Restart
	restarts int
	reached  map[Stage]int // packets sent per stage over all connections (Faults.Once)
	strikes  []Strike
	bursts   int                     // hostile bursts sent
	saved    map[string]*savedPlayer // players who left, by name
	cols     map[chunk.ChunkPos]*chunk.Column
	conns    map[int]*conn
	nextConn int
	nextEID  int32
	items    map[int32]*droppedItem
	quests   map[questKey]*questProgress // the players' quest progress
	burned   []DroppedItem               // the items lava burned, in order
	tossed   []DroppedItem               // the items players threw away, in order
	// mobs are the hostile mobs in the world, pendingMobs those waiting
	// for the night (Options.Mobs), firstMob the lowest mob entity id;
	// clockTick is the server tick the world's clock has run up to.
	mobs        map[int32]*mob
	pendingMobs []Mob
	firstMob    int32
	clockTick   int
	hits        []Hit
	deaths      []Death
	respawns    int
	received    []Record
	sent        []Record
	changes     []WorldChange
	digs        []Dig
	fixes       []Correction
	kicks       []Kick
	mods        *modWorld
	// worldTick is the server tick the furnaces have run up to.
	worldTick int
	crafted   []Crafted
	// opened counts the container windows opened (WindowsOpened).
	opened   int
	smelted  []Crafted
	coked    []Crafted // what the coke ovens made
	falls    []Fall    // the sand and gravel that fell
	refusals []Refusal
	formed   []world.BlockPos // masters of the coke ovens players built

	wg sync.WaitGroup
}

// New builds the world and starts listening (by default on 127.0.0.1, on a
// free port).
func New(o Options) (*Server, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	f, err := proto17.FormatsFromMods(o.Mods)
	if err != nil {
		return nil, fmt.Errorf("fakeserver: %w", err)
	}
	reg, ids, err := buildRegistry(f, max(o.RegistryFiller, 0))
	if err != nil {
		return nil, fmt.Errorf("fakeserver: registry: %w", err)
	}
	regBytes, err := proto17.EncodeFML(reg)
	if err != nil {
		return nil, fmt.Errorf("fakeserver: registry: %w", err)
	}
	if len(regBytes) > proto17.MaxVarShort {
		return nil, fmt.Errorf("fakeserver: registry of %d bytes exceeds a varshort message", len(regBytes))
	}
	cols, err := generate(o, ids, f)
	if err != nil {
		return nil, err
	}
	for i, it := range o.Inventory {
		if _, ok := ids.ItemID(it.Name); !ok {
			return nil, fmt.Errorf("fakeserver: options: Inventory[%d]: item %q is not in the registry", i, it.Name)
		}
	}
	for i, q := range o.Quests {
		for _, it := range slices.Concat(q.Items, q.Reward, q.Choice) {
			if _, ok := ids.ItemID(it.Name); !ok {
				return nil, fmt.Errorf("fakeserver: options: Quests[%d]: item %q is not in the registry", i, it.Name)
			}
		}
	}
	mods, err := newModWorld(o, ids)
	if err != nil {
		return nil, err
	}
	addr := o.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := listen(addr)
	if err != nil {
		return nil, fmt.Errorf("fakeserver: %w", err)
	}
	s := &Server{
		opts: o, formats: f, ids: ids, registry: regBytes, ln: ln, addr: ln.Addr().String(), start: time.Now(),
		changed: make(chan struct{}), cols: cols, conns: map[int]*conn{}, mods: mods,
		nextEID: 100, items: map[int32]*droppedItem{}, mobs: map[int32]*mob{}, pendingMobs: append([]Mob(nil), o.Mobs...), reached: map[Stage]int{}, saved: map[string]*savedPlayer{},
	}
	s.registerMemory()
	s.wg.Add(1)
	go s.accept(ln)
	return s, nil
}

// Addr is the server's address, "127.0.0.1:port" (the same after a
// Restart).
func (s *Server) Addr() string { return s.addr }

// Formats are the wire formats the mod list selects.
func (s *Server) Formats() proto17.Formats { return s.formats }

// IDs is the server's id registry (frozen), the map a client learns from
// the FML handshake.
func (s *Server) IDs() *rules.IDMap { return s.ids }

// Close stops listening, drops every connection and waits for the server's
// goroutines.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.wg.Wait()
		return
	}
	s.closed = true
	s.unregisterMemory()
	conns := make([]*conn, 0, len(s.conns))
	for _, c := range s.conns {
		conns = append(conns, c)
	}
	ln := s.ln
	s.notifyLocked()
	s.mu.Unlock()
	if ln != nil {
		ln.Close()
	}
	for _, c := range conns {
		c.close()
	}
	s.wg.Wait()
}

// Restart stops the server as a 1.7.10 server stops — every player kicked
// with "Server closed" (ServerConfigurationManager.removeAllPlayers), the
// other connections dropped, the listener closed — keeps the world, the
// dropped items and the players' inventories and positions, and after
// downtime listens on the same port again. Connections attempted in the
// downtime are refused. It returns when the server listens again, or with
// the error that kept it from doing so (the server then stays down).
func (s *Server) Restart(downtime time.Duration) error {
	s.mu.Lock()
	if s.closed || s.down {
		s.mu.Unlock()
		return errors.New("fakeserver: Restart: the server is closed or already restarting")
	}
	s.down = true
	ln := s.ln
	s.ln = nil
	var conns []*conn
	for _, c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	ln.Close()
	for _, c := range conns {
		c.kick("Server closed") // a connection not in play is just closed
	}
	s.logf("stopped; restarting in %v", downtime)
	time.Sleep(downtime)
	var err error
	for try := 0; try < 50; try++ { // the port can stay busy for a moment
		if ln, err = listen(s.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("fakeserver: Restart: listening again on %s: %w", s.addr, err)
	}
	if s.closed {
		ln.Close()
		return errors.New("fakeserver: Restart: closed during the downtime")
	}
	s.ln, s.down = ln, false
	s.restarts++
	s.notifyLocked()
	s.wg.Add(1)
	go s.accept(ln)
	s.logf("listening again on %s", s.addr)
	return nil
}

// Restarts counts the completed restarts.
func (s *Server) Restarts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restarts
}

// Strikes returns the faults the server committed, in order.
func (s *Server) Strikes() []Strike {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.strikes)
}

// strike records a fault.
func (s *Server) strike(conn int, stage Stage, fault string) {
	s.mu.Lock()
	s.strikes = append(s.strikes, Strike{Conn: conn, Stage: stage, Fault: fault, Time: time.Now()})
	s.notifyLocked()
	s.mu.Unlock()
}

func (s *Server) accept(ln net.Listener) {
	defer s.wg.Done()
	for {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.closed || s.ln != ln {
			s.mu.Unlock()
			nc.Close()
			return
		}
		s.nextConn++
		c := newConn(s, s.nextConn, nc)
		s.conns[c.id] = c
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			c.serve()
		}()
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf("fakeserver: "+format, args...)
	}
}

// notifyLocked wakes WaitFor callers; s.mu is held.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// tick is the server tick count since the start.
func (s *Server) tick() int {
	return int(time.Since(s.start) / s.opts.TickDuration)
}

// WaitFor calls cond after every server event (a packet received or sent, a
// world change, a connection closing) until it returns true, and fails when
// ctx ends first. cond runs without the server's lock, so it may use the
// accessors.
func (s *Server) WaitFor(ctx context.Context, cond func() bool) error {
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("fakeserver: waiting: %w", ctx.Err())
		}
	}
}

// Received returns every packet the server received, in order.
func (s *Server) Received() []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.received)
}

// Sent returns every packet the server sent, in order (a packet a fault cut
// short is recorded whole).
func (s *Server) Sent() []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.sent)
}

// ReceivedNamed returns the received packets of one name (proto17's packet
// names, e.g. "PlayerDigging"), in order.
func (s *Server) ReceivedNamed(name string) []Record {
	var out []Record
	for _, r := range s.Received() {
		if r.Name == name {
			out = append(out, r)
		}
	}
	return out
}

// WorldChanges returns every block change, in order.
func (s *Server) WorldChanges() []WorldChange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.changes)
}

// Digs returns the server's verdict on every finished dig, in order.
func (s *Server) Digs() []Dig {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.digs)
}

// Corrections returns every position reset the server sent, in order.
func (s *Server) Corrections() []Correction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.fixes)
}

// Refusal is a player's action the server refused or corrected: a window
// click it answered with Accepted false, a block placement it undid, a dig
// it sent back or a move it reset.
type Refusal struct {
	Conn   int
	Kind   string // "click", "place", "dig" or "move"
	Reason string
}

// Refusals returns every refused or corrected action, in order.
func (s *Server) Refusals() []Refusal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.refusals)
}

// refuseLocked records a refusal; s.mu is held.
func (s *Server) refuseLocked(conn int, kind, format string, args ...any) {
	s.refusals = append(s.refusals, Refusal{Conn: conn, Kind: kind, Reason: fmt.Sprintf(format, args...)})
	s.logf("conn %d: %s refused: %s", conn, kind, s.refusals[len(s.refusals)-1].Reason)
	s.notifyLocked()
}

// Kicks returns every disconnect the server sent, in order.
func (s *Server) Kicks() []Kick {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.kicks)
}

// Players returns the players in the play state, by connection number.
func (s *Server) Players() []PlayerInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []PlayerInfo
	for _, c := range s.conns {
		if !c.playing {
			continue
		}
		p := PlayerInfo{Conn: c.id, Name: c.name, UUID: c.uuid, EntityID: c.eid, Pos: c.pos, OnGround: c.onGround, HeldSlot: c.held,
			Health: c.health, Food: c.food, Dead: c.dead}
		for i, sl := range c.inv {
			if !sl.Empty() && i != 0 { // slot 0 is the crafting result, not held
				p.Inventory = append(p.Inventory, s.itemOf(i, sl))
			}
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b PlayerInfo) int { return a.Conn - b.Conn })
	return out
}

// Player returns the player of that name as the server knows it: playing,
// or saved when it left (then Conn is 0 and only Name, Pos, HeldSlot and
// Inventory are set).
func (s *Server) Player(name string) (PlayerInfo, bool) {
	for _, p := range s.Players() {
		if p.Name == name {
			return p, true
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sp := s.saved[name]
	if sp == nil {
		return PlayerInfo{}, false
	}
	p := PlayerInfo{Name: name, Pos: sp.pos, HeldSlot: sp.held}
	for i, sl := range sp.inv {
		if !sl.Empty() {
			p.Inventory = append(p.Inventory, s.itemOf(i, sl))
		}
	}
	return p, true
}

// DroppedItems returns the item entities lying in the world, by entity id.
func (s *Server) DroppedItems() []DroppedItem {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]DroppedItem, 0, len(s.items))
	for _, it := range s.items {
		out = append(out, DroppedItem{EntityID: it.eid, Pos: it.pos, Item: s.itemOf(0, it.stack)})
	}
	slices.SortFunc(out, func(a, b DroppedItem) int { return int(a.EntityID - b.EntityID) })
	return out
}

// Tossed returns the items players threw away (Player Digging's drop
// statuses), in order, where each came to rest.
func (s *Server) Tossed() []DroppedItem {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]DroppedItem(nil), s.tossed...)
}

// BurnedItems returns the item entities lava burned, in order.
func (s *Server) BurnedItems() []DroppedItem {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]DroppedItem(nil), s.burned...)
}

// BlockAt returns the block at a position: its registry name and metadata
// (air outside the world).
func (s *Server) BlockAt(x, y, z int) (name string, meta int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stateAt(world.Pos(x, y, z))
	return s.blockName(st), st.Meta()
}

// Trees returns the positions of the trunks' bottom logs (the trees of the
// options, whatever is left of them is in the world).
func (s *Server) Trees() []world.BlockPos {
	out := make([]world.BlockPos, 0, len(s.opts.Trees))
	for _, t := range s.opts.Trees {
		out = append(out, world.Pos(t.X, s.opts.GroundY+1, t.Z))
	}
	return out
}

// Spawn is where the players' feet start.
func (s *Server) Spawn() world.Vec3 {
	return world.Vec3{X: s.opts.Spawn[0], Y: s.opts.Spawn[1], Z: s.opts.Spawn[2]}
}

// SetBlocks changes blocks and tells every player: a Block Change for a
// column with one change, a Multi Block Change for several.
func (s *Server) SetBlocks(blocks ...Block) error {
	s.mu.Lock()
	type change struct {
		pos world.BlockPos
		st  chunk.StateID
	}
	byCol := map[chunk.ChunkPos][]change{}
	var order []chunk.ChunkPos
	for _, b := range blocks {
		id, ok := s.ids.BlockID(b.Name)
		if !ok {
			s.mu.Unlock()
			return fmt.Errorf("fakeserver: SetBlocks: block %q is not in the registry", b.Name)
		}
		if b.Meta < 0 || b.Meta > 0xFFFF || (!s.formats.NEID && (b.Meta > 15 || id > 0xFFF)) {
			s.mu.Unlock()
			return fmt.Errorf("fakeserver: SetBlocks: %s:%d does not fit the %s format", b.Name, b.Meta, formatName(s.formats))
		}
		p := world.Pos(b.X, b.Y, b.Z)
		cp := chunk.ChunkOf(p)
		if s.cols[cp] == nil || b.Y < 0 || b.Y > 255 {
			s.mu.Unlock()
			return fmt.Errorf("fakeserver: SetBlocks: %v is outside the world", p)
		}
		if _, seen := byCol[cp]; !seen {
			order = append(order, cp)
		}
		byCol[cp] = append(byCol[cp], change{p, chunk.MakeState(id, b.Meta)})
	}
	var out outbox
	for _, cp := range order {
		var recs []proto17.BlockRecord
		for _, ch := range byCol[cp] {
			s.setBlockLocked(0, ch.pos, ch.st, "SetBlocks")
			recs = append(recs, proto17.BlockRecord{X: uint8(ch.pos.X & 15), Y: uint8(ch.pos.Y), Z: uint8(ch.pos.Z & 15), BlockID: uint16(ch.st.ID()), Meta: uint16(ch.st.Meta())})
		}
		var p proto17.Packet
		if len(recs) == 1 {
			ch := byCol[cp][0]
			p = s.blockChange(ch.pos)
		} else {
			p = &proto17.MultiBlockChange{ChunkX: int32(cp.X), ChunkZ: int32(cp.Z), Records: recs}
		}
		out.all(s, StageNone, p)
	}
	out.add(s.settleItemsLocked()...)
	s.mu.Unlock()
	out.deliver()
	return nil
}

// Send sends a packet to every player in the play state.
func (s *Server) Send(p proto17.Packet) {
	s.mu.Lock()
	var out outbox
	out.all(s, StageNone, p)
	s.mu.Unlock()
	out.deliver()
}

// Say sends a chat line (plain text) to every player.
func (s *Server) Say(text string) { s.Send(&proto17.Chat{JSON: chatJSON(text)}) }

// Kick disconnects every player with the reason.
func (s *Server) Kick(reason string) {
	s.mu.Lock()
	var cs []*conn
	for _, c := range s.conns {
		if c.playing {
			cs = append(cs, c)
		}
	}
	s.mu.Unlock()
	for _, c := range cs {
		c.kick(reason)
	}
}

// itemOf names a slot's stack.
func (s *Server) itemOf(slot int, sl proto17.Slot) Item {
	name, ok := s.ids.ItemName(int(sl.ID))
	if !ok {
		name = fmt.Sprintf("unknown:%d", sl.ID)
	}
	it := Item{Slot: slot, Name: name, Count: int(sl.Count), Damage: int(sl.Damage)}
	if t, err := modnet.ParseGTTool(sl.NBT); err == nil {
		it.ToolDamage = int(t.Damage)
	}
	return it
}

func (s *Server) blockName(st chunk.StateID) string {
	name, ok := s.ids.BlockName(st.ID())
	if !ok {
		return fmt.Sprintf("unknown:%d", st.ID())
	}
	return name
}

// stateAt is the block at p; s.mu is held.
func (s *Server) stateAt(p world.BlockPos) chunk.StateID {
	col := s.cols[chunk.ChunkOf(p)]
	if col == nil {
		return chunk.AirState
	}
	return col.StateAt(p.X, p.Y, p.Z)
}

// loaded reports whether p is inside the world's columns.
func (s *Server) loaded(p world.BlockPos) bool {
	return s.cols[chunk.ChunkOf(p)] != nil && p.Y >= 0 && p.Y < chunk.WorldHeight
}

// setBlockLocked changes a block and records it; s.mu is held.
func (s *Server) setBlockLocked(connID int, p world.BlockPos, st chunk.StateID, cause string) {
	col := s.cols[chunk.ChunkOf(p)]
	if col == nil {
		return
	}
	prev := col.SetState(p.X, p.Y, p.Z, st)
	s.changes = append(s.changes, WorldChange{Conn: connID, Pos: p, From: prev, To: st,
		FromName: s.blockName(prev), ToName: s.blockName(st), Cause: cause})
	s.notifyLocked()
}

// blockChange is the Block Change packet for the current block at p.
func (s *Server) blockChange(p world.BlockPos) *proto17.BlockChange {
	st := s.stateAt(p)
	return &proto17.BlockChange{X: int32(p.X), Y: uint8(p.Y), Z: int32(p.Z), BlockID: int32(st.ID()), Meta: uint16(st.Meta())}
}

// outbox collects packets decided under s.mu, to be sent after it is
// released (a slow reader must never block the server's lock).
type outbox []outgoing

type outgoing struct {
	c     *conn
	stage Stage
	p     proto17.Packet
	// id and payload are a packet sent as raw bytes when p is nil (one
	// proto17 would refuse to encode).
	id      int32
	payload []byte
}

func (o *outbox) to(c *conn, stage Stage, p proto17.Packet) {
	*o = append(*o, outgoing{c: c, stage: stage, p: p})
}

// all queues p for every player in the play state; s.mu is held.
func (o *outbox) all(s *Server, stage Stage, p proto17.Packet) {
	for _, c := range s.conns {
		if c.playing {
			o.to(c, stage, p)
		}
	}
}

func (o *outbox) add(more ...outgoing) { *o = append(*o, more...) }

// deliver sends the packets in order. A failed send closes that connection,
// whose reader then ends.
func (o outbox) deliver() {
	for _, m := range o {
		if m.c.isClosed() {
			continue
		}
		if m.p == nil {
			m.c.sendRaw(m.stage, m.id, m.payload, nil)
			continue
		}
		m.c.send(m.stage, m.p)
	}
}

// errKicked ends a connection's reader after the server kicked the player.
var errKicked = errors.New("fakeserver: kicked")
