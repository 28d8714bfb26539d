package proto17

import (
	"bytes"
	"compress/zlib"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// BiomePlains is the biome id the encoder writes when none is given.
const BiomePlains = 1

// ColumnOptions say how ChunkEncoder writes a column.
type ColumnOptions struct {
	// GroundUp sends a whole column (with biomes) that replaces the client's.
	GroundUp bool
	// Mask selects the sections to send. Zero means every non-empty section
	// for a ground-up column (a column with none then encodes as an unload,
	// as the vanilla server's does). Sections in Mask that are empty are sent
	// as air.
	Mask uint16
	// SkyLight writes sky-light arrays (overworld): 15 above the highest
	// non-air block of each x, z and 0 below. Block light is always 0.
	SkyLight bool
	// Biomes are the column's biome ids, indexed z*16+x; nil means plains.
	Biomes *[biomeBytes]byte
}

// ChunkEncoder builds chunk packets from world columns, in the vanilla or
// the NotEnoughIds format. Tests, benchmarks and the fake server use it.
// Not safe for concurrent use.
type ChunkEncoder struct {
	Formats Formats
	// Level is the zlib level; 0 means zlib.DefaultCompression.
	Level int

	zw     *zlib.Writer
	zlevel int
	out    bytes.Buffer
	raw    []byte
	states [chunk.ColumnSections][chunk.SectionVolume]chunk.StateID
}

// NewChunkEncoder returns an encoder for the given formats.
func NewChunkEncoder(f Formats) *ChunkEncoder { return &ChunkEncoder{Formats: f} }

// ChunkData encodes one column as a Chunk Data packet.
func (e *ChunkEncoder) ChunkData(col *chunk.Column, opt ColumnOptions) (*ChunkData, error) {
	mask := opt.Mask
	if mask == 0 && opt.GroundUp {
		mask = sectionMask(col)
	}
	var err error
	var add uint16
	e.raw, add, err = e.appendColumn(e.raw[:0], col, mask, opt.SkyLight, opt.GroundUp, opt.Biomes)
	if err != nil {
		return nil, err
	}
	data, err := e.compress(e.raw)
	if err != nil {
		return nil, err
	}
	pos := col.Pos()
	return &ChunkData{X: int32(pos.X), Z: int32(pos.Z), GroundUp: opt.GroundUp, PrimaryMask: mask, AddMask: add, Data: data}, nil
}

// Unload encodes the Chunk Data packet that unloads column (x, z): ground-up
// with no sections and plains biomes, as the vanilla server sends it.
func (e *ChunkEncoder) Unload(x, z int32) (*ChunkData, error) {
	col := chunk.NewColumn(int(x), int(z))
	return e.ChunkData(col, ColumnOptions{GroundUp: true})
}

// MapChunkBulk encodes columns (ground-up, every non-empty section) as one
// Map Chunk Bulk packet; skyLight as in ColumnOptions.
func (e *ChunkEncoder) MapChunkBulk(cols []*chunk.Column, skyLight bool) (*MapChunkBulk, error) {
	p := &MapChunkBulk{SkyLight: skyLight, Columns: make([]BulkColumn, 0, len(cols))}
	e.raw = e.raw[:0]
	for _, col := range cols {
		mask := sectionMask(col)
		var add uint16
		var err error
		e.raw, add, err = e.appendColumn(e.raw, col, mask, skyLight, true, nil)
		if err != nil {
			return nil, err
		}
		pos := col.Pos()
		p.Columns = append(p.Columns, BulkColumn{X: int32(pos.X), Z: int32(pos.Z), PrimaryMask: mask, AddMask: add})
	}
	data, err := e.compress(e.raw)
	if err != nil {
		return nil, err
	}
	p.Data = data
	return p, nil
}

// sectionMask is the mask of a column's non-empty sections.
func sectionMask(col *chunk.Column) uint16 {
	var m uint16
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		if s := col.Section(cy); s != nil && !s.IsEmpty() {
			m |= 1 << cy
		}
	}
	return m
}

func (e *ChunkEncoder) compress(raw []byte) ([]byte, error) {
	level := e.Level
	if level == 0 {
		level = zlib.DefaultCompression
	}
	e.out.Reset()
	if e.zw == nil || e.zlevel != level {
		zw, err := zlib.NewWriterLevel(&e.out, level)
		if err != nil {
			return nil, err
		}
		e.zw, e.zlevel = zw, level
	} else {
		e.zw.Reset(&e.out)
	}
	if _, err := e.zw.Write(raw); err != nil {
		return nil, err
	}
	if err := e.zw.Close(); err != nil {
		return nil, err
	}
	return bytes.Clone(e.out.Bytes()), nil
}

// appendColumn appends one column's uncompressed data and returns the add
// mask it used.
func (e *ChunkEncoder) appendColumn(dst []byte, col *chunk.Column, mask uint16, sky, groundUp bool, biomes *[biomeBytes]byte) ([]byte, uint16, error) {
	// Load the states of the sent sections and find the add mask (vanilla
	// ids above 255) and the column heights for sky light.
	var add uint16
	var heights [256]int
	for i := range heights {
		heights[i] = -1
	}
	for cy := chunk.ColumnSections - 1; cy >= 0; cy-- {
		s := col.Section(cy)
		st := &e.states[cy]
		if s == nil {
			if mask&(1<<cy) != 0 {
				*st = [chunk.SectionVolume]chunk.StateID{}
			}
			continue
		}
		s.States(st)
		for xz := 0; xz < 256; xz++ {
			if heights[xz] >= 0 {
				continue
			}
			for y := 15; y >= 0; y-- {
				if !st[y<<8|xz].IsAir() {
					heights[xz] = cy*16 + y
					break
				}
			}
		}
		if mask&(1<<cy) == 0 {
			continue
		}
		for i, v := range st {
			id, meta := v.ID(), v.Meta()
			if !e.Formats.NEID && (id > 0xFFF || meta > 0xF) {
				return dst, 0, encodeErr("ChunkData", "section "+itoa(cy), tooLargef("index %d: id %d meta %d need NotEnoughIds", i, id, meta))
			}
			if !e.Formats.NEID && id > 0xFF {
				add |= 1 << cy
			}
		}
	}
	l := columnLayout(e.Formats, mask, add, sky, groundUp)
	base := len(dst)
	dst = slices.Grow(dst, l.size)[:base+l.size]
	out := dst[base:]
	clear(out)
	k, a := 0, 0
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		if mask&(1<<cy) == 0 {
			continue
		}
		st := &e.states[cy]
		if e.Formats.NEID {
			ids := out[l.ids+k*neidIDBytes:]
			meta := out[l.meta+k*neidMetaBytes:]
			for i, v := range st {
				id, m := v.ID(), v.Meta()
				ids[2*i], ids[2*i+1] = byte(id>>8), byte(id)
				meta[2*i], meta[2*i+1] = byte(m>>8), byte(m)
			}
		} else {
			ids := out[l.ids+k*vanillaIDBytes:]
			meta := out[l.meta+k*vanillaMetaBytes:]
			var addArr []byte
			if add&(1<<cy) != 0 {
				addArr = out[l.add+a*nibbleBytes:]
				a++
			}
			for i, v := range st {
				id, m := v.ID(), v.Meta()
				ids[i] = byte(id)
				meta[i>>1] |= byte(m) << (uint(i&1) * 4)
				if addArr != nil {
					addArr[i>>1] |= byte(id>>8) << (uint(i&1) * 4)
				}
			}
		}
		if sky {
			skyArr := out[l.sky+k*nibbleBytes:]
			for i := 0; i < chunk.SectionVolume; i++ {
				if cy*16+i>>8 > heights[i&0xFF] {
					skyArr[i>>1] |= 15 << (uint(i&1) * 4)
				}
			}
		}
		k++
	}
	if groundUp {
		bio := out[l.bio : l.bio+biomeBytes]
		if biomes != nil {
			copy(bio, biomes[:])
		} else {
			for i := range bio {
				bio[i] = BiomePlains
			}
		}
	}
	return dst, add, nil
}
