package proto17

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"testing"

	gonbt "github.com/Tnze/go-mc/nbt"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNBTRoundTrip(t *testing.T) {
	n := &NBT{Name: "tag", Root: Compound{
		"b": int8(-1), "s": int16(300), "i": int32(-70000), "l": int64(1) << 40,
		"f": float32(1.5), "d": float64(-2.25), "ba": []byte{1, 2, 3}, "str": "héllo",
		"ia":    []int32{1, -2, 3},
		"list":  List{Type: TagString, Values: []any{"a", "b"}},
		"empty": List{Type: TagEnd},
		"nested": Compound{"ench": List{Type: TagCompound, Values: []any{
			Compound{"id": int16(16), "lvl": int16(5)},
			Compound{},
		}}},
		"lists": List{Type: TagList, Values: []any{List{Type: TagInt, Values: []any{int32(1)}}}},
	}}
	raw, err := n.Bytes()
	require.NoError(t, err)
	got, err := ParseNBT(raw)
	require.NoError(t, err)
	assert.Equal(t, n, got)

	gz, err := n.Gzip()
	require.NoError(t, err)
	got, err = DecodeGzipNBT(gz)
	require.NoError(t, err)
	assert.Equal(t, n, got)

	for i := 0; i < len(raw); i++ {
		_, err := ParseNBT(raw[:i])
		require.Error(t, err, "prefix %d", i)
		assert.ErrorIs(t, err, ErrTruncated, "prefix %d", i)
	}
}

// TestNBTAgainstGoMC checks the NBT codec against go-mc's independent one.
func TestNBTAgainstGoMC(t *testing.T) {
	type ench struct {
		ID  int16 `nbt:"id"`
		Lvl int16 `nbt:"lvl"`
	}
	type display struct {
		Name string   `nbt:"Name"`
		Lore []string `nbt:"Lore"`
	}
	type tag struct {
		Ench    []ench  `nbt:"ench"`
		Display display `nbt:"display"`
		Damage  int32   `nbt:"Damage"`
		Data    []int32 `nbt:"Data"`
	}
	v := tag{Ench: []ench{{32, 3}, {34, 1}}, Display: display{Name: "Pick", Lore: []string{"x", "y"}}, Damage: 7, Data: []int32{1, 2}}
	var buf bytes.Buffer
	require.NoError(t, gonbt.NewEncoder(&buf).Encode(v, "root"))
	got, err := ParseNBT(buf.Bytes())
	require.NoError(t, err)
	assert.Equal(t, "root", got.Name)
	assert.Equal(t, int32(7), got.Root["Damage"])
	assert.Equal(t, []int32{1, 2}, got.Root["Data"])
	assert.Equal(t, List{Type: TagString, Values: []any{"x", "y"}}, got.Root["display"].(Compound)["Lore"])
	assert.Equal(t, Compound{"id": int16(34), "lvl": int16(1)}, got.Root["ench"].(List).Values[1])

	// And go-mc reads what this package writes.
	raw, err := got.Bytes()
	require.NoError(t, err)
	var back tag
	_, err = gonbt.NewDecoder(bytes.NewReader(raw)).Decode(&back)
	require.NoError(t, err)
	assert.Equal(t, v, back)
}

func TestNBTLimits(t *testing.T) {
	// A list claiming 2^31-1 ints in a few bytes must not allocate.
	_, err := ParseNBT([]byte{10, 0, 0, 9, 0, 1, 'x', 3, 0x7F, 0xFF, 0xFF, 0xFF, 0})
	assert.ErrorIs(t, err, ErrTruncated)
	// A root that is not a compound.
	_, err = ParseNBT([]byte{8, 0, 0, 0, 0})
	assert.ErrorIs(t, err, ErrInvalid)
	// Deep nesting.
	deep := []byte{10, 0, 0}
	for i := 0; i < 600; i++ {
		deep = append(deep, 10, 0, 0)
	}
	_, err = ParseNBT(deep)
	assert.ErrorIs(t, err, ErrTooLarge)
	// A gzip bomb is cut off at MaxNBTSize.
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write([]byte{10, 0, 0, 7, 0, 1, 'x', 0x7F, 0xFF, 0xFF, 0xFF})
	_, _ = zw.Write(make([]byte, MaxNBTSize))
	require.NoError(t, zw.Close())
	_, err = DecodeGzipNBT(buf.Bytes())
	assert.ErrorIs(t, err, ErrTooLarge)
	_, err = DecodeGzipNBT([]byte{1, 2, 3})
	assert.Error(t, err)
}

func TestSlot(t *testing.T) {
	s := testSlot(t)
	for _, f := range allFormat {
		b, err := AppendSlot(nil, s, f)
		require.NoError(t, err)
		got, err := DecodeSlot(b, f)
		require.NoError(t, err)
		assert.Equal(t, s, got)
		tag, err := got.Tag()
		require.NoError(t, err)
		assert.Equal(t, "Axe of Testing", tag.Root["display"].(Compound)["Name"])
	}
	// Any negative id is empty; the encoder writes -1.
	got, err := DecodeSlot([]byte{0xFF, 0xFE}, vanilla)
	require.NoError(t, err)
	assert.True(t, got.Empty())
	b, err := AppendSlot(nil, Slot{}, vanilla)
	require.NoError(t, err)
	assert.Equal(t, []byte{0xFF, 0xFF}, b)
	// An empty slot carries no ModularUI count.
	b, err = AppendSlot(nil, Slot{}, modular)
	require.NoError(t, err)
	assert.Equal(t, []byte{0xFF, 0xFF}, b)
	// A ModularUI stack read without the switch leaves a trailing VarInt.
	b, err = AppendSlot(nil, Slot{ID: 1, Count: 5}, modular)
	require.NoError(t, err)
	_, err = DecodeSlot(b, vanilla)
	assert.ErrorIs(t, err, ErrTrailing)
	// NBT length 0 is an empty, present tag.
	got, err = DecodeSlot([]byte{0, 1, 1, 0, 0, 0, 0}, vanilla)
	require.NoError(t, err)
	assert.Equal(t, []byte{}, got.NBT)
	none, err := (Slot{ID: 1}).Tag()
	assert.NoError(t, err)
	assert.Nil(t, none)
}

func TestSlotItemStack(t *testing.T) {
	ids := rules.NewIDMap()
	require.NoError(t, ids.SetBlock(17, "minecraft:log"))
	require.NoError(t, ids.SetItem(263, "minecraft:coal"))
	st, ok := Slot{ID: 263, Count: 3, Damage: 1}.ItemStack(ids)
	assert.True(t, ok)
	assert.Equal(t, "minecraft:coal", st.ID)
	assert.Equal(t, 1, st.Meta)
	assert.Equal(t, 3, st.Count)
	st, ok = Slot{ID: 17, Count: 64}.ItemStack(ids)
	assert.True(t, ok)
	assert.Equal(t, "minecraft:log", st.ID, "block items fall back to the block table")
	st, ok = Slot{ID: 999, Count: 1}.ItemStack(ids)
	assert.False(t, ok)
	assert.Equal(t, "unknown:999", st.ID)
	st, ok = Slot{}.ItemStack(ids)
	assert.True(t, ok)
	assert.True(t, st.Empty())
}

func TestMetadataItem(t *testing.T) {
	m := Metadata{{Key: 0, Type: MetaByte}, {Key: MetaKeyItem, Type: MetaSlot, Slot: Slot{ID: 17, Count: 2}}}
	s, ok := m.Item()
	assert.True(t, ok)
	assert.Equal(t, int16(17), s.ID)
	_, ok = Metadata{{Key: MetaKeyItem, Type: MetaInt}}.Item()
	assert.False(t, ok)
	for _, f := range allFormat {
		b, err := AppendMetadata(nil, m, f)
		require.NoError(t, err)
		got, err := DecodeMetadata(b, f)
		require.NoError(t, err)
		assert.Equal(t, m, got)
	}
}

// TestNBTSizeLimitIsExact: NBT of MaxNBTSize bytes decodes, one byte more
// is refused, by ParseNBT and, before decoding, by DecodeGzipNBT.
func TestNBTSizeLimitIsExact(t *testing.T) {
	nbtOf := func(size int) []byte {
		b := []byte{10, 0, 0, 7, 0, 1, 'x'} // root compound, byte array "x"
		n := size - len(b) - 4 - 1
		b = binary.BigEndian.AppendUint32(b, uint32(n))
		return append(append(b, make([]byte, n)...), 0)
	}
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		_, _ = zw.Write(b)
		require.NoError(t, zw.Close())
		return buf.Bytes()
	}
	ok := nbtOf(MaxNBTSize)
	require.Len(t, ok, MaxNBTSize)
	_, err := ParseNBT(ok)
	require.NoError(t, err)
	_, err = DecodeGzipNBT(gz(ok))
	require.NoError(t, err)

	over := nbtOf(MaxNBTSize + 1)
	_, err = ParseNBT(over)
	assert.ErrorIs(t, err, ErrTooLarge)
	_, err = DecodeGzipNBT(gz(over))
	require.ErrorIs(t, err, ErrTooLarge)
	var pe *Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "gzip data", pe.Field, "refused before decoding")
}
