package modnet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

func TestDecodeCokeOvenFixture(t *testing.T) {
	// The master brick (pattern cell 2,1,2) of a formed oven at (10, 70, -5),
	// cooking, cook time 1200. Written by hand from PacketTileEntity.writeData
	// and TileMultiBlock / TileMultiBlockOven writePacketData.
	payload := unhex(t, `00 0000000a 00000046 fffffffb 0007
		01 00 02 01 02
		000004b0 01`)
	tile, err := DecodeRCTile(payload)
	require.NoError(t, err)
	assert.Equal(t, int16(CokeOvenMachineID), tile.ID)
	oven, err := DecodeCokeOven(tile)
	require.NoError(t, err)
	assert.Equal(t, CokeOven{X: 10, Y: 70, Z: -5, Formed: true, PatternX: 2, PatternY: 1, PatternZ: 2,
		CookTime: 1200, Cooking: true}, oven)
	assert.True(t, oven.IsMaster())
	x, y, z, ok := oven.Master()
	require.True(t, ok)
	assert.Equal(t, [3]int32{10, 70, -5}, [3]int32{x, y, z})
}

func TestCokeOvenMaster(t *testing.T) {
	// The top north-west corner brick (cell 1,3,1) of the oven whose master
	// is at (10, 70, -5): the master is one over in x and z, two down.
	corner := CokeOven{X: 9, Y: 72, Z: -6, Formed: true, PatternX: 1, PatternY: 3, PatternZ: 1}
	got, err := DecodeCokeOven(mustTile(t, encCokeOven(corner)))
	require.NoError(t, err)
	assert.Equal(t, corner, got)
	assert.False(t, got.IsMaster())
	x, y, z, ok := got.Master()
	require.True(t, ok)
	assert.Equal(t, [3]int32{10, 70, -5}, [3]int32{x, y, z})

	// Every cell of the 3×3×3 oven points at the same master.
	for px := int8(1); px <= 3; px++ {
		for py := int8(1); py <= 3; py++ {
			for pz := int8(1); pz <= 3; pz++ {
				b := CokeOven{X: 10 + int32(px) - 2, Y: 70 + int32(py) - 1, Z: -5 + int32(pz) - 2,
					Formed: true, PatternX: px, PatternY: py, PatternZ: pz}
				mx, my, mz, _ := b.Master()
				assert.Equal(t, [3]int32{10, 70, -5}, [3]int32{mx, my, mz}, "cell %d,%d,%d", px, py, pz)
				assert.Equal(t, px == 2 && py == 1 && pz == 2, b.IsMaster())
			}
		}
	}

	loose := CokeOven{X: 1, Y: 2, Z: 3, CookTime: 0}
	got, err = DecodeCokeOven(mustTile(t, encCokeOven(loose)))
	require.NoError(t, err)
	assert.Equal(t, loose, got)
	assert.False(t, got.IsMaster())
	_, _, _, ok = got.Master()
	assert.False(t, ok)
}

func mustTile(t *testing.T, payload []byte) RCTile {
	t.Helper()
	tile, err := DecodeRCTile(payload)
	require.NoError(t, err)
	return tile
}

func TestDecodeRCTileErrors(t *testing.T) {
	payload := encCokeOven(CokeOven{X: 1, Y: 2, Z: 3})
	at := fieldsAt(1, "type", 4, "x", 4, "y", 4, "z", 2, "id")
	for n := 0; n < len(at); n++ {
		_, err := DecodeRCTile(payload[:n])
		requireDecodeErr(t, err, proto17.ErrTruncated, msgRCTile, at[n])
	}
	bad := append([]byte{}, payload...)
	bad[0] = RCGuiInteger
	_, err := DecodeRCTile(bad)
	requireDecodeErr(t, err, proto17.ErrInvalid, msgRCTile, "type")
	neg := encRCTile(1, 2, 3, -1, nil)
	pe := requireDecodeErr(t, mustErr(DecodeRCTile(neg)), proto17.ErrInvalid, msgRCTile, "id")
	assert.Equal(t, 13, pe.Offset)

	// A tile with no data of its own decodes; its body is empty.
	tile, err := DecodeRCTile(encRCTile(1, 2, 3, 0, nil))
	require.NoError(t, err)
	assert.Empty(t, tile.Body)
}

func TestDecodeCokeOvenErrors(t *testing.T) {
	formed := encCokeOvenBody(CokeOven{Formed: true, PatternX: 2, PatternY: 1, PatternZ: 2, CookTime: 5, Cooking: true})
	at := fieldsAt(1, "hasMaster", 1, "patternIndex", 1, "patternX", 1, "patternY", 1, "patternZ", 4, "cookTime", 1, "cooking")
	require.Len(t, formed, len(at))
	for n := 0; n < len(formed); n++ {
		_, err := DecodeCokeOven(RCTile{ID: CokeOvenMachineID, Body: formed[:n]})
		requireDecodeErr(t, err, proto17.ErrTruncated, msgRCCoke, at[n])
	}
	_, err := DecodeCokeOven(RCTile{ID: CokeOvenMachineID, Body: append(formed, 0)})
	requireDecodeErr(t, err, proto17.ErrTrailing, msgRCCoke, "end")

	_, err = DecodeCokeOven(RCTile{ID: 6, Body: formed})
	requireDecodeErr(t, err, proto17.ErrInvalid, msgRCCoke, "id")

	wrongPattern := append([]byte{}, formed...)
	wrongPattern[1] = 1
	_, err = DecodeCokeOven(RCTile{ID: CokeOvenMachineID, Body: wrongPattern})
	requireDecodeErr(t, err, proto17.ErrInvalid, msgRCCoke, "patternIndex")

	for _, cell := range [][3]byte{{0, 1, 2}, {2, 0, 2}, {2, 1, 4}, {0xff, 1, 1}} {
		b := append([]byte{}, formed...)
		copy(b[2:5], cell[:])
		pe := requireDecodeErr(t, mustErr(DecodeCokeOven(RCTile{ID: CokeOvenMachineID, Body: b})),
			proto17.ErrInvalid, msgRCCoke, "pattern position")
		assert.Equal(t, 2, pe.Offset)
	}
	// An unformed brick carries no pattern bytes: five bytes more is trailing.
	_, err = DecodeCokeOven(RCTile{ID: CokeOvenMachineID, Body: append([]byte{0}, formed[1:]...)})
	requireDecodeErr(t, err, proto17.ErrTrailing, msgRCCoke, "end")
}

func TestDecodeRCGuiInteger(t *testing.T) {
	// Window 3, data id 1 (creosote amount of tank 0), 32000 mB.
	payload := unhex(t, `04 03 01 00007d00`)
	got, err := DecodeRCGuiInteger(payload)
	require.NoError(t, err)
	assert.Equal(t, RCGuiValue{WindowID: 3, DataID: 1, Value: 32000}, got)

	v := RCGuiValue{WindowID: 255, DataID: 2, Value: -1}
	got, err = DecodeRCGuiInteger(encRCGuiInteger(v))
	require.NoError(t, err)
	assert.Equal(t, v, got)

	at := fieldsAt(1, "type", 1, "windowId", 1, "dataId", 4, "value")
	for n := 0; n < len(payload); n++ {
		_, err := DecodeRCGuiInteger(payload[:n])
		requireDecodeErr(t, err, proto17.ErrTruncated, msgRCGuiInt, at[n])
	}
	_, err = DecodeRCGuiInteger(append(payload, 0))
	requireDecodeErr(t, err, proto17.ErrTrailing, msgRCGuiInt, "end")
	_, err = DecodeRCGuiInteger(encRCTile(1, 2, 3, 7, nil))
	requireDecodeErr(t, err, proto17.ErrInvalid, msgRCGuiInt, "type")

	typ, err := RailcraftType(payload)
	require.NoError(t, err)
	assert.Equal(t, RCGuiInteger, typ)
	_, err = RailcraftType(nil)
	requireDecodeErr(t, err, proto17.ErrTruncated, msgRailcraft, "type")
}
