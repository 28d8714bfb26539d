package proto17

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func allocOf(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestModIDDataIgnoresTrailingBytes: Forge 10.13.4's ModIdData.toBytes
// writes blockSubstitutions.size() as the item count too, so a server with
// item substitutions and no block ones sends item names after a count of 0.
// Forge's fromBytes stops after the lists; so must this decoder.
func TestModIDDataIgnoresTrailingBytes(t *testing.T) {
	reg := &ModIDData{Entries: []RegistryEntry{{"\u0001minecraft:stone", 1}, {"\u0002minecraft:apple", 260}}}
	b, err := EncodeFML(reg)
	require.NoError(t, err)
	// Block substitutions: 0. Item count as Forge writes it: the block
	// count, 0. Then the one item substitution Forge meant to announce.
	b = append(b, 0, 0, byte(len("minecraft:apple")))
	b = append(b, "minecraft:apple"...)
	m, err := DecodeFML(b)
	require.NoError(t, err)
	got := m.(*ModIDData)
	assert.Equal(t, reg.Entries, got.Entries)
	assert.True(t, got.HasSubstitutions)
	assert.Empty(t, got.BlockSubstitutions)
	assert.Empty(t, got.ItemSubstitutions)

	// Other handshake messages stay strict.
	_, err = DecodeFML([]byte{0xFF, 2, 0})
	assert.ErrorIs(t, err, ErrTrailing)
}

// TestModIDDataAllocatesWithTheEntriesReceived: a count the bytes can hold
// but the entries do not fill (here the second entry is broken) must not
// reserve memory for the whole count, and counts beyond any real registry
// fail before decoding.
func TestModIDDataAllocatesWithTheEntriesReceived(t *testing.T) {
	// 2^21-1 entries announced, 4 MiB of bytes: over MaxRegistryEntries.
	huge := append([]byte{byte(DiscModIDData), 0xFF, 0xFF, 0x7F}, make([]byte, 4<<20)...)
	var err error
	got := allocOf(func() { _, err = DecodeFML(huge) })
	assert.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), "registry entries")
	assert.Less(t, got, uint64(64<<10), "allocated %d bytes", got)

	// MaxRegistryEntries announced with room for them, but the second
	// entry's id is a VarInt longer than 3 bytes.
	b := AppendVarInt([]byte{byte(DiscModIDData)}, MaxRegistryEntries)
	b = append(b, 0, 1)                      // "" -> 1
	b = append(b, 0, 0xFF, 0xFF, 0xFF, 0x7F) // "" -> a 4-byte VarInt
	b = append(b, make([]byte, 2*MaxRegistryEntries)...)
	got = allocOf(func() { _, err = DecodeFML(b) })
	assert.ErrorIs(t, err, ErrInvalid)
	// Reserving the announced count would take 24 × 2^18 = 6 MiB.
	assert.Less(t, got, uint64(256<<10), "allocated %d bytes", got)

	// The substitution lists are bounded the same way.
	reg, err := EncodeFML(&ModIDData{Entries: []RegistryEntry{{"\u0001minecraft:stone", 1}}})
	require.NoError(t, err)
	subs := append(AppendVarInt(reg, 1<<21-1), make([]byte, 2<<20+16)...)
	_, err = DecodeFML(subs)
	assert.ErrorIs(t, err, ErrTooLarge)
}

// TestMultipartAllocatesWithThePartsReceived: a preamble announcing the
// largest message followed by a few small parts holds memory for the parts,
// not for the announcement.
func TestMultipartAllocatesWithThePartsReceived(t *testing.T) {
	var mp Multipart
	pre, err := appendStr(nil, "FML|MP", "channel", ChannelFMLHandshake, maxChannelLen)
	require.NoError(t, err)
	pre = append(pre, MaxMultipartParts)
	pre = appendI32(pre, DefaultMultipartMaxSize)
	part := append([]byte{0}, bytes.Repeat([]byte{7}, 1000)...)
	got := allocOf(func() {
		_, _, done, err := mp.Feed(pre)
		require.NoError(t, err)
		require.False(t, done)
		for i := range 3 {
			part[0] = byte(i)
			_, _, done, err = mp.Feed(part)
			require.NoError(t, err)
			require.False(t, done)
		}
	})
	assert.True(t, mp.InProgress())
	assert.Less(t, got, uint64(256<<10), "allocated %d bytes for 3000 bytes of parts", got)

	// An announced size over the limit fails with a clear error.
	var small Multipart
	small.MaxSize = 1 << 20
	_, _, _, err = small.Feed(pre)
	assert.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), "allowed 1..1048576")
}

// TestModListAllocatesWithTheModsReceived: a mod list announcing the most
// mods its two-byte count allows, whose second entry is broken, reserves
// room for the mods decoded, not for the announcement (32 bytes a mod).
func TestModListAllocatesWithTheModsReceived(t *testing.T) {
	const n = 1<<14 - 1
	b := AppendVarInt([]byte{byte(DiscModList)}, n)
	b = append(b, 1, 'a', 1, '1')
	b = append(b, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F) // a string length past the data
	b = append(b, make([]byte, 2*n)...)
	var err error
	got := allocOf(func() { _, err = DecodeFML(b) })
	require.Error(t, err)
	assert.Less(t, got, uint64(128<<10), "allocated %d bytes", got)
}
