package modnet

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// reader reads big-endian fields from one message body. The first failure
// sticks; later reads return zero values, so a decoder reads every field and
// checks once with finish.
type reader struct {
	b   []byte
	off int
	msg string
	err *proto17.Error
}

func newReader(msg string, b []byte) reader { return reader{b: b, msg: msg} }

func (r *reader) failAt(field string, off int, cause error) {
	if r.err == nil {
		r.err = &proto17.Error{Packet: r.msg, Field: field, Offset: off, Err: cause}
	}
}

func (r *reader) fail(field string, cause error) { r.failAt(field, r.off, cause) }

func (r *reader) remaining() int { return len(r.b) - r.off }

func (r *reader) need(field string, n int) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || len(r.b)-r.off < n {
		r.fail(field, proto17.ErrTruncated)
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

// boolean reads a Java boolean as DataInputStream.readBoolean does: any
// non-zero byte is true.
func (r *reader) boolean(field string) bool { return r.u8(field) != 0 }

func (r *reader) i16(field string) int16 {
	if !r.need(field, 2) {
		return 0
	}
	v := binary.BigEndian.Uint16(r.b[r.off:])
	r.off += 2
	return int16(v)
}

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

// fmlString reads a string as FML's ByteBufUtils.readUTF8String: a VarInt
// length of at most two bytes (so at most 16383 bytes), then UTF-8.
func (r *reader) fmlString(field string) string {
	if r.err != nil {
		return ""
	}
	start := r.off
	var n int
	for i := 0; ; i++ {
		if i == 2 {
			r.failAt(field, start, invalidf("string length VarInt longer than 2 bytes"))
			return ""
		}
		c := r.u8(field)
		if r.err != nil {
			return ""
		}
		n |= int(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			break
		}
	}
	b := r.bytes(field, n)
	if r.err != nil {
		return ""
	}
	if !utf8.Valid(b) {
		r.failAt(field, start, invalidf("string is not valid UTF-8"))
		return ""
	}
	return string(b)
}

func (r *reader) bytes(field string, n int) []byte {
	if !r.need(field, n) {
		return nil
	}
	v := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return v
}

// rest returns the unread bytes (aliasing the body).
func (r *reader) rest() []byte {
	if r.err != nil {
		return nil
	}
	v := r.b[r.off:len(r.b):len(r.b)]
	r.off = len(r.b)
	return v
}

// finish reports the first failure, or bytes left after the last field.
func (r *reader) finish() error {
	if r.err != nil {
		return r.err
	}
	if r.off != len(r.b) {
		r.fail("end", trailing(len(r.b)-r.off))
		return r.err
	}
	return nil
}

// trailing is proto17.ErrTrailing with the byte count.
type trailing int

func (e trailing) Error() string        { return strconv.Itoa(int(e)) + " trailing bytes" }
func (e trailing) Is(target error) bool { return target == proto17.ErrTrailing }

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", proto17.ErrInvalid, fmt.Sprintf(format, args...))
}

func tooLargef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", proto17.ErrTooLarge, fmt.Sprintf(format, args...))
}
