package proto17

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFMLRoundTrip(t *testing.T) {
	msgs := []FMLMessage{
		&ServerHello{Protocol: FMLProtocol, Dimension: -1},
		&ServerHello{Protocol: 1},
		&ClientHello{Protocol: FMLProtocol},
		&ModList{Mods: []ModInfo{{"mcp", "9.05"}, {"FML", "7.10.99.99"}, {"neid", "2.1.10"}, {"modularui", "1.2.20"}}},
		&ModList{Mods: []ModInfo{}},
		&ModIDData{Entries: []RegistryEntry{{"\u0001minecraft:air", 0}, {"\u0001minecraft:log", 17}, {"\u0002minecraft:coal", 263}, {"\u0002gregtech:gt.metaitem.01", 4096 + 123}}},
		&ModIDData{Entries: []RegistryEntry{{"\u0001minecraft:stone", 1}}, HasSubstitutions: true, BlockSubstitutions: []string{"minecraft:dirt"}, ItemSubstitutions: []string{}},
		&HandshakeAck{Phase: PhaseClientComplete},
		&HandshakeReset{},
	}
	for _, m := range msgs {
		t.Run(fmt.Sprintf("%T", m), func(t *testing.T) {
			b, err := EncodeFML(m)
			require.NoError(t, err)
			assert.Equal(t, byte(m.Discriminator()), b[0])
			got, err := DecodeFML(b)
			require.NoError(t, err)
			assert.Equal(t, m, got)
			for n := 0; n < len(b); n++ {
				if _, ok := m.(*ModIDData); ok && n == len(b)-3 && m.(*ModIDData).HasSubstitutions {
					continue // entries end here: a valid message without substitutions
				}
				_, err := DecodeFML(b[:n])
				if n == 0 || !isOptionalEnd(m, b, n) {
					assert.ErrorIs(t, err, ErrTruncated, "prefix %d", n)
				}
			}
			_, err = DecodeFML(append(b, 0, 0, 0))
			if _, ok := m.(*ModIDData); ok {
				assert.NoError(t, err, "Forge ignores bytes after ModIdData's lists")
			} else {
				assert.Error(t, err)
			}
		})
	}
}

// isOptionalEnd reports whether b[:n] is a complete message because what
// follows is optional (ModIDData's substitution lists).
func isOptionalEnd(m FMLMessage, b []byte, n int) bool {
	d, ok := m.(*ModIDData)
	if !ok || !d.HasSubstitutions {
		return false
	}
	plain := *d
	plain.HasSubstitutions = false
	pb, _ := EncodeFML(&plain)
	return n == len(pb)
}

func TestFMLGolden(t *testing.T) {
	b, err := EncodeFML(&ServerHello{Protocol: 2, Dimension: 0})
	require.NoError(t, err)
	assert.Equal(t, []byte{0, 2, 0, 0, 0, 0}, b)
	b, err = EncodeFML(&HandshakeAck{Phase: PhaseClientWaitingServerData})
	require.NoError(t, err)
	assert.Equal(t, []byte{0xFF, 2}, b)
	b, err = EncodeFML(&ModList{Mods: []ModInfo{{"neid", "2.1.10"}}})
	require.NoError(t, err)
	assert.Equal(t, append(append([]byte{2, 1, 4}, "neid"...), append([]byte{6}, "2.1.10"...)...), b)
	b, err = EncodeFML(&ModIDData{Entries: []RegistryEntry{{"\u0001minecraft:log", 17}}, HasSubstitutions: true})
	require.NoError(t, err)
	assert.Equal(t, append(append([]byte{3, 1, 14}, "\x01minecraft:log"...), 17, 0, 0), b)
	assert.Equal(t, []byte("FML|HS\x00FML\x00FML|MP\x00FORGE"), RegisterPayload(ClientChannels...))
	assert.Equal(t, ClientChannels, ParseRegister([]byte("FML|HS\x00FML\x00FML|MP\x00FORGE\x00")))
	// A protocol-1 ServerHello has no dimension.
	m, err := DecodeFML([]byte{0, 1})
	require.NoError(t, err)
	assert.Equal(t, &ServerHello{Protocol: 1}, m)
}

func TestFMLErrors(t *testing.T) {
	_, err := DecodeFML([]byte{5})
	var pe *Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "discriminator", pe.Field)
	_, err = DecodeFML([]byte{3, 0xFF, 0xFF, 0xFF, 0x7F})
	assert.ErrorIs(t, err, ErrInvalid, "a VarInt longer than 3 bytes")
	_, err = DecodeFML([]byte{3, 0xFF, 0xFF, 0x7F})
	assert.ErrorIs(t, err, ErrTruncated, "2M entries in 4 bytes")
	_, err = DecodeFML([]byte{2, 0x80, 0x80, 0x01})
	assert.ErrorIs(t, err, ErrInvalid, "mod count VarInt longer than 2 bytes")
	_, err = DecodeFML(nil)
	assert.ErrorIs(t, err, ErrTruncated)
	_, err = EncodeFML(&ModIDData{Entries: []RegistryEntry{{"x", -1}}})
	assert.ErrorIs(t, err, ErrInvalid)
}

func TestModIDDataFillIDMap(t *testing.T) {
	m := &ModIDData{Entries: []RegistryEntry{
		{"\u0001minecraft:air", 0},
		{"\u0001minecraft:log", 17},
		{"\u0002minecraft:log", 17},
		{"\u0002minecraft:coal", 263},
		{"\u0001gregtech:gt.blockores", 4500},
		{"\u0002gregtech:gt.metaitem.01", 32000},
		{"\u0003other:thing", 5},
	}}
	ids := rules.NewIDMap()
	require.NoError(t, m.FillIDMap(ids))
	name, ok := ids.BlockName(4500)
	assert.True(t, ok)
	assert.Equal(t, "gregtech:gt.blockores", name)
	name, ok = ids.ItemName(263)
	assert.True(t, ok)
	assert.Equal(t, "minecraft:coal", name)
	id, ok := ids.BlockID("minecraft:log")
	assert.True(t, ok)
	assert.Equal(t, 17, id)
	assert.Equal(t, 3, ids.Blocks())
	assert.Equal(t, 3, ids.Items())

	// Bad entries are skipped and reported; the rest is registered.
	bad := &ModIDData{Entries: []RegistryEntry{{"\u0001minecraft:stone", 1}, {"\u0001minecraft:dirt", 1}, {"\u0001no colon", 2}, {"\u0001minecraft:sand", 12}}}
	for i := 0; i < 30; i++ {
		bad.Entries = append(bad.Entries, RegistryEntry{fmt.Sprintf("\u0002bad name %d", i), int32(100 + i)})
	}
	ids = rules.NewIDMap()
	err := bad.FillIDMap(ids)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "32 of 34 entries skipped")
	assert.Contains(t, err.Error(), "and 12 more")
	_, ok = ids.BlockID("minecraft:sand")
	assert.True(t, ok)
}

func TestMultipart(t *testing.T) {
	reg := &ModIDData{}
	for i := 0; i < 3000; i++ {
		reg.Entries = append(reg.Entries, RegistryEntry{Name: fmt.Sprintf("\u0002mod:item_%d", i), ID: int32(4096 + i)})
	}
	data, err := EncodeFML(reg)
	require.NoError(t, err)
	for _, partSize := range []int{2, 1000, len(data), len(data) + 1, len(data) + 100} {
		t.Run(fmt.Sprint(partSize), func(t *testing.T) {
			if partSize == 2 && len(data) > MaxMultipartParts {
				_, err := SplitMultipart(ChannelFMLHandshake, data, partSize)
				assert.ErrorIs(t, err, ErrTooLarge)
				return
			}
			parts, err := SplitMultipart(ChannelFMLHandshake, data, partSize)
			require.NoError(t, err)
			var mp Multipart
			for i, p := range parts {
				assert.LessOrEqual(t, len(p), max(partSize, 12))
				ch, got, done, err := mp.Feed(p)
				require.NoError(t, err)
				if i < len(parts)-1 {
					assert.False(t, done)
					assert.True(t, mp.InProgress())
					continue
				}
				require.True(t, done)
				assert.Equal(t, ChannelFMLHandshake, ch)
				assert.Equal(t, data, got)
				m, err := DecodeFML(got)
				require.NoError(t, err)
				assert.Equal(t, reg, m)
			}
			assert.False(t, mp.InProgress())
		})
	}
}

func TestMultipartGolden(t *testing.T) {
	parts, err := SplitMultipart("FML|HS", []byte{1, 2, 3, 4, 5}, 3)
	require.NoError(t, err)
	assert.Equal(t, [][]byte{
		{6, 'F', 'M', 'L', '|', 'H', 'S', 3, 0, 0, 0, 5}, // channel, part count, total length
		{0, 1, 2},
		{1, 3, 4},
		{2, 5},
	}, parts)
}

func TestMultipartErrors(t *testing.T) {
	pre := func(ch string, parts byte, total int32) []byte {
		b, _ := appendStr(nil, "", "", ch, 20)
		return appendI32(append(b, parts), total)
	}
	tests := []struct {
		name  string
		mp    Multipart
		feed  [][]byte
		cause error
	}{
		{"zero parts", Multipart{}, [][]byte{pre("x", 0, 5)}, ErrTooLarge},
		{"too many parts", Multipart{MaxParts: 2}, [][]byte{pre("x", 3, 5)}, ErrTooLarge},
		{"too large", Multipart{MaxSize: 10}, [][]byte{pre("x", 1, 11)}, ErrTooLarge},
		{"negative length", Multipart{}, [][]byte{pre("x", 1, -1)}, ErrTooLarge},
		{"zero length", Multipart{}, [][]byte{pre("x", 1, 0)}, ErrTooLarge},
		{"short preamble", Multipart{}, [][]byte{{1, 'x', 1}}, ErrTruncated},
		{"long preamble", Multipart{}, [][]byte{append(pre("x", 1, 1), 0)}, ErrTrailing},
		{"out of order", Multipart{}, [][]byte{pre("x", 2, 4), {1, 1, 2}}, ErrInvalid},
		{"overflow", Multipart{}, [][]byte{pre("x", 2, 4), {0, 1, 2, 3, 4, 5}}, ErrInvalid},
		{"short total", Multipart{}, [][]byte{pre("x", 2, 4), {0, 1}, {1, 2}}, ErrInvalid},
		{"empty part", Multipart{}, [][]byte{pre("x", 1, 4), {}}, ErrTruncated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			for _, p := range tc.feed {
				if _, _, _, err = tc.mp.Feed(p); err != nil {
					break
				}
			}
			assert.True(t, errors.Is(err, tc.cause), "%v", err)
			assert.False(t, tc.mp.InProgress(), "an error drops the message")
		})
	}
	// After an error the next payload starts a new message.
	var mp Multipart
	_, _, _, err := mp.Feed(pre("x", 2, 4))
	require.NoError(t, err)
	_, _, _, err = mp.Feed([]byte{5})
	require.Error(t, err)
	_, _, _, err = mp.Feed(pre("y", 1, 2))
	require.NoError(t, err)
	ch, data, done, err := mp.Feed([]byte{0, 7, 8})
	require.NoError(t, err)
	assert.True(t, done)
	assert.Equal(t, "y", ch)
	assert.Equal(t, []byte{7, 8}, data)
	mp.Reset()
	assert.False(t, mp.InProgress())

	_, err = SplitMultipart("x", nil, 10)
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = SplitMultipart("x", []byte{1}, 1)
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = SplitMultipart(string(bytes.Repeat([]byte{'c'}, 21)), []byte{1}, 10)
	assert.ErrorIs(t, err, ErrTooLarge)
}

func TestVarShort(t *testing.T) {
	tests := []struct {
		v    int
		want []byte
	}{
		{0, []byte{0, 0}},
		{0x7FFF, []byte{0x7F, 0xFF}},
		{0x8000, []byte{0x80, 0x00, 0x01}},
		{0x12345, []byte{0xA3, 0x45, 0x02}},
		{MaxVarShort, []byte{0xFF, 0xFF, 0xFF}},
	}
	for _, tc := range tests {
		b, err := AppendVarShort(nil, tc.v)
		require.NoError(t, err)
		assert.Equal(t, tc.want, b, "%#x", tc.v)
		v, n, err := ReadVarShort(append(b, 9))
		require.NoError(t, err)
		assert.Equal(t, tc.v, v)
		assert.Equal(t, len(tc.want), n)
	}
	_, err := AppendVarShort(nil, MaxVarShort+1)
	assert.ErrorIs(t, err, ErrTooLarge)
	_, err = AppendVarShort(nil, -1)
	assert.ErrorIs(t, err, ErrTooLarge)
	for _, b := range [][]byte{nil, {1}, {0x80, 0}} {
		_, _, err := ReadVarShort(b)
		assert.ErrorIs(t, err, ErrTruncated, "% x", b)
	}
}
