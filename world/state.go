package world

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// State is the one owner of the mutable world: chunks, entities, the
// player's inventory and body, known machines, the tick, the id map and the
// tag table. It changes only inside Update, under a lock; readers take a
// Snapshot, an immutable view that stays consistent while the body keeps
// writing. Snapshots share unchanged chunk columns and sections with the
// state (copy-on-write), so taking one costs O(entities + machines), not
// O(loaded blocks).
//
// The tech state of a snapshot is inferred from the inventory and the known
// machines by the state's Rules, and recomputed only when either
// changed.
type State struct {
	mu       sync.Mutex
	chunks   *chunk.ChunkStore
	entities map[int]Entity
	inv      Inventory
	player   Player
	machines map[BlockPos]Machine
	// posTags are the position tags (postags.go); posTagsShared: a
	// snapshot holds the map, so the next change copies it.
	posTags       map[BlockPos]posTag
	posTagsShared bool
	tick          int64
	timeOfDay     int64
	worldAge      int64
	rules         Rules
	version       uint64

	// Derived data, rebuilt on demand after a change.
	entList   []Entity
	machList  []Machine
	techState string
	techValid bool
}

// StateOptions configures a State.
type StateOptions struct {
	// Rules gives blocks their tags and infers the tech tier; required
	// (rules.Default() is the shipped set).
	Rules Rules
	// IDs names the block ids of chunk data; Rules.StartIDs() when nil.
	// Frozen by NewState.
	IDs *rules.IDMap
}

// NewState returns an empty world: no chunks, an empty 36-slot inventory, a
// player in the overworld at full health and food, tick 0.
// It panics without opts.Rules, a mistake of the code that builds it.
func NewState(opts StateOptions) *State {
	if opts.Rules == nil {
		panic("world: NewState needs StateOptions.Rules (rules.Default() is the shipped set)")
	}
	if opts.IDs == nil {
		opts.IDs = opts.Rules.StartIDs()
	}
	s := &State{
		chunks:   chunk.NewChunkStore(chunk.NewResolver(opts.IDs, opts.Rules)),
		entities: map[int]Entity{},
		inv:      NewInventory(),
		player:   Player{Dimension: Overworld, Health: 20, Food: 20, Air: FullAir},
		machines: map[BlockPos]Machine{},
		rules:    opts.Rules,
	}
	return s
}

// Update runs fn with exclusive access to the state. Changes apply as fn
// makes them; the Tx must not be kept or used after fn returns. A panic in fn
// unlocks the state and propagates, leaving the changes made before it.
func (s *State) Update(fn func(tx *Tx)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tx := &Tx{s: s}
	defer func() { tx.s = nil }()
	fn(tx)
}

// Version counts the changes made so far; two snapshots with the same version
// show the same world.
func (s *State) Version() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Resolver returns the resolver in use (it changes when SetIDMap is called).
func (s *State) Resolver() *chunk.Resolver {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chunks.Resolver()
}

// Snapshot returns a consistent, immutable view of the world now. The chunk
// view is shared, not copied; entities, machines and inventory slots are
// copied so that a reader changing its snapshot cannot disturb another one.
// Machine slot and fluid maps are shared between snapshots and must be
// treated as read-only.
func (s *State) Snapshot() *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	machines := s.machineList()
	if !s.techValid {
		s.techState = s.rules.InferTier(s.inv, machines)
		s.techValid = true
	}
	view := s.chunks.View()
	var blocks BlockSource = view
	if len(s.posTags) > 0 {
		blocks = &taggedView{base: view, st: func(p BlockPos) chunk.StateID { return view.StateAt(p.X, p.Y, p.Z) }, tags: s.posTags}
		s.posTagsShared = true
	}
	return &Snapshot{
		Tick:      s.tick,
		TimeOfDay: s.timeOfDay,
		WorldAge:  s.worldAge,
		Player:    s.player,
		Inventory: Inventory{Slots: slices.Clone(s.inv.Slots), Held: s.inv.Held},
		Blocks:    blocks,
		Entities:  slices.Clone(s.entityList()),
		Machines:  slices.Clone(machines),
		TechState: s.techState,
	}
}

// CompactChunks packs up to max of the raw sections chunk packets left in
// the store (see ChunkStore.Compact), so their wire arrays can be freed, and
// returns how many it packed. The palette forms are built outside the lock
// (the arrays never change), so Update callers wait only for a scan and the
// pointer swaps. The world's content and Version do not change. A client
// calls it when idle, e.g. once a tick with a budget.
func (s *State) CompactChunks(max int) int {
	s.mu.Lock()
	plan := s.chunks.PlanCompact(max)
	s.mu.Unlock()
	if plan == nil {
		return 0
	}
	plan.Build()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chunks.ApplyCompact(plan)
}

func (s *State) entityList() []Entity {
	if s.entList == nil && len(s.entities) > 0 {
		s.entList = make([]Entity, 0, len(s.entities))
		for _, id := range slices.Sorted(maps.Keys(s.entities)) {
			s.entList = append(s.entList, s.entities[id])
		}
	}
	return s.entList
}

func (s *State) machineList() []Machine {
	if s.machList == nil && len(s.machines) > 0 {
		s.machList = make([]Machine, 0, len(s.machines))
		for _, m := range s.machines {
			s.machList = append(s.machList, m)
		}
		slices.SortFunc(s.machList, func(a, b Machine) int {
			switch {
			case a.Pos.Less(b.Pos):
				return -1
			case b.Pos.Less(a.Pos):
				return 1
			}
			return 0
		})
	}
	return s.machList
}

// Tx is the write access Update hands out. Its methods read and change the
// state directly; they panic when the Tx is used after its Update returned.
type Tx struct {
	s *State
}

func (tx *Tx) st() *State {
	if tx.s == nil {
		panic("world: Tx used after its Update returned")
	}
	return tx.s
}

func (tx *Tx) changed() { tx.s.version++ }

func (tx *Tx) inventoryChanged() {
	tx.changed()
	tx.s.techValid = false
}

func (tx *Tx) machinesChanged() {
	tx.changed()
	tx.s.machList = nil
	tx.s.techValid = false
}

func (tx *Tx) entitiesChanged() {
	tx.changed()
	tx.s.entList = nil
}

// Tick returns the current game tick.
func (tx *Tx) Tick() int64 { return tx.st().tick }

// SetTick sets the game tick.
func (tx *Tx) SetTick(t int64) {
	s := tx.st()
	if s.tick != t {
		s.tick = t
		tx.changed()
	}
}

// AdvanceTick moves the game tick forward by n.
func (tx *Tx) AdvanceTick(n int64) { tx.SetTick(tx.st().tick + n) }

// TimeOfDay returns the time of day (see Snapshot.TimeOfDay).
func (tx *Tx) TimeOfDay() int64 { return tx.st().timeOfDay }

// SetWorldAge sets the server's world age (Snapshot.WorldAge).
func (tx *Tx) SetWorldAge(t int64) {
	s := tx.st()
	if s.worldAge != t {
		s.worldAge = t
		tx.changed()
	}
}

// SetTimeOfDay sets the time of day: ticks since sunrise, 0..23999 (the
// caller takes a server's running count modulo the day).
func (tx *Tx) SetTimeOfDay(t int64) {
	s := tx.st()
	if s.timeOfDay != t {
		s.timeOfDay = t
		tx.changed()
	}
}

// Nearest returns up to k blocks (all when k is 0) within radius of
// center that match, nearest first (see chunk.Chunks.Nearest).
func (tx *Tx) Nearest(center BlockPos, radius, k int, match func(Block) bool) []BlockHit {
	return tx.st().chunks.View().Nearest(center, radius, k, match)
}

// Resolver returns the resolver in use.
func (tx *Tx) Resolver() *chunk.Resolver { return tx.st().chunks.Resolver() }

// SetIDMap replaces the id map (a server's registry received at login);
// the map is frozen. Stored states keep their numbers and resolve through the
// new map from the next snapshot on.
func (tx *Tx) SetIDMap(ids *rules.IDMap) {
	s := tx.st()
	s.chunks.SetResolver(chunk.NewResolver(ids, s.rules))
	tx.changed()
}

// StateAt returns the block state at p.
func (tx *Tx) StateAt(p BlockPos) chunk.StateID { return tx.st().chunks.StateAt(p.X, p.Y, p.Z) }

// BlockAt returns the block at p.
func (tx *Tx) BlockAt(p BlockPos) Block { return tx.st().chunks.BlockAt(p) }

// SetState changes the block at p and returns the previous state; heights
// outside 0..255 are ignored.
func (tx *Tx) SetState(p BlockPos, st chunk.StateID) chunk.StateID {
	s := tx.st()
	if uint(p.Y) >= chunk.WorldHeight {
		return chunk.AirState
	}
	if st.IsAir() {
		st = chunk.AirState // every block-id-0 state is stored as AirState
	}
	prev := s.chunks.SetState(p.X, p.Y, p.Z, st)
	if prev != st {
		tx.changed()
	}
	return prev
}

// SetBlock changes the block at p to a named block ("minecraft:log") and
// metadata, resolved through the id map.
func (tx *Tx) SetBlock(p BlockPos, name string, meta int) error {
	st, ok := tx.st().chunks.Resolver().State(name, meta)
	if !ok {
		return fmt.Errorf("world: no block %s:%d in the id map", name, meta)
	}
	tx.SetState(p, st)
	return nil
}

// LoadColumn stores a column (replacing one at its position); the state owns
// it from now on.
func (tx *Tx) LoadColumn(c *chunk.Column) {
	tx.st().chunks.LoadColumn(c)
	tx.changed()
}

// UnloadColumn drops the column at (cx, cz) and reports whether it was
// loaded. What the state knew of the column goes with it: the machines
// whose position is in it and its position tags. A server sends a
// machine's tile data again when the column comes back (and stops sending
// it while the column is away), so a machine kept after its column left
// would be one the body can neither see change nor reach.
func (tx *Tx) UnloadColumn(cx, cz int) bool {
	s := tx.st()
	ok := s.chunks.UnloadColumn(cx, cz)
	if ok {
		tx.changed()
	}
	in := func(p BlockPos) bool { return chunk.ChunkOf(p) == chunk.ChunkPos{X: cx, Z: cz} }
	gone := false
	for p := range s.machines {
		if in(p) {
			delete(s.machines, p)
			gone = true
		}
	}
	if gone {
		tx.machinesChanged()
	}
	tagged := false
	for p := range s.posTags {
		if tagged = in(p); tagged {
			break
		}
	}
	if tagged {
		if s.posTagsShared {
			s.posTags = clonePosTags(s.posTags)
			s.posTagsShared = false
		}
		for p := range s.posTags {
			if in(p) {
				delete(s.posTags, p)
			}
		}
		tx.changed()
	}
	return ok
}

// SetSection replaces one section of column (cx, cz); see
// ChunkStore.SetSection.
func (tx *Tx) SetSection(cx, cy, cz int, sec *chunk.Section) {
	tx.st().chunks.SetSection(cx, cy, cz, sec)
	tx.changed()
}

// Column returns the loaded column at (cx, cz) or nil; it must be treated as
// read-only, and its pointer and Edits tell a later call whether it changed.
func (tx *Tx) Column(cx, cz int) *chunk.Column { return tx.st().chunks.Column(cx, cz) }

// Columns is the number of loaded columns.
func (tx *Tx) Columns() int { return tx.st().chunks.Columns() }

// Player returns the player's body.
func (tx *Tx) Player() Player { return tx.st().player }

// SetPlayer replaces the player's body. A change of dimension drops the
// chunks, entities and machines of the old one, as the client does.
func (tx *Tx) SetPlayer(p Player) {
	s := tx.st()
	if p.Dimension != s.player.Dimension {
		tx.leaveDimension()
	}
	s.player = p
	tx.changed()
}

// MovePlayer sets the player's position.
func (tx *Tx) MovePlayer(pos Vec3) {
	tx.st().player.Pos = pos
	tx.changed()
}

// SetHealth sets the player's health and food.
func (tx *Tx) SetHealth(health, food float64) {
	s := tx.st()
	s.player.Health, s.player.Food = health, food
	tx.changed()
}

// SetAir sets the player's air supply (ticks).
func (tx *Tx) SetAir(air int) {
	s := tx.st()
	s.player.Air = air
	tx.changed()
}

// SetDimension moves the player to another dimension, dropping the chunks,
// entities and machines of the old one; the same dimension changes nothing.
func (tx *Tx) SetDimension(dim string) {
	s := tx.st()
	if dim == s.player.Dimension {
		return
	}
	tx.leaveDimension()
	s.player.Dimension = dim
	tx.changed()
}

func (tx *Tx) leaveDimension() {
	s := tx.s
	s.chunks.Clear()
	if len(s.entities) > 0 {
		clear(s.entities)
		tx.entitiesChanged()
	}
	if len(s.machines) > 0 {
		clear(s.machines)
		tx.machinesChanged()
	}
	s.posTags, s.posTagsShared = nil, false
}

// Inventory returns a copy of the inventory.
func (tx *Tx) Inventory() Inventory {
	inv := tx.st().inv
	return Inventory{Slots: slices.Clone(inv.Slots), Held: inv.Held}
}

// SetInventory replaces the inventory with a copy of inv.
func (tx *Tx) SetInventory(inv Inventory) {
	tx.st().inv = Inventory{Slots: slices.Clone(inv.Slots), Held: inv.Held}
	tx.inventoryChanged()
}

// SetSlot puts a stack in slot i.
func (tx *Tx) SetSlot(i int, stack ItemStack) error {
	s := tx.st()
	if i < 0 || i >= len(s.inv.Slots) {
		return fmt.Errorf("world: slot %d out of range 0..%d", i, len(s.inv.Slots)-1)
	}
	s.inv.Slots[i] = stack
	tx.inventoryChanged()
	return nil
}

// SetHeld selects the held hotbar slot (0..8).
func (tx *Tx) SetHeld(i int) error {
	if i < 0 || i > 8 {
		return fmt.Errorf("world: held slot %d out of range 0..8", i)
	}
	tx.st().inv.Held = i
	tx.inventoryChanged()
	return nil
}

// Entity returns the entity with an id.
func (tx *Tx) Entity(id int) (Entity, bool) {
	e, ok := tx.st().entities[id]
	return cloneEntity(e), ok
}

// PutEntity adds an entity or replaces the one with its id.
func (tx *Tx) PutEntity(e Entity) {
	tx.st().entities[e.ID] = cloneEntity(e)
	tx.entitiesChanged()
}

// RemoveEntity drops an entity and reports whether it existed.
func (tx *Tx) RemoveEntity(id int) bool {
	s := tx.st()
	if _, ok := s.entities[id]; !ok {
		return false
	}
	delete(s.entities, id)
	tx.entitiesChanged()
	return true
}

// Entities is the number of known entities.
func (tx *Tx) Entities() int { return len(tx.st().entities) }

func cloneEntity(e Entity) Entity {
	if e.Item != nil {
		item := *e.Item
		e.Item = &item
	}
	return e
}

// Machine returns the machine at a position.
func (tx *Tx) Machine(pos BlockPos) (Machine, bool) {
	m, ok := tx.st().machines[pos]
	return cloneMachine(m), ok
}

// PutMachine adds a machine or replaces the one at its position. The state
// keeps a copy, so the caller may go on changing m's maps.
func (tx *Tx) PutMachine(m Machine) {
	tx.st().machines[m.Pos] = cloneMachine(m)
	tx.machinesChanged()
}

// RemoveMachine drops the machine at pos and reports whether there was one.
func (tx *Tx) RemoveMachine(pos BlockPos) bool {
	s := tx.st()
	if _, ok := s.machines[pos]; !ok {
		return false
	}
	delete(s.machines, pos)
	tx.machinesChanged()
	return true
}

func cloneMachine(m Machine) Machine {
	if m.Slots != nil {
		m.Slots = maps.Clone(m.Slots)
	}
	if m.Fluids != nil {
		m.Fluids = maps.Clone(m.Fluids)
	}
	return m
}
