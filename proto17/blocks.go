package proto17

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// BlockChange (0x23) changes one block. The id is a VarInt in both formats;
// the metadata is a u8 in vanilla and a u16 with NotEnoughIds.
type BlockChange struct {
	X       int32
	Y       uint8
	Z       int32
	BlockID int32 // 0..65535
	Meta    uint16
}

// State is the block's new state.
func (p *BlockChange) State() chunk.StateID { return chunk.MakeState(int(p.BlockID), int(p.Meta)) }

// PacketID implements Packet.
func (*BlockChange) PacketID() int32 { return IDClientboundBlockChange }

// PacketName implements Packet.
func (*BlockChange) PacketName() string { return "BlockChange" }

// AppendPayload implements Packet.
func (p *BlockChange) AppendPayload(b []byte, f Formats) ([]byte, error) {
	if p.BlockID < 0 || p.BlockID > rules.MaxNumericID {
		return b, encodeErr(p.PacketName(), "block id", invalidf("%d outside 0..%d", p.BlockID, rules.MaxNumericID))
	}
	if !f.NEID && p.Meta > math.MaxUint8 {
		return b, encodeErr(p.PacketName(), "meta", tooLargef("%d needs NotEnoughIds", p.Meta))
	}
	b = appendI32(b, p.X)
	b = appendI32(append(b, p.Y), p.Z)
	b = AppendVarInt(b, p.BlockID)
	if f.NEID {
		return appendU16(b, p.Meta), nil
	}
	return append(b, byte(p.Meta)), nil
}

// DecodePayload implements Packet.
func (p *BlockChange) DecodePayload(data []byte, f Formats) error {
	r := newReader(p.PacketName(), data)
	p.X = r.i32("x")
	p.Y = r.u8("y")
	p.Z = r.i32("z")
	start := r.off
	p.BlockID = r.varint("block id")
	if r.ok() && (p.BlockID < 0 || p.BlockID > rules.MaxNumericID) {
		r.failAt("block id", start, invalidf("%d outside 0..%d", p.BlockID, rules.MaxNumericID))
	}
	if f.NEID {
		p.Meta = r.u16("meta")
	} else {
		p.Meta = uint16(r.u8("meta"))
	}
	return r.finish()
}

// BlockRecord is one change of a Multi Block Change, in coordinates local to
// the chunk (X, Z 0..15, Y 0..255).
type BlockRecord struct {
	X, Y, Z uint8
	BlockID uint16
	Meta    uint16
}

// State is the block's new state.
func (r BlockRecord) State() chunk.StateID { return chunk.MakeState(int(r.BlockID), int(r.Meta)) }

// MultiBlockChange (0x22) changes several blocks of one chunk column. A
// vanilla record is 4 bytes: u16 x<<12|z<<8|y, then u16 id<<4|meta. A
// NotEnoughIds record is 6 bytes: the same position, then u16 id and u16
// meta.
type MultiBlockChange struct {
	ChunkX, ChunkZ int32
	Records        []BlockRecord
}

// PacketID implements Packet.
func (*MultiBlockChange) PacketID() int32 { return IDClientboundMultiBlockChange }

// PacketName implements Packet.
func (*MultiBlockChange) PacketName() string { return "MultiBlockChange" }

func recordSize(f Formats) int {
	if f.NEID {
		return 6
	}
	return 4
}

// AppendPayload implements Packet.
func (p *MultiBlockChange) AppendPayload(b []byte, f Formats) ([]byte, error) {
	if len(p.Records) > math.MaxUint16 {
		return b, encodeErr(p.PacketName(), "count", tooLargef("%d records", len(p.Records)))
	}
	b = appendI32(appendI32(b, p.ChunkX), p.ChunkZ)
	b = appendU16(b, uint16(len(p.Records)))
	b = appendI32(b, int32(len(p.Records)*recordSize(f)))
	for i, rec := range p.Records {
		if rec.X > 15 || rec.Z > 15 {
			return b, encodeErr(p.PacketName(), "records["+itoa(i)+"]", invalidf("local x %d z %d outside 0..15", rec.X, rec.Z))
		}
		b = appendU16(b, uint16(rec.X)<<12|uint16(rec.Z)<<8|uint16(rec.Y))
		if f.NEID {
			b = appendU16(appendU16(b, rec.BlockID), rec.Meta)
			continue
		}
		if rec.BlockID > 0xFFF || rec.Meta > 0xF {
			return b, encodeErr(p.PacketName(), "records["+itoa(i)+"]", tooLargef("id %d meta %d need NotEnoughIds", rec.BlockID, rec.Meta))
		}
		b = appendU16(b, rec.BlockID<<4|rec.Meta)
	}
	return b, nil
}

// DecodePayload implements Packet.
func (p *MultiBlockChange) DecodePayload(data []byte, f Formats) error {
	r := newReader(p.PacketName(), data)
	p.ChunkX = r.i32("chunk x")
	p.ChunkZ = r.i32("chunk z")
	n := int(r.u16("count"))
	size := r.i32("data length")
	if r.ok() && int64(size) != int64(n)*int64(recordSize(f)) {
		r.failAt("data length", 10, invalidf("%d bytes for %d records of %d bytes (wrong NEID setting?)", size, n, recordSize(f)))
	}
	p.Records = nil
	if r.ok() && n > 0 {
		p.Records = make([]BlockRecord, 0, min(n, r.remaining()/recordSize(f)))
	}
	for i := 0; i < n && r.ok(); i++ {
		r.push("records", i)
		pos := r.u16("position")
		rec := BlockRecord{X: uint8(pos >> 12), Z: uint8(pos >> 8 & 15), Y: uint8(pos)}
		if f.NEID {
			rec.BlockID = r.u16("block id")
			rec.Meta = r.u16("meta")
		} else {
			v := r.u16("block")
			rec.BlockID, rec.Meta = v>>4, v&15
		}
		r.pop()
		p.Records = append(p.Records, rec)
	}
	return r.finish()
}
