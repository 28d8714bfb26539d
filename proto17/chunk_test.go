package proto17

import (
	"bytes"
	"compress/zlib"
	"errors"
	"io"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// randomState returns a state the format can carry.
func randomState(rng *rand.Rand, f Formats, wide bool) chunk.StateID {
	if f.NEID {
		return chunk.MakeState(rng.Intn(1<<16), rng.Intn(1<<16))
	}
	if wide {
		return chunk.MakeState(rng.Intn(1<<12), rng.Intn(16))
	}
	return chunk.MakeState(rng.Intn(256), rng.Intn(16))
}

// randomColumn builds a column mixing empty, uniform, sparse and dense
// sections. wide puts vanilla ids above 255 in (add arrays).
func randomColumn(rng *rand.Rand, cx, cz int, f Formats, wide bool) *chunk.Column {
	col := chunk.NewColumn(cx, cz)
	var st [chunk.SectionVolume]chunk.StateID
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		switch rng.Intn(5) {
		case 0: // absent
		case 1:
			col.SetSection(cy, chunk.NewUniformSection(randomState(rng, f, wide)))
		case 2:
			base := randomState(rng, f, wide)
			for i := range st {
				st[i] = base
				if rng.Intn(50) == 0 {
					st[i] = randomState(rng, f, wide)
				}
			}
			col.SetSection(cy, chunk.NewSection(&st))
		default:
			for i := range st {
				st[i] = randomState(rng, f, wide)
			}
			col.SetSection(cy, chunk.NewSection(&st))
		}
	}
	return col
}

// assertSections checks that got holds want's sections for every section in
// mask (nil and all-air are the same).
func assertSections(t *testing.T, want, got *chunk.Column, mask uint16) {
	t.Helper()
	var a, b [chunk.SectionVolume]chunk.StateID
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		if mask&(1<<cy) == 0 {
			assert.Nil(t, got.Section(cy), "section %d outside the mask", cy)
			continue
		}
		ws, gs := want.Section(cy), got.Section(cy)
		if ws == nil || ws.IsEmpty() {
			assert.True(t, gs == nil || gs.IsEmpty(), "section %d should be air", cy)
			continue
		}
		require.NotNil(t, gs, "section %d missing", cy)
		ws.States(&a)
		gs.States(&b)
		require.Equal(t, a, b, "section %d", cy)
	}
}

func decodeChunkPayload(t *testing.T, p *ChunkData, f Formats) *ChunkData {
	t.Helper()
	data, err := Payload(p, f)
	require.NoError(t, err)
	var got ChunkData
	require.NoError(t, got.DecodePayload(data, f))
	return &got
}

func TestChunkDataRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, f := range []Formats{vanilla, neid} {
		enc, dec := NewChunkEncoder(f), NewChunkDecoder(f)
		for _, groundUp := range []bool{true, false} {
			for _, sky := range []bool{true, false} {
				for i := 0; i < 6; i++ {
					col := randomColumn(rng, rng.Intn(100)-50, rng.Intn(100)-50, f, i%2 == 0)
					opt := ColumnOptions{GroundUp: groundUp, SkyLight: sky}
					if !groundUp {
						opt.Mask = uint16(rng.Intn(1 << 16))
					}
					var bio [256]byte
					rng.Read(bio[:])
					opt.Biomes = &bio
					p, err := enc.ChunkData(col, opt)
					require.NoError(t, err)
					p = decodeChunkPayload(t, p, f)
					got, err := dec.ChunkData(p, sky)
					require.NoError(t, err, "%v ground-up %v sky %v", f, groundUp, sky)
					assert.Equal(t, col.Pos(), chunk.ChunkPos{X: got.X, Z: got.Z})
					assert.Equal(t, groundUp, got.GroundUp)
					assert.Equal(t, p.PrimaryMask, got.Mask)
					if p.Unload() {
						assert.True(t, got.Unload)
						assert.Nil(t, got.Column)
						continue
					}
					assert.Equal(t, col.Pos(), got.Column.Pos())
					assertSections(t, col, got.Column, p.PrimaryMask)
					if groundUp {
						assert.Equal(t, bio, got.Biomes)
					}
				}
			}
		}
	}
}

func TestChunkDataAddArrays(t *testing.T) {
	col := chunk.NewColumn(0, 0)
	col.SetState(0, 0, 0, chunk.MakeState(300, 5)) // section 0 needs an add array
	col.SetState(1, 40, 2, chunk.MakeState(17, 1)) // section 2 does not
	col.SetState(15, 255, 15, chunk.MakeState(4095, 15))
	p, err := NewChunkEncoder(vanilla).ChunkData(col, ColumnOptions{GroundUp: true, SkyLight: true})
	require.NoError(t, err)
	assert.Equal(t, uint16(1<<0|1<<2|1<<15), p.PrimaryMask)
	assert.Equal(t, uint16(1<<0|1<<15), p.AddMask)
	got, err := NewChunkDecoder(vanilla).ChunkData(decodeChunkPayload(t, p, vanilla), true)
	require.NoError(t, err)
	assert.Equal(t, chunk.MakeState(300, 5), got.Column.StateAt(0, 0, 0))
	assert.Equal(t, chunk.MakeState(17, 1), got.Column.StateAt(1, 40, 2))
	assert.Equal(t, chunk.MakeState(4095, 15), got.Column.StateAt(15, 255, 15))
	assert.Equal(t, chunk.AirState, got.Column.StateAt(2, 40, 2))

	// The same column cannot be NEID-encoded with an add mask, and vanilla
	// cannot carry 16-bit ids.
	big := chunk.NewColumn(0, 0)
	big.SetState(0, 0, 0, chunk.MakeState(5000, 0))
	_, err = NewChunkEncoder(vanilla).ChunkData(big, ColumnOptions{GroundUp: true})
	assert.ErrorIs(t, err, ErrTooLarge)
}

// zlibBytes compresses raw.
func zlibBytes(t testing.TB, raw []byte) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	_, err := w.Write(raw)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return b.Bytes()
}

func inflateAll(t testing.TB, data []byte) []byte {
	r, err := zlib.NewReader(bytes.NewReader(data))
	require.NoError(t, err)
	raw, err := io.ReadAll(r)
	require.NoError(t, err)
	return raw
}

// TestVanillaLayoutGolden builds the inflated data of a one-section column by
// hand: 4096 id bytes, 2048 metadata nibbles (even block in the low
// nibble), 2048 block light, 2048 sky light, one 2048-byte add array, 256
// biomes.
func TestVanillaLayoutGolden(t *testing.T) {
	const ids, meta, light, sky, add, bio = 0, 4096, 6144, 8192, 10240, 12288
	raw := make([]byte, 12288+256)
	raw[ids+0], raw[ids+1], raw[ids+256], raw[ids+4095] = 1, 2, 3, 4
	raw[meta+0] = 0x21             // block 0 meta 1, block 1 meta 2
	raw[meta+128] = 0x07           // block 256 meta 7
	raw[meta+2047] = 0xF0          // block 4095 meta 15
	raw[add+0] = 0x10              // block 1 id += 1<<8
	raw[add+2047] = 0xA0           // block 4095 id += 10<<8
	for i := light; i < add; i++ { // light is skipped by the decoder
		raw[i] = 0xFF
	}
	raw[bio+5] = 21
	p := &ChunkData{X: 3, Z: -4, GroundUp: true, PrimaryMask: 1 << 4, AddMask: 1 << 4, Data: zlibBytes(t, raw)}
	got, err := NewChunkDecoder(vanilla).ChunkData(p, true)
	require.NoError(t, err)
	c := got.Column
	assert.Equal(t, chunk.MakeState(1, 1), c.StateAt(0, 64, 0))
	assert.Equal(t, chunk.MakeState(2|1<<8, 2), c.StateAt(1, 64, 0))
	assert.Equal(t, chunk.MakeState(3, 7), c.StateAt(0, 65, 0), "index 256 is y+1")
	assert.Equal(t, chunk.MakeState(4|10<<8, 15), c.StateAt(15, 79, 15))
	assert.Equal(t, chunk.AirState, c.StateAt(2, 64, 0))
	assert.Equal(t, byte(21), got.Biomes[5])
	_ = sky

	// The encoder writes the same ids, metadata and add arrays.
	p2, err := NewChunkEncoder(vanilla).ChunkData(c, ColumnOptions{GroundUp: true, SkyLight: true})
	require.NoError(t, err)
	assert.Equal(t, p.PrimaryMask, p2.PrimaryMask)
	assert.Equal(t, p.AddMask, p2.AddMask)
	enc := inflateAll(t, p2.Data)
	require.Len(t, enc, len(raw))
	assert.Equal(t, raw[ids:light], enc[ids:light])
	assert.Equal(t, raw[add:bio], enc[add:bio])
}

// TestNEIDLayoutGolden builds NotEnoughIds data for sections 0 and 2 by
// hand: both id arrays (8192 bytes of big-endian u16 each), then both
// metadata arrays, then block light, then sky light, then biomes.
func TestNEIDLayoutGolden(t *testing.T) {
	const n = 2
	ids0, ids2 := 0, 8192
	meta0, meta2 := 2*8192, 3*8192
	light := 4 * 8192
	bio := light + n*2048 // no sky light
	raw := make([]byte, bio+256)
	put := func(off int, v uint16) { raw[off], raw[off+1] = byte(v>>8), byte(v) }
	put(ids0+0, 0x1234)
	put(meta0+0, 0x0102)
	put(ids0+2*1, 1)
	put(ids2+2*4095, 0xABCD)
	put(meta2+2*4095, 0xFFFF)
	put(meta2+2*17, 9) // air with metadata is air
	p := &ChunkData{X: 0, Z: 0, GroundUp: true, PrimaryMask: 1<<0 | 1<<2, Data: zlibBytes(t, raw)}
	got, err := NewChunkDecoder(neid).ChunkData(p, false)
	require.NoError(t, err)
	c := got.Column
	assert.Equal(t, chunk.MakeState(0x1234, 0x0102), c.StateAt(0, 0, 0))
	assert.Equal(t, chunk.MakeState(1, 0), c.StateAt(1, 0, 0))
	assert.Equal(t, chunk.MakeState(0xABCD, 0xFFFF), c.StateAt(15, 47, 15))
	assert.Equal(t, chunk.AirState, c.StateAt(1, 32, 1))
	assert.Nil(t, c.Section(1))

	p2, err := NewChunkEncoder(neid).ChunkData(c, ColumnOptions{GroundUp: true})
	require.NoError(t, err)
	enc := inflateAll(t, p2.Data)
	require.Len(t, enc, len(raw))
	raw[meta2+2*17+1] = 0 // the world model drops air's metadata
	assert.Equal(t, raw[:light], enc[:light])

	// Read as vanilla, the same bytes have the wrong size.
	_, err = NewChunkDecoder(vanilla).ChunkData(p, false)
	assert.ErrorIs(t, err, ErrInvalid)
}

func TestChunkUnload(t *testing.T) {
	for _, f := range []Formats{vanilla, neid} {
		p, err := NewChunkEncoder(f).Unload(5, -6)
		require.NoError(t, err)
		assert.True(t, p.Unload())
		assert.Len(t, inflateAll(t, p.Data), 256, "biomes only")
		got, err := NewChunkDecoder(f).ChunkData(decodeChunkPayload(t, p, f), true)
		require.NoError(t, err)
		assert.True(t, got.Unload)
		assert.Nil(t, got.Column)
		assert.Equal(t, 5, got.X)
		assert.Equal(t, -6, got.Z)
	}
	// The client does not read an unload's data, so neither do we.
	got, err := NewChunkDecoder(vanilla).ChunkData(&ChunkData{GroundUp: true, Data: []byte{1, 2, 3}}, true)
	require.NoError(t, err)
	assert.True(t, got.Unload)
}

func TestMapChunkBulkRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for _, f := range []Formats{vanilla, neid} {
		for _, sky := range []bool{true, false} {
			cols := make([]*chunk.Column, 7)
			for i := range cols {
				cols[i] = randomColumn(rng, i, -i, f, true)
			}
			cols[3] = chunk.NewColumn(3, -3) // empty: an all-air column
			p, err := NewChunkEncoder(f).MapChunkBulk(cols, sky)
			require.NoError(t, err)
			data, err := Payload(p, f)
			require.NoError(t, err)
			var got MapChunkBulk
			require.NoError(t, got.DecodePayload(data, f))
			out, err := NewChunkDecoder(f).MapChunkBulk(nil, &got)
			require.NoError(t, err)
			require.Len(t, out, len(cols))
			for i, c := range out {
				assert.True(t, c.GroundUp)
				assert.False(t, c.Unload)
				require.NotNil(t, c.Column)
				assert.Equal(t, cols[i].Pos(), c.Column.Pos())
				assertSections(t, cols[i], c.Column, got.Columns[i].PrimaryMask)
				assert.Equal(t, byte(BiomePlains), c.Biomes[255])
			}
			assert.Zero(t, out[3].Column.NonAir())
		}
	}
}

func TestChunkBenchworldColumns(t *testing.T) {
	w := benchworld.Generate(1337)
	for _, f := range []Formats{vanilla, neid} {
		enc, dec := NewChunkEncoder(f), NewChunkDecoder(f)
		for _, pos := range [][2]int{{0, 0}, {2, 11}, {8, 1}, {15, 15}} {
			col := benchColumn(w, pos[0], pos[1])
			p, err := enc.ChunkData(col, ColumnOptions{GroundUp: true, SkyLight: true})
			require.NoError(t, err)
			got, err := dec.ChunkData(decodeChunkPayload(t, p, f), true)
			require.NoError(t, err)
			for y := 0; y < 256; y++ {
				for z := 0; z < 16; z++ {
					for x := 0; x < 16; x++ {
						want := chunk.LegacyState(w.W[benchworld.Index(pos[0]*16+x, y, pos[1]*16+z)])
						if g := got.Column.StateAt(x, y, z); g != want {
							t.Fatalf("%v column %v: (%d,%d,%d) = %v, want %v", f, pos, x, y, z, g, want)
						}
					}
				}
			}
		}
	}
}

func TestChunkErrors(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	col := chunk.NewColumn(1, 1)
	for i := 0; i < 300; i++ {
		col.SetState(rng.Intn(16), rng.Intn(40), rng.Intn(16), randomState(rng, vanilla, false))
	}
	col.SetState(0, 0, 0, chunk.MakeState(300, 1))
	p, err := NewChunkEncoder(vanilla).ChunkData(col, ColumnOptions{GroundUp: true, SkyLight: true})
	require.NoError(t, err)
	require.NotZero(t, p.AddMask)

	t.Run("NEID with an add mask", func(t *testing.T) {
		_, err := NewChunkDecoder(neid).ChunkData(p, true)
		var pe *Error
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, "add bitmask", pe.Field)
		assert.ErrorIs(t, err, ErrInvalid)
	})
	t.Run("add mask outside the primary mask", func(t *testing.T) {
		q := *p
		require.NotEqual(t, uint16(0xFFFF), q.PrimaryMask, "the test column must leave a section out")
		q.AddMask |= ^q.PrimaryMask & -^q.PrimaryMask // lowest section not sent
		_, err := NewChunkDecoder(vanilla).ChunkData(&q, true)
		assert.ErrorIs(t, err, ErrInvalid)
	})
	t.Run("wrong sky-light setting", func(t *testing.T) {
		_, err := NewChunkDecoder(vanilla).ChunkData(p, false)
		assert.ErrorIs(t, err, ErrInvalid) // more data than announced
		q, err := NewChunkEncoder(vanilla).ChunkData(col, ColumnOptions{GroundUp: true})
		require.NoError(t, err)
		_, err = NewChunkDecoder(vanilla).ChunkData(q, true)
		assert.ErrorIs(t, err, ErrTruncated)
	})
	t.Run("limit", func(t *testing.T) {
		d := NewChunkDecoder(vanilla)
		d.MaxInflated = 1000
		_, err := d.ChunkData(p, true)
		assert.ErrorIs(t, err, ErrTooLarge)
	})
	t.Run("truncated compressed data", func(t *testing.T) {
		d := NewChunkDecoder(vanilla)
		for n := 0; n < len(p.Data); n++ {
			if n > 64 && n < len(p.Data)-64 && n%31 != 0 {
				continue
			}
			q := *p
			q.Data = p.Data[:n]
			_, err := d.ChunkData(&q, true)
			require.Error(t, err, "prefix %d", n)
			var pe *Error
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "ChunkData", pe.Packet)
		}
		// The decoder still works afterwards.
		_, err := d.ChunkData(p, true)
		require.NoError(t, err)
	})
	t.Run("corrupt compressed data", func(t *testing.T) {
		d := NewChunkDecoder(vanilla)
		for i := 0; i < len(p.Data); i += 3 {
			q := *p
			q.Data = bytes.Clone(p.Data)
			q.Data[i] ^= 0x55
			_, err := d.ChunkData(&q, true)
			require.Error(t, err, "flipped byte %d", i)
		}
	})
	t.Run("bulk limit", func(t *testing.T) {
		b := &MapChunkBulk{SkyLight: true, Columns: make([]BulkColumn, 200)}
		for i := range b.Columns {
			b.Columns[i].PrimaryMask = 0xFFFF
		}
		_, err := NewChunkDecoder(neid).MapChunkBulk(nil, b)
		assert.ErrorIs(t, err, ErrTooLarge)
	})
	t.Run("bulk truncated", func(t *testing.T) {
		b, err := NewChunkEncoder(vanilla).MapChunkBulk([]*chunk.Column{col, col}, true)
		require.NoError(t, err)
		b.Columns = append(b.Columns, BulkColumn{PrimaryMask: 1})
		_, err = NewChunkDecoder(vanilla).MapChunkBulk(nil, b)
		assert.True(t, errors.Is(err, ErrTruncated), "%v", err)
	})
}

// TestChunkDecodeKeepsWireArrays: mixed sections read the inflated arrays in
// place (raw), uniform ones are packed, and columns decoded later by the
// same decoder (whose inflater and scratch are reused) leave earlier ones
// intact, before and after the store packs them.
func TestChunkDecodeKeepsWireArrays(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	for _, f := range []Formats{vanilla, neid} {
		enc, dec := NewChunkEncoder(f), NewChunkDecoder(f)
		var want, got []*chunk.Column
		for i := 0; i < 12; i++ {
			col := randomColumn(rng, i, 2*i, f, i%3 == 0)
			// Section 15: one block id, metadata varying; section 14: one
			// state throughout.
			var st [chunk.SectionVolume]chunk.StateID
			for j := range st {
				st[j] = chunk.MakeState(1, j%7)
			}
			col.SetSection(15, chunk.NewSection(&st))
			col.SetSection(14, chunk.NewUniformSection(chunk.MakeState(4, 0)))
			p, err := enc.ChunkData(col, ColumnOptions{GroundUp: true, SkyLight: true})
			require.NoError(t, err)
			out, err := dec.ChunkData(decodeChunkPayload(t, p, f), true)
			require.NoError(t, err)
			assert.True(t, out.Column.Section(15).IsRaw(), "%v: a mixed section keeps the wire arrays", f)
			assert.False(t, out.Column.Section(14).IsRaw(), "%v: a uniform section is packed at once", f)
			want, got = append(want, col), append(got, out.Column)
		}
		store := chunk.NewChunkStore(chunk.NewResolver(rules.Default().IDs, rules.Default().Tags))
		for i := range got {
			assertSections(t, want[i], got[i], 0xFFFF)
			store.LoadColumn(got[i])
		}
		require.True(t, store.RawSections())
		assert.Positive(t, store.Compact(1000))
		assert.False(t, store.RawSections())
		view := store.View()
		for i := range want {
			c := view.Column(want[i].Pos().X, want[i].Pos().Z)
			for cy := 0; cy < chunk.ColumnSections; cy++ {
				if s := c.Section(cy); s != nil {
					assert.False(t, s.IsRaw(), "%v column %d section %d still raw after Compact", f, i, cy)
				}
			}
			assertSections(t, want[i], c, 0xFFFF)
		}
	}
}

// widenColumn copies a vanilla-range column into one only NotEnoughIds can
// carry: ids above 4095 (bit 12, 13, 14 or 15 set by section), and in odd
// sections metadata above 15 wherever it is not 0, so a decoder meets
// sections whose metadata is all zero, all below 16, and wider.
func widenColumn(src *chunk.Column) *chunk.Column {
	col := chunk.NewColumn(src.Pos().X, src.Pos().Z)
	var st [chunk.SectionVolume]chunk.StateID
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		s := src.Section(cy)
		if s == nil {
			continue
		}
		s.States(&st)
		for i, v := range st {
			if v.IsAir() {
				continue
			}
			meta := v.Meta()
			if cy%2 == 1 {
				meta = meta * 4099 & 0xFFFF
			}
			st[i] = chunk.MakeState(v.ID()|0x1000<<(cy%4), meta)
		}
		col.SetSection(cy, chunk.NewSection(&st))
	}
	return col
}

// TestChunkDecodeBenchSets decodes the four benchmark sets (vanilla and
// NotEnoughIds, plain terrain and high-entropy) and a widened copy of each
// NotEnoughIds set (ids above 4095, metadata above 15) and checks every
// block against the source columns. The sets hold sections whose metadata
// is all zero, all below 16, and wider, which the decoder keeps in
// different forms.
func TestChunkDecodeBenchSets(t *testing.T) {
	var st [chunk.SectionVolume]chunk.StateID
	for _, name := range []string{"vanilla/terrain", "vanilla/entropy", "neid/terrain", "neid/entropy"} {
		set := benchData(t, name)
		f, wide := vanilla, name[:4] == "neid"
		if wide {
			f = neid
		}
		cols, packets := set.cols, set.packets
		if wide {
			cols, packets = nil, nil
			enc := NewChunkEncoder(neid)
			for i := 0; i < len(set.cols); i += 3 { // a third of the columns keeps the test fast
				c := widenColumn(set.cols[i])
				p, err := enc.ChunkData(c, ColumnOptions{GroundUp: true, SkyLight: true})
				require.NoError(t, err)
				cols, packets = append(cols, set.cols[i], c), append(packets, set.packets[i], p)
			}
		}
		t.Run(name, func(t *testing.T) {
			dec := NewChunkDecoder(f)
			kinds := map[string]int{}
			mem := map[int]int{}
			nonZeroMeta, wideIDs := 0, 0
			for i, p := range packets {
				got, err := dec.ChunkData(p, true)
				require.NoError(t, err)
				assertSections(t, cols[i], got.Column, p.PrimaryMask)
				for cy := 0; cy < chunk.ColumnSections; cy++ {
					s := got.Column.Section(cy)
					if s == nil {
						continue
					}
					kinds[s.String()]++
					if s.IsRaw() && s.String() != "section{raw neid}" {
						mem[s.MemBytes()]++
					}
					s.States(&st)
					for _, v := range st {
						if v.Meta() != 0 {
							nonZeroMeta++
						}
						if v.ID() > 4095 {
							wideIDs++
						}
					}
				}
			}
			t.Logf("%d columns: %v; nibble-metadata sections by MemBytes: %v", len(packets), kinds, mem)
			assert.Positive(t, nonZeroMeta, "blocks with metadata")
			// Sections with metadata nibbles, kept or all zero and left
			// out: two sizes, NibbleBytes apart.
			require.Len(t, mem, 2, "sections with all-zero and with kept metadata nibbles")
			var sizes []int
			for m := range mem {
				sizes = append(sizes, m)
			}
			assert.Equal(t, chunk.NibbleBytes, max(sizes[0], sizes[1])-min(sizes[0], sizes[1]))
			if wide {
				assert.Positive(t, wideIDs, "blocks with ids above 4095")
				assert.Positive(t, kinds["section{raw neid}"], "sections with metadata above 15")
			}
		})
	}
}

// TestNEIDMetaKindAndNibbles checks the metadata classification of one
// NotEnoughIds section and the narrowing to nibbles against a block-by-block
// reference, with values at every byte position of a word and at both ends
// of the array.
func TestNEIDMetaKindAndNibbles(t *testing.T) {
	put := func(meta []byte, i int, v uint16) { meta[2*i], meta[2*i+1] = byte(v>>8), byte(v) }
	ref := func(vals []uint16) []byte {
		out := make([]byte, nibbleBytes)
		for i, v := range vals {
			out[i/2] |= byte(v&15) << (4 * uint(i%2))
		}
		return out
	}
	meta := make([]byte, neidMetaBytes)
	assert.Equal(t, metaNone, neidMetaKind(meta), "all zero")

	rng := rand.New(rand.NewSource(9))
	for _, pos := range []int{0, 1, 2, 3, 4, 5, 6, 7, 31, 32, 2048, 4094, 4095} {
		for _, v := range []uint16{1, 15, 16, 0xF0, 0x100, 0x0F00, 0x8000, 0xFFFF} {
			clear(meta)
			put(meta, pos, v)
			want := metaNibbles
			if v >= 16 {
				want = metaFull
			}
			require.Equal(t, want, neidMetaKind(meta), "value %#x at block %d", v, pos)
			// The same with every other block below 16.
			vals := make([]uint16, chunk.SectionVolume)
			for i := range vals {
				vals[i] = uint16(rng.Intn(16))
				put(meta, i, vals[i])
			}
			put(meta, pos, v)
			vals[pos] = v
			require.Equal(t, want, neidMetaKind(meta), "value %#x at block %d among nibbles", v, pos)
			if want == metaNibbles {
				got := make([]byte, nibbleBytes)
				packNibbles(got, meta)
				require.Equal(t, ref(vals), got, "nibbles with %#x at block %d", v, pos)
			}
		}
	}
}

// TestUniformEveryByte changes each byte of arrays of the sizes the decoder
// checks (and of sizes that are not a multiple of 64) and checks that
// uniform and zeroWords see it, wherever it falls in a step of eight words.
func TestUniformEveryByte(t *testing.T) {
	for _, n := range []int{8, 56, 72, 136, 2048, 4096, 8192} {
		for _, fill := range []byte{0, 0x11, 0xA7} {
			b := bytes.Repeat([]byte{fill}, n)
			if !uniform(b, broadcast(fill)) {
				t.Fatalf("n %d fill %#x: uniform array reported mixed", n, fill)
			}
			if zeroWords(b) != (fill == 0) {
				t.Fatalf("n %d fill %#x: zeroWords %v", n, fill, zeroWords(b))
			}
			for i := range b {
				b[i] = fill ^ 0x40
				if uniform(b, broadcast(fill)) {
					t.Fatalf("n %d fill %#x: byte %d differs, uniform says not", n, fill, i)
				}
				if fill == 0 && zeroWords(b) {
					t.Fatalf("n %d: byte %d set, zeroWords says all zero", n, i)
				}
				b[i] = fill
			}
		}
	}
}
