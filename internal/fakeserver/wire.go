package fakeserver

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
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

// chunkPackets builds the packets that carry cols: Map Chunk Bulk packets of
// up to five columns, or one Chunk Data packet per column.
func chunkPackets(cols []*chunk.Column, f proto17.Formats, mode ChunkMode) ([]proto17.Packet, error) {
	enc := proto17.NewChunkEncoder(f)
	var out []proto17.Packet
	if mode == ChunksSingle {
		for _, c := range cols {
			p, err := enc.ChunkData(c, proto17.ColumnOptions{GroundUp: true, SkyLight: true})
			if err != nil {
				return nil, fmt.Errorf("column %v: %w", c.Pos(), err)
			}
			out = append(out, p)
		}
		return out, nil
	}
	const perBulk = 5 // what a 1.7.10 server puts in one bulk
	for len(cols) > 0 {
		n := min(perBulk, len(cols))
		p, err := enc.MapChunkBulk(cols[:n], true)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
		cols = cols[n:]
	}
	return out, nil
}
