package chunk

import (
	"encoding/binary"
	"fmt"
	"sync/atomic"
)

// Wire-format sections.
//
// A chunk decoder could turn every section it receives into the palette form
// at once, but that costs more than inflating the packet (the palette needs a
// pass over 4096 states and a lookup per change of state), and a client
// receives a few thousand sections on joining, most of which nothing ever
// queries. So a decoded section keeps the arrays the packet carried, as the
// 1.7.10 client does, and reads blocks straight from them. The palette form,
// with its per-state counts that spatial queries use to skip sections, is
// built on the first query that needs it and cached; the chunk store later
// swaps the section for that form (ChunkStore.Compact) to free the arrays.
//
// Raw sections are immutable: a write first converts the section into its
// palette form.

// Storage kinds of a raw section, kept in Section.bits next to the palette
// widths 0, 4, 8 and 16.
const (
	bitsRawVanilla    uint8 = 0x81 // ids: 1 byte a block; meta: a nibble a block (even blocks low)
	bitsRawVanillaAdd uint8 = 0x82 // as vanilla, plus the add nibbles: id bits 8..11
	bitsRawNEID       uint8 = 0x83 // NotEnoughIds: big-endian u16 id and u16 metadata a block
	bitsRawNEIDNibble uint8 = 0x84 // NotEnoughIds ids; metadata narrowed to a nibble a block, as vanilla's
)

// Array sizes of the wire formats.
const (
	VanillaIDBytes   = SectionVolume     // one byte of block id a block
	NibbleBytes      = SectionVolume / 2 // metadata, add, light: a nibble a block
	NEIDIDBytes      = SectionVolume * 2 // big-endian u16 block id a block
	NEIDMetaBytes    = SectionVolume * 2 // big-endian u16 metadata a block
	vanillaMetaBytes = NibbleBytes
)

// zeroNibbles stands for a metadata array of zeros that a decoder did not
// keep (NewVanillaSection and NewNEIDNibbleSection with nil meta). It is
// shared and never written.
var zeroNibbles [NibbleBytes]byte

// isZeroNibbles reports whether b is the shared zeroNibbles array.
func isZeroNibbles(b []byte) bool { return len(b) == NibbleBytes && &b[0] == &zeroNibbles[0] }

// rawArrays are a section's wire arrays and, once built, its palette form.
type rawArrays struct {
	ids, meta, add []byte
	packed         atomic.Pointer[Section]
}

// NewVanillaSection returns a section that reads its blocks from vanilla
// 1.7.10 arrays in place: ids (4096 bytes, one a block in SectionIndex
// order), meta (2048 bytes, a nibble a block, even blocks in the low nibble)
// and add (nil, or 2048 bytes of id bits 8..11 laid out as meta). meta may
// be nil when every block's metadata is 0, so a decoder need not keep an
// array of zeros. The section keeps the slices, which must not change
// afterwards. Arrays with no non-air block give an empty section. It panics
// when an array has the wrong length.
func NewVanillaSection(ids, meta, add []byte) *Section {
	checkLen("ids", ids, VanillaIDBytes)
	if meta == nil {
		meta = zeroNibbles[:]
	}
	checkLen("meta", meta, vanillaMetaBytes)
	kind := bitsRawVanilla
	if add != nil {
		checkLen("add", add, NibbleBytes)
		kind = bitsRawVanillaAdd
		add = add[:NibbleBytes:NibbleBytes]
		if zeroBytes(add) {
			kind, add = bitsRawVanilla, nil
		}
	}
	if add == nil && zeroBytes(ids) {
		return NewEmptySection()
	}
	return newRawSection(kind, ids[:VanillaIDBytes:VanillaIDBytes], meta[:vanillaMetaBytes:vanillaMetaBytes], add)
}

// NewNEIDSection returns a section that reads its blocks from NotEnoughIds
// arrays in place: ids and meta are 8192 bytes each, a big-endian u16 a
// block in SectionIndex order. The section keeps the slices, which must not
// change afterwards. Arrays with no non-air block give an empty section. It
// panics when an array has the wrong length.
func NewNEIDSection(ids, meta []byte) *Section {
	checkLen("ids", ids, NEIDIDBytes)
	checkLen("meta", meta, NEIDMetaBytes)
	if zeroBytes(ids) {
		return NewEmptySection()
	}
	return newRawSection(bitsRawNEID, ids[:NEIDIDBytes:NEIDIDBytes], meta[:NEIDMetaBytes:NEIDMetaBytes], nil)
}

// NewNEIDNibbleSection returns a section that reads NotEnoughIds block ids
// in place (ids: 8192 bytes, a big-endian u16 a block, as NewNEIDSection)
// with the metadata narrowed to nibbles: meta is 2048 bytes laid out as
// vanilla's (a nibble a block, even blocks in the low nibble), or nil when
// every block's metadata is 0. NotEnoughIds widens metadata to 16 bits on
// the wire, but blocks nearly always keep it below 16, as 1.7.10 stores it
// (a nibble a block), so a decoder that checks the values keeps 2 KB of
// metadata a section, or none, instead of 8 KB. The section keeps the
// slices, which must not change afterwards. Arrays with no non-air block
// give an empty section. It panics when an array has the wrong length.
func NewNEIDNibbleSection(ids, meta []byte) *Section {
	checkLen("ids", ids, NEIDIDBytes)
	if meta == nil {
		meta = zeroNibbles[:]
	}
	checkLen("meta", meta, NibbleBytes)
	if zeroBytes(ids) {
		return NewEmptySection()
	}
	return newRawSection(bitsRawNEIDNibble, ids[:NEIDIDBytes:NEIDIDBytes], meta[:NibbleBytes:NibbleBytes], nil)
}

// rawSection is a raw section and its arrays in one allocation: a decoded
// column makes one for each section that is not uniform, and they live and
// die together (nothing else points at the arrays' header).
type rawSection struct {
	s Section
	r rawArrays
}

// newRawSection returns a raw section of the given kind over the arrays.
func newRawSection(kind uint8, ids, meta, add []byte) *Section {
	x := &rawSection{}
	x.r.ids, x.r.meta, x.r.add = ids, meta, add
	x.s.bits, x.s.raw = kind, &x.r
	return &x.s
}

func checkLen(name string, b []byte, want int) {
	if len(b) != want {
		panic(fmt.Sprintf("world: section %s array has %d bytes, want %d", name, len(b), want))
	}
}

// zeroBytes reports whether every byte of b is zero, a word at a time.
func zeroBytes(b []byte) bool {
	i := 0
	// Eight words a step: one branch for 64 bytes.
	for ; i+64 <= len(b); i += 64 {
		c := b[i : i+64 : i+64]
		if binary.LittleEndian.Uint64(c[0:])|binary.LittleEndian.Uint64(c[8:])|
			binary.LittleEndian.Uint64(c[16:])|binary.LittleEndian.Uint64(c[24:])|
			binary.LittleEndian.Uint64(c[32:])|binary.LittleEndian.Uint64(c[40:])|
			binary.LittleEndian.Uint64(c[48:])|binary.LittleEndian.Uint64(c[56:]) != 0 {
			return false
		}
	}
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:]) != 0 {
			return false
		}
	}
	for ; i < len(b); i++ {
		if b[i] != 0 {
			return false
		}
	}
	return true
}

// IsRaw reports whether the section still reads its blocks from the wire
// arrays it was built from (see NewVanillaSection).
func (s *Section) IsRaw() bool { return s.raw != nil }

// rawAt returns block i of a raw section.
func (s *Section) rawAt(i int) StateID {
	r := s.raw
	switch s.bits {
	case bitsRawVanilla:
		id := StateID(r.ids[i])
		if id == 0 {
			return AirState
		}
		return id<<16 | StateID(r.meta[i>>1]>>(uint(i&1)<<2)&15)
	case bitsRawVanillaAdd:
		sh := uint(i&1) << 2
		id := StateID(r.ids[i]) | StateID(r.add[i>>1]>>sh&15)<<8
		if id == 0 {
			return AirState
		}
		return id<<16 | StateID(r.meta[i>>1]>>sh&15)
	case bitsRawNEIDNibble:
		id := StateID(binary.BigEndian.Uint16(r.ids[2*i:]))
		if id == 0 {
			return AirState
		}
		return id<<16 | StateID(r.meta[i>>1]>>(uint(i&1)<<2)&15)
	}
	id := StateID(binary.BigEndian.Uint16(r.ids[2*i:]))
	if id == 0 {
		return AirState
	}
	return id<<16 | StateID(binary.BigEndian.Uint16(r.meta[2*i:]))
}

// rawStates writes every block of a raw section into st; air keeps its
// metadata (NewSection and normState fold it).
func (s *Section) rawStates(st *[SectionVolume]StateID) { s.raw.states(s.bits, st) }

func (r *rawArrays) states(kind uint8, st *[SectionVolume]StateID) {
	switch kind {
	case bitsRawVanilla:
		fillVanillaStates(st, r.ids, r.meta, nil)
	case bitsRawVanillaAdd:
		fillVanillaStates(st, r.ids, r.meta, r.add)
	case bitsRawNEIDNibble:
		fillNEIDNibbleStates(st, r.ids, r.meta)
	default:
		fillNEIDStates(st, r.ids, r.meta)
	}
}

// packed returns the section's palette form: the section itself when it has
// one, or the cached form built from its wire arrays.
func (s *Section) packed() *Section {
	if s.raw == nil {
		return s
	}
	return s.raw.packedForm(s.bits)
}

// packedForm returns the palette form of the arrays, building and caching
// it on first use. The arrays never change, so this is safe for concurrent
// callers and needs no lock (two may build at once; one result wins). The
// cached form is marked owned by no store generation, so a store that
// adopts it copies it before any write.
func (r *rawArrays) packedForm(kind uint8) *Section {
	if p := r.packed.Load(); p != nil {
		return p
	}
	var st [SectionVolume]StateID
	r.states(kind, &st)
	p := NewSection(&st)
	p.owned, p.gen = true, 0
	if r.packed.CompareAndSwap(nil, p) {
		return p
	}
	return r.packed.Load()
}

// materialize turns a raw section into its palette form in place, before a
// write. Only the section's one writer may call it.
func (s *Section) materialize() {
	if s.raw == nil {
		return
	}
	p := s.packed().clone()
	s.palette, s.counts, s.lookup, s.free = p.palette, p.counts, p.lookup, p.free
	s.bits, s.data, s.wide, s.nonAir = p.bits, p.data, p.wide, p.nonAir
	s.raw = nil
}

// fillVanillaStates converts vanilla 1.7.10 section arrays into states: the
// id byte, plus the add nibble as id bits 8..11 when add is not nil, and the
// metadata nibble (even blocks in the low nibble). Air keeps its metadata.
// Eight blocks a step, from word loads.
func fillVanillaStates(st *[SectionVolume]StateID, ids, meta, add []byte) {
	ids = ids[:VanillaIDBytes]
	meta = meta[:vanillaMetaBytes]
	if add == nil {
		for i := 0; i < SectionVolume; i += 8 {
			iw := binary.LittleEndian.Uint64(ids[i:])
			mw := uint64(binary.LittleEndian.Uint32(meta[i>>1:]))
			s := st[i : i+8 : i+8]
			s[0] = StateID(iw&0xFF<<16 | mw&0xF)
			s[1] = StateID(iw>>8&0xFF<<16 | mw>>4&0xF)
			s[2] = StateID(iw>>16&0xFF<<16 | mw>>8&0xF)
			s[3] = StateID(iw>>24&0xFF<<16 | mw>>12&0xF)
			s[4] = StateID(iw>>32&0xFF<<16 | mw>>16&0xF)
			s[5] = StateID(iw>>40&0xFF<<16 | mw>>20&0xF)
			s[6] = StateID(iw>>48&0xFF<<16 | mw>>24&0xF)
			s[7] = StateID(iw>>56&0xFF<<16 | mw>>28&0xF)
		}
		return
	}
	add = add[:NibbleBytes]
	for i := 0; i < SectionVolume; i += 8 {
		iw := binary.LittleEndian.Uint64(ids[i:])
		mw := uint64(binary.LittleEndian.Uint32(meta[i>>1:]))
		aw := uint64(binary.LittleEndian.Uint32(add[i>>1:]))
		s := st[i : i+8 : i+8]
		s[0] = StateID((iw&0xFF|aw&0xF<<8)<<16 | mw&0xF)
		s[1] = StateID((iw>>8&0xFF|aw>>4&0xF<<8)<<16 | mw>>4&0xF)
		s[2] = StateID((iw>>16&0xFF|aw>>8&0xF<<8)<<16 | mw>>8&0xF)
		s[3] = StateID((iw>>24&0xFF|aw>>12&0xF<<8)<<16 | mw>>12&0xF)
		s[4] = StateID((iw>>32&0xFF|aw>>16&0xF<<8)<<16 | mw>>16&0xF)
		s[5] = StateID((iw>>40&0xFF|aw>>20&0xF<<8)<<16 | mw>>20&0xF)
		s[6] = StateID((iw>>48&0xFF|aw>>24&0xF<<8)<<16 | mw>>24&0xF)
		s[7] = StateID((iw>>56&0xFF|aw>>28&0xF<<8)<<16 | mw>>28&0xF)
	}
}

// fillNEIDStates converts NotEnoughIds section arrays (big-endian u16 ids and
// metadata) into states, four blocks a step. Air keeps its metadata.
func fillNEIDStates(st *[SectionVolume]StateID, ids, meta []byte) {
	ids = ids[:NEIDIDBytes]
	meta = meta[:NEIDMetaBytes]
	for i := 0; i < SectionVolume; i += 4 {
		iw := binary.BigEndian.Uint64(ids[2*i:])
		mw := binary.BigEndian.Uint64(meta[2*i:])
		s := st[i : i+4 : i+4]
		s[0] = StateID(iw>>48<<16 | mw>>48)
		s[1] = StateID(iw>>32&0xFFFF<<16 | mw>>32&0xFFFF)
		s[2] = StateID(iw>>16&0xFFFF<<16 | mw>>16&0xFFFF)
		s[3] = StateID(iw&0xFFFF<<16 | mw&0xFFFF)
	}
}

// fillNEIDNibbleStates converts NotEnoughIds ids (big-endian u16) and
// metadata nibbles (as vanilla's) into states, eight blocks a step. Air
// keeps its metadata.
func fillNEIDNibbleStates(st *[SectionVolume]StateID, ids, meta []byte) {
	ids = ids[:NEIDIDBytes]
	meta = meta[:NibbleBytes]
	for i := 0; i < SectionVolume; i += 8 {
		iw := binary.BigEndian.Uint64(ids[2*i:])
		jw := binary.BigEndian.Uint64(ids[2*i+8:])
		mw := StateID(binary.LittleEndian.Uint32(meta[i>>1:]))
		s := st[i : i+8 : i+8]
		s[0] = StateID(iw>>48)<<16 | mw&0xF
		s[1] = StateID(iw>>32&0xFFFF)<<16 | mw>>4&0xF
		s[2] = StateID(iw>>16&0xFFFF)<<16 | mw>>8&0xF
		s[3] = StateID(iw&0xFFFF)<<16 | mw>>12&0xF
		s[4] = StateID(jw>>48)<<16 | mw>>16&0xF
		s[5] = StateID(jw>>32&0xFFFF)<<16 | mw>>20&0xF
		s[6] = StateID(jw>>16&0xFFFF)<<16 | mw>>24&0xF
		s[7] = StateID(jw&0xFFFF)<<16 | mw>>28&0xF
	}
}

func rawKind(bits uint8) string {
	switch bits {
	case bitsRawVanilla:
		return "vanilla"
	case bitsRawVanillaAdd:
		return "vanilla+add"
	case bitsRawNEIDNibble:
		return "neid+nibble meta"
	}
	return "neid"
}
