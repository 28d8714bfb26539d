package proto17

// FieldReader decodes big-endian fields from one payload for decoders
// outside this package (mod messages, see gtnh/modnet), with the bounds,
// errors and offsets of this package's own decoders. The first failure
// sticks: later reads return zero values, so a decoder reads every field and
// checks once with Finish. Byte slices it returns alias the payload.
//
// It wraps the reader the packet decoders use, so those stay as they are.
type FieldReader struct{ r reader }

// NewFieldReader reads b; packet names it in errors (Error.Packet).
func NewFieldReader(packet string, b []byte) *FieldReader {
	return &FieldReader{r: newReader(packet, b)}
}

// U8 reads an unsigned byte.
func (f *FieldReader) U8(field string) uint8 { return f.r.u8(field) }

// I8 reads a signed byte.
func (f *FieldReader) I8(field string) int8 { return f.r.i8(field) }

// Bool reads a Java boolean as DataInputStream.readBoolean does: any
// non-zero byte is true.
func (f *FieldReader) Bool(field string) bool { return f.r.bool(field) }

// U16 reads an unsigned short.
func (f *FieldReader) U16(field string) uint16 { return f.r.u16(field) }

// I16 reads a short.
func (f *FieldReader) I16(field string) int16 { return f.r.i16(field) }

// I32 reads an int.
func (f *FieldReader) I32(field string) int32 { return f.r.i32(field) }

// I64 reads a long.
func (f *FieldReader) I64(field string) int64 { return f.r.i64(field) }

// VarInt reads a protocol VarInt (at most 5 bytes).
func (f *FieldReader) VarInt(field string) int32 { return f.r.varint(field) }

// Bytes reads the next n bytes; a negative n or one beyond the payload is
// ErrTruncated.
func (f *FieldReader) Bytes(field string, n int) []byte { return f.r.bytes(field, n) }

// Rest reads every unread byte.
func (f *FieldReader) Rest() []byte { return f.r.rest() }

// FMLString reads a string as FML's ByteBufUtils.readUTF8String does: a
// VarInt length of at most two bytes (so at most 16383 bytes), then the
// bytes. It does not check that they are UTF-8.
func (f *FieldReader) FMLString(field string) string { return f.r.fmlStr(field) }

// Offset is the offset of the next unread byte; a check on a field read
// later names it with the offset taken before the read.
func (f *FieldReader) Offset() int { return f.r.off }

// Remaining is the number of unread bytes.
func (f *FieldReader) Remaining() int { return f.r.remaining() }

// Fail records cause as the failure of field at offset off (-1: no offset),
// unless an earlier one was recorded.
func (f *FieldReader) Fail(field string, off int, cause error) { f.r.failAt(field, off, cause) }

// Failf records an ErrInvalid failure of field at offset off with the
// formatted detail, unless an earlier one was recorded.
func (f *FieldReader) Failf(field string, off int, format string, args ...any) {
	f.r.failAt(field, off, invalidf(format, args...))
}

// Err is the first failure (an *Error), or nil.
func (f *FieldReader) Err() error {
	if f.r.err == nil {
		return nil
	}
	return f.r.err
}

// Finish returns the first failure or, if every read succeeded, an
// ErrTrailing failure of field "end" when bytes are left unread.
func (f *FieldReader) Finish() error { return f.r.finish() }

// Invalidf builds an ErrInvalid cause with detail.
func Invalidf(format string, args ...any) error { return invalidf(format, args...) }

// TooLargef builds an ErrTooLarge cause with detail, for Fail.
func TooLargef(format string, args ...any) error { return tooLargef(format, args...) }

// TrailingBytes is an ErrTrailing cause for n bytes left over, for Fail.
func TrailingBytes(n int) error { return &trailingErr{n: n} }

// Slot reads one item stack in the given wire formats (a mod message that
// carries a stack written with ByteBufUtils.writeItemStack).
func (f *FieldReader) Slot(field string, fm Formats) Slot { return f.r.slot(field, fm) }
