package chunk

import (
	"sync/atomic"

	"github.com/gtnh-agent/gtnh-agent/game"
)

// Columns are grouped in regions of 8×8 so that the map a snapshot shares is
// small: copying it on the first write after a snapshot costs a few dozen
// pointers, not one per loaded column.
const (
	regionShift = 3
	regionSide  = 1 << regionShift
	regionMask  = regionSide - 1
)

type region struct {
	cols [regionSide * regionSide]*Column
	n    int
	gen  uint64
}

// generations stamp the objects a store may write in place. They come from
// one counter so that a section or column owned by one store never carries
// another store's current generation.
var generations atomic.Uint64

func nextGen() uint64 { return generations.Add(1) }

func regionKey(cx, cz int) uint64 {
	return uint64(uint32(int32(cx>>regionShift)))<<32 | uint64(uint32(int32(cz>>regionShift)))
}

func regionSlot(cx, cz int) int { return (cz&regionMask)<<regionShift | cx&regionMask }

// chunkMap is the read side shared by the store and its views.
type chunkMap map[uint64]*region

func (m chunkMap) column(cx, cz int) *Column {
	r := m[regionKey(cx, cz)]
	if r == nil {
		return nil
	}
	return r.cols[regionSlot(cx, cz)]
}

func (m chunkMap) stateAt(x, y, z int) StateID {
	if uint(y) >= WorldHeight {
		return AirState
	}
	c := m.column(x>>4, z>>4)
	if c == nil {
		return AirState
	}
	s := c.sections[y>>4]
	if s == nil {
		return AirState
	}
	return s.at(SectionIndex(x, y, z))
}

func (m chunkMap) forEach(fn func(*Column)) {
	for _, r := range m {
		for _, c := range r.cols {
			if c != nil {
				fn(c)
			}
		}
	}
}

// ChunkStore is the mutable chunk storage a state owner keeps: columns
// addressed by chunk position, written block by block or column by column.
// View returns an immutable Chunks that shares every column, section and
// region with the store; the store copies a shared piece before its first
// write after a view was taken (copy-on-write), so views never change and
// taking one costs O(1).
//
// A ChunkStore is not safe for concurrent use; State serialises access to its
// store. Views are safe for any number of concurrent readers.
type ChunkStore struct {
	regions chunkMap
	gen     uint64 // objects stamped with gen may be written in place
	mapGen  uint64 // the generation whose view last shared regions
	columns int
	res     *Resolver
	view    *Chunks // the current view, nil after a write
	// mayHaveRaw is set when a raw section (see NewVanillaSection) is
	// adopted and cleared when Compact finds none left.
	mayHaveRaw bool
	rawAdopted uint64 // raw sections adopted so far
}

// NewChunkStore returns an empty store resolving states with res, which is
// required.
func NewChunkStore(res *Resolver) *ChunkStore {
	if res == nil {
		panic("chunk: NewChunkStore needs a resolver")
	}
	g := nextGen()
	return &ChunkStore{regions: chunkMap{}, gen: g, mapGen: g, res: res}
}

// Resolver returns the resolver views use to turn states into blocks.
func (s *ChunkStore) Resolver() *Resolver { return s.res }

// SetResolver changes the resolver (after the server sent its id map); views
// taken from now on use it.
func (s *ChunkStore) SetResolver(res *Resolver) {
	if res == nil {
		panic("chunk: SetResolver needs a resolver")
	}
	s.res = res
	s.view = nil
}

// Columns is the number of loaded columns.
func (s *ChunkStore) Columns() int { return s.columns }

// Column returns the loaded column at (cx, cz) or nil. It must be treated as
// read-only.
func (s *ChunkStore) Column(cx, cz int) *Column { return s.regions.column(cx, cz) }

// StateAt returns the state at a block position (air where nothing is loaded).
func (s *ChunkStore) StateAt(x, y, z int) StateID { return s.regions.stateAt(x, y, z) }

// BlockAt returns the block at p.
func (s *ChunkStore) BlockAt(p game.BlockPos) game.Block {
	return s.res.Block(s.StateAt(p.X, p.Y, p.Z))
}

// View returns an immutable view of the current content. Consecutive calls
// without a write in between return the same view.
func (s *ChunkStore) View() *Chunks {
	if s.view == nil {
		s.view = &Chunks{regions: s.regions, columns: s.columns, res: s.res}
		// Everything that exists now is shared with the view.
		s.gen = nextGen()
	}
	return s.view
}

// LoadColumn stores c at its position, replacing any column there. The store
// owns c from now on (c's mutators panic). A column or section that a store
// already holds (taken from a view, or one section placed in two columns) is
// treated as shared and copied before its first write.
func (s *ChunkStore) LoadColumn(c *Column) {
	s.write()
	s.adopt(c)
	r := s.ownRegion(regionKey(c.pos.X, c.pos.Z))
	slot := regionSlot(c.pos.X, c.pos.Z)
	if r.cols[slot] == nil {
		r.n++
		s.columns++
	}
	r.cols[slot] = c
}

func (s *ChunkStore) adopt(c *Column) {
	if !c.owned {
		c.owned, c.gen = true, s.gen
	}
	for _, sec := range c.sections {
		if sec != nil {
			s.adoptSection(sec)
		}
	}
}

// adoptSection takes ownership of a fresh section. An owned one keeps its
// stamp: another store's generation never equals ours, so it is copied before
// a write; one stamped with our current generation is now reachable twice and
// loses the stamp for the same reason.
func (s *ChunkStore) adoptSection(sec *Section) {
	if sec.raw != nil {
		s.mayHaveRaw = true
		s.rawAdopted++
	}
	switch {
	case !sec.owned:
		sec.owned, sec.gen = true, s.gen
	case sec.gen == s.gen:
		sec.gen = 0
	}
}

// UnloadColumn removes the column at (cx, cz) and reports whether one was
// loaded.
func (s *ChunkStore) UnloadColumn(cx, cz int) bool {
	key := regionKey(cx, cz)
	r := s.regions[key]
	if r == nil || r.cols[regionSlot(cx, cz)] == nil {
		return false
	}
	s.write()
	r = s.ownRegion(key)
	r.cols[regionSlot(cx, cz)] = nil
	r.n--
	s.columns--
	if r.n == 0 {
		s.ownMap()
		delete(s.regions, key)
	}
	return true
}

// Clear unloads every column.
func (s *ChunkStore) Clear() {
	if s.columns == 0 && len(s.regions) == 0 {
		return
	}
	s.write()
	s.regions, s.mapGen, s.columns = chunkMap{}, s.gen, 0
}

// SetState changes one block and returns the previous state. A write into an
// unloaded column creates it (the simulator builds worlds this way); writing
// air there does nothing. Heights outside 0..255 are ignored.
func (s *ChunkStore) SetState(x, y, z int, st StateID) StateID {
	if uint(y) >= WorldHeight {
		return AirState
	}
	st = normState(st)
	cx, cz, cy := x>>4, z>>4, y>>4
	i := SectionIndex(x, y, z)
	c := s.regions.column(cx, cz)
	var cur *Section
	if c != nil {
		cur = c.sections[cy]
	}
	switch {
	case cur == nil && st == AirState:
		return AirState
	case cur != nil && cur.at(i) == st:
		return st
	}
	s.write()
	col := s.ownColumn(cx, cz)
	col.edits++
	sec := col.sections[cy]
	switch {
	case sec == nil:
		sec = NewEmptySection()
		sec.owned, sec.gen = true, s.gen
		col.sections[cy] = sec
	case sec.gen != s.gen:
		sec = sec.clone()
		sec.owned, sec.gen = true, s.gen
		col.sections[cy] = sec
	}
	prev := sec.set(i, st)
	if sec.IsEmpty() {
		col.sections[cy] = nil
	}
	return prev
}

// SetSection replaces section cy of column (cx, cz) in one step (nil or an
// all-air section clears it), creating the column when it is not loaded. The
// store owns sec from now on.
func (s *ChunkStore) SetSection(cx, cy, cz int, sec *Section) {
	if cy < 0 || cy >= ColumnSections {
		return
	}
	if sec != nil && sec.IsEmpty() {
		sec = nil
	}
	if sec == nil && s.regions.column(cx, cz) == nil {
		return
	}
	s.write()
	col := s.ownColumn(cx, cz)
	col.edits++
	if sec != nil {
		s.adoptSection(sec)
	}
	col.sections[cy] = sec
}

// RawSections reports whether the store may hold raw sections (sections
// that still read their blocks from a chunk packet's arrays) that Compact
// would pack.
func (s *ChunkStore) RawSections() bool { return s.mayHaveRaw }

// Compact replaces up to max raw sections with their palette form, so the
// wire arrays they kept can be freed, and returns how many it replaced. It
// changes how blocks are stored, never which blocks there are; views taken
// before keep the sections they had. The palette form is the one cached by
// an earlier query, or built now; State.CompactChunks builds them outside the
// state's lock.
func (s *ChunkStore) Compact(max int) int {
	if !s.mayHaveRaw || max <= 0 {
		return 0
	}
	spots, all := rawSpots(s.regions, max)
	n := s.swapPacked(spots)
	if all {
		s.mayHaveRaw = false
	}
	return n
}

// Compaction is [ChunkStore.Compact] cut in three so that its slow part can
// run outside the owner's lock: [ChunkStore.PlanCompact] lists raw sections
// (under the lock), [Compaction.Build] builds their palette forms (no lock
// needed: the wire arrays never change), and [ChunkStore.ApplyCompact] swaps
// the forms in (under the lock again). Sections written or unloaded in
// between are skipped.
type Compaction struct {
	spots   []rawSpot
	all     bool
	adopted uint64
}

// PlanCompact lists up to max raw sections to pack; nil when there is
// nothing to do.
func (s *ChunkStore) PlanCompact(max int) *Compaction {
	if !s.mayHaveRaw || max <= 0 {
		return nil
	}
	spots, all := rawSpots(s.regions, max)
	return &Compaction{spots: spots, all: all, adopted: s.rawAdopted}
}

// Build builds the palette form of every listed section. It reads only the
// sections' immutable arrays, so it needs no lock.
func (c *Compaction) Build() {
	for _, p := range c.spots {
		p.raw.packedForm(p.kind)
	}
}

// ApplyCompact swaps in the palette forms of a plan and returns how many
// sections it replaced. When the plan listed every raw section and no raw
// section was adopted since, the store knows it holds none.
func (s *ChunkStore) ApplyCompact(c *Compaction) int {
	if c == nil {
		return 0
	}
	n := s.swapPacked(c.spots)
	if c.all && s.rawAdopted == c.adopted {
		s.mayHaveRaw = false
	}
	return n
}

// rawSpot is where a raw section was found, with its arrays: reading
// those needs no lock (they never change), the section itself may be
// materialized in place by the store's writer.
type rawSpot struct {
	cx, cz, cy int
	sec        *Section
	raw        *rawArrays
	kind       uint8
}

// rawSpots lists up to max raw sections of m; all reports that there are no
// more.
func rawSpots(m chunkMap, max int) (spots []rawSpot, all bool) {
	all = true
	m.forEach(func(c *Column) {
		for cy, sec := range c.sections {
			if sec == nil || sec.raw == nil {
				continue
			}
			if len(spots) == max {
				all = false
				return
			}
			spots = append(spots, rawSpot{c.pos.X, c.pos.Z, cy, sec, sec.raw, sec.bits})
		}
	})
	return spots, all
}

// swapPacked replaces each listed section that is still in place with its
// palette form.
func (s *ChunkStore) swapPacked(spots []rawSpot) int {
	n := 0
	for _, p := range spots {
		c := s.regions.column(p.cx, p.cz)
		if c == nil || c.sections[p.cy] != p.sec || p.sec.raw != p.raw {
			continue
		}
		if n == 0 {
			s.write()
		}
		// The palette form is immutable and may be shared with views
		// through the raw section: it carries generation 0, so the store
		// copies it before any write.
		s.ownColumn(p.cx, p.cz).sections[p.cy] = p.raw.packedForm(p.kind)
		n++
	}
	return n
}

// write invalidates the current view before a change.
func (s *ChunkStore) write() { s.view = nil }

// ownMap makes the region map private to the store.
func (s *ChunkStore) ownMap() {
	if s.mapGen == s.gen {
		return
	}
	m := make(chunkMap, len(s.regions)+1)
	for k, r := range s.regions {
		m[k] = r
	}
	s.regions, s.mapGen = m, s.gen
}

// ownRegion returns a region the store may write in place, creating or
// copying it as needed.
func (s *ChunkStore) ownRegion(key uint64) *region {
	r := s.regions[key]
	if r != nil && r.gen == s.gen {
		return r
	}
	var nr *region
	if r == nil {
		nr = &region{}
	} else {
		cp := *r
		nr = &cp
	}
	nr.gen = s.gen
	s.ownMap()
	s.regions[key] = nr
	return nr
}

// ownColumn returns a column the store may write in place (its sections may
// still be shared), creating or copying it as needed.
func (s *ChunkStore) ownColumn(cx, cz int) *Column {
	r := s.regions[regionKey(cx, cz)]
	slot := regionSlot(cx, cz)
	if r != nil {
		if c := r.cols[slot]; c != nil && c.gen == s.gen {
			return c
		}
	}
	r = s.ownRegion(regionKey(cx, cz))
	c := r.cols[slot]
	if c == nil {
		c = &Column{pos: ChunkPos{cx, cz}, owned: true}
		r.n++
		s.columns++
	} else {
		cp := *c
		c = &cp
	}
	c.gen = s.gen
	r.cols[slot] = c
	return c
}

// Chunks is an immutable, chunk-backed BlockSource: a view taken from a
// ChunkStore. It is safe for concurrent readers and never changes.
type Chunks struct {
	regions chunkMap
	columns int
	res     *Resolver
}

// Resolver returns the resolver that turns states into blocks.
func (c *Chunks) Resolver() *Resolver { return c.res }

// Columns is the number of loaded columns.
func (c *Chunks) Columns() int { return c.columns }

// Column returns the column at (cx, cz) or nil; it must be treated as
// read-only.
func (c *Chunks) Column(cx, cz int) *Column { return c.regions.column(cx, cz) }

// ForEachColumn calls fn for every loaded column, in no particular order.
func (c *Chunks) ForEachColumn(fn func(*Column)) { c.regions.forEach(fn) }

// StateAt returns the state at a block position (air where nothing is
// loaded). It is the fast numeric accessor for the pathfinder and simulator;
// callers doing many lookups in one area can use a Cursor instead.
func (c *Chunks) StateAt(x, y, z int) StateID { return c.regions.stateAt(x, y, z) }

// BlockAt implements BlockSource.
// Known reports whether the column holding p is loaded: elsewhere BlockAt
// reads air because nothing is known, not because the block is air.
func (c *Chunks) Known(p game.BlockPos) bool { return c.Column(p.X>>4, p.Z>>4) != nil }

func (c *Chunks) BlockAt(p game.BlockPos) game.Block { return c.res.Block(c.StateAt(p.X, p.Y, p.Z)) }

// MemBytes estimates the memory held by the loaded columns.
func (c *Chunks) MemBytes() int {
	n := len(c.regions) * (8*regionSide*regionSide + 16 + 24)
	c.regions.forEach(func(col *Column) { n += col.MemBytes() })
	return n
}

// Cursor is a single-goroutine reader over a Chunks that remembers the last
// column it touched, so runs of lookups in one column skip the region map.
type Cursor struct {
	chunks *Chunks
	cx, cz int
	col    *Column
	valid  bool
}

// Cursor returns a new cursor over c. Cursors are cheap; use one per
// goroutine.
func (c *Chunks) Cursor() *Cursor { return &Cursor{chunks: c} }

// StateAt returns the state at a block position.
func (r *Cursor) StateAt(x, y, z int) StateID {
	if uint(y) >= WorldHeight {
		return AirState
	}
	cx, cz := x>>4, z>>4
	if !r.valid || cx != r.cx || cz != r.cz {
		r.cx, r.cz, r.col, r.valid = cx, cz, r.chunks.regions.column(cx, cz), true
	}
	if r.col == nil {
		return AirState
	}
	s := r.col.sections[y>>4]
	if s == nil {
		return AirState
	}
	return s.at(SectionIndex(x, y, z))
}
