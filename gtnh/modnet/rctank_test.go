package modnet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

func TestDecodeWaterTankFixture(t *testing.T) {
	// The master (pattern cell 2,1,2) of a formed water tank at (10, 70,
	// -5) holding 20 000 mB of water (fluid id 1, colour 0xffffff). Written
	// by hand from PacketTileEntity.writeData, TileMultiBlock.writePacketData
	// and TankManager.writePacketData.
	payload := unhex(t, `00 0000000a 00000046 fffffffb 000e
		01 00 02 01 02
		0001 00004e20 00ffffff`)
	tile, err := DecodeRCTile(payload)
	require.NoError(t, err)
	assert.Equal(t, int16(WaterTankMachineID), tile.ID)
	w, err := DecodeWaterTank(tile)
	require.NoError(t, err)
	assert.Equal(t, WaterTank{X: 10, Y: 70, Z: -5, Formed: true, PatternX: 2, PatternY: 1, PatternZ: 2,
		Fluid: &TankFluid{ID: 1, Amount: 20000, Color: 0xffffff}}, w)
	assert.True(t, w.IsMaster())
	assert.Equal(t, 20000, w.Water())
	x, y, z, ok := w.Master()
	require.True(t, ok)
	assert.Equal(t, [3]int32{10, 70, -5}, [3]int32{x, y, z})

	// Another block of the same tank writes its own, empty tank: fluid -1.
	wall := unhex(t, `00 00000009 00000048 fffffffa 000e
		01 00 01 03 01
		ffff`)
	w, err = DecodeWaterTank(mustTile(t, wall))
	require.NoError(t, err)
	assert.Nil(t, w.Fluid)
	assert.Zero(t, w.Water())
	assert.False(t, w.IsMaster())
	x, y, z, ok = w.Master()
	require.True(t, ok)
	assert.Equal(t, [3]int32{10, 70, -5}, [3]int32{x, y, z})
}

func TestWaterTankMaster(t *testing.T) {
	// Every block of the hollow 3×3×3 points at the same master; the
	// centre is air and is not a block of the tank.
	for px := int8(1); px <= 3; px++ {
		for py := int8(1); py <= 3; py++ {
			for pz := int8(1); pz <= 3; pz++ {
				b := WaterTank{X: 10 + int32(px) - 2, Y: 70 + int32(py) - 1, Z: -5 + int32(pz) - 2,
					Formed: true, PatternX: px, PatternY: py, PatternZ: pz}
				got, err := DecodeWaterTank(mustTile(t, encWaterTank(b)))
				if px == 2 && py == 2 && pz == 2 {
					requireDecodeErr(t, err, proto17.ErrInvalid, msgRCTank, "pattern position")
					continue
				}
				require.NoError(t, err)
				assert.Equal(t, b, got)
				mx, my, mz, _ := got.Master()
				assert.Equal(t, [3]int32{10, 70, -5}, [3]int32{mx, my, mz}, "cell %d,%d,%d", px, py, pz)
				assert.Equal(t, px == 2 && py == 1 && pz == 2, got.IsMaster())
			}
		}
	}
	loose := WaterTank{X: 1, Y: 2, Z: 3, Fluid: &TankFluid{ID: 1, Amount: 5}}
	got, err := DecodeWaterTank(mustTile(t, encWaterTank(loose)))
	require.NoError(t, err)
	assert.Equal(t, loose, got)
	assert.False(t, got.IsMaster())
	_, _, _, ok := got.Master()
	assert.False(t, ok)
}

func TestDecodeWaterTankErrors(t *testing.T) {
	full := WaterTank{Formed: true, PatternX: 2, PatternY: 1, PatternZ: 2, Fluid: &TankFluid{ID: 1, Amount: 5, Color: 7}}
	body := encWaterTankBody(full)
	at := fieldsAt(1, "hasMaster", 1, "patternIndex", 1, "patternX", 1, "patternY", 1, "patternZ", 2, "fluidId", 4, "amount", 4, "color")
	require.Len(t, body, len(at))
	for n := 0; n < len(body); n++ {
		_, err := DecodeWaterTank(RCTile{ID: WaterTankMachineID, Body: body[:n]})
		requireDecodeErr(t, err, proto17.ErrTruncated, msgRCTank, at[n])
	}
	_, err := DecodeWaterTank(RCTile{ID: WaterTankMachineID, Body: append(body, 0)})
	requireDecodeErr(t, err, proto17.ErrTrailing, msgRCTank, "end")
	_, err = DecodeWaterTank(RCTile{ID: CokeOvenMachineID, Body: body})
	requireDecodeErr(t, err, proto17.ErrInvalid, msgRCTank, "id")

	wrongPattern := append([]byte{}, body...)
	wrongPattern[1] = 1
	_, err = DecodeWaterTank(RCTile{ID: WaterTankMachineID, Body: wrongPattern})
	requireDecodeErr(t, err, proto17.ErrInvalid, msgRCTank, "patternIndex")
	for _, cell := range [][3]byte{{0, 1, 2}, {2, 4, 2}, {2, 2, 2}, {0x80, 1, 1}} {
		b := append([]byte{}, body...)
		copy(b[2:5], cell[:])
		pe := requireDecodeErr(t, mustErr(DecodeWaterTank(RCTile{ID: WaterTankMachineID, Body: b})),
			proto17.ErrInvalid, msgRCTank, "pattern position")
		assert.Equal(t, 2, pe.Offset)
	}
	for _, amount := range []int32{-1, WaterTankCapacity + 1} {
		f := full
		f.Fluid = &TankFluid{ID: 1, Amount: amount}
		pe := requireDecodeErr(t, mustErr(DecodeWaterTank(RCTile{ID: WaterTankMachineID, Body: encWaterTankBody(f)})),
			proto17.ErrInvalid, msgRCTank, "amount")
		assert.Equal(t, 7, pe.Offset)
	}
	f := full
	f.Fluid = &TankFluid{ID: 1, Amount: WaterTankCapacity}
	_, err = DecodeWaterTank(RCTile{ID: WaterTankMachineID, Body: encWaterTankBody(f)})
	require.NoError(t, err, "a full tank")
	neg := append(encWaterTankBody(WaterTank{}), 0, 0, 0, 0)
	neg[1], neg[2] = 0xff, 0xfe // fluid id -2
	_, err = DecodeWaterTank(RCTile{ID: WaterTankMachineID, Body: neg})
	requireDecodeErr(t, err, proto17.ErrInvalid, msgRCTank, "fluidId")
	// An empty tank has no amount or colour: anything after the -1 is
	// trailing.
	_, err = DecodeWaterTank(RCTile{ID: WaterTankMachineID, Body: append(encWaterTankBody(WaterTank{}), 0)})
	requireDecodeErr(t, err, proto17.ErrTrailing, msgRCTank, "end")
}
