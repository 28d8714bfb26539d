package proto17

import (
	"math"
)

// MetadataType is the value type of an entity metadata entry (the top three
// bits of its header byte).
type MetadataType uint8

// Entity metadata value types of 1.7.10 (DataWatcher).
const (
	MetaByte   MetadataType = 0 // i8, in Int
	MetaShort  MetadataType = 1 // i16, in Int
	MetaInt    MetadataType = 2 // i32, in Int
	MetaFloat  MetadataType = 3 // f32, in Float
	MetaString MetadataType = 4 // string, in String
	MetaSlot   MetadataType = 5 // item stack, in Slot
	MetaCoords MetadataType = 6 // three i32 (ChunkCoordinates), in Coords
)

// MetaKeyItem is the metadata key of a dropped item's stack (object type
// ObjectItem).
const MetaKeyItem = 10

// metaEnd ends a metadata list.
const metaEnd = 0x7F

// MetadataEntry is one entity metadata entry. Only the field of its Type is
// meaningful.
type MetadataEntry struct {
	Key    uint8 // 0..31
	Type   MetadataType
	Int    int32
	Float  float32
	String string
	Slot   Slot
	Coords [3]int32
}

// Metadata is an entity metadata list, in wire order.
//
// NotEnoughIds has an option (ExtendDataWatcher, off by default and so off on
// GTNH) that widens the header to a short; this package implements the
// default byte header only.
type Metadata []MetadataEntry

// Get returns the entry with the given key.
func (m Metadata) Get(key uint8) (MetadataEntry, bool) {
	for _, e := range m {
		if e.Key == key {
			return e, true
		}
	}
	return MetadataEntry{}, false
}

// Item returns the item stack of a dropped item (key MetaKeyItem).
func (m Metadata) Item() (Slot, bool) {
	e, ok := m.Get(MetaKeyItem)
	if !ok || e.Type != MetaSlot {
		return Slot{}, false
	}
	return e.Slot, true
}

// metadata reads a metadata list up to and including its end marker.
func (r *reader) metadata(f Formats) Metadata {
	var m Metadata
	for i := 0; r.ok(); i++ {
		start := r.off
		r.push("metadata", i)
		h := r.u8("header")
		if !r.ok() || h == metaEnd {
			r.pop()
			break
		}
		e := MetadataEntry{Key: h & 0x1F, Type: MetadataType(h >> 5)}
		switch e.Type {
		case MetaByte:
			e.Int = int32(r.i8("byte"))
		case MetaShort:
			e.Int = int32(r.i16("short"))
		case MetaInt:
			e.Int = r.i32("int")
		case MetaFloat:
			e.Float = r.f32("float")
		case MetaString:
			e.String = r.str("string", maxChatLen)
		case MetaSlot:
			e.Slot = r.slot("slot", f)
		case MetaCoords:
			e.Coords[0] = r.i32("x")
			e.Coords[1] = r.i32("y")
			e.Coords[2] = r.i32("z")
		default:
			r.failAt("type", start, invalidf("metadata type %d", e.Type))
		}
		r.pop()
		m = append(m, e)
	}
	return m
}

// appendMetadata writes a metadata list and its end marker.
func appendMetadata(b []byte, m Metadata, f Formats, packet string) ([]byte, error) {
	var err error
	for _, e := range m {
		if e.Key > 0x1F || e.Type > MetaCoords {
			return b, encodeErr(packet, "metadata", invalidf("key %d type %d", e.Key, e.Type))
		}
		h := byte(e.Type)<<5 | e.Key
		if h == metaEnd {
			return b, encodeErr(packet, "metadata", invalidf("key 31 of type float is the end marker"))
		}
		b = append(b, h)
		switch e.Type {
		case MetaByte:
			if e.Int < math.MinInt8 || e.Int > math.MaxInt8 {
				return b, encodeErr(packet, "metadata.byte", tooLargef("%d", e.Int))
			}
			b = append(b, byte(e.Int))
		case MetaShort:
			if e.Int < math.MinInt16 || e.Int > math.MaxInt16 {
				return b, encodeErr(packet, "metadata.short", tooLargef("%d", e.Int))
			}
			b = appendI16(b, int16(e.Int))
		case MetaInt:
			b = appendI32(b, e.Int)
		case MetaFloat:
			b = appendF32(b, e.Float)
		case MetaString:
			b, err = appendStr(b, packet, "metadata.string", e.String, maxChatLen)
		case MetaSlot:
			b, err = appendSlot(b, e.Slot, f, packet, "metadata.slot")
		case MetaCoords:
			b = appendI32(b, e.Coords[0])
			b = appendI32(b, e.Coords[1])
			b = appendI32(b, e.Coords[2])
		}
		if err != nil {
			return b, err
		}
	}
	return append(b, metaEnd), nil
}

// DecodeMetadata decodes a metadata list that fills data exactly (a fuzzing
// and test entry point; packets decode their metadata in place).
func DecodeMetadata(data []byte, f Formats) (Metadata, error) {
	r := newReader("Metadata", data)
	m := r.metadata(f)
	if err := r.finish(); err != nil {
		return nil, err
	}
	return m, nil
}

// AppendMetadata appends a metadata list with its end marker.
func AppendMetadata(b []byte, m Metadata, f Formats) ([]byte, error) {
	return appendMetadata(b, m, f, "Metadata")
}
