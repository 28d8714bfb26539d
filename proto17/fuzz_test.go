package proto17

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Fuzz inputs start with a flags byte: bit 0 NEID, bit 1 ModularUI, bit 2 sky
// light (chunks), bit 3 serverbound (FuzzPacket) or not ground-up
// (FuzzChunkRaw), bit 4 ModularUI2.
func fuzzFlags(b byte) (Formats, bool) {
	return Formats{NEID: b&1 != 0, ModularUI: b&2 != 0, ModularUI2: b&16 != 0}, b&4 != 0
}

func flagsByte(f Formats, sky bool) byte {
	var b byte
	if f.NEID {
		b |= 1
	}
	if f.ModularUI {
		b |= 2
	}
	if sky {
		b |= 4
	}
	if f.ModularUI2 {
		b |= 16
	}
	return b
}

// fixedPoint checks that encoding a decoded value and decoding it again
// reproduces the same bytes: decode(x) → e1, decode(e1) → e2, e1 == e2.
func fixedPoint(t *testing.T, name string, e1 []byte, decodeEncode func([]byte) ([]byte, error)) {
	t.Helper()
	e2, err := decodeEncode(e1)
	if err != nil {
		t.Fatalf("%s: re-decoding the encoder's output failed: %v\n% x", name, err, e1)
	}
	if !bytes.Equal(e1, e2) {
		t.Fatalf("%s: not a fixed point:\n% x\n% x", name, e1, e2)
	}
}

// FuzzPacket decodes any packet of any state and direction; what decodes
// must re-encode to a fixed point.
func FuzzPacket(f *testing.F) {
	for _, seed := range packetSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		fm, _ := fuzzFlags(data[0])
		dir := Clientbound
		if data[0]&8 != 0 {
			dir = Serverbound
		}
		state := State(data[1] >> 6)
		id := int32(data[1] & 0x3F)
		if state == Play && dir == Clientbound && data[2] == 0xFF {
			id = IDClientboundDisconnect
		}
		p, err := Decode(state, dir, id, data[2:], fm)
		if err != nil || p == nil {
			return
		}
		e1, err := Payload(p, fm)
		if err != nil {
			// Values the decoder accepts but the encoder refuses would break
			// a fake server that echoes packets.
			t.Fatalf("%s: decoded but does not encode: %v", p.PacketName(), err)
		}
		fixedPoint(t, p.PacketName(), e1, func(b []byte) ([]byte, error) {
			q := New(state, dir, id)
			if err := q.DecodePayload(b, fm); err != nil {
				return nil, err
			}
			return Payload(q, fm)
		})
	})
}

// FuzzBlockChange covers Block Change in both formats.
func FuzzBlockChange(f *testing.F) {
	for _, fm := range []Formats{vanilla, neid} {
		b, _ := Payload(&BlockChange{X: 1, Y: 2, Z: 3, BlockID: 4000, Meta: 9}, fm)
		f.Add(append([]byte{flagsByte(fm, false)}, b...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzPacketType(t, data, func() Packet { return new(BlockChange) })
	})
}

// FuzzMultiBlockChange covers Multi Block Change in both formats.
func FuzzMultiBlockChange(f *testing.F) {
	for _, fm := range []Formats{vanilla, neid} {
		b, _ := Payload(&MultiBlockChange{ChunkX: 1, ChunkZ: 2, Records: []BlockRecord{{X: 1, Y: 2, Z: 3, BlockID: 17, Meta: 1}, {X: 15, Y: 255, Z: 15}}}, fm)
		f.Add(append([]byte{flagsByte(fm, false)}, b...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzPacketType(t, data, func() Packet { return new(MultiBlockChange) })
	})
}

func fuzzPacketType(t *testing.T, data []byte, mk func() Packet) {
	if len(data) < 1 {
		return
	}
	fm, _ := fuzzFlags(data[0])
	p := mk()
	if err := p.DecodePayload(data[1:], fm); err != nil {
		return
	}
	e1, err := Payload(p, fm)
	if err != nil {
		t.Fatalf("decoded but does not encode: %v", err)
	}
	fixedPoint(t, p.PacketName(), e1, func(b []byte) ([]byte, error) {
		q := mk()
		if err := q.DecodePayload(b, fm); err != nil {
			return nil, err
		}
		return Payload(q, fm)
	})
}

// FuzzSlot covers item stacks and their NBT.
func FuzzSlot(f *testing.F) {
	s := testSlot(f)
	for _, fm := range allFormat {
		b, _ := AppendSlot(nil, s, fm)
		f.Add(append([]byte{flagsByte(fm, false)}, b...))
		b, _ = AppendSlot(nil, Slot{ID: 1, Count: 3, Damage: -1}, fm)
		f.Add(append([]byte{flagsByte(fm, false)}, b...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 {
			return
		}
		fm, _ := fuzzFlags(data[0])
		s, err := DecodeSlot(data[1:], fm)
		if err != nil {
			return
		}
		if n, err := s.Tag(); err == nil && n != nil {
			fuzzNBTFixedPoint(t, n)
		}
		if !fm.ModularUI && !fm.ModularUI2 && (s.Count < -128 || s.Count > 127) {
			t.Fatalf("count %d from a byte", s.Count)
		}
		e1, err := AppendSlot(nil, s, fm)
		if err != nil {
			t.Fatalf("decoded but does not encode: %v", err)
		}
		fixedPoint(t, "Slot", e1, func(b []byte) ([]byte, error) {
			s, err := DecodeSlot(b, fm)
			if err != nil {
				return nil, err
			}
			return AppendSlot(nil, s, fm)
		})
	})
}

// FuzzNBT covers the NBT reader on uncompressed input.
func FuzzNBT(f *testing.F) {
	n, _ := DecodeGzipNBT(testSlot(f).NBT)
	raw, _ := n.Bytes()
	f.Add(raw)
	f.Add([]byte{10, 0, 0, 9, 0, 1, 'x', 10, 0, 0, 0, 2, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := ParseNBT(data)
		if err != nil {
			return
		}
		fuzzNBTFixedPoint(t, n)
	})
}

func fuzzNBTFixedPoint(t *testing.T, n *NBT) {
	e1, err := n.Bytes()
	if err != nil {
		t.Fatalf("NBT decoded but does not encode: %v", err)
	}
	fixedPoint(t, "NBT", e1, func(b []byte) ([]byte, error) {
		n, err := ParseNBT(b)
		if err != nil {
			return nil, err
		}
		return n.Bytes()
	})
}

// FuzzMetadata covers entity metadata.
func FuzzMetadata(f *testing.F) {
	for _, tc := range packetCases(f) {
		if p, ok := tc.p.(*EntityMetadata); ok {
			for _, fm := range allFormat {
				b, _ := AppendMetadata(nil, p.Metadata, fm)
				f.Add(append([]byte{flagsByte(fm, false)}, b...))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 {
			return
		}
		fm, _ := fuzzFlags(data[0])
		m, err := DecodeMetadata(data[1:], fm)
		if err != nil {
			return
		}
		e1, err := AppendMetadata(nil, m, fm)
		if err != nil {
			t.Fatalf("decoded but does not encode: %v", err)
		}
		fixedPoint(t, "Metadata", e1, func(b []byte) ([]byte, error) {
			m, err := DecodeMetadata(b, fm)
			if err != nil {
				return nil, err
			}
			return AppendMetadata(nil, m, fm)
		})
	})
}

// FuzzFML covers the FML|HS messages and the id-map fill.
func FuzzFML(f *testing.F) {
	for _, m := range []FMLMessage{
		&ServerHello{Protocol: 2, Dimension: 7}, &ClientHello{Protocol: 2},
		&ModList{Mods: []ModInfo{{"neid", "2.1.10"}}},
		&ModIDData{Entries: []RegistryEntry{{"\u0001minecraft:log", 17}, {"\u0002minecraft:coal", 263}}, HasSubstitutions: true, BlockSubstitutions: []string{"a:b"}},
		&HandshakeAck{Phase: 2}, &HandshakeReset{},
	} {
		b, _ := EncodeFML(m)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeFML(data)
		if err != nil {
			return
		}
		if d, ok := m.(*ModIDData); ok {
			_ = d.FillIDMap(rules.NewIDMap())
		}
		e1, err := EncodeFML(m)
		if err != nil {
			t.Fatalf("decoded but does not encode: %v", err)
		}
		fixedPoint(t, "FML", e1, func(b []byte) ([]byte, error) {
			m, err := DecodeFML(b)
			if err != nil {
				return nil, err
			}
			return EncodeFML(m)
		})
	})
}

// FuzzMultipart feeds a sequence of FML|MP payloads: each is a length byte
// and that many bytes.
func FuzzMultipart(f *testing.F) {
	parts, _ := SplitMultipart(ChannelFMLHandshake, []byte("registry data of some length"), 10)
	var seq []byte
	for _, p := range parts {
		seq = append(seq, byte(len(p)))
		seq = append(seq, p...)
	}
	f.Add(seq)
	f.Fuzz(func(t *testing.T, data []byte) {
		mp := Multipart{MaxParts: 16, MaxSize: 1 << 12}
		for len(data) > 0 {
			n := min(int(data[0]), len(data)-1)
			p := data[1 : 1+n]
			data = data[1+n:]
			wasActive := mp.InProgress()
			total := mp.total
			_, msg, done, err := mp.Feed(p)
			if err != nil && mp.InProgress() {
				t.Fatal("error left a message in progress")
			}
			if done && (!wasActive || len(msg) != total) {
				t.Fatalf("completed %d bytes of %d", len(msg), total)
			}
		}
	})
}

// FuzzVarShort covers Forge's varshort.
func FuzzVarShort(f *testing.F) {
	f.Add([]byte{0x80, 0x00, 0x01})
	f.Add([]byte{0x12, 0x34})
	f.Fuzz(func(t *testing.T, data []byte) {
		v, n, err := ReadVarShort(data)
		if err != nil {
			return
		}
		if v < 0 || v > MaxVarShort || (n != 2 && n != 3) {
			t.Fatalf("value %d in %d bytes", v, n)
		}
		b, err := AppendVarShort(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		// Non-canonical input (bit 15 set with a zero high byte) re-encodes
		// shorter; the value must survive.
		v2, _, err := ReadVarShort(b)
		if err != nil || v2 != v {
			t.Fatalf("%d → % x → %d, %v", v, b, v2, err)
		}
	})
}

// FuzzChunkData decodes Chunk Data payloads (compressed) in both formats.
func FuzzChunkData(f *testing.F) {
	for _, seed := range chunkSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 {
			return
		}
		fm, sky := fuzzFlags(data[0])
		var p ChunkData
		if p.DecodePayload(data[1:], fm) != nil {
			return
		}
		d := NewChunkDecoder(fm)
		d.MaxInflated = 1 << 20
		col, err := d.ChunkData(&p, sky)
		if err != nil {
			return
		}
		checkChunkRoundTrip(t, fm, sky, &p, col)
	})
}

// FuzzChunkRaw fuzzes the section parser with arbitrary inflated content:
// flags, primary mask and add mask (u16 each), then bytes that are repeated
// or cut to the size the masks announce and compressed by the harness.
func FuzzChunkRaw(f *testing.F) {
	f.Add([]byte{4, 0, 1, 0, 0, 1, 2, 3})
	f.Add([]byte{5, 0x80, 0x01, 0, 0, 0, 0, 0, 1, 0xFF})
	f.Add([]byte{0, 0x00, 0x03, 0x00, 0x02, 17, 0x21, 0, 0xFF})
	f.Add([]byte{5, 0, 1, 0, 0, 0, 1, 0, 2})       // NEID metadata below 16
	f.Add([]byte{5, 0, 1, 0, 0, 0x12, 0x34, 0, 5}) // NEID metadata above 15
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 6 {
			return
		}
		fm, sky := fuzzFlags(data[0])
		fm.ModularUI, fm.ModularUI2 = false, false
		groundUp := data[0]&8 == 0
		mask := binary.BigEndian.Uint16(data[1:])
		add := binary.BigEndian.Uint16(data[3:])
		content := data[5:]
		if mask == 0 && groundUp {
			return
		}
		l := columnLayout(fm, mask, add, sky, groundUp)
		raw := make([]byte, l.size)
		for i := range raw {
			raw[i] = content[i%len(content)]
		}
		p := &ChunkData{X: 1, Z: 2, GroundUp: groundUp, PrimaryMask: mask, AddMask: add, Data: zlibBytes(t, raw)}
		col, err := NewChunkDecoder(fm).ChunkData(p, sky)
		if err != nil {
			if checkMasks(fm, mask, add) == nil {
				t.Fatalf("well-sized data failed: %v", err)
			}
			return
		}
		checkChunkRoundTrip(t, fm, sky, p, col)
	})
}

// FuzzMapChunkBulk decodes Map Chunk Bulk payloads in both formats.
func FuzzMapChunkBulk(f *testing.F) {
	for _, seed := range bulkSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 {
			return
		}
		fm, _ := fuzzFlags(data[0])
		var p MapChunkBulk
		if p.DecodePayload(data[1:], fm) != nil {
			return
		}
		d := NewChunkDecoder(fm)
		d.MaxInflated = 1 << 20
		cols, err := d.MapChunkBulk(nil, &p)
		if err != nil {
			return
		}
		if len(cols) != len(p.Columns) {
			t.Fatalf("%d columns of %d", len(cols), len(p.Columns))
		}
		var in []*chunk.Column
		for _, c := range cols {
			in = append(in, c.Column)
		}
		q, err := NewChunkEncoder(fm).MapChunkBulk(in, p.SkyLight)
		if err != nil {
			t.Fatalf("decoded columns do not encode: %v", err)
		}
		again, err := NewChunkDecoder(fm).MapChunkBulk(nil, q)
		if err != nil {
			t.Fatalf("re-encoded bulk does not decode: %v", err)
		}
		for i := range cols {
			sameColumn(t, cols[i].Column, again[i].Column)
		}
	})
}

// checkChunkRoundTrip re-encodes a decoded column with the same masks and
// checks that it decodes to the same sections.
func checkChunkRoundTrip(t *testing.T, fm Formats, sky bool, p *ChunkData, col ChunkColumn) {
	t.Helper()
	if col.Unload {
		if col.Column != nil || !p.Unload() {
			t.Fatal("unload with a column")
		}
		return
	}
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		if p.PrimaryMask&(1<<cy) == 0 && col.Column.Section(cy) != nil {
			t.Fatalf("section %d outside the mask", cy)
		}
	}
	opt := ColumnOptions{GroundUp: p.GroundUp, Mask: p.PrimaryMask, SkyLight: sky, Biomes: &col.Biomes}
	if p.PrimaryMask == 0 {
		return // nothing to compare
	}
	q, err := NewChunkEncoder(fm).ChunkData(col.Column, opt)
	if err != nil {
		t.Fatalf("decoded column does not encode: %v", err)
	}
	again, err := NewChunkDecoder(fm).ChunkData(q, sky)
	if err != nil {
		t.Fatalf("re-encoded column does not decode: %v", err)
	}
	if again.Biomes != col.Biomes && p.GroundUp {
		t.Fatal("biomes differ")
	}
	sameColumn(t, col.Column, again.Column)
}

func sameColumn(t *testing.T, a, b *chunk.Column) {
	t.Helper()
	var sa, sb [chunk.SectionVolume]chunk.StateID
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		x, y := a.Section(cy), b.Section(cy)
		if (x == nil) != (y == nil) {
			t.Fatalf("section %d: %v vs %v", cy, x, y)
		}
		if x == nil {
			continue
		}
		x.States(&sa)
		y.States(&sb)
		if sa != sb {
			t.Fatalf("section %d differs", cy)
		}
		checkSummary(t, cy, x, &sa)
	}
}

// checkSummary checks a section's palette summary (built lazily for a raw
// section) against its blocks: the non-air count, the palette and the
// per-state counts.
func checkSummary(t *testing.T, cy int, s *chunk.Section, st *[chunk.SectionVolume]chunk.StateID) {
	t.Helper()
	counts := map[chunk.StateID]int{}
	nonAir := 0
	for i, v := range st {
		counts[v]++
		if !v.IsAir() {
			nonAir++
		}
		x, y, z := i&15, i>>8, i>>4&15
		if g := s.Get(x, y, z); g != v {
			t.Fatalf("section %d block %d: Get %v, States %v", cy, i, g, v)
		}
	}
	if s.NonAir() != nonAir || s.IsEmpty() != (nonAir == 0) {
		t.Fatalf("section %d: NonAir %d IsEmpty %v, blocks say %d", cy, s.NonAir(), s.IsEmpty(), nonAir)
	}
	pal := s.Palette()
	if len(pal) != len(counts) {
		t.Fatalf("section %d: palette %v, blocks hold %d states", cy, pal, len(counts))
	}
	for _, v := range pal {
		if s.Count(v) != counts[v] {
			t.Fatalf("section %d: Count(%v) = %d, blocks hold %d", cy, v, s.Count(v), counts[v])
		}
	}
}

// Seeds shared by the fuzz targets and the committed corpus.

func packetSeeds(t testing.TB) [][]byte {
	var out [][]byte
	for _, tc := range packetCases(t) {
		if len(tc.name) > 5 && tc.name[len(tc.name)-5:] == "Large" {
			continue
		}
		for _, fm := range []Formats{vanilla, gtnh} {
			b, err := Payload(tc.p, fm)
			if err != nil {
				t.Fatal(err)
			}
			flags := flagsByte(fm, false)
			if tc.dir == Serverbound {
				flags |= 8
			}
			out = append(out, append([]byte{flags, byte(tc.state)<<6 | byte(tc.p.PacketID())}, b...))
		}
	}
	return out
}

func chunkSeeds(t testing.TB) [][]byte {
	var out [][]byte
	rng := rand.New(rand.NewSource(5))
	for _, fm := range []Formats{vanilla, neid} {
		enc := NewChunkEncoder(fm)
		col := chunk.NewColumn(3, 4)
		for i := 0; i < 40; i++ {
			col.SetState(rng.Intn(16), rng.Intn(48), rng.Intn(16), randomState(rng, fm, true))
		}
		col.SetSection(5, chunk.NewUniformSection(chunk.MakeState(1, 0)))
		for _, opt := range []ColumnOptions{{GroundUp: true, SkyLight: true}, {GroundUp: false, Mask: 0b100001}, {GroundUp: true}} {
			p, err := enc.ChunkData(col, opt)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := Payload(p, fm)
			out = append(out, append([]byte{flagsByte(fm, opt.SkyLight)}, b...))
		}
		u, _ := enc.Unload(1, 1)
		b, _ := Payload(u, fm)
		out = append(out, append([]byte{flagsByte(fm, true)}, b...))
	}
	// Sections whose metadata the decoder keeps in different forms: all
	// zero (not kept), below 16 (NotEnoughIds: narrowed to nibbles), wider
	// than a nibble with ids above 4095 (NotEnoughIds), ids above 255 (add
	// arrays, vanilla).
	for _, fm := range []Formats{vanilla, neid} {
		col := chunk.NewColumn(-2, 7)
		for i := 0; i < chunk.SectionVolume; i++ {
			x, y, z := i&15, i>>8, i>>4&15
			col.SetState(x, y, z, chunk.MakeState(1+2*(i%2), 0))          // zero metadata
			col.SetState(x, 16+y, z, chunk.MakeState(1+i%5, i%16))        // nibbles
			col.SetState(x, 32+y, z, chunk.MakeState(256+i%3, (i>>2)%16)) // add array in vanilla
			if fm.NEID {
				col.SetState(x, 48+y, z, chunk.MakeState(4096+i%7, 16*(i%9))) // wide
			}
		}
		p, err := NewChunkEncoder(fm).ChunkData(col, ColumnOptions{GroundUp: true, SkyLight: true})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Payload(p, fm)
		out = append(out, append([]byte{flagsByte(fm, true)}, b...))
	}
	return out
}

func bulkSeeds(t testing.TB) [][]byte {
	var out [][]byte
	for _, fm := range []Formats{vanilla, neid} {
		a := chunk.NewColumn(0, 0)
		a.SetState(1, 2, 3, chunk.MakeState(17, 1))
		b := chunk.NewColumn(1, 0)
		b.SetState(5, 200, 5, chunk.MakeState(300, 2))
		for _, sky := range []bool{true, false} {
			p, err := NewChunkEncoder(fm).MapChunkBulk([]*chunk.Column{a, b, chunk.NewColumn(2, 0)}, sky)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := Payload(p, fm)
			out = append(out, append([]byte{flagsByte(fm, false)}, data...))
		}
	}
	return out
}

// TestWriteFuzzCorpus regenerates the committed seed corpus under
// testdata/fuzz when PROTO17_WRITE_CORPUS=1.
func TestWriteFuzzCorpus(t *testing.T) {
	if os.Getenv("PROTO17_WRITE_CORPUS") != "1" {
		t.Skip("set PROTO17_WRITE_CORPUS=1 to regenerate testdata/fuzz")
	}
	slots := [][]byte{}
	for _, fm := range allFormat {
		b, _ := AppendSlot(nil, testSlot(t), fm)
		slots = append(slots, append([]byte{flagsByte(fm, false)}, b...))
	}
	var metas, fmls, blocks, multis [][]byte
	for _, tc := range packetCases(t) {
		switch p := tc.p.(type) {
		case *EntityMetadata:
			for _, fm := range allFormat {
				b, _ := AppendMetadata(nil, p.Metadata, fm)
				metas = append(metas, append([]byte{flagsByte(fm, false)}, b...))
			}
		case *BlockChange:
			for _, fm := range []Formats{vanilla, neid} {
				b, _ := Payload(p, fm)
				blocks = append(blocks, append([]byte{flagsByte(fm, false)}, b...))
			}
		case *MultiBlockChange:
			for _, fm := range []Formats{vanilla, neid} {
				b, _ := Payload(p, fm)
				multis = append(multis, append([]byte{flagsByte(fm, false)}, b...))
			}
		}
	}
	for _, m := range []FMLMessage{
		&ServerHello{Protocol: 2}, &ClientHello{Protocol: 2},
		&ModList{Mods: []ModInfo{{"mcp", "9.05"}, {"neid", "2.1.10"}, {"modularui", "1.2.20"}}},
		&ModIDData{Entries: []RegistryEntry{{"\u0001minecraft:air", 0}, {"\u0001minecraft:log", 17}, {"\u0002minecraft:coal", 263}}},
		&ModIDData{Entries: []RegistryEntry{{"\u0001minecraft:stone", 1}}, HasSubstitutions: true, BlockSubstitutions: []string{"minecraft:dirt"}, ItemSubstitutions: []string{"minecraft:apple"}},
		&HandshakeAck{Phase: PhaseClientComplete}, &HandshakeReset{},
	} {
		b, _ := EncodeFML(m)
		fmls = append(fmls, b)
	}
	nbtSeed, _ := DecodeGzipNBT(testSlot(t).NBT)
	nbtRaw, _ := nbtSeed.Bytes()
	var mpSeq []byte
	parts, _ := SplitMultipart(ChannelFMLHandshake, fmls[3], 8)
	for _, p := range parts {
		mpSeq = append(mpSeq, byte(len(p)))
		mpSeq = append(mpSeq, p...)
	}
	corpus := map[string][][]byte{
		"FuzzPacket":           packetSeeds(t),
		"FuzzChunkData":        chunkSeeds(t),
		"FuzzMapChunkBulk":     bulkSeeds(t),
		"FuzzChunkRaw":         {{4, 0, 1, 0, 0, 1, 2, 3}, {5, 0x80, 0x01, 0, 0, 0, 0, 0, 1, 0xFF}, {0, 0x00, 0x03, 0x00, 0x02, 17, 0x21, 0, 0xFF}, {12, 0xFF, 0xFF, 0, 0, 7}, {5, 0, 1, 0, 0, 0, 1, 0, 2}, {5, 0, 1, 0, 0, 0x12, 0x34, 0, 5}},
		"FuzzSlot":             slots,
		"FuzzNBT":              {nbtRaw},
		"FuzzMetadata":         metas,
		"FuzzFML":              fmls,
		"FuzzMultipart":        {mpSeq},
		"FuzzVarShort":         {{0x80, 0x00, 0x01}, {0xFF, 0xFF, 0xFF}, {0x12, 0x34}},
		"FuzzBlockChange":      blocks,
		"FuzzMultiBlockChange": multis,
	}
	for name, seeds := range corpus {
		dir := filepath.Join("testdata", "fuzz", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, s := range seeds {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed-%02d", i)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
