package fakeserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// TestSteamAgeOresIn52Format: with a 5.09.52 gregtech version the vein is
// gt.blockores2 with the ore in its metadata (natural ores), and the
// machine tiles still go out in a layout the encoder knows.
func TestSteamAgeOresIn52Format(t *testing.T) {
	o := Options{Mods: append(WithoutMod(DefaultMods(), "gregtech"), proto17.ModInfo{ModID: "gregtech", Version: "5.09.52.594"})}
	SteamAge(&o)
	f := gtFormats(o.Mods)
	assert.Equal(t, modnet.OreSourceMetadata, f.Ores)
	tile := GregTechTile(f, 1, 2, 3, bronzeBoiler.meta, 2, 0)
	got, err := modnet.DecodeTileEntity(tile[1:], f.Tile)
	require.NoError(t, err)
	assert.Equal(t, bronzeBoiler.meta, got.MetaID)

	blocks, err := modBlocks(o)
	require.NoError(t, err)
	metas := map[int]int{}
	for _, b := range blocks {
		if b.Name == OreBlock2 {
			metas[b.Meta]++
		}
		assert.NotEqual(t, OreBlock, b.Name)
	}
	// Copper (35) in stone ×3, small copper, netherrack copper; +8000 natural.
	assert.Equal(t, map[int]int{8035: 3, 24035: 1, 9035: 1}, metas)
}
