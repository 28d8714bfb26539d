package proto17

// MaxVarShort is the largest length Forge's varshort can carry: 15 bits in
// the short plus 8 more in the extra byte.
const MaxVarShort = 1<<23 - 1

// AppendVarShort appends v in Forge's varshort encoding (FML ByteBufUtils
// writeVarShort, used for clientbound plugin-message lengths): an unsigned
// short holding the low 15 bits, with bit 15 set when a following byte
// carries bits 15..22.
func AppendVarShort(b []byte, v int) ([]byte, error) {
	if v < 0 || v > MaxVarShort {
		return b, encodeErr("varshort", "value", tooLargef("%d outside 0..%d", v, MaxVarShort))
	}
	low := v & 0x7FFF
	high := v >> 15
	if high != 0 {
		low |= 0x8000
	}
	b = appendU16(b, uint16(low))
	if high != 0 {
		b = append(b, byte(high))
	}
	return b, nil
}

// ReadVarShort decodes a varshort from the start of b and returns the value
// and the number of bytes it took (2 or 3).
func ReadVarShort(b []byte) (v, n int, err error) {
	r := newReader("varshort", b)
	v = r.varshort("value")
	if !r.ok() {
		return 0, 0, r.err
	}
	return v, r.off, nil
}

func (r *reader) varshort(field string) int {
	start := r.off
	low := int(r.u16(field))
	if low&0x8000 == 0 || !r.ok() {
		return low
	}
	high := int(r.u8(field))
	if !r.ok() {
		r.err.Offset = start
		return 0
	}
	return high<<15 | low&0x7FFF
}
