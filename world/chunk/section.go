package chunk

import (
	"fmt"
	"sync"
)

// Chunk geometry of 1.7.10: a column is 16×256×16 blocks in 16 sections of
// 16×16×16.
const (
	SectionSize    = 16
	SectionVolume  = SectionSize * SectionSize * SectionSize
	ColumnSections = 16
	WorldHeight    = ColumnSections * SectionSize
)

// lookupMin is the palette length from which a section keeps a map from state
// to palette index: sections with 16-bit indices. Below it a linear search
// over the palette (at most 256 entries, ~100 ns) serves block changes, and
// the map would cost more memory than the 8-bit indices themselves (a
// high-entropy GTNH section has about 200 states).
const lookupMin = 257

// SectionIndex is the index of a block inside a section's 4096-entry array,
// y<<8 | z<<4 | x, the order of 1.7.10 chunk packets. Coordinates are taken
// modulo 16, so world coordinates work too.
func SectionIndex(x, y, z int) int { return (y&15)<<8 | (z&15)<<4 | (x & 15) }

// Section is a 16×16×16 cube of block states stored as a palette of distinct
// states with per-entry block counts, plus one palette index per block packed
// in as few bits as the palette allows: none while the section holds a single
// state, 4 bits up to 16 states, 8 bits up to 256 and 16 bits beyond (a
// section has 4096 blocks, so 16 bits always suffice).
//
// The counts are the section's summary: they tell without touching the block
// array whether the section contains a state, which is how spatial queries
// skip sections that cannot match. A palette entry whose count dropped to zero
// stays in place until a new state reuses its slot.
//
// A Section is not safe for concurrent writes. Once a ChunkStore holds it the
// store owns it: Set then panics, and changes go through the store, which
// copies shared sections before writing so snapshots never change.
type Section struct {
	palette []StateID
	counts  []uint16
	lookup  map[StateID]uint16 // state → palette index, once the palette is long
	free    int                // palette entries whose count is zero
	bits    uint8              // 0, 4, 8 or 16
	data    []byte             // packed indices for 4 and 8 bits
	wide    []uint16           // indices for 16 bits
	nonAir  int
	gen     uint64 // ChunkStore generation that may write it in place
	owned   bool   // held by a ChunkStore
	// raw is set while the section reads its blocks from wire arrays (see
	// section_raw.go); the palette fields above are then unused.
	raw *rawArrays
}

// NewUniformSection returns a section whose every block is in state st.
func NewUniformSection(st StateID) *Section {
	st = normState(st)
	s := &Section{palette: []StateID{st}, counts: []uint16{SectionVolume}}
	if st != AirState {
		s.nonAir = SectionVolume
	}
	return s
}

// NewEmptySection returns an all-air section.
func NewEmptySection() *Section { return NewUniformSection(AirState) }

// NewSection builds a section from a full array of states indexed by
// SectionIndex. It is the bulk path chunk decoding and packing use: one pass
// to build the palette (a linear search while it is short, then a hash
// table), one to pack the indices.
func NewSection(states *[SectionVolume]StateID) *Section {
	var idx [SectionVolume]uint16
	var counts [SectionVolume]uint16
	var in interner
	defer in.release()
	// Runs of one state are the common case (stone, air, dirt), so the
	// palette lookup happens only when the state changes, and counts are
	// added a run at a time.
	last := normState(states[0])
	lastIdx := in.intern(last)
	run := uint16(0)
	for i, st := range states {
		if st>>16 == 0 {
			st = AirState
		}
		if st != last {
			counts[lastIdx] += run
			run = 0
			last, lastIdx = st, in.intern(st)
		}
		idx[i] = lastIdx
		run++
	}
	counts[lastIdx] += run
	s := &Section{palette: in.palette}
	s.counts = make([]uint16, len(s.palette))
	copy(s.counts, counts[:len(s.palette)])
	for j, st := range s.palette {
		if st != AirState {
			s.nonAir += int(s.counts[j])
		}
	}
	if len(s.palette) >= lookupMin {
		s.buildLookup()
	}
	s.pack(bitsFor(len(s.palette)), &idx)
	return s
}

// interner assigns palette indices while a section is built: a linear
// search over the first states, then an open-addressing table borrowed from
// a pool (and cleared slot by slot before it goes back).
type interner struct {
	palette []StateID
	table   *internTable
	used    []uint16 // table slots to clear
}

const (
	internLinear    = 12
	internSlotsLog2 = 13 // twice the most states a section can hold
	internSlots     = 1 << internSlotsLog2
)

type internTable struct {
	keys [internSlots]StateID
	vals [internSlots]uint16 // palette index + 1; 0 is an empty slot
}

var internTables = sync.Pool{New: func() any { return new(internTable) }}

func (in *interner) intern(st StateID) uint16 {
	if in.table == nil {
		for j, p := range in.palette {
			if p == st {
				return uint16(j)
			}
		}
		if len(in.palette) < internLinear {
			in.palette = append(in.palette, st)
			return uint16(len(in.palette) - 1)
		}
		in.table = internTables.Get().(*internTable)
		for j, p := range in.palette {
			in.insert(p, uint16(j))
		}
	}
	h := uint32(st) * 0x9E3779B1 >> (32 - internSlotsLog2)
	for {
		v := in.table.vals[h]
		if v == 0 {
			break
		}
		if in.table.keys[h] == st {
			return v - 1
		}
		h = (h + 1) & (internSlots - 1)
	}
	j := uint16(len(in.palette))
	in.palette = append(in.palette, st)
	in.table.keys[h], in.table.vals[h] = st, j+1
	in.used = append(in.used, uint16(h))
	return j
}

func (in *interner) insert(st StateID, j uint16) {
	h := uint32(st) * 0x9E3779B1 >> (32 - internSlotsLog2)
	for in.table.vals[h] != 0 {
		h = (h + 1) & (internSlots - 1)
	}
	in.table.keys[h], in.table.vals[h] = st, j+1
	in.used = append(in.used, uint16(h))
}

// release clears the slots used and returns the table to the pool.
func (in *interner) release() {
	if in.table == nil {
		return
	}
	for _, h := range in.used {
		in.table.vals[h] = 0
	}
	internTables.Put(in.table)
	in.table = nil
}

func bitsFor(n int) uint8 {
	switch {
	case n <= 1:
		return 0
	case n <= 16:
		return 4
	case n <= 256:
		return 8
	}
	return 16
}

func (s *Section) buildLookup() {
	s.lookup = make(map[StateID]uint16, len(s.palette)*2)
	for j, st := range s.palette {
		if _, dup := s.lookup[st]; !dup {
			s.lookup[st] = uint16(j)
		}
	}
}

// find returns the palette index of st.
func (s *Section) find(st StateID) (int, bool) {
	if s.lookup != nil {
		j, ok := s.lookup[st]
		return int(j), ok
	}
	for j, p := range s.palette {
		if p == st {
			return j, true
		}
	}
	return 0, false
}

// pack stores the indices with the given width.
func (s *Section) pack(bits uint8, idx *[SectionVolume]uint16) {
	s.bits, s.data, s.wide = bits, nil, nil
	switch bits {
	case 4:
		s.data = make([]byte, SectionVolume/2)
		for i := 0; i < SectionVolume; i += 2 {
			s.data[i>>1] = byte(idx[i]) | byte(idx[i+1])<<4
		}
	case 8:
		s.data = make([]byte, SectionVolume)
		for i, v := range idx {
			s.data[i] = byte(v)
		}
	case 16:
		s.wide = make([]uint16, SectionVolume)
		copy(s.wide, idx[:])
	}
}

// index returns the palette index of block i.
func (s *Section) index(i int) int {
	switch s.bits {
	case 4:
		return int(s.data[i>>1]>>(uint(i&1)<<2)) & 15
	case 8:
		return int(s.data[i])
	case 16:
		return int(s.wide[i])
	}
	return 0
}

func (s *Section) setIndex(i, v int) {
	switch s.bits {
	case 4:
		shift := uint(i&1) << 2
		s.data[i>>1] = s.data[i>>1]&^(15<<shift) | byte(v)<<shift
	case 8:
		s.data[i] = byte(v)
	case 16:
		s.wide[i] = uint16(v)
	}
}

// at returns the state of block i.
func (s *Section) at(i int) StateID {
	switch s.bits {
	case 0:
		return s.palette[0]
	case 4:
		return s.palette[s.data[i>>1]>>(uint(i&1)<<2)&15]
	case 8:
		return s.palette[s.data[i]]
	case 16:
		return s.palette[s.wide[i]]
	}
	return s.rawAt(i)
}

// Get returns the state at local coordinates (taken modulo 16).
func (s *Section) Get(x, y, z int) StateID { return s.at(SectionIndex(x, y, z)) }

// Set changes the state at local coordinates (taken modulo 16) and returns
// the previous one. It panics when a ChunkStore owns the section.
func (s *Section) Set(x, y, z int, st StateID) StateID {
	if s.owned {
		panic("world: Section.Set on a section a ChunkStore owns; write through the store")
	}
	return s.set(SectionIndex(x, y, z), st)
}

// set changes block i, growing the palette and the index width as needed.
func (s *Section) set(i int, st StateID) StateID {
	s.materialize()
	st = normState(st)
	old := s.index(i)
	prev := s.palette[old]
	if prev == st {
		return prev
	}
	j, ok := s.find(st)
	if !ok {
		j = s.addState(st)
	}
	s.counts[old]--
	if s.counts[old] == 0 {
		s.free++
	}
	if s.counts[j] == 0 {
		s.free--
	}
	s.counts[j]++
	if prev == AirState {
		s.nonAir++
	}
	if st == AirState {
		s.nonAir--
	}
	s.setIndex(i, j)
	return prev
}

// addState puts a new state in the palette, reusing an entry whose count is
// zero when there is one, and widens the indices when the palette outgrows
// them. The new entry's count is zero (and counted in free).
func (s *Section) addState(st StateID) int {
	if s.free > 0 {
		for j, c := range s.counts {
			if c == 0 {
				if s.lookup != nil {
					if k, ok := s.lookup[s.palette[j]]; ok && int(k) == j {
						delete(s.lookup, s.palette[j])
					}
					s.lookup[st] = uint16(j)
				}
				s.palette[j] = st
				return j
			}
		}
	}
	j := len(s.palette)
	if want := bitsFor(j + 1); want != s.bits {
		var idx [SectionVolume]uint16
		for i := range idx {
			idx[i] = uint16(s.index(i))
		}
		s.pack(want, &idx)
	}
	s.palette = append(s.palette, st)
	s.counts = append(s.counts, 0)
	s.free++
	if s.lookup != nil {
		s.lookup[st] = uint16(j)
	} else if len(s.palette) >= lookupMin {
		s.buildLookup()
	}
	return j
}

// Count returns how many blocks of the section are in state st.
func (s *Section) Count(st StateID) int {
	p := s.packed()
	if j, ok := p.find(normState(st)); ok {
		return int(p.counts[j])
	}
	return 0
}

// Contains reports whether any block of the section is in state st, from the
// palette counts alone.
func (s *Section) Contains(st StateID) bool { return s.Count(st) > 0 }

// NonAir is the number of non-air blocks.
func (s *Section) NonAir() int { return s.packed().nonAir }

// IsEmpty reports whether the section holds only air. (A raw section never
// does: its constructors return an empty palette section instead.)
func (s *Section) IsEmpty() bool { return s.raw == nil && s.nonAir == 0 }

// Bits is the width of the palette indices: 0, 4, 8 or 16 (for a raw
// section, of its palette form).
func (s *Section) Bits() int { return int(s.packed().bits) }

// Palette returns the distinct states present in the section (count > 0),
// in palette order.
func (s *Section) Palette() []StateID {
	s = s.packed()
	out := make([]StateID, 0, len(s.palette)-s.free)
	for j, st := range s.palette {
		if s.counts[j] > 0 {
			out = append(out, st)
		}
	}
	return out
}

// States writes every block state into dst, indexed by SectionIndex.
func (s *Section) States(dst *[SectionVolume]StateID) {
	if s.raw != nil {
		s.rawStates(dst)
		for i, st := range dst {
			dst[i] = normState(st)
		}
		return
	}
	for i := range dst {
		dst[i] = s.at(i)
	}
}

// Clone returns an independent copy that no store owns.
func (s *Section) Clone() *Section {
	c := s.clone()
	c.owned, c.gen = false, 0
	return c
}

func (s *Section) clone() *Section {
	c := *s
	c.palette = append([]StateID(nil), s.palette...)
	c.counts = append([]uint16(nil), s.counts...)
	if s.data != nil {
		c.data = append([]byte(nil), s.data...)
	}
	if s.wide != nil {
		c.wide = append([]uint16(nil), s.wide...)
	}
	if s.lookup != nil {
		c.lookup = make(map[StateID]uint16, len(s.lookup))
		for k, v := range s.lookup {
			c.lookup[k] = v
		}
	}
	return &c
}

// MemBytes estimates the bytes the section occupies: the struct, the palette
// and counts, the packed indices and the lookup map.
func (s *Section) MemBytes() int {
	const structBytes = 8*3 + 8*3 + 8 + 8 + 8 + 8*3 + 8*3 + 8 + 8 + 8
	n := structBytes + 8 + cap(s.palette)*4 + cap(s.counts)*2 + cap(s.data) + cap(s.wide)*2
	if r := s.raw; r != nil {
		n += 3*24 + 8 + len(r.ids) + len(r.add)
		if !isZeroNibbles(r.meta) {
			n += len(r.meta)
		}
		if p := r.packed.Load(); p != nil {
			n += p.MemBytes()
		}
	}
	if s.lookup != nil {
		n += len(s.lookup) * 16 // keys, values and bucket overhead, roughly
	}
	return n
}

func (s *Section) String() string {
	if s.raw != nil {
		return fmt.Sprintf("section{raw %s}", rawKind(s.bits))
	}
	return fmt.Sprintf("section{%d states, %d bits, %d non-air}", len(s.palette)-s.free, s.bits, s.nonAir)
}
