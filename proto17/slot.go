package proto17

import (
	"bytes"
	"math"
	"strconv"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Slot is an item stack as the wire carries it: i16 item id (negative for
// an empty slot), i8 count (a VarInt with Formats.ModularUI2), i16 damage,
// i16 NBT length (negative for none) and that many bytes of gzipped NBT;
// with Formats.ModularUI a VarInt with the real stack size follows every
// non-empty stack and replaces the first count.
//
// The zero value is an empty slot: item id 0 is air, which has no item, so
// a stack with id 0 is rejected on both decode and encode.
type Slot struct {
	ID     int16  // numeric item id; 0 or negative means empty
	Count  int32  // stack size (the last count on the wire)
	Damage int16  // damage or metadata variant
	NBT    []byte // gzipped NBT as sent; nil when the stack has none
}

// Empty reports whether the slot holds nothing.
func (s Slot) Empty() bool { return s.ID <= 0 }

// Tag decodes the stack's NBT (nil when it has none).
func (s Slot) Tag() (*NBT, error) {
	if s.NBT == nil {
		return nil, nil
	}
	return DecodeGzipNBT(s.NBT)
}

// ItemStack converts the slot into the world's item stack, naming the item
// through ids (the server's registry). An id the map does not know becomes
// "unknown:<id>" and ok is false. The damage field becomes Meta; a body that
// knows which items are damageable moves it into Damage.
func (s Slot) ItemStack(ids *rules.IDMap) (st world.ItemStack, ok bool) {
	if s.Empty() {
		return world.ItemStack{}, true
	}
	name, ok := ids.ItemName(int(s.ID))
	if !ok {
		name = "unknown:" + strconv.Itoa(int(s.ID))
	}
	return world.NewStack(name, int(s.Damage), int(s.Count)), ok
}

// slot reads one item stack; field names the stack in errors.
func (r *reader) slot(field string, f Formats) Slot {
	r.push(field, -1)
	defer r.pop()
	start := r.off
	id := r.i16("id")
	if !r.ok() || id < 0 {
		return Slot{}
	}
	if id == 0 {
		r.failAt("id", start, invalidf("item id 0 (air has no item)"))
		return Slot{}
	}
	s := Slot{ID: id}
	if f.ModularUI2 {
		s.Count = r.varint("count")
	} else {
		s.Count = int32(r.i8("count"))
	}
	s.Damage = r.i16("damage")
	n := r.i16("nbt")
	if n >= 0 {
		s.NBT = bytes.Clone(r.bytes("nbt", int(n)))
		if s.NBT == nil && r.ok() {
			s.NBT = []byte{}
		}
	}
	if f.ModularUI {
		s.Count = r.varint("modularui count")
	}
	return s
}

// appendSlot writes one item stack.
func appendSlot(b []byte, s Slot, f Formats, packet, field string) ([]byte, error) {
	if s.Empty() {
		return appendI16(b, -1), nil
	}
	if !f.ModularUI && !f.ModularUI2 && (s.Count < math.MinInt8 || s.Count > math.MaxInt8) {
		return b, encodeErr(packet, field+".count", tooLargef("count %d needs ModularUI's VarInt count", s.Count))
	}
	if len(s.NBT) > math.MaxInt16 {
		return b, encodeErr(packet, field+".nbt", tooLargef("%d bytes of NBT, at most %d", len(s.NBT), math.MaxInt16))
	}
	b = appendI16(b, s.ID)
	if f.ModularUI2 {
		b = AppendVarInt(b, s.Count)
	} else {
		// With ModularUI alone the byte is the count cast to a byte, as
		// Java writes it; the VarInt after the NBT carries the real value.
		b = append(b, byte(s.Count))
	}
	b = appendI16(b, s.Damage)
	if s.NBT == nil {
		b = appendI16(b, -1)
	} else {
		b = appendI16(b, int16(len(s.NBT)))
		b = append(b, s.NBT...)
	}
	if f.ModularUI {
		b = AppendVarInt(b, s.Count)
	}
	return b, nil
}

// DecodeSlot decodes one item stack that fills data exactly (a fuzzing and
// test entry point; packets decode their slots in place).
func DecodeSlot(data []byte, f Formats) (Slot, error) {
	r := newReader("Slot", data)
	s := r.slot("slot", f)
	if err := r.finish(); err != nil {
		return Slot{}, err
	}
	return s, nil
}

// AppendSlot appends one item stack.
func AppendSlot(b []byte, s Slot, f Formats) ([]byte, error) {
	return appendSlot(b, s, f, "Slot", "slot")
}
