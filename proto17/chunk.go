package proto17

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"

	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/klauspost/compress/zlib"
)

// Byte sizes of the per-section arrays.
const (
	vanillaIDBytes   = chunk.VanillaIDBytes
	vanillaMetaBytes = chunk.NibbleBytes
	neidIDBytes      = chunk.NEIDIDBytes
	neidMetaBytes    = chunk.NEIDMetaBytes
	nibbleBytes      = chunk.NibbleBytes // light and add arrays
	biomeBytes       = 256
)

// DefaultMaxInflated is the default limit on the inflated size of one chunk
// packet: about a hundred full NEID columns, far more than a server puts in
// one Map Chunk Bulk (vanilla sends at most five columns).
const DefaultMaxInflated = 32 << 20

// ChunkData (0x21) carries one column: the sections in PrimaryMask (bit 0 is
// y 0–15), and biomes when GroundUp. A ground-up packet with an empty mask
// unloads the column. Data is the zlib-compressed section data and aliases
// the payload; ChunkDecoder turns it into world sections.
type ChunkData struct {
	X, Z        int32
	GroundUp    bool
	PrimaryMask uint16
	AddMask     uint16
	Data        []byte
}

// Unload reports whether the packet unloads its column.
func (p *ChunkData) Unload() bool { return p.GroundUp && p.PrimaryMask == 0 }

// PacketID implements Packet.
func (*ChunkData) PacketID() int32 { return IDClientboundChunkData }

// PacketName implements Packet.
func (*ChunkData) PacketName() string { return "ChunkData" }

// AppendPayload implements Packet.
func (p *ChunkData) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	if len(p.Data) > math.MaxInt32 {
		return b, encodeErr(p.PacketName(), "data", tooLargef("%d bytes", len(p.Data)))
	}
	b = appendI32(appendI32(b, p.X), p.Z)
	b = appendBool(b, p.GroundUp)
	b = appendU16(appendU16(b, p.PrimaryMask), p.AddMask)
	b = appendI32(b, int32(len(p.Data)))
	return append(b, p.Data...), nil
}

// DecodePayload implements Packet. It reads the header and keeps the
// compressed data; ChunkDecoder.ChunkData inflates and parses it.
func (p *ChunkData) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.X = r.i32("x")
	p.Z = r.i32("z")
	p.GroundUp = r.bool("ground-up continuous")
	p.PrimaryMask = r.u16("primary bitmask")
	p.AddMask = r.u16("add bitmask")
	n := r.i32("data length")
	if n < 0 {
		r.failAt("data length", r.off-4, invalidf("negative length %d", n))
	}
	p.Data = r.bytes("data", int(n))
	return r.finish()
}

// BulkColumn is the header of one column in a Map Chunk Bulk.
type BulkColumn struct {
	X, Z        int32
	PrimaryMask uint16
	AddMask     uint16
}

// MapChunkBulk (0x26) carries several ground-up columns in one zlib stream.
// SkyLight says whether sky-light arrays are present (overworld). Data
// aliases the payload.
type MapChunkBulk struct {
	SkyLight bool
	Columns  []BulkColumn
	Data     []byte
}

// PacketID implements Packet.
func (*MapChunkBulk) PacketID() int32 { return IDClientboundMapChunkBulk }

// PacketName implements Packet.
func (*MapChunkBulk) PacketName() string { return "MapChunkBulk" }

// AppendPayload implements Packet.
func (p *MapChunkBulk) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	if len(p.Columns) > math.MaxInt16 {
		return b, encodeErr(p.PacketName(), "column count", tooLargef("%d columns", len(p.Columns)))
	}
	if len(p.Data) > math.MaxInt32 {
		return b, encodeErr(p.PacketName(), "data", tooLargef("%d bytes", len(p.Data)))
	}
	b = appendI16(b, int16(len(p.Columns)))
	b = appendI32(b, int32(len(p.Data)))
	b = appendBool(b, p.SkyLight)
	b = append(b, p.Data...)
	for _, c := range p.Columns {
		b = appendI32(appendI32(b, c.X), c.Z)
		b = appendU16(appendU16(b, c.PrimaryMask), c.AddMask)
	}
	return b, nil
}

// DecodePayload implements Packet. It reads the headers and keeps the
// compressed data; ChunkDecoder.MapChunkBulk inflates and parses it.
func (p *MapChunkBulk) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	count := r.i16("column count")
	if count < 0 {
		r.failAt("column count", 0, invalidf("negative count %d", count))
	}
	n := r.i32("data length")
	if n < 0 {
		r.failAt("data length", 2, invalidf("negative length %d", n))
	}
	p.SkyLight = r.bool("sky light sent")
	p.Data = r.bytes("data", int(n))
	p.Columns = nil
	if r.ok() && count > 0 {
		p.Columns = make([]BulkColumn, 0, min(int(count), r.remaining()/12))
	}
	for i := 0; i < int(count) && r.ok(); i++ {
		r.push("columns", i)
		p.Columns = append(p.Columns, BulkColumn{
			X:           r.i32("x"),
			Z:           r.i32("z"),
			PrimaryMask: r.u16("primary bitmask"),
			AddMask:     r.u16("add bitmask"),
		})
		r.pop()
	}
	return r.finish()
}

// ChunkColumn is one decoded column of a chunk packet.
type ChunkColumn struct {
	X, Z int
	// GroundUp: the column replaces any loaded one and Biomes is set.
	// Otherwise only the sections in Mask change.
	GroundUp bool
	// Unload: a Chunk Data packet, ground-up with an empty mask; the column
	// is gone and Column is nil. (An empty column in a Map Chunk Bulk is an
	// all-air column, not an unload.)
	Unload bool
	// Mask is the set of sections the packet carried (bit cy). A section in
	// Mask that is all air is nil in Column: it must be cleared.
	Mask   uint16
	Column *chunk.Column
	Biomes [biomeBytes]byte
}

// layout is where each kind of array starts in one column's inflated data.
type layout struct {
	n, nAdd                         int // sections sent, add arrays sent
	ids, meta, light, sky, add, bio int // offsets
	size                            int // total bytes
	idBytes, metaBytes              int
}

// columnLayout computes a column's data layout: arrays grouped by kind
// across the sent sections (ids, metadata, block light, sky light, add
// nibbles, biomes), as Chunk.fillChunk reads them.
func columnLayout(f Formats, mask, addMask uint16, sky, groundUp bool) layout {
	l := layout{n: bits.OnesCount16(mask), nAdd: bits.OnesCount16(addMask)}
	l.idBytes, l.metaBytes = vanillaIDBytes, vanillaMetaBytes
	if f.NEID {
		l.idBytes, l.metaBytes = neidIDBytes, neidMetaBytes
	}
	l.meta = l.n * l.idBytes
	l.light = l.meta + l.n*l.metaBytes
	l.sky = l.light + l.n*nibbleBytes
	l.add = l.sky
	if sky {
		l.add += l.n * nibbleBytes
	}
	l.bio = l.add + l.nAdd*nibbleBytes
	l.size = l.bio
	if groundUp {
		l.size += biomeBytes
	}
	return l
}

// checkMasks validates the add bitmask against the format and the primary
// mask; the returned error is the cause for an *Error.
func checkMasks(f Formats, mask, addMask uint16) error {
	if f.NEID && addMask != 0 {
		return invalidf("add bitmask %#04x: NotEnoughIds sends none", addMask)
	}
	if addMask&^mask != 0 {
		return invalidf("add bitmask %#04x has sections outside the primary bitmask %#04x", addMask, mask)
	}
	return nil
}

// ChunkDecoder turns Chunk Data and Map Chunk Bulk packets into world
// columns. It inflates each column's block ids (and vanilla add arrays)
// straight into one allocation that its sections then read in place
// (chunk.NewVanillaSection, chunk.NewNEIDSection,
// chunk.NewNEIDNibbleSection); metadata goes through scratch and is kept
// only when not all zero, NotEnoughIds metadata narrowed to nibbles when
// every value is below 16 (see readColumn). Decoding adds no pass over the
// block ids beyond spotting uniform sections, and the palette form is built
// later, by the first query that needs it or by world.State.CompactChunks.
// It keeps its inflater and scratch buffer between calls. Not safe for
// concurrent use; use one per connection.
type ChunkDecoder struct {
	Formats Formats
	// MaxInflated limits the inflated size of one packet (0 means
	// DefaultMaxInflated).
	MaxInflated int

	zr      io.ReadCloser
	src     bytes.Reader
	scratch []byte
	packet  string // the packet being inflated
	got     int    // bytes inflated so far
	want    int    // bytes the masks announce
	// keptMeta is the metadata bytes the last column read kept; the
	// benchmarks use it to inflate into memory of the sizes the decoder
	// keeps.
	keptMeta int
}

// NewChunkDecoder returns a decoder for the given formats.
func NewChunkDecoder(f Formats) *ChunkDecoder { return &ChunkDecoder{Formats: f} }

func (d *ChunkDecoder) maxInflated() int {
	if d.MaxInflated > 0 {
		return d.MaxInflated
	}
	return DefaultMaxInflated
}

func (d *ChunkDecoder) dataErr(err error) error {
	return &Error{Packet: d.packet, Field: "data", Offset: -1, Err: err}
}

// open starts inflating data, which must hold exactly want bytes.
func (d *ChunkDecoder) open(packet string, data []byte, want int) error {
	d.packet, d.got, d.want = packet, 0, want
	if want > d.maxInflated() {
		return d.dataErr(tooLargef("masks announce %d inflated bytes, limit %d", want, d.maxInflated()))
	}
	d.src.Reset(data)
	var err error
	if d.zr == nil {
		d.zr, err = zlib.NewReader(&d.src)
	} else {
		err = d.zr.(zlib.Resetter).Reset(&d.src, nil)
	}
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = ErrTruncated
		}
		return d.dataErr(err)
	}
	return nil
}

// read fills dst with the next inflated bytes.
func (d *ChunkDecoder) read(dst []byte) error {
	n, err := io.ReadFull(d.zr, dst)
	d.got += n
	if err != nil {
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			err = fmtTruncated(d.got, d.want)
		}
		return d.dataErr(err)
	}
	return nil
}

// scratchBuf returns the decoder's scratch buffer with at least n bytes
// (16 KB at least, for skip). n is at most the metadata of sixteen NEID
// sections (128 KB), so the buffer stays small.
func (d *ChunkDecoder) scratchBuf(n int) []byte {
	if len(d.scratch) < max(n, 16<<10) {
		d.scratch = make([]byte, max(n, 16<<10))
	}
	return d.scratch[:n]
}

// skip inflates n bytes the world model does not keep (light arrays).
func (d *ChunkDecoder) skip(n int) error {
	d.scratchBuf(0)
	buf := d.scratch
	for n > 0 {
		m := min(n, len(buf))
		if err := d.read(buf[:m]); err != nil {
			return err
		}
		n -= m
	}
	return nil
}

// close checks that the stream ends where the masks say, with a valid
// checksum.
func (d *ChunkDecoder) close() error {
	var one [1]byte
	for range 8 {
		m, err := d.zr.Read(one[:])
		switch {
		case m > 0:
			return d.dataErr(invalidf("inflates to more than the %d bytes the masks announce (wrong NEID or sky-light setting?)", d.want))
		case err == io.EOF:
			return nil
		case err == io.ErrUnexpectedEOF:
			return d.dataErr(fmt.Errorf("%w: zlib checksum missing", ErrTruncated))
		case err != nil:
			return d.dataErr(err)
		}
	}
	return d.dataErr(invalidf("zlib stream does not end"))
}

func fmtTruncated(n, want int) error {
	return &truncatedErr{n: n, want: want}
}

type truncatedErr struct{ n, want int }

func (e *truncatedErr) Error() string {
	return "inflates to " + itoa(e.n) + " bytes, the masks announce " + itoa(e.want) + " (wrong NEID or sky-light setting?)"
}
func (e *truncatedErr) Is(target error) bool { return target == ErrTruncated }

// ChunkData inflates and parses a Chunk Data packet. skyLight says whether
// the packet carries sky-light arrays, which depends on the dimension and is
// not on the wire: true for the overworld and most mod dimensions, false for
// the Nether and the End.
func (d *ChunkDecoder) ChunkData(p *ChunkData, skyLight bool) (ChunkColumn, error) {
	out := ChunkColumn{X: int(p.X), Z: int(p.Z), GroundUp: p.GroundUp, Mask: p.PrimaryMask}
	if p.Unload() {
		// The client drops the column without reading the data.
		out.Unload = true
		return out, nil
	}
	if err := checkMasks(d.Formats, p.PrimaryMask, p.AddMask); err != nil {
		return out, &Error{Packet: p.PacketName(), Field: "add bitmask", Offset: 11, Err: err}
	}
	l := columnLayout(d.Formats, p.PrimaryMask, p.AddMask, skyLight, p.GroundUp)
	if err := d.open(p.PacketName(), p.Data, l.size); err != nil {
		return out, err
	}
	col, err := d.readColumn(l, int(p.X), int(p.Z), p.PrimaryMask, p.AddMask, &out)
	if err == nil {
		err = d.close()
	}
	if err != nil {
		return out, err
	}
	out.Column = col
	return out, nil
}

// MapChunkBulk inflates and parses a Map Chunk Bulk packet, appending its
// columns to dst. Bulk columns are always ground-up.
func (d *ChunkDecoder) MapChunkBulk(dst []ChunkColumn, p *MapChunkBulk) ([]ChunkColumn, error) {
	total := 0
	for i, c := range p.Columns {
		if err := checkMasks(d.Formats, c.PrimaryMask, c.AddMask); err != nil {
			return dst, &Error{Packet: p.PacketName(), Field: "columns[" + itoa(i) + "].add bitmask", Offset: -1, Err: err}
		}
		total += columnLayout(d.Formats, c.PrimaryMask, c.AddMask, p.SkyLight, true).size
		if total > d.maxInflated() {
			return dst, &Error{Packet: p.PacketName(), Field: "columns", Offset: -1, Err: tooLargef("masks announce more than %d inflated bytes", d.maxInflated())}
		}
	}
	if err := d.open(p.PacketName(), p.Data, total); err != nil {
		return dst, err
	}
	n := len(dst)
	for _, c := range p.Columns {
		l := columnLayout(d.Formats, c.PrimaryMask, c.AddMask, p.SkyLight, true)
		// Unlike Chunk Data, an empty mask here loads an all-air column.
		dst = append(dst, ChunkColumn{X: int(c.X), Z: int(c.Z), GroundUp: true, Mask: c.PrimaryMask})
		out := &dst[len(dst)-1]
		col, err := d.readColumn(l, int(c.X), int(c.Z), c.PrimaryMask, c.AddMask, out)
		if err != nil {
			return dst[:n], err
		}
		out.Column = col
	}
	if err := d.close(); err != nil {
		return dst[:n], err
	}
	return dst, nil
}

// What a section keeps of its metadata array.
const (
	metaNone    uint8 = iota // nothing: all zero, or the section is uniform or air
	metaNibbles              // NotEnoughIds metadata all below 16: a nibble a block (2 KB)
	metaFull                 // the array as sent
)

// readColumn inflates one column of the given layout from the open stream.
// The block ids and add arrays go into one new allocation that the
// sections keep. The metadata goes into scratch first: a section keeps none
// when it is all zero (most terrain: stone, dirt, grass), NotEnoughIds
// metadata is narrowed to nibbles when every value is below 16 (nearly
// always), and what is kept goes into a second allocation. The light arrays
// are inflated into scratch and dropped, the biomes go into out when the
// column is ground-up.
func (d *ChunkDecoder) readColumn(l layout, x, z int, mask, addMask uint16, out *ChunkColumn) (*chunk.Column, error) {
	nIDs, nMeta := l.n*l.idBytes, l.n*l.metaBytes
	var blocks []byte
	if size := nIDs + l.nAdd*nibbleBytes; size > 0 {
		blocks = make([]byte, size)
	}
	ids, add := blocks[:nIDs], blocks[nIDs:]
	if err := d.read(ids); err != nil {
		return nil, err
	}
	meta := d.scratchBuf(nMeta)
	if err := d.read(meta); err != nil {
		return nil, err
	}

	// Sections that are air or one state throughout are settled here, while
	// their metadata is in scratch; the others keep what metaKind says.
	var (
		secs    [chunk.ColumnSections]*chunk.Section
		settled [chunk.ColumnSections]bool
		kinds   [chunk.ColumnSections]uint8
		metas   [chunk.ColumnSections][]byte
	)
	keep := 0
	k := 0
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		if mask&(1<<cy) == 0 {
			continue
		}
		sid := ids[k*l.idBytes : (k+1)*l.idBytes]
		smeta := meta[k*l.metaBytes : (k+1)*l.metaBytes]
		if d.Formats.NEID {
			secs[k], settled[k] = neidUniform(sid, smeta)
			if !settled[k] {
				kinds[k] = neidMetaKind(smeta)
			}
		} else {
			if addMask&(1<<cy) == 0 {
				secs[k], settled[k] = vanillaUniform(sid, smeta)
			}
			if !settled[k] && !zeroWords(smeta) {
				kinds[k] = metaFull
			}
		}
		switch kinds[k] {
		case metaNibbles:
			keep += nibbleBytes
		case metaFull:
			keep += l.metaBytes
		}
		k++
	}
	d.keptMeta = keep
	if keep > 0 {
		kept := make([]byte, keep)
		off := 0
		for k := 0; k < l.n; k++ {
			smeta := meta[k*l.metaBytes : (k+1)*l.metaBytes]
			switch kinds[k] {
			case metaNibbles:
				metas[k] = kept[off : off+nibbleBytes : off+nibbleBytes]
				packNibbles(metas[k], smeta)
				off += nibbleBytes
			case metaFull:
				metas[k] = kept[off : off+l.metaBytes : off+l.metaBytes]
				copy(metas[k], smeta)
				off += l.metaBytes
			}
		}
	}

	// The rest of the column; scratch is reused for the light arrays.
	if err := d.skip(l.add - l.light); err != nil {
		return nil, err
	}
	if err := d.read(add); err != nil {
		return nil, err
	}
	if l.size > l.bio {
		if err := d.read(out.Biomes[:]); err != nil {
			return nil, err
		}
	}
	col := chunk.NewColumn(x, z)
	k, a := 0, 0
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		if mask&(1<<cy) == 0 {
			continue
		}
		sec := secs[k]
		if !settled[k] {
			sid := ids[k*l.idBytes : (k+1)*l.idBytes]
			switch {
			case !d.Formats.NEID:
				var sadd []byte
				if addMask&(1<<cy) != 0 {
					sadd = add[a*nibbleBytes : (a+1)*nibbleBytes]
					a++
				}
				sec = vanillaSection(sid, metas[k], sadd)
			case kinds[k] == metaFull:
				sec = chunk.NewNEIDSection(sid, metas[k])
			default:
				sec = chunk.NewNEIDNibbleSection(sid, metas[k])
			}
			if sec.IsEmpty() {
				sec = nil
			}
		}
		if sec != nil {
			col.SetSection(cy, sec)
		}
		k++
	}
	return col, nil
}

// uniform reports whether every 8-byte word of b equals w. It compares
// eight words a step (one branch for 64 bytes) and stops at the first step
// that differs, so on a mixed section it costs a few loads.
func uniform(b []byte, w uint64) bool {
	i := 0
	for ; i+64 <= len(b); i += 64 {
		c := b[i : i+64 : i+64]
		if (binary.LittleEndian.Uint64(c[0:])^w)|(binary.LittleEndian.Uint64(c[8:])^w)|
			(binary.LittleEndian.Uint64(c[16:])^w)|(binary.LittleEndian.Uint64(c[24:])^w)|
			(binary.LittleEndian.Uint64(c[32:])^w)|(binary.LittleEndian.Uint64(c[40:])^w)|
			(binary.LittleEndian.Uint64(c[48:])^w)|(binary.LittleEndian.Uint64(c[56:])^w) != 0 {
			return false
		}
	}
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:]) != w {
			return false
		}
	}
	return true
}

// zeroWords reports whether b (a multiple of 8 bytes long) is all zero.
func zeroWords(b []byte) bool { return uniform(b, 0) }

// broadcast repeats a byte over a word.
func broadcast(c byte) uint64 { return uint64(c) * 0x0101010101010101 }

// vanillaUniform settles a vanilla section without an add array whose ids
// are all one value: nil when it is air, a uniform section when the
// metadata is one value too. settled is false for any other section.
func vanillaUniform(ids, meta []byte) (sec *chunk.Section, settled bool) {
	ids = ids[:vanillaIDBytes]
	meta = meta[:vanillaMetaBytes]
	if !uniform(ids, broadcast(ids[0])) {
		return nil, false
	}
	if ids[0] == 0 {
		return nil, true
	}
	m0 := meta[0] & 15
	if uniform(meta, broadcast(m0|m0<<4)) {
		return chunk.NewUniformSection(chunk.MakeState(int(ids[0]), int(m0))), true
	}
	return nil, false
}

// vanillaSection builds a section from vanilla arrays; meta is nil when all
// zero, add may be nil. It returns an empty section for an all-air section
// and a uniform section when every block is the same; otherwise the section
// reads the arrays in place.
func vanillaSection(ids, meta, add []byte) *chunk.Section {
	ids = ids[:vanillaIDBytes]
	if uniform(ids, broadcast(ids[0])) && (add == nil || uniform(add, broadcast(add[0]&15*0x11))) {
		id := int(ids[0])
		if add != nil {
			id |= int(add[0]&15) << 8
		}
		if id == 0 {
			return chunk.NewEmptySection()
		}
		var m0 byte
		if meta != nil {
			m0 = meta[0] & 15
		}
		if meta == nil || uniform(meta, broadcast(m0|m0<<4)) {
			return chunk.NewUniformSection(chunk.MakeState(id, int(m0)))
		}
	}
	return chunk.NewVanillaSection(ids, meta, add)
}

// neidUniform settles a NotEnoughIds section whose ids are all one value:
// nil when it is air, a uniform section when the metadata is one value
// too. settled is false for any other section.
func neidUniform(ids, meta []byte) (sec *chunk.Section, settled bool) {
	ids = ids[:neidIDBytes]
	meta = meta[:neidMetaBytes]
	if !uniform(ids, uint64(binary.LittleEndian.Uint16(ids))*0x0001000100010001) {
		return nil, false
	}
	id0 := binary.BigEndian.Uint16(ids)
	if id0 == 0 {
		return nil, true
	}
	if uniform(meta, uint64(binary.LittleEndian.Uint16(meta))*0x0001000100010001) {
		return chunk.NewUniformSection(chunk.MakeState(int(id0), int(binary.BigEndian.Uint16(meta)))), true
	}
	return nil, false
}

// nibbleMask has the bits of a word of four big-endian u16 that must be
// clear for every value to be below 16: the high bytes and the high
// nibbles of the low bytes (the word is loaded little-endian).
const nibbleMask = 0xF0FF_F0FF_F0FF_F0FF

// neidMetaKind tells what a section keeps of its NotEnoughIds metadata:
// metaNone when every value is 0, metaNibbles when every value is below 16,
// metaFull otherwise. Eight words a step, word-sized loads only.
func neidMetaKind(meta []byte) uint8 {
	meta = meta[:neidMetaBytes]
	var acc uint64
	for i := 0; i < len(meta); i += 64 {
		w := binary.LittleEndian.Uint64(meta[i:]) | binary.LittleEndian.Uint64(meta[i+8:]) |
			binary.LittleEndian.Uint64(meta[i+16:]) | binary.LittleEndian.Uint64(meta[i+24:]) |
			binary.LittleEndian.Uint64(meta[i+32:]) | binary.LittleEndian.Uint64(meta[i+40:]) |
			binary.LittleEndian.Uint64(meta[i+48:]) | binary.LittleEndian.Uint64(meta[i+56:])
		if w&nibbleMask != 0 {
			return metaFull
		}
		acc |= w
	}
	if acc == 0 {
		return metaNone
	}
	return metaNibbles
}

// packNibbles narrows NotEnoughIds metadata (big-endian u16, every value
// below 16: see neidMetaKind) into nibbles laid out as vanilla's, the even
// block in the low nibble. Four blocks a word: loaded little-endian, the
// values v0..v3 sit in bits 8, 24, 40 and 56; one multiplication adds the
// word shifted up by 40, 28, 16 and 4, which puts v0, v1, v2 and v3 in bits
// 48, 52, 56 and 60 (the other products fall in separate nibbles below bit
// 48 or overflow past bit 63, so nothing carries into those bits).
func packNibbles(dst, meta []byte) {
	const gather = 1<<40 | 1<<28 | 1<<16 | 1<<4
	dst = dst[:nibbleBytes]
	meta = meta[:neidMetaBytes]
	for len(meta) >= 32 && len(dst) >= 8 {
		a := binary.LittleEndian.Uint64(meta[0:8]) * gather >> 48
		b := binary.LittleEndian.Uint64(meta[8:16]) * gather >> 48
		c := binary.LittleEndian.Uint64(meta[16:24]) * gather >> 48
		e := binary.LittleEndian.Uint64(meta[24:32]) * gather >> 48
		binary.LittleEndian.PutUint64(dst[0:8], a|b<<16|c<<32|e<<48)
		meta, dst = meta[32:], dst[8:]
	}
}
