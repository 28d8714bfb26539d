package modnet

import (
	"testing"

	"github.com/gtnh-agent/gtnh-agent/proto17"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Examples built as GTOreAdapter.getBlock does: material id (Materials.Copper
// is 35) + 1000 × index into the series' stones, +16000 small, +8000 natural
// (GTBlockOre SMALL_ORE_META_OFFSET, NATURAL_ORE_META_OFFSET).
func TestOreFromBlock(t *testing.T) {
	for _, tc := range []struct {
		name string
		meta int
		want OreBlock
	}{
		{"gregtech:gt.blockores2", 35, OreBlock{Series: 2, Ore: Ore{Material: 35}, Legacy: true}},
		{"gregtech:gt.blockores2", 8035, OreBlock{Series: 2, Natural: true, Ore: Ore{Material: 35}, Legacy: true}},
		{"gregtech:gt.blockores2", 1035, OreBlock{Series: 2, StoneIndex: 1, Ore: Ore{Material: 35, Stone: StoneNetherrack}, Legacy: true}},
		{"gregtech:gt.blockores2", 16035, OreBlock{Series: 2, Ore: Ore{Material: 35, Small: true}, Legacy: true}},
		{"gregtech:gt.blockores2", 25035, OreBlock{Series: 2, Natural: true, StoneIndex: 1, Ore: Ore{Material: 35, Stone: StoneNetherrack, Small: true}, Legacy: true}},
		{"gregtech:gt.blockores2", 14057, OreBlock{Series: 2, Natural: true, StoneIndex: 6, Ore: Ore{Material: 57, Stone: StoneBasalt}, Legacy: true}},
		{"gregtech:gt.blockores2", 6999, OreBlock{Series: 2, StoneIndex: 6, Ore: Ore{Material: 999, Stone: StoneBasalt}, Legacy: true}},
		// Moon is index 7 of series 2: not a legacy stone.
		{"gregtech:gt.blockores2", 15035, OreBlock{Series: 2, Natural: true, StoneIndex: 7, Ore: Ore{Material: 35}}},
		{"gregtech:gt.blockores2", 31999, OreBlock{Series: 2, Natural: true, StoneIndex: 7, Ore: Ore{Material: 999, Small: true}}},
		// Series 3 index 0 is Mars.
		{"gregtech:gt.blockores3", 8035, OreBlock{Series: 3, Natural: true, Ore: Ore{Material: 35}}},
		{"gregtech:gt.blockores7", 3086, OreBlock{Series: 7, StoneIndex: 3, Ore: Ore{Material: 86}}},
	} {
		got, err := OreFromBlock(tc.name, tc.meta)
		require.NoError(t, err, "%s:%d", tc.name, tc.meta)
		assert.Equal(t, tc.want, got, "%s:%d", tc.name, tc.meta)
		assert.Equal(t, tc.meta, got.Meta(), "%s:%d round trip", tc.name, tc.meta)
		assert.Equal(t, tc.name, got.Name())
	}
}

func TestOreFromBlockRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		meta int
	}{
		{"gregtech:gt.blockores", 35},   // the tile-entity ore of 5.09.51
		{"gregtech:gt.blockores1", 35},  // no series 1
		{"gregtech:gt.blockores8", 35},  // no series 8
		{"gregtech:gt.blockores22", 35}, // not a series
		{"gregtech:gt.blockores-", 35},
		{"gregtech:gt.blockores02", 35}, // not the registry name
		{"gregtech:gt.blockores+2", 35},
		{"gregtech:gt.blockmachines", 35},
		{"gt.blockores2", 35},
		{"gregtech:gt.blockores2", 0},     // material 0, the hidden NEI entry
		{"gregtech:gt.blockores2", 8000},  // material 0
		{"gregtech:gt.blockores2", 16000}, // material 0
		{"gregtech:gt.blockores2", -1},    // a byte-cast metadata
		{"gregtech:gt.blockores2", 32000},
		{"gregtech:gt.blockores2", 32001}, // above small + natural + stone 7
		{"gregtech:gt.blockores2", 40035},
		{"gregtech:gt.blockores2", 65535},
	} {
		_, err := OreFromBlock(tc.name, tc.meta)
		assert.ErrorIs(t, err, proto17.ErrInvalid, "%s:%d", tc.name, tc.meta)
	}
}

func TestOreBlockSeries(t *testing.T) {
	for n := 2; n <= 7; n++ {
		s, ok := OreBlockSeries(OreBlock{Series: n}.Name())
		assert.True(t, ok)
		assert.Equal(t, n, s)
	}
	_, ok := OreBlockSeries("gregtech:gt.blockores")
	assert.False(t, ok)
}

func TestOreBlockName(t *testing.T) {
	d, err := DefaultData()
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		meta int
		want string
	}{
		{"gregtech:gt.blockores2", 8035, "ore:oreCopper"},
		{"gregtech:gt.blockores2", 24035, "ore:oreSmallCopper"},
		{"gregtech:gt.blockores2", 9035, "ore:oreNetherrackCopper"},
		{"gregtech:gt.blockores2", 14057, "ore:oreBasaltTin"},
		// Moon (series 2, stone 7) and the space stones: OrePrefixes.ore,
		// as GregTech registers them.
		{"gregtech:gt.blockores2", 15035, "ore:oreCopper"},
		{"gregtech:gt.blockores2", 31035, "ore:oreSmallCopper"},
		{"gregtech:gt.blockores3", 8035, "ore:oreCopper"},
		{"gregtech:gt.blockores7", 3057, "ore:oreTin"},
		{"gregtech:gt.blockores6", 23086, "ore:oreSmallGold"},
	} {
		b, err := OreFromBlock(tc.name, tc.meta)
		require.NoError(t, err)
		got, err := d.OreBlockName(b)
		require.NoError(t, err, "%s:%d", tc.name, tc.meta)
		assert.Equal(t, tc.want, got, "%s:%d", tc.name, tc.meta)
	}
	for _, tc := range []struct {
		name string
		meta int
	}{{"gregtech:gt.blockores2", 8998}, {"gregtech:gt.blockores3", 8998}} {
		b, err := OreFromBlock(tc.name, tc.meta)
		require.NoError(t, err)
		_, err = d.OreBlockName(b)
		assert.ErrorIs(t, err, ErrUnknownOre, "%s:%d: an unknown material", tc.name, tc.meta)
	}
	// Data without other_stones_prefix names only the legacy stones.
	legacyOnly := *d
	legacyOnly.Ores.OtherStonesPrefix = ""
	moon, err := OreFromBlock("gregtech:gt.blockores2", 15035)
	require.NoError(t, err)
	_, err = legacyOnly.OreBlockName(moon)
	assert.ErrorContains(t, err, "no ore name in the data")
}
