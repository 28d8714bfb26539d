package modnet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

type fluidEntry struct {
	name string
	id   int32
}

// encFluidIDMap writes FluidIdMapMessage as ForgeMessage.toBytes does,
// with the defaults list when defaults is not nil.
func encFluidIDMap(entries []fluidEntry, defaults []string) []byte {
	b := []byte{ForgeFluidIDMap}
	b = be32(b, int32(len(entries)))
	for _, e := range entries {
		b = fmlVarInt(b, len(e.name))
		b = append(b, e.name...)
		b = be32(b, e.id)
	}
	for _, d := range defaults {
		b = fmlVarInt(b, len(d))
		b = append(b, d...)
	}
	return b
}

func TestDecodeFluidIDMapFixture(t *testing.T) {
	// Two fluids, water 1 and creosote 42, with their default names.
	// Written by hand from ForgeMessage.FluidIdMapMessage.toBytes (Forge
	// 10.13.4.1614) and ByteBufUtils.writeUTF8String.
	payload := unhex(t, `02 00000002
		05 7761746572 00000001
		08 637265 6f736f7465 0000002a
		0f 6d696e6563726166743a7761746572
		12 7261696c63726166743a637265 6f736f7465`)
	m, err := DecodeFluidIDMap(payload)
	require.NoError(t, err)
	assert.Equal(t, map[int32]string{1: "water", 42: "creosote"}, m.Names)
	assert.Equal(t, []string{"minecraft:water", "railcraft:creosote"}, m.Defaults)
	n, ok := m.Name(42)
	assert.True(t, ok)
	assert.Equal(t, "creosote", n)
	_, ok = m.Name(2)
	assert.False(t, ok)

	// An older server sends no defaults.
	m, err = DecodeFluidIDMap(encFluidIDMap([]fluidEntry{{"water", 1}}, nil))
	require.NoError(t, err)
	assert.Equal(t, map[int32]string{1: "water"}, m.Names)
	assert.Nil(t, m.Defaults)

	// An empty registry.
	m, err = DecodeFluidIDMap(encFluidIDMap(nil, nil))
	require.NoError(t, err)
	assert.Empty(t, m.Names)
}

func TestDecodeFluidIDMapErrors(t *testing.T) {
	water := []fluidEntry{{"water", 1}}
	for _, tc := range []struct {
		name    string
		payload []byte
		cause   error
		field   string
	}{
		{"empty", nil, proto17.ErrTruncated, "discriminator"},
		{"dimension message", append([]byte{1}, encFluidIDMap(water, nil)[1:]...), proto17.ErrInvalid, "discriminator"},
		{"negative count", be32([]byte{ForgeFluidIDMap}, -1), proto17.ErrInvalid, "count"},
		{"too many", be32([]byte{ForgeFluidIDMap}, MaxFluids+1), proto17.ErrInvalid, "count"},
		{"count over the bytes", be32([]byte{ForgeFluidIDMap}, 1000), proto17.ErrTruncated, "count"},
		{"cut id", encFluidIDMap(water, nil)[:13], proto17.ErrTruncated, "id"},
		{"duplicate name", encFluidIDMap([]fluidEntry{{"water", 1}, {"water", 2}}, nil), proto17.ErrInvalid, "name"},
		{"duplicate id", encFluidIDMap([]fluidEntry{{"water", 1}, {"lava", 1}}, nil), proto17.ErrInvalid, "id"},
		{"negative id", encFluidIDMap([]fluidEntry{{"water", -3}}, nil), proto17.ErrInvalid, "id"},
		{"empty name", encFluidIDMap([]fluidEntry{{"", 1}}, nil), proto17.ErrInvalid, "name"},
		{"bad UTF-8", encFluidIDMap([]fluidEntry{{"\xff", 1}}, nil), proto17.ErrInvalid, "name"},
		{"short defaults", encFluidIDMap([]fluidEntry{{"water", 1}, {"lava", 2}}, []string{"minecraft:water"}), proto17.ErrTruncated, "defaultName"},
		{"trailing", append(encFluidIDMap(water, []string{"minecraft:water"}), 0), proto17.ErrTrailing, "end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeFluidIDMap(tc.payload)
			requireDecodeErr(t, err, tc.cause, msgFluidIDMap, tc.field)
		})
	}
}
