package proto17

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFieldReader(t *testing.T) {
	b := []byte{0xff, 1, 0x12, 0x34, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 9, 0xac, 0x02, 2, 'h', 'i', 7, 8}
	r := NewFieldReader("Test", b)
	assert.Equal(t, uint8(0xff), r.U8("a"))
	assert.True(t, r.Bool("b"))
	assert.Equal(t, uint16(0x1234), r.U16("c"))
	assert.Equal(t, int32(5), r.I32("d"))
	assert.Equal(t, int64(9), r.I64("e"))
	assert.Equal(t, int32(300), r.VarInt("f"))
	assert.Equal(t, "hi", r.FMLString("g"))
	assert.Equal(t, 21, r.Offset())
	assert.Equal(t, 2, r.Remaining())
	require.NoError(t, r.Err(), "a reader with no failure has a nil error, not a nil *Error")
	assert.Equal(t, []byte{7, 8}, r.Rest())
	require.NoError(t, r.Finish())

	// Bytes left over are ErrTrailing at the first of them, field "end".
	r = NewFieldReader("Test", []byte{1, 2, 3})
	r.I8("a")
	var pe *Error
	require.ErrorAs(t, r.Finish(), &pe)
	assert.ErrorIs(t, pe, ErrTrailing)
	assert.Equal(t, Error{Packet: "Test", Field: "end", Offset: 1, Err: pe.Err}, *pe)
	assert.Equal(t, "2 trailing bytes", pe.Err.Error())

	// The first failure sticks; later reads return zero values.
	r = NewFieldReader("Test", []byte{0, 1, 2})
	r.Failf("a", -1, "bad %d", 7)
	r.Fail("b", 0, TooLargef("no"))
	assert.Zero(t, r.I16("c"))
	require.ErrorAs(t, r.Finish(), &pe)
	assert.Equal(t, "proto17: Test: a: invalid value: bad 7", pe.Error())
	assert.ErrorIs(t, r.Err(), ErrInvalid)

	// A read past the end is ErrTruncated at the field's offset.
	r = NewFieldReader("Test", []byte{0})
	r.I16("short")
	require.ErrorAs(t, r.Err(), &pe)
	assert.Equal(t, Error{Packet: "Test", Field: "short", Offset: 0, Err: ErrTruncated}, *pe)
	assert.Nil(t, r.Bytes("x", 1))

	assert.True(t, errors.Is(TrailingBytes(3), ErrTrailing))
	assert.True(t, errors.Is(TooLargef("x"), ErrTooLarge))
	assert.True(t, errors.Is(Invalidf("x"), ErrInvalid))
}
