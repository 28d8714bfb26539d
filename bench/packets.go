package bench

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zlib"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Columns cuts the benchmark world into its 16×16 columns, chunk (cx, cz)
// holding blocks cx*16.. and cz*16.., in row order (z outer).
func Columns(w *benchworld.World) []*chunk.Column {
	var out []*chunk.Column
	var st [chunk.SectionVolume]chunk.StateID
	for cz := 0; cz < benchworld.SZ/16; cz++ {
		for cx := 0; cx < benchworld.SX/16; cx++ {
			col := chunk.NewColumn(cx, cz)
			for cy := 0; cy < chunk.ColumnSections; cy++ {
				any := false
				for y := 0; y < 16; y++ {
					for z := 0; z < 16; z++ {
						row := benchworld.Index(cx*16, cy*16+y, cz*16+z)
						for x := 0; x < 16; x++ {
							v := chunk.LegacyState(w.W[row+x])
							st[chunk.SectionIndex(x, y, z)] = v
							any = any || v != chunk.AirState
						}
					}
				}
				if any {
					col.SetSection(cy, chunk.NewSection(&st))
				}
			}
			out = append(out, col)
		}
	}
	return out
}

// Packets encodes columns as vanilla 1.7.10 Chunk Data payloads, ground-up
// with sky light, as a server sends them.
func Packets(cols []*chunk.Column) ([]*proto17.ChunkData, error) {
	enc := proto17.NewChunkEncoder(proto17.Formats{})
	out := make([]*proto17.ChunkData, 0, len(cols))
	for _, c := range cols {
		p, err := enc.ChunkData(c, proto17.ColumnOptions{GroundUp: true, SkyLight: true})
		if err != nil {
			return nil, fmt.Errorf("encoding column %v: %w", c.Pos(), err)
		}
		out = append(out, p)
	}
	return out, nil
}

// WritePackets writes packets in the file format bench/js/worker.js reads:
// "GBW1", a uint32 count, then per column int32 x, int32 z, uint16 primary
// mask, uint16 add mask, uint32 length and the zlib data, little-endian.
func WritePackets(wr io.Writer, packets []*proto17.ChunkData) error {
	bw := bufio.NewWriter(wr)
	bw.WriteString("GBW1")
	var h [16]byte
	binary.LittleEndian.PutUint32(h[:4], uint32(len(packets)))
	bw.Write(h[:4])
	for _, p := range packets {
		binary.LittleEndian.PutUint32(h[0:], uint32(p.X))
		binary.LittleEndian.PutUint32(h[4:], uint32(p.Z))
		binary.LittleEndian.PutUint16(h[8:], p.PrimaryMask)
		binary.LittleEndian.PutUint16(h[10:], p.AddMask)
		binary.LittleEndian.PutUint32(h[12:], uint32(len(p.Data)))
		bw.Write(h[:])
		bw.Write(p.Data)
	}
	return bw.Flush()
}

// WritePacketFile writes packets to a new file at name.
func WritePacketFile(name string, packets []*proto17.ChunkData) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := WritePackets(f, packets); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return f.Close()
}

// Decode decodes packets into a chunk store, as the client does.
func Decode(d *proto17.ChunkDecoder, packets []*proto17.ChunkData, store *chunk.ChunkStore) error {
	for _, p := range packets {
		c, err := d.ChunkData(p, true)
		if err != nil {
			return fmt.Errorf("decoding column %d,%d: %w", p.X, p.Z, err)
		}
		if store != nil {
			store.LoadColumn(c.Column)
		}
	}
	return nil
}

// Inflater inflates payloads into a reused buffer and keeps nothing: the
// floor any decoder of these packets pays.
type Inflater struct {
	src bytes.Reader
	zr  io.ReadCloser
	buf []byte
}

// Inflate inflates one payload and returns the inflated size.
func (f *Inflater) Inflate(data []byte) (int, error) {
	f.src.Reset(data)
	var err error
	if f.zr == nil {
		f.zr, err = zlib.NewReader(&f.src)
	} else {
		err = f.zr.(zlib.Resetter).Reset(&f.src, nil)
	}
	if err != nil {
		return 0, err
	}
	if f.buf == nil {
		f.buf = make([]byte, 256<<10)
	}
	n := 0
	for {
		m, err := f.zr.Read(f.buf)
		n += m
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
