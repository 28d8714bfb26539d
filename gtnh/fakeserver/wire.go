package fakeserver

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// The 1.7.10 frame: a VarInt length (at most three bytes, as the 1.7.10
// frame decoder reads), then the VarInt packet id and the payload. 1.7 has
// no compression. proto17 codes payloads only, so the framing lives here.

// maxFrame is the largest frame a 1.7.10 peer accepts (a three-byte VarInt).
const maxFrame = 1<<21 - 1

// frame builds the bytes of one framed packet.
func frame(id int32, payload []byte) ([]byte, error) {
	body := proto17.AppendVarInt(nil, id)
	body = append(body, payload...)
	if len(body) > maxFrame {
		return nil, fmt.Errorf("packet 0x%02X of %d bytes exceeds the 1.7.10 frame limit %d", id, len(body), maxFrame)
	}
	out := proto17.AppendVarInt(make([]byte, 0, len(body)+3), int32(len(body)))
	return append(out, body...), nil
}

// readVarInt reads a VarInt of at most maxBytes bytes.
func readVarInt(r io.ByteReader, maxBytes int) (int32, error) {
	var v uint32
	for i := 0; i < maxBytes; i++ {
		c, err := r.ReadByte()
		if err != nil {
			if i > 0 && errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		v |= uint32(c&0x7F) << (7 * i)
		if c&0x80 == 0 {
			return int32(v), nil
		}
	}
	return 0, fmt.Errorf("VarInt longer than %d bytes", maxBytes)
}

// readFrame reads one packet and returns its id and payload.
func readFrame(r *bufio.Reader) (int32, []byte, error) {
	n, err := readVarInt(r, 3)
	if err != nil {
		return 0, nil, err
	}
	if n < 1 {
		return 0, nil, fmt.Errorf("frame length %d", n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, err
	}
	br := bytes.NewReader(body)
	id, err := readVarInt(br, 5)
	if err != nil {
		return 0, nil, fmt.Errorf("packet id: %w", err)
	}
	return id, body[len(body)-br.Len():], nil
}

// Chunk encoding. proto17 decodes chunk data into world columns; this is the
// inverse, the way a 1.7.10 server (or NotEnoughIds) writes it: per kind of
// array across the sections in the primary bitmask — block ids, metadata,
// block light, sky light, then (vanilla only) the "add" nibbles of ids above
// 255, then the biomes of a ground-up column.

// sectionArrays are one section's encoded arrays.
type sectionArrays struct {
	ids, meta, add []byte // add is nil when no id exceeds 255 (vanilla)
}

// encodeSection writes one section in the format f.
func encodeSection(sec *world.Section, f proto17.Formats) (sectionArrays, error) {
	var states [world.SectionVolume]world.StateID
	sec.States(&states)
	var out sectionArrays
	if f.NEID {
		out.ids = make([]byte, 2*world.SectionVolume)
		out.meta = make([]byte, 2*world.SectionVolume)
		for i, st := range states {
			binary.BigEndian.PutUint16(out.ids[2*i:], uint16(st.ID()))
			binary.BigEndian.PutUint16(out.meta[2*i:], uint16(st.Meta()))
		}
		return out, nil
	}
	out.ids = make([]byte, world.SectionVolume)
	out.meta = make([]byte, world.SectionVolume/2)
	var add []byte
	for i, st := range states {
		id, meta := st.ID(), st.Meta()
		if id > 0xFFF || meta > 0xF {
			return out, fmt.Errorf("block %d:%d does not fit the vanilla chunk format (ids up to 4095, metadata up to 15); list neid in the mods", id, meta)
		}
		out.ids[i] = byte(id)
		out.meta[i/2] |= byte(meta) << (4 * (i & 1))
		if id > 0xFF {
			if add == nil {
				add = make([]byte, world.SectionVolume/2)
			}
			add[i/2] |= byte(id>>8) << (4 * (i & 1))
		}
	}
	out.add = add
	return out, nil
}

// encodedColumn is one column's uncompressed chunk data and masks.
type encodedColumn struct {
	x, z          int32
	mask, addMask uint16
	data          []byte
}

// encodeColumn writes a ground-up column with sky light (the overworld).
func encodeColumn(col *world.Column, f proto17.Formats) (encodedColumn, error) {
	pos := col.Pos()
	out := encodedColumn{x: int32(pos.X), z: int32(pos.Z)}
	var secs []sectionArrays
	for cy := 0; cy < world.ColumnSections; cy++ {
		sec := col.Section(cy)
		if sec == nil {
			continue
		}
		a, err := encodeSection(sec, f)
		if err != nil {
			return out, fmt.Errorf("column %d,%d section %d: %w", pos.X, pos.Z, cy, err)
		}
		out.mask |= 1 << cy
		if a.add != nil {
			out.addMask |= 1 << cy
		}
		secs = append(secs, a)
	}
	var b []byte
	for _, s := range secs {
		b = append(b, s.ids...)
	}
	for _, s := range secs {
		b = append(b, s.meta...)
	}
	b = append(b, make([]byte, len(secs)*world.SectionVolume/2)...) // block light: dark
	for range secs {
		b = append(b, bytes.Repeat([]byte{0xFF}, world.SectionVolume/2)...) // sky light: full
	}
	for _, s := range secs {
		if s.add != nil {
			b = append(b, s.add...)
		}
	}
	b = append(b, bytes.Repeat([]byte{1}, 256)...) // biomes: plains
	out.data = b
	return out, nil
}

// deflate compresses chunk data as the server does (zlib).
func deflate(data []byte) []byte {
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	zw.Write(data) // writes to a bytes.Buffer do not fail
	zw.Close()
	return buf.Bytes()
}

// chunkPackets builds the packets that carry cols: Map Chunk Bulk packets of
// up to five columns, or one Chunk Data packet per column.
func chunkPackets(cols []*world.Column, f proto17.Formats, mode ChunkMode) ([]proto17.Packet, error) {
	enc := make([]encodedColumn, 0, len(cols))
	for _, c := range cols {
		e, err := encodeColumn(c, f)
		if err != nil {
			return nil, err
		}
		enc = append(enc, e)
	}
	var out []proto17.Packet
	if mode == ChunksSingle {
		for _, e := range enc {
			out = append(out, &proto17.ChunkData{X: e.x, Z: e.z, GroundUp: true, PrimaryMask: e.mask, AddMask: e.addMask, Data: deflate(e.data)})
		}
		return out, nil
	}
	const perBulk = 5 // what a 1.7.10 server puts in one bulk
	for len(enc) > 0 {
		n := min(perBulk, len(enc))
		p := &proto17.MapChunkBulk{SkyLight: true}
		var raw []byte
		for _, e := range enc[:n] {
			p.Columns = append(p.Columns, proto17.BulkColumn{X: e.x, Z: e.z, PrimaryMask: e.mask, AddMask: e.addMask})
			raw = append(raw, e.data...)
		}
		p.Data = deflate(raw)
		out = append(out, p)
		enc = enc[n:]
	}
	return out, nil
}
