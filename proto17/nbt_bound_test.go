package proto17

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nbtRoot wraps a root compound's entries (already encoded, without the
// end tag) into a named root.
func nbtRoot(entries []byte) []byte {
	b := []byte{byte(TagCompound), 0, 0}
	b = append(b, entries...)
	return append(b, byte(TagEnd))
}

// nbtListEntry encodes a named list entry: element type, count, payload.
func nbtListEntry(name string, et TagType, n int32, payload []byte) []byte {
	b := []byte{byte(TagList)}
	b = binary.BigEndian.AppendUint16(b, uint16(len(name)))
	b = append(b, name...)
	b = append(b, byte(et))
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	return append(b, payload...)
}

// ListBomb is item NBT {ench: TAG_List<Compound>[0x7FFFFFFF]} with no
// elements: a decoder that sizes the list from its count asks for ~32 GiB.
func listBomb() []byte {
	return nbtRoot(nbtListEntry("ench", TagCompound, 0x7FFFFFFF, nil))
}

func gz(t testing.TB, raw []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write(raw)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// allocDuring is the bytes the runtime allocated while fn ran.
func allocDuring(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// hostileNBT are inputs of up to MaxNBTSize built to make a decoder allocate
// as much as possible per input byte.
func hostileNBT() map[string][]byte {
	fill := func(elem []byte) []byte {
		n := (MaxNBTSize - 64) / len(elem)
		return bytes.Repeat(elem, n)
	}
	count := func(elem []byte) int32 { return int32((MaxNBTSize - 64) / len(elem)) }
	oneEntry := []byte{byte(TagByte), 0, 0, 1, byte(TagEnd)} // {"": 1b}
	emptyList := []byte{byte(TagEnd), 0, 0, 0, 0}            // TAG_List<End>[0]
	shortStr := []byte{0, 0}                                 // ""
	intArr := []byte{0, 0, 0, 0}                             // int[0]
	nested := []byte{}
	for range maxNBTDepth - 2 {
		nested = append(nested, byte(TagCompound), 0, 0)
	}
	nested = append(nested, bytes.Repeat([]byte{byte(TagEnd)}, maxNBTDepth-2)...)
	return map[string][]byte{
		"list length bomb":          listBomb(),
		"list of empty compounds":   nbtRoot(nbtListEntry("l", TagCompound, count([]byte{0}), fill([]byte{0}))),
		"list of 1-entry compounds": nbtRoot(nbtListEntry("l", TagCompound, count(oneEntry), fill(oneEntry))),
		"list of lists":             nbtRoot(nbtListEntry("l", TagList, count(emptyList), fill(emptyList))),
		"list of strings":           nbtRoot(nbtListEntry("l", TagString, count(shortStr), fill(shortStr))),
		"list of int arrays":        nbtRoot(nbtListEntry("l", TagIntArray, count(intArr), fill(intArr))),
		"list of shorts":            nbtRoot(nbtListEntry("l", TagShort, count([]byte{1, 0}), fill([]byte{1, 0}))),
		"deep compounds":            nbtRoot(nested),
	}
}

func TestNBTAllocationIsBounded(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation figures differ under the race detector")
	}
	for name, raw := range hostileNBT() {
		t.Run(name, func(t *testing.T) {
			require.LessOrEqual(t, len(raw), MaxNBTSize)
			var err error
			got := allocDuring(func() { _, err = ParseNBT(raw) })
			// The tree is bounded by MaxNBTAlloc and by a constant factor
			// of the input (maps cost ~70 bytes per byte of a one-entry
			// compound); the rest is slack for the reader and the error.
			limit := min(uint64(MaxNBTAlloc+MaxNBTAlloc/4), uint64(100*len(raw)+64<<10))
			assert.LessOrEqual(t, got, limit, "allocated %d bytes for %d bytes of NBT (err %v)", got, len(raw), err)
			t.Logf("%d bytes of NBT: %d bytes allocated, err=%v", len(raw), got, err)
			gzipped := gz(t, raw)
			got = allocDuring(func() { _, err = DecodeGzipNBT(gzipped) })
			assert.LessOrEqual(t, got, uint64(MaxNBTAlloc+MaxNBTAlloc/4+4*MaxNBTSize), "gzipped: allocated %d bytes (err %v)", got, err)
		})
	}
}

func TestNBTListBombFailsWithoutAllocating(t *testing.T) {
	raw := listBomb()
	var n *NBT
	var err error
	got := allocDuring(func() { n, err = ParseNBT(raw) })
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrTruncated)
	assert.Nil(t, n)
	assert.Less(t, got, uint64(1<<20), "allocated %d bytes", got)
}
