package modnet

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// GregTech ores from GregTech 5.09.52.25 on (GT5-Unofficial's ore refactor,
// PRs #3662/#4984) are plain blocks without a tile entity; the block's
// metadata names the ore. Sources in GT5-Unofficial:
//
//   - gregtech.common.blocks.GTBlockOre: the constructor registers
//     "gt.blockores" + series (GTGenericBlock → GameRegistry.registerBlock,
//     so "gregtech:gt.blockoresN"); getMaterialIndex = meta % 1000,
//     getStoneIndex = meta % 16000 % 8000 / 1000 into the block's own
//     stoneTypes (at most 8), isSmallOre = meta >= 16000, isNatural =
//     meta % 16000 >= 8000 (SMALL_ORE_META_OFFSET 16000,
//     NATURAL_ORE_META_OFFSET 8000).
//   - gregtech.common.ores.GTOreAdapter.init: the series 2 … 7 and their
//     stones; series 2 is Stone, Netherrack, Endstone, BlackGranite,
//     RedGranite, Marble, Basalt, Moon, whose first seven are the legacy
//     stones of the old TileEntityOres metadata (legacyStones) in the same
//     order; getBlock builds meta = material + 1000·stone (+16000 small,
//     +8000 natural); getOreInfo refuses a negative meta ("incompatible with
//     NEID": the metadata needs NotEnoughIds' 16 bits).

// Ore block series of GTOreAdapter.init (gt.blockores2 … gt.blockores7).
const (
	oreBlockPrefix       = "gregtech:gt.blockores"
	oreSeriesFirst       = 2
	oreSeriesLast        = 7
	oreSmallOffset       = 16000
	oreNaturalOffset     = 8000
	oreMetaLimit         = oreSmallOffset + oreSmallOffset // 32000
	oreLegacyStoneSeries = 2                               // the series whose stones 0-6 are the legacy stones
	oreLegacyStones      = StoneBasalt + 1
)

// OreBlock is one GregTech ore block of the metadata format.
type OreBlock struct {
	Series     int  // N of gregtech:gt.blockoresN (2-7)
	StoneIndex int  // index into the series' stones (0-7)
	Natural    bool // placed by world generation
	// Ore is the material, stone and small flag; Ore.Stone is the legacy
	// stone id (StoneStone … StoneBasalt), meaningful when Legacy is set.
	Ore Ore
	// Legacy is set when the stone is one of the seven legacy stones (series
	// 2, index 0-6), which config/gregtech.yaml names one by one; the other
	// stones (Moon, the space stones of series 3-7) share one prefix
	// (OreNames.OtherStonesPrefix).
	Legacy bool
}

// OreBlockSeries reports whether name is a GregTech ore block of the
// metadata format and its series.
func OreBlockSeries(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, oreBlockPrefix)
	if !ok || len(rest) != 1 {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < oreSeriesFirst || n > oreSeriesLast {
		return 0, false
	}
	return n, true
}

// OreFromBlock maps a block name and its metadata to the ore it is, in the
// metadata format (OreSourceMetadata); see GTBlockOre. A name that is not an
// ore block, a metadata value outside 1..31999 or material 0 is an error.
func OreFromBlock(name string, meta int) (OreBlock, error) {
	series, ok := OreBlockSeries(name)
	if !ok {
		return OreBlock{}, proto17.Invalidf("block %q is not a GregTech ore block (gregtech:gt.blockores2-7)", name)
	}
	if meta <= 0 || meta >= oreMetaLimit {
		return OreBlock{}, proto17.Invalidf("ore metadata %d outside 1..%d", meta, oreMetaLimit-1)
	}
	b := OreBlock{
		Series:     series,
		StoneIndex: meta % oreSmallOffset % oreNaturalOffset / 1000,
		Natural:    meta%oreSmallOffset >= oreNaturalOffset,
	}
	b.Ore = Ore{Material: meta % 1000, Small: meta >= oreSmallOffset}
	if b.Ore.Material == 0 {
		return OreBlock{}, proto17.Invalidf("ore metadata %d has material 0", meta)
	}
	if series == oreLegacyStoneSeries && b.StoneIndex < oreLegacyStones {
		b.Legacy, b.Ore.Stone = true, b.StoneIndex
	}
	return b, nil
}

// Meta is the inverse of OreFromBlock's metadata split (GTOreAdapter.getBlock).
func (b OreBlock) Meta() int {
	m := b.Ore.Material + 1000*b.StoneIndex
	if b.Ore.Small {
		m += oreSmallOffset
	}
	if b.Natural {
		m += oreNaturalOffset
	}
	return m
}

// Name is the block's registry name.
func (b OreBlock) Name() string { return oreBlockPrefix + strconv.Itoa(b.Series) }

// OreBlockName is the ore dictionary name of an ore block of the metadata
// format (config/gregtech.yaml, as OreName). The legacy stones have their
// own prefixes; the others (Moon, the space stones) share
// OtherStonesPrefix (GregTech's StoneType leaves them OrePrefixes.ore), and
// without it in the data they are an error. A small ore is named with the
// small prefix whatever its stone.
func (d *Data) OreBlockName(b OreBlock) (string, error) {
	if b.Legacy {
		return d.OreName(b.Ore)
	}
	if d.Ores.OtherStonesPrefix == "" {
		return "", fmt.Errorf("gregtech ore %s:%d: stone %d of series %d has no ore name in the data", b.Name(), b.Meta(), b.StoneIndex, b.Series)
	}
	mat, ok := d.Ores.Materials[b.Ore.Material]
	if !ok {
		return "", fmt.Errorf("%w: material %d", ErrUnknownOre, b.Ore.Material)
	}
	prefix := d.Ores.OtherStonesPrefix
	if b.Ore.Small {
		prefix = d.Ores.SmallPrefix
	}
	return "ore:" + prefix + mat, nil
}
