package modnet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

func TestDecodeMetalTankFixture(t *testing.T) {
	// The master (pattern 0: 3×3 inside, 4 high; cell 2,0,2 with stacking
	// allowed) of a formed iron tank at (20, 64, 4), white (15), holding
	// 100 000 mB of fluid id 1. Written by hand from
	// PacketTileEntity.writeData, TileMultiBlock.writePacketData and
	// TileTankBase.writePacketData.
	payload := unhex(t, `00 00000014 00000040 00000004 0000
		01 00 02 00 02
		0f
		0001 000186a0 00ffffff`)
	tile, err := DecodeRCTile(payload)
	require.NoError(t, err)
	m, err := DecodeMetalTank(tile)
	require.NoError(t, err)
	assert.Equal(t, MetalTank{X: 20, Y: 64, Z: 4, Formed: true, PatternX: 2, PatternZ: 2, Color: 15,
		Fluid: &TankFluid{ID: 1, Amount: 100000, Color: 0xffffff}}, m)
	assert.True(t, m.IsMaster())
	assert.Equal(t, 100000, m.Amount())
	assert.Equal(t, 3*3*4*16000, m.Capacity())

	// A gauge of a steel tank: its own empty tank.
	gauge := unhex(t, `00 00000013 00000042 00000004 000e
		01 00 01 02 02
		0f
		ffff`)
	m, err = DecodeMetalTank(mustTile(t, gauge))
	require.NoError(t, err)
	assert.True(t, m.Steel)
	assert.False(t, m.IsMaster())
	assert.Nil(t, m.Fluid)
	assert.Equal(t, 3*3*4*32000, m.Capacity())
}

func TestMetalTankPatterns(t *testing.T) {
	// Pattern index = 5 × base group + height − 4 (TileTankBase.buildPatterns).
	for p := int8(0); p < MetalTankPatterns; p++ {
		n, h, c := metalPattern(p)
		wantN := []int8{3, 5, 7, 9}[p/5]
		require.Equal(t, wantN, n, "pattern %d", p)
		require.Equal(t, 4+p%5, h, "pattern %d", p)
		require.Equal(t, (wantN+1)/2, c, "pattern %d: the centre of 1..n", p)
		iron := MetalTank{Formed: true, Pattern: p}
		steel := MetalTank{Formed: true, Pattern: p, Steel: true}
		require.Equal(t, int(n)*int(n)*int(h)*16000, iron.Capacity())
		require.Equal(t, 2*iron.Capacity(), steel.Capacity())
		// The master is the bottom centre under either stacking setting;
		// no other cell is.
		for y := int8(0); y <= h; y++ {
			for x := int8(1); x <= n; x++ {
				for z := int8(1); z <= n; z++ {
					b := MetalTank{Formed: true, Pattern: p, PatternX: x, PatternY: y, PatternZ: z}
					want := x == c && z == c && y <= 1
					require.Equal(t, want, b.IsMaster(), "pattern %d cell %d,%d,%d", p, x, y, z)
					_, err := DecodeMetalTank(mustTile(t, encMetalTank(b)))
					air := x > 1 && x < n && z > 1 && z < n && y >= 2 && y <= h-2
					if air {
						requireDecodeErr(t, err, proto17.ErrInvalid, msgRCMetalTank, "pattern position")
						continue
					}
					require.NoError(t, err)
				}
			}
		}
	}
	assert.Equal(t, 9*9*8*32000, MaxMetalTankCapacity)
	assert.Equal(t, MaxMetalTankCapacity, MetalTank{Formed: true, Pattern: 19, Steel: true}.Capacity())
	assert.False(t, MetalTank{PatternX: 2, PatternZ: 2}.IsMaster(), "not formed")
}

func TestDecodeMetalTankErrors(t *testing.T) {
	master := MetalTank{Formed: true, PatternX: 2, PatternZ: 2, Color: 15}
	full := master
	full.Fluid = &TankFluid{ID: 1, Amount: 3 * 3 * 4 * 16000}
	over := master
	over.Fluid = &TankFluid{ID: 1, Amount: 3*3*4*16000 + 1}
	wall := MetalTank{Formed: true, PatternX: 1, PatternY: 3, PatternZ: 1, Fluid: &TankFluid{ID: 1, Amount: MaxMetalTankCapacity}}
	_, err := DecodeMetalTank(mustTile(t, encMetalTank(full)))
	require.NoError(t, err)
	_, err = DecodeMetalTank(mustTile(t, encMetalTank(wall)))
	require.NoError(t, err)
	wall.Fluid.Amount++
	for _, tc := range []struct {
		name    string
		payload []byte
		cause   error
		field   string
	}{
		{"metals chest id", encRCTile(1, 2, 3, 12, encMetalTankBody(master)), proto17.ErrInvalid, "id"},
		{"boiler id", encRCTile(1, 2, 3, 3, encMetalTankBody(master)), proto17.ErrInvalid, "id"},
		{"pattern 20", encMetalTank(MetalTank{Formed: true, Pattern: 20, PatternX: 1, PatternZ: 1}), proto17.ErrInvalid, "patternIndex"},
		{"pattern -1", encMetalTank(MetalTank{Formed: true, Pattern: -1, PatternX: 1, PatternZ: 1}), proto17.ErrInvalid, "patternIndex"},
		{"x 0", encMetalTank(MetalTank{Formed: true, PatternX: 0, PatternZ: 1}), proto17.ErrInvalid, "pattern position"},
		{"x past 3", encMetalTank(MetalTank{Formed: true, PatternX: 4, PatternZ: 1}), proto17.ErrInvalid, "pattern position"},
		{"z past 3", encMetalTank(MetalTank{Formed: true, PatternX: 1, PatternZ: 4}), proto17.ErrInvalid, "pattern position"},
		{"y over 4", encMetalTank(MetalTank{Formed: true, PatternX: 1, PatternY: 5, PatternZ: 1}), proto17.ErrInvalid, "pattern position"},
		{"air inside", encMetalTank(MetalTank{Formed: true, PatternX: 2, PatternY: 2, PatternZ: 2}), proto17.ErrInvalid, "pattern position"},
		{"y -1", encMetalTank(MetalTank{Formed: true, PatternX: 1, PatternY: -1, PatternZ: 1}), proto17.ErrInvalid, "pattern position"},
		{"colour 16", encMetalTank(MetalTank{Color: 16}), proto17.ErrInvalid, "color"},
		{"colour -1", encMetalTank(MetalTank{Color: -1}), proto17.ErrInvalid, "color"},
		{"over the master's capacity", encMetalTank(over), proto17.ErrInvalid, "amount"},
		{"over the largest tank", encMetalTank(wall), proto17.ErrInvalid, "amount"},
		{"negative amount", encMetalTank(MetalTank{Fluid: &TankFluid{ID: 1, Amount: -1}}), proto17.ErrInvalid, "amount"},
		{"fluid id -2", encMetalTank(MetalTank{Fluid: &TankFluid{ID: -2}}), proto17.ErrInvalid, "fluidId"},
		{"no colour", encRCTile(1, 2, 3, IronTankWallID, []byte{0}), proto17.ErrTruncated, "color"},
		{"trailing", append(encMetalTank(master), 0), proto17.ErrTrailing, "end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeMetalTank(mustTile(t, tc.payload))
			requireDecodeErr(t, err, tc.cause, msgRCMetalTank, tc.field)
		})
	}
	for _, id := range []int16{IronTankWallID, IronTankGaugeID, IronTankValveID, SteelTankWallID, SteelTankGaugeID, SteelTankValveID} {
		m, err := DecodeMetalTank(mustTile(t, encRCTile(1, 2, 3, id, encMetalTankBody(master))))
		require.NoError(t, err, "id %d", id)
		assert.Equal(t, id >= SteelTankWallID, m.Steel, "id %d", id)
	}
}
