package proto17

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math"
	"sort"
)

// TagType is an NBT tag type id.
type TagType byte

// NBT tag types of Minecraft 1.7.10.
const (
	TagEnd TagType = iota
	TagByte
	TagShort
	TagInt
	TagLong
	TagFloat
	TagDouble
	TagByteArray
	TagString
	TagList
	TagCompound
	TagIntArray
)

// Limits of the NBT decoder. Vanilla's NBTSizeTracker allows 2 MiB for item
// NBT and its reader nests at most 512 levels (NBTTagCompound.func_152446_a
// of 1.7.10 throws at depth > 512).
const (
	MaxNBTSize  = 2 << 20
	maxNBTDepth = 512
	// MaxNBTAlloc bounds the memory one decode builds, whatever the input:
	// Go maps and interface values cost far more than their bytes on the
	// wire (a one-entry compound is 5 bytes of NBT and over 300 bytes of
	// map), so the byte limit alone does not bound the decoded tree.
	MaxNBTAlloc = 16 << 20
)

// Estimated heap cost of the decoded values, charged against MaxNBTAlloc
// before each allocation (measured with go1.26 on amd64; see
// TestNBTAllocationIsBounded).
const (
	costAny       = 16  // one interface slot in a list
	costBoxed     = 8   // a scalar boxed into an interface
	costSlice     = 24  // a slice header boxed into an interface
	costList      = 32  // a List boxed into an interface
	costMap       = 48  // a compound's map header
	costMapGroup  = 288 // the first group of eight map slots
	costMapEntry  = 48  // each further entry, growth included
	costStringHdr = 16  // a string header boxed into an interface
)

// Compound is an NBT compound. Values are int8 (byte), int16, int32, int64,
// float32, float64, []byte, string, List, Compound or []int32 (int array).
type Compound map[string]any

// List is an NBT list: the element type and the values (of the Go type
// Compound documents for that tag type).
type List struct {
	Type   TagType
	Values []any
}

// NBT is a root tag as item stacks carry it: a named compound.
type NBT struct {
	Name string
	Root Compound
}

// minTagSize is the fewest payload bytes a tag of each type takes, used to
// reject list lengths the remaining input cannot hold before allocating.
var minTagSize = [...]int{0, 1, 2, 4, 8, 4, 8, 4, 2, 5, 1, 4}

// ParseNBT decodes uncompressed NBT whose root must be a named compound.
func ParseNBT(data []byte) (*NBT, error) {
	r := newReader("NBT", data)
	r.budget = MaxNBTAlloc
	if len(data) > MaxNBTSize {
		r.fail("root", tooLargef("%d bytes, at most %d", len(data), MaxNBTSize))
		return nil, r.err
	}
	t := TagType(r.u8("root"))
	if r.ok() && t != TagCompound {
		r.failAt("root", 0, invalidf("root tag type %d, want a compound (10)", t))
	}
	name := r.nbtString("root")
	root, _ := r.nbtPayload("root", TagCompound, 0).(Compound)
	if err := r.finish(); err != nil {
		return nil, err
	}
	return &NBT{Name: name, Root: root}, nil
}

// DecodeGzipNBT inflates gzipped NBT (as item stacks carry it), at most
// MaxNBTSize bytes, and decodes it.
func DecodeGzipNBT(gz []byte) (*NBT, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, &Error{Packet: "NBT", Field: "gzip header", Offset: 0, Err: err}
	}
	data, err := io.ReadAll(io.LimitReader(zr, MaxNBTSize+1))
	if err != nil {
		return nil, &Error{Packet: "NBT", Field: "gzip data", Offset: -1, Err: err}
	}
	if len(data) > MaxNBTSize {
		return nil, &Error{Packet: "NBT", Field: "gzip data", Offset: -1, Err: tooLargef("inflates to more than %d bytes", MaxNBTSize)}
	}
	return ParseNBT(data)
}

func (r *reader) nbtString(field string) string {
	n := int(r.u16(field))
	b := r.bytes(field, n)
	if !r.charge(field, len(b)) {
		return ""
	}
	return string(b)
}

// charge takes n bytes of estimated heap from the decode budget and fails
// the read when the budget is spent. A reader without a budget (zero) is
// not charged.
func (r *reader) charge(field string, n int) bool {
	if !r.ok() {
		return false
	}
	if r.budget == 0 {
		return true
	}
	if n > r.budget-r.spent {
		r.fail(field, tooLargef("the decoded NBT would take more than %d bytes of memory", r.budget))
		return false
	}
	r.spent += n
	return true
}

// nbtPayload reads the payload of a tag of type t.
func (r *reader) nbtPayload(field string, t TagType, depth int) any {
	if !r.ok() {
		return nil
	}
	if depth > maxNBTDepth {
		r.fail(field, tooLargef("nesting deeper than %d", maxNBTDepth))
		return nil
	}
	switch t {
	case TagByte:
		return r.i8(field)
	case TagShort, TagInt, TagLong, TagFloat, TagDouble:
		if !r.charge(field, costBoxed) {
			return nil
		}
		switch t {
		case TagShort:
			return r.i16(field)
		case TagInt:
			return r.i32(field)
		case TagLong:
			return r.i64(field)
		case TagFloat:
			return r.f32(field)
		}
		return r.f64(field)
	case TagByteArray:
		start := r.off
		n := r.i32(field)
		if !r.checkCount(field, start, int64(n), 1) || !r.charge(field, costSlice+int(n)) {
			return nil
		}
		return bytes.Clone(r.bytes(field, int(n)))
	case TagString:
		if !r.charge(field, costStringHdr) {
			return nil
		}
		return r.nbtString(field)
	case TagIntArray:
		start := r.off
		n := r.i32(field)
		if !r.checkCount(field, start, int64(n), 4) || !r.charge(field, costSlice+4*int(n)) {
			return nil
		}
		out := make([]int32, 0, n)
		for i := int32(0); i < n && r.ok(); i++ {
			out = append(out, r.i32(field))
		}
		return out
	case TagList:
		start := r.off
		et := TagType(r.u8(field))
		n := r.i32(field)
		if !r.ok() {
			return nil
		}
		if int(et) >= len(minTagSize) || et == TagEnd && n > 0 {
			r.failAt(field, start, invalidf("list of %d elements of type %d", n, et))
			return nil
		}
		if !r.checkCount(field, start+1, int64(n), minTagSize[et]) || !r.charge(field, costList+costAny*int(n)) {
			return nil
		}
		l := List{Type: et}
		if n > 0 {
			l.Values = make([]any, 0, n)
		}
		for i := int32(0); i < n && r.ok(); i++ {
			l.Values = append(l.Values, r.nbtPayload(field, et, depth+1))
		}
		return l
	case TagCompound:
		if !r.charge(field, costMap) {
			return nil
		}
		c := Compound{}
		for r.ok() {
			ct := TagType(r.u8(field))
			if !r.ok() || ct == TagEnd {
				break
			}
			if int(ct) >= len(minTagSize) {
				r.fail(field, invalidf("tag type %d", ct))
				return nil
			}
			cost := costMapEntry
			if len(c) == 0 {
				cost = costMapGroup
			}
			if !r.charge(field, cost) {
				return nil
			}
			name := r.nbtString(field)
			c[name] = r.nbtPayload(field, ct, depth+1)
		}
		return c
	}
	r.fail(field, invalidf("tag type %d", t))
	return nil
}

// Bytes encodes the NBT uncompressed. Compound keys are written in sorted
// order so the output is deterministic.
func (n *NBT) Bytes() ([]byte, error) {
	b := append([]byte(nil), byte(TagCompound))
	b, err := appendNBTString(b, n.Name)
	if err != nil {
		return nil, err
	}
	return appendNBTPayload(b, n.Root, 0)
}

// Gzip encodes the NBT gzipped, the form item stacks carry.
func (n *NBT) Gzip() ([]byte, error) {
	raw, err := n.Bytes()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

var errNBTValue = errors.New("value of a type NBT cannot hold")

func nbtEncodeErr(cause error) error {
	return &Error{Packet: "NBT", Field: "value", Offset: -1, Err: cause}
}

func appendNBTString(b []byte, s string) ([]byte, error) {
	if len(s) > math.MaxUint16 {
		return b, nbtEncodeErr(tooLargef("string of %d bytes", len(s)))
	}
	b = appendU16(b, uint16(len(s)))
	return append(b, s...), nil
}

// tagTypeOf returns the tag type of a Go value.
func tagTypeOf(v any) (TagType, bool) {
	switch v.(type) {
	case int8:
		return TagByte, true
	case int16:
		return TagShort, true
	case int32:
		return TagInt, true
	case int64:
		return TagLong, true
	case float32:
		return TagFloat, true
	case float64:
		return TagDouble, true
	case []byte:
		return TagByteArray, true
	case string:
		return TagString, true
	case List:
		return TagList, true
	case Compound:
		return TagCompound, true
	case []int32:
		return TagIntArray, true
	}
	return TagEnd, false
}

func appendNBTPayload(b []byte, v any, depth int) ([]byte, error) {
	if depth > maxNBTDepth {
		return b, nbtEncodeErr(tooLargef("nesting deeper than %d", maxNBTDepth))
	}
	var err error
	switch v := v.(type) {
	case int8:
		b = append(b, byte(v))
	case int16:
		b = appendI16(b, v)
	case int32:
		b = appendI32(b, v)
	case int64:
		b = appendI64(b, v)
	case float32:
		b = appendF32(b, v)
	case float64:
		b = appendF64(b, v)
	case []byte:
		b = appendI32(b, int32(len(v)))
		b = append(b, v...)
	case string:
		b, err = appendNBTString(b, v)
	case []int32:
		b = appendI32(b, int32(len(v)))
		for _, x := range v {
			b = appendI32(b, x)
		}
	case List:
		if v.Type == TagEnd && len(v.Values) > 0 || int(v.Type) >= len(minTagSize) {
			return b, nbtEncodeErr(invalidf("list element type %d", v.Type))
		}
		b = append(b, byte(v.Type))
		b = appendI32(b, int32(len(v.Values)))
		for _, e := range v.Values {
			if t, ok := tagTypeOf(e); !ok || t != v.Type {
				return b, nbtEncodeErr(invalidf("list of type %d holds a %T", v.Type, e))
			}
			if b, err = appendNBTPayload(b, e, depth+1); err != nil {
				return b, err
			}
		}
	case Compound:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t, ok := tagTypeOf(v[k])
			if !ok {
				return b, nbtEncodeErr(invalidf("%q: %T: %v", k, v[k], errNBTValue))
			}
			b = append(b, byte(t))
			if b, err = appendNBTString(b, k); err != nil {
				return b, err
			}
			if b, err = appendNBTPayload(b, v[k], depth+1); err != nil {
				return b, err
			}
		}
		b = append(b, byte(TagEnd))
	default:
		return b, nbtEncodeErr(invalidf("%T: %v", v, errNBTValue))
	}
	return b, err
}
