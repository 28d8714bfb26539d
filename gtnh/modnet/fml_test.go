package modnet

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

func TestDecodeOpenGuiFixture(t *testing.T) {
	// Railcraft's coke oven GUI (gui 17) in window 5 at the master brick
	// (10, 70, -5). Written by hand from FMLMessage.OpenGui.toBytes.
	payload := unhex(t, `01 00000005 09 5261696c6372616674 00000011 0000000a 00000046 fffffffb`)
	got, err := DecodeOpenGui(payload)
	require.NoError(t, err)
	assert.Equal(t, OpenGui{WindowID: 5, ModID: "Railcraft", GuiID: 17, X: 10, Y: 70, Z: -5}, got)

	d, err := FMLDiscriminator(payload)
	require.NoError(t, err)
	assert.Equal(t, FMLOpenGui, d)
	_, err = FMLDiscriminator(nil)
	requireDecodeErr(t, err, proto17.ErrTruncated, "FML", "discriminator")
}

func TestDecodeOpenGuiRoundTrip(t *testing.T) {
	for _, g := range []OpenGui{
		{WindowID: 1, ModID: "modularui", GuiID: 3, X: -1, Y: 0, Z: 1},
		{WindowID: 127, ModID: "IronChest", GuiID: 8, X: 30000000, Y: 255, Z: -30000000},
		{WindowID: 100, ModID: strings.Repeat("m", 16383), GuiID: -1},
		{WindowID: 2, ModID: "é", GuiID: 0},
	} {
		got, err := DecodeOpenGui(encOpenGui(g))
		require.NoError(t, err, g.ModID[:min(len(g.ModID), 10)])
		assert.Equal(t, g, got)
	}
}

func TestDecodeOpenGuiErrors(t *testing.T) {
	g := OpenGui{WindowID: 5, ModID: "Railcraft", GuiID: 17, X: 10, Y: 70, Z: -5}
	payload := encOpenGui(g)
	at := fieldsAt(1, "discriminator", 4, "windowId", 10, "modId", 4, "modGuiId", 4, "x", 4, "y", 4, "z")
	require.Len(t, payload, len(at))
	for n := 0; n < len(payload); n++ {
		_, err := DecodeOpenGui(payload[:n])
		requireDecodeErr(t, err, proto17.ErrTruncated, msgOpenGui, at[n])
	}
	_, err := DecodeOpenGui(append(payload, 0))
	requireDecodeErr(t, err, proto17.ErrTrailing, msgOpenGui, "end")

	bad := append([]byte{}, payload...)
	bad[0] = 2 // EntitySpawnMessage
	_, err = DecodeOpenGui(bad)
	requireDecodeErr(t, err, proto17.ErrInvalid, msgOpenGui, "discriminator")

	for _, id := range []int32{0, -1, 128, 1 << 20} {
		g2 := g
		g2.WindowID = id
		pe := requireDecodeErr(t, mustErr(DecodeOpenGui(encOpenGui(g2))), proto17.ErrInvalid, msgOpenGui, "windowId")
		assert.Equal(t, 1, pe.Offset)
	}

	g2 := g
	g2.ModID = ""
	_, err = DecodeOpenGui(encOpenGui(g2))
	requireDecodeErr(t, err, proto17.ErrInvalid, msgOpenGui, "modId")

	// A length VarInt of three bytes is more than FML reads (readVarInt(buf, 2)).
	long := append([]byte{FMLOpenGui}, be32(nil, 5)...)
	long = append(long, 0x80, 0x80, 0x01)
	_, err = DecodeOpenGui(long)
	requireDecodeErr(t, err, proto17.ErrInvalid, msgOpenGui, "modId")

	// A length larger than the bytes present.
	short := append([]byte{FMLOpenGui}, be32(nil, 5)...)
	short = append(short, 0xff, 0x7f, 'a')
	_, err = DecodeOpenGui(short)
	requireDecodeErr(t, err, proto17.ErrTruncated, msgOpenGui, "modId")

	invalid := append([]byte{FMLOpenGui}, be32(nil, 5)...)
	invalid = append(invalid, 2, 0xc3, 0x28)
	invalid = append(invalid, make([]byte, 16)...)
	_, err = DecodeOpenGui(invalid)
	requireDecodeErr(t, err, proto17.ErrInvalid, msgOpenGui, "modId")
}
