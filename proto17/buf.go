package proto17

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// String limits the 1.7.10 client and server enforce (in UTF-16 units, as
// Java counts them; the byte length may be at most four times that).
const (
	maxChatLen      = 32767 // chat JSON, disconnect reasons, status JSON
	maxChannelLen   = 20    // plugin channel names
	maxLevelTypeLen = 16
	maxUUIDLen      = 36
	maxNameLen      = 16
	maxHostLen      = 255
	maxTitleLen     = 32
	maxServerChat   = 100 // serverbound chat
	maxLocaleLen    = 7
	maxServerIDLen  = 20
)

// pathElem is one level of the field path a reader reports in errors.
type pathElem struct {
	name string
	idx  int // -1: no index
}

// reader decodes big-endian fields from a payload. The first failure sticks:
// later reads return zero values, so decoders read every field and check
// once at the end. Byte slices it returns alias the payload.
type reader struct {
	b      []byte
	off    int
	packet string
	err    *Error
	path   [4]pathElem // nested fields, outermost first
	depth  int         // nesting depth; levels beyond len(path) are not named
	// budget, when positive, bounds the estimated heap a decoder builds
	// (see charge); spent is what it has taken so far.
	budget, spent int
}

func newReader(packet string, b []byte) reader { return reader{b: b, packet: packet} }

// push enters a nested field (an array element or a sub-structure).
func (r *reader) push(name string, idx int) {
	if r.depth < len(r.path) {
		r.path[r.depth] = pathElem{name, idx}
	}
	r.depth++
}

// pop leaves the innermost nested field.
func (r *reader) pop() { r.depth-- }

func (r *reader) fieldPath(field string) string {
	if r.depth == 0 {
		return field
	}
	var sb strings.Builder
	for _, p := range r.path[:min(r.depth, len(r.path))] {
		sb.WriteString(p.name)
		if p.idx >= 0 {
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(p.idx))
			sb.WriteByte(']')
		}
		sb.WriteByte('.')
	}
	sb.WriteString(field)
	return sb.String()
}

// failAt records the first failure, at offset off.
func (r *reader) failAt(field string, off int, cause error) {
	if r.err == nil {
		r.err = &Error{Packet: r.packet, Field: r.fieldPath(field), Offset: off, Err: cause}
	}
}

// fail records the first failure at the current offset.
func (r *reader) fail(field string, cause error) { r.failAt(field, r.off, cause) }

// ok reports whether no read has failed.
func (r *reader) ok() bool { return r.err == nil }

// remaining is the number of unread bytes.
func (r *reader) remaining() int { return len(r.b) - r.off }

func (r *reader) need(field string, n int) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || len(r.b)-r.off < n {
		r.fail(field, ErrTruncated)
		return false
	}
	return true
}

func (r *reader) u8(field string) uint8 {
	if !r.need(field, 1) {
		return 0
	}
	v := r.b[r.off]
	r.off++
	return v
}

func (r *reader) i8(field string) int8 { return int8(r.u8(field)) }

// bool reads a Java boolean: any non-zero byte is true.
func (r *reader) bool(field string) bool { return r.u8(field) != 0 }

func (r *reader) u16(field string) uint16 {
	if !r.need(field, 2) {
		return 0
	}
	v := binary.BigEndian.Uint16(r.b[r.off:])
	r.off += 2
	return v
}

func (r *reader) i16(field string) int16 { return int16(r.u16(field)) }

func (r *reader) i32(field string) int32 {
	if !r.need(field, 4) {
		return 0
	}
	v := binary.BigEndian.Uint32(r.b[r.off:])
	r.off += 4
	return int32(v)
}

func (r *reader) i64(field string) int64 {
	if !r.need(field, 8) {
		return 0
	}
	v := binary.BigEndian.Uint64(r.b[r.off:])
	r.off += 8
	return int64(v)
}

func (r *reader) f32(field string) float32 { return math.Float32frombits(uint32(r.i32(field))) }

func (r *reader) f64(field string) float64 { return math.Float64frombits(uint64(r.i64(field))) }

// varint reads a VarInt of at most maxBytes bytes (5 for a full int32; FML
// uses narrower ones).
func (r *reader) varintN(field string, maxBytes int) int32 {
	if r.err != nil {
		return 0
	}
	start := r.off
	var v uint32
	for i := 0; ; i++ {
		if i == maxBytes {
			r.failAt(field, start, invalidf("VarInt longer than %d bytes", maxBytes))
			return 0
		}
		if r.off >= len(r.b) {
			r.failAt(field, start, ErrTruncated)
			return 0
		}
		c := r.b[r.off]
		r.off++
		v |= uint32(c&0x7F) << (7 * i)
		if c&0x80 == 0 {
			return int32(v)
		}
	}
}

func (r *reader) varint(field string) int32 { return r.varintN(field, 5) }

// bytes returns the next n bytes (aliasing the payload).
func (r *reader) bytes(field string, n int) []byte {
	if !r.need(field, n) {
		return nil
	}
	v := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return v
}

// rest returns every unread byte.
func (r *reader) rest() []byte {
	if r.err != nil {
		return nil
	}
	v := r.b[r.off:len(r.b):len(r.b)]
	r.off = len(r.b)
	return v
}

// str reads a VarInt-prefixed UTF-8 string of at most max UTF-16 units, with
// the checks of Minecraft's readStringFromBuffer.
func (r *reader) str(field string, max int) string {
	if r.err != nil {
		return ""
	}
	start := r.off
	n := r.varint(field)
	if r.err != nil {
		return ""
	}
	if n < 0 {
		r.failAt(field, start, invalidf("negative string length %d", n))
		return ""
	}
	if int64(n) > int64(max)*4 {
		r.failAt(field, start, tooLargef("string of %d bytes, at most %d allowed", n, max*4))
		return ""
	}
	b := r.bytes(field, int(n))
	if r.err != nil {
		return ""
	}
	if utf16Len(b) > max {
		r.failAt(field, start, tooLargef("string longer than %d characters", max))
		return ""
	}
	return string(b)
}

// fmlStr reads a string as FML's ByteBufUtils.readUTF8String does: a VarInt
// length of at most two bytes, then UTF-8.
func (r *reader) fmlStr(field string) string {
	start := r.off
	n := r.varintN(field, 2)
	if r.err != nil {
		return ""
	}
	if n < 0 {
		r.failAt(field, start, invalidf("negative string length %d", n))
		return ""
	}
	return string(r.bytes(field, int(n)))
}

// finish reports the first failure, or trailing bytes.
func (r *reader) finish() error {
	if r.err != nil {
		return r.err
	}
	if r.off != len(r.b) {
		r.depth = 0
		r.fail("end", &trailingErr{n: len(r.b) - r.off})
		return r.err
	}
	return nil
}

// trailingErr is ErrTrailing with the byte count.
type trailingErr struct{ n int }

func (e *trailingErr) Error() string        { return strconv.Itoa(e.n) + " trailing bytes" }
func (e *trailingErr) Is(target error) bool { return target == ErrTrailing }

// utf16Len is the length of UTF-8 bytes in UTF-16 units, counting an invalid
// byte as one unit (Java decodes it to U+FFFD).
func utf16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		ru, size := utf8.DecodeRune(b[i:])
		if ru >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}

// Appenders. They never fail; encoders check ranges before calling them.

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendI16(b []byte, v int16) []byte  { return binary.BigEndian.AppendUint16(b, uint16(v)) }
func appendU16(b []byte, v uint16) []byte { return binary.BigEndian.AppendUint16(b, v) }
func appendI32(b []byte, v int32) []byte  { return binary.BigEndian.AppendUint32(b, uint32(v)) }
func appendI64(b []byte, v int64) []byte  { return binary.BigEndian.AppendUint64(b, uint64(v)) }
func appendF32(b []byte, v float32) []byte {
	return binary.BigEndian.AppendUint32(b, math.Float32bits(v))
}
func appendF64(b []byte, v float64) []byte {
	return binary.BigEndian.AppendUint64(b, math.Float64bits(v))
}

// AppendVarInt appends v as a protocol VarInt (negative values take 5 bytes).
func AppendVarInt(b []byte, v int32) []byte {
	u := uint32(v)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

// varIntLen is the encoded length of v.
func varIntLen(v int32) int {
	u := uint32(v)
	n := 1
	for u >= 0x80 {
		u >>= 7
		n++
	}
	return n
}

// appendStr appends a VarInt-prefixed string after checking the limit.
func appendStr(b []byte, packet, field, s string, max int) ([]byte, error) {
	if len(s) > max*4 || utf16Len([]byte(s)) > max {
		return b, encodeErr(packet, field, tooLargef("string longer than %d characters", max))
	}
	b = AppendVarInt(b, int32(len(s)))
	return append(b, s...), nil
}

// appendFMLStr appends a string the way FML's writeUTF8String does.
func appendFMLStr(b []byte, packet, field, s string) ([]byte, error) {
	if len(s) >= 1<<14 {
		return b, encodeErr(packet, field, tooLargef("string of %d bytes, FML allows at most %d", len(s), 1<<14-1))
	}
	b = AppendVarInt(b, int32(len(s)))
	return append(b, s...), nil
}

func itoa(i int) string { return strconv.Itoa(i) }

// checkCount validates an element count read at offset start against the
// bytes left, given the fewest bytes one element takes: a negative count is
// invalid, one the rest cannot hold means the data was cut short. Checking
// before allocating keeps hostile counts from allocating memory.
func (r *reader) checkCount(field string, start int, n int64, minSize int) bool {
	if !r.ok() {
		return false
	}
	if n < 0 {
		r.failAt(field, start, invalidf("negative count %d", n))
		return false
	}
	if n*int64(minSize) > int64(r.remaining()) {
		r.failAt(field, start, &countErr{n: n, left: r.remaining()})
		return false
	}
	return true
}

// countErr is ErrTruncated for a count the remaining bytes cannot hold.
type countErr struct {
	n    int64
	left int
}

func (e *countErr) Error() string {
	return "count " + strconv.FormatInt(e.n, 10) + " with only " + strconv.Itoa(e.left) + " bytes left"
}
func (e *countErr) Is(target error) bool { return target == ErrTruncated }
