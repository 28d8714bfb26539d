package proto17

import (
	"bytes"
	"compress/zlib"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawChunk deflates a column's inflated data, laid out for the formats,
// masks and sky-light setting (fill writes the arrays; extra bytes are
// appended after them), into a ground-up Chunk Data packet.
func rawChunk(t *testing.T, f Formats, mask, addMask uint16, fill func(raw []byte, l layout), extra int) *ChunkData {
	t.Helper()
	l := columnLayout(f, mask, addMask, true, true)
	raw := make([]byte, l.size+extra)
	fill(raw, l)
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	_, err := zw.Write(raw)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return &ChunkData{X: 3, Z: -4, GroundUp: true, PrimaryMask: mask, AddMask: addMask, Data: buf.Bytes()}
}

// sectionStates decodes a one-section packet and returns the section's
// states (nil for an absent section) and what the decoder kept of its
// metadata.
func sectionStates(t *testing.T, f Formats, p *ChunkData) (*[chunk.SectionVolume]chunk.StateID, int) {
	t.Helper()
	d := NewChunkDecoder(f)
	out, err := d.ChunkData(p, true)
	require.NoError(t, err)
	s := out.Column.Section(0)
	if s == nil {
		return nil, d.keptMeta
	}
	var st [chunk.SectionVolume]chunk.StateID
	s.States(&st)
	return &st, d.keptMeta
}

// TestChunkUniformLookalikes: sections whose arrays repeat one byte but
// whose blocks differ — metadata or add nibbles alternating between even
// and odd blocks — are read block by block, not as one state; sections
// that are one state throughout keep no metadata; all-air sections, with
// or without metadata, are nil.
func TestChunkUniformLookalikes(t *testing.T) {
	fillV := func(id, meta, add byte) func([]byte, layout) {
		return func(raw []byte, l layout) {
			for i := range chunk.SectionVolume {
				raw[i] = id
			}
			for i := range nibbleBytes {
				raw[l.meta+i] = meta
				if l.nAdd > 0 {
					raw[l.add+i] = add
				}
			}
		}
	}
	want := func(even, odd chunk.StateID) *[chunk.SectionVolume]chunk.StateID {
		var st [chunk.SectionVolume]chunk.StateID
		for i := range st {
			st[i] = even
			if i%2 == 1 {
				st[i] = odd
			}
		}
		return &st
	}
	for _, c := range []struct {
		name     string
		p        *ChunkData
		want     *[chunk.SectionVolume]chunk.StateID
		keptMeta int // -1: not checked
	}{
		{"metadata 3 on even blocks only", rawChunk(t, vanilla, 1, 0, fillV(1, 0x03, 0), 0), want(chunk.MakeState(1, 3), chunk.MakeState(1, 0)), nibbleBytes},
		{"metadata 3 on every block", rawChunk(t, vanilla, 1, 0, fillV(1, 0x33, 0), 0), want(chunk.MakeState(1, 3), chunk.MakeState(1, 3)), 0},
		{"add 1 on even blocks, 2 on odd ones", rawChunk(t, vanilla, 1, 1, fillV(7, 0, 0x21), 0), want(chunk.MakeState(0x107, 0), chunk.MakeState(0x207, 0)), 0},
		{"add 2 on every block", rawChunk(t, vanilla, 1, 1, fillV(7, 0x55, 0x22), 0), want(chunk.MakeState(0x207, 5), chunk.MakeState(0x207, 5)), -1},
		{"air with metadata", rawChunk(t, vanilla, 1, 0, fillV(0, 0x55, 0), 0), nil, 0},
		{"air with metadata and an add array of zeros", rawChunk(t, vanilla, 1, 1, fillV(0, 0x55, 0), 0), nil, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, kept := sectionStates(t, vanilla, c.p)
			assert.Equal(t, c.want, got)
			if c.keptMeta >= 0 {
				assert.Equal(t, c.keptMeta, kept, "metadata bytes kept")
			}
		})
	}

	fillN := func(id, meta uint16) func([]byte, layout) {
		return func(raw []byte, l layout) {
			for i := range chunk.SectionVolume {
				raw[2*i], raw[2*i+1] = byte(id>>8), byte(id)
				raw[l.meta+2*i], raw[l.meta+2*i+1] = byte(meta>>8), byte(meta)
			}
		}
	}
	for _, c := range []struct {
		name     string
		p        *ChunkData
		want     *[chunk.SectionVolume]chunk.StateID
		keptMeta int
	}{
		{"one state, metadata 5", rawChunk(t, neid, 1, 0, fillN(0x1234, 5), 0), want(chunk.MakeState(0x1234, 5), chunk.MakeState(0x1234, 5)), 0},
		{"one state, metadata 0x0500", rawChunk(t, neid, 1, 0, fillN(0x1234, 0x0500), 0), want(chunk.MakeState(0x1234, 0x500), chunk.MakeState(0x1234, 0x500)), 0},
		{"air with metadata", rawChunk(t, neid, 1, 0, fillN(0, 7), 0), nil, 0},
	} {
		t.Run("neid "+c.name, func(t *testing.T) {
			got, kept := sectionStates(t, neid, c.p)
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.keptMeta, kept, "metadata bytes kept")
		})
	}
	// Mixed NotEnoughIds ids: metadata below 16 is kept as nibbles, wider
	// metadata whole.
	for _, c := range []struct {
		meta uint16
		kept int
	}{{9, nibbleBytes}, {0x109, neidMetaBytes}, {0, 0}} {
		p := rawChunk(t, neid, 1, 0, func(raw []byte, l layout) {
			fillN(0x1234, c.meta)(raw, l)
			raw[2*100+1] = 0x35
		}, 0)
		got, kept := sectionStates(t, neid, p)
		require.NotNil(t, got)
		assert.Equal(t, chunk.MakeState(0x1235, int(c.meta)), got[100])
		assert.Equal(t, chunk.MakeState(0x1234, int(c.meta)), got[101])
		assert.Equal(t, c.kept, kept, "metadata %#x", c.meta)
	}
}

// TestChunkInflatedSizeExact: the inflated data must be exactly what the
// masks announce — one byte more is an error — and a limit of exactly
// that size lets a packet through, one byte less does not, for Chunk
// Data and Map Chunk Bulk.
func TestChunkInflatedSizeExact(t *testing.T) {
	fill := func(raw []byte, l layout) {
		for i := range chunk.SectionVolume {
			raw[i] = byte(i%5 + 1)
		}
	}
	p := rawChunk(t, vanilla, 1, 0, fill, 0)
	size := columnLayout(vanilla, 1, 0, true, true).size

	long := rawChunk(t, vanilla, 1, 0, fill, 1)
	_, err := NewChunkDecoder(vanilla).ChunkData(long, true)
	assert.ErrorIs(t, err, ErrInvalid, "one byte more than announced")

	d := NewChunkDecoder(vanilla)
	d.MaxInflated = size
	_, err = d.ChunkData(p, true)
	require.NoError(t, err, "a packet of exactly the limit")
	d.MaxInflated = size - 1
	_, err = d.ChunkData(p, true)
	assert.ErrorIs(t, err, ErrTooLarge)

	b := &MapChunkBulk{SkyLight: true, Columns: []BulkColumn{{X: 3, Z: -4, PrimaryMask: 1}}, Data: p.Data}
	d.MaxInflated = size
	cols, err := d.MapChunkBulk(nil, b)
	require.NoError(t, err)
	require.Len(t, cols, 1)
	d.MaxInflated = size - 1
	_, err = d.MapChunkBulk(nil, b)
	assert.ErrorIs(t, err, ErrTooLarge)
	var pe *Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "columns", pe.Field, "the limit is checked on the masks, before inflating")
}

// TestChunkHeaderBounds: a negative data length is invalid (not a short
// packet), and a Map Chunk Bulk announcing 32767 columns it does not carry
// allocates for the columns its bytes can hold, not for the count.
func TestChunkHeaderBounds(t *testing.T) {
	var p ChunkData
	payload := []byte{0, 0, 0, 1, 0, 0, 0, 2, 1, 0, 1, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF}
	err := p.DecodePayload(payload, vanilla)
	assert.ErrorIs(t, err, ErrInvalid)
	assert.NotErrorIs(t, err, ErrTruncated)

	bulk := []byte{0x7F, 0xFF, 0, 0, 0, 0, 1, 0, 0, 0, 1}
	var b MapChunkBulk
	alloc := allocOf(func() { err = b.DecodePayload(bulk, vanilla) })
	assert.ErrorIs(t, err, ErrTruncated)
	assert.Less(t, alloc, uint64(16<<10), "bytes allocated for a bulk header of 11 bytes")
}

// TestChunkPartialPackets: a Chunk Data packet that is not ground-up with
// an empty mask changes nothing and unloads nothing (only a ground-up one
// unloads), and a Map Chunk Bulk that fails returns dst as it was.
func TestChunkPartialPackets(t *testing.T) {
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	require.NoError(t, zw.Close())
	p := &ChunkData{X: 1, Z: 2, Data: buf.Bytes()}
	assert.False(t, p.Unload())
	out, err := NewChunkDecoder(vanilla).ChunkData(p, true)
	require.NoError(t, err)
	assert.False(t, out.Unload)
	require.NotNil(t, out.Column)
	assert.True(t, (&ChunkData{GroundUp: true}).Unload())

	fill := func(raw []byte, l layout) {
		for i := range chunk.SectionVolume {
			raw[i] = byte(i%3 + 1)
		}
	}
	one := rawChunk(t, vanilla, 1, 0, fill, 0)
	b := &MapChunkBulk{SkyLight: true, Columns: []BulkColumn{{PrimaryMask: 1}, {X: 1, PrimaryMask: 1}}, Data: one.Data}
	dst := []ChunkColumn{{X: 9}}
	got, err := NewChunkDecoder(vanilla).MapChunkBulk(dst, b)
	assert.ErrorIs(t, err, ErrTruncated)
	assert.Equal(t, dst, got, "a failed bulk appends no column")
}
