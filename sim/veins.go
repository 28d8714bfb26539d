package sim

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// GregTech's ore veins in a natural world, as GT5-Unofficial's
// GTWorldgenerator and WorldgenGTOreLayer lay them in a GTNH 2.8
// overworld (config/ores.yaml names the sources and holds the numbers).
// No vanilla ore is generated: GTNH's GregTech.cfg has DisableVanillaOres.
//
// A seed chunk is every chunk whose x and z are 1 modulo 3 (seeds up to two
// chunks outside the world reach into it, as GregTech looks two chunks
// out); each draws a mix by weight among all the overworld's mixes until
// one can be placed, and the vein spans its seed chunk and up to size - 1
// blocks around it, in nine layers from one below its bottom. So a mix is
// as high, as wide and as dense as in the game, and among the veins laid
// each mix is as common relative to the others.
//
// The scaling: a 96-block world (6 × 6 chunks) has four seeds of its own,
// and as a piece of the overworld it often holds no copper vein (80 of
// the mixes' 1,520 weight); a player walks out until one turns up. So each of the world's
// own seeds stands for Scenario.OreVeins seeds of the overworld the player
// explores: it draws that many veins and keeps the first whose ores the
// simulator places (a coal or lapis vein, whose materials the ore table
// leaves unplaced, would be bare stone here). The veins are denser than in
// the game by that much at most; which metal a vein holds keeps the game's
// odds. Seeds outside the world draw once. What also differs: the draws use this
// simulator's seeded generator, not GregTech's XSTR over the world seed,
// so a seed's veins are not the game's for that seed; a vein is placed
// when its bottom has stone at 5 of 9 cells at the seed chunk's centre
// (GregTech's test for a vein it cannot reach from the chunk it is
// generating; a vein it can reach is retried when no ore lands at all,
// which the same test approximates); the cells of materials the ore table
// leaves unplaced (no sourced harvest level) stay stone.
//
// An ore block is gregtech:gt.blockores with its harvest level as
// metadata and the ore dictionary name a client gives it as a position
// tag (ore:oreChalcopyrite; ore:oreSmallTin for a small ore).

// veinStream seeds the veins apart from the terrain and the pockets.
const veinStream = 0x0EE5

// veinLayers are the nine layers of a vein from one below its bottom:
// which of secondary, in-between and primary each may hold
// (executeWorldgenChunkified's generateLayer calls).
var veinLayers = [9][3]bool{
	{true, false, false}, {true, false, false}, {true, false, false},
	{true, true, false}, {false, true, false}, {false, true, true},
	{false, true, true}, {false, false, true}, {false, false, true},
}

// vein is a placed mix: its seed chunk, its bottom and its extent.
type vein struct {
	mix          rules.OreMix
	seedX, seedZ int // the seed chunk's first block
	bottom       int
	west, east   int // x: west ≤ x < east
	north, south int // z: north ≤ z < south
}

// oreVeins draws and places the veins of the whole world.
func (s *Sim) oreVeins(ctx context.Context, tx *world.Tx) error {
	o := s.rules.Ores
	if o == nil || len(o.Mixes()) == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(uint64(s.seed), veinStream))
	veins := s.drawVeins(tx, rng)
	maxCX, maxCZ := (s.sc.SizeX-1)/16, (s.sc.SizeZ-1)/16
	for _, v := range veins {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("generating the ore veins: %w", err)
		}
		for cz := 0; cz <= maxCZ; cz++ {
			for cx := 0; cx <= maxCX; cx++ {
				if err := s.veinChunk(tx, rng, v, cx, cz); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// drawVeins draws the veins of every seed chunk that reaches the world.
func (s *Sim) drawVeins(tx *world.Tx, rng *rand.Rand) []vein {
	o, sc := s.rules.Ores, s.sc
	grid := o.Veins.Grid
	maxCX, maxCZ := (sc.SizeX-1)/16, (sc.SizeZ-1)/16
	var veins []vein
	// Seeds up to two chunks outside the world reach into it
	// (GTWorldgenerator's MAX_VEIN_SIZE).
	for cz := -2; cz <= maxCZ+2; cz++ {
		for cx := -2; cx <= maxCX+2; cx++ {
			if mod(cx, grid) != 1 || mod(cz, grid) != 1 {
				continue
			}
			// A seed of the world's own stands for sc.OreVeins seeds of
			// the explored overworld: the first of their veins with ores
			// the simulator places is the one laid here. A seed outside
			// the world draws once.
			draws := 1
			if cx >= 0 && cx <= maxCX && cz >= 0 && cz <= maxCZ {
				draws = sc.OreVeins
			}
			for range draws {
				v, ok := s.drawVein(tx, rng, cx, cz)
				if ok && placesOre(o, v.mix) {
					veins = append(veins, v)
					break
				}
			}
		}
	}
	return veins
}

func mod(a, m int) int { return ((a % m) + m) % m }

// placesOre reports whether a mix has a material the simulator places.
func placesOre(o *rules.Ores, m rules.OreMix) bool {
	for _, name := range []string{m.Primary, m.Secondary, m.Between, m.Sporadic} {
		if _, ok := o.Material(name); ok {
			return true
		}
	}
	return false
}

// drawVein is GTWorldgenerator.generateVein's draw for one seed chunk: the
// percentage roll, then mixes drawn by weight until one whose bottom lies
// in stone, at most Attempts draws and PlacementAttempts failures.
func (s *Sim) drawVein(tx *world.Tx, rng *rand.Rand, cx, cz int) (vein, bool) {
	o := s.rules.Ores
	if rng.IntN(100) >= o.Veins.Percentage {
		return vein{}, false
	}
	mixes := o.Mixes()
	total := 0
	for _, m := range mixes {
		total += m.Weight
	}
	if total == 0 {
		return vein{}, false
	}
	failed := 0
	for i := 0; i < o.Veins.Attempts && failed < o.Veins.PlacementAttempts; i++ {
		r := rng.IntN(total)
		var mix rules.OreMix
		for _, m := range mixes {
			if r < m.Weight {
				mix = m
				break
			}
			r -= m.Weight
		}
		v := vein{mix: mix, seedX: cx * 16, seedZ: cz * 16}
		v.bottom = mix.MinY + rng.IntN(mix.MaxY-mix.MinY-5)
		v.west, v.east = v.seedX-rng.IntN(mix.Size), v.seedX+16+rng.IntN(mix.Size)
		v.north, v.south = v.seedZ-rng.IntN(mix.Size), v.seedZ+16+rng.IntN(mix.Size)
		if s.stoneAt(tx, v.seedX+7, v.bottom, v.seedZ+9) {
			return v, true
		}
		failed++
	}
	return vein{}, false
}

// stoneAt is GregTech's placement test: stone at 5 or more of the 9 cells
// from the vein's bottom up at a column. A column outside the world counts
// as the nearest column inside it (a seed outside the world is tested as
// the world's edge stands).
func (s *Sim) stoneAt(tx *world.Tx, x, bottom, z int) bool {
	x = min(max(x, 0), s.sc.SizeX-1)
	z = min(max(z, 0), s.sc.SizeZ-1)
	hits := 0
	for i := range 9 {
		if tx.BlockAt(world.Pos(x, bottom+i, z)).ID == "minecraft:stone" {
			hits++
		}
	}
	return hits >= 5
}

// veinChunk places a vein's ores in one chunk (executeWorldgenChunkified):
// the chunk's part of the vein, shifted by 2 blocks as GregTech places it,
// nine layers with the density falling with the chunk's distance from the
// seed, then the vein placer's small ores.
func (s *Sim) veinChunk(tx *world.Tx, rng *rand.Rand, v vein, cx, cz int) error {
	o := s.rules.Ores
	chunkX, chunkZ := cx*16, cz*16
	limitWest, limitEast := max(v.west, chunkX+2), min(v.east, chunkX+2+16)
	limitNorth, limitSouth := max(v.north, chunkZ+2), min(v.south, chunkZ+2+16)
	if limitWest >= limitEast || limitNorth >= limitSouth {
		return nil
	}
	dx, dz := float64(cx-v.seedX/16), float64(cz-v.seedZ/16)
	density := max(1, v.mix.Density/int(math.Sqrt(2+dx*dx+dz*dz)))
	level := v.bottom - 1
	for _, layer := range veinLayers {
		for x := limitWest; x < limitEast; x++ {
			chanceX := max(1, max(abs(v.west-x), abs(v.east-x))/density)
			for z := limitNorth; z < limitSouth; z++ {
				chanceZ := max(1, max(abs(v.south-z), abs(v.north-z))/density)
				hit := func() bool { return rng.IntN(chanceZ) == 0 || rng.IntN(chanceX) == 0 }
				var mat string
				switch {
				case layer[2] && hit():
					mat = v.mix.Primary
				case layer[1] && hit():
					mat = v.mix.Between
				case layer[0] && hit():
					mat = v.mix.Secondary
				case rng.IntN(7) == 0 && hit(): // sporadics are reduced by 1 in 7
					mat = v.mix.Sporadic
				default:
					continue
				}
				if err := s.placeOre(tx, o, x, level, z, mat, false); err != nil {
					return err
				}
			}
		}
		level++
	}
	n := (limitEast - limitWest) * (limitSouth - limitNorth) * v.mix.Density / 10 * o.Veins.SmallOres
	for range n {
		for i, mat := range []string{v.mix.Primary, v.mix.Secondary, v.mix.Between, v.mix.Sporadic} {
			x, z := rng.IntN(16)+chunkX+2, rng.IntN(16)+chunkZ+2
			y := rng.IntN(160) + 10 // y 10 to 169
			if i == 3 {
				y = rng.IntN(190) + 10 // the sporadic one up to 199
			}
			if err := s.placeOre(tx, o, x, y, z, mat, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// placeOre turns a stone cell into an ore of a placed material (GregTech
// replaces stone only); a cell outside the world, not stone, or of a
// material the table leaves unplaced stays as it is.
func (s *Sim) placeOre(tx *world.Tx, o *rules.Ores, x, y, z int, material string, small bool) error {
	m, ok := o.Material(material)
	if !ok || x < 0 || z < 0 || y < 1 || x >= s.sc.SizeX || z >= s.sc.SizeZ {
		return nil
	}
	p := world.Pos(x, y, z)
	if tx.BlockAt(p).ID != "minecraft:stone" {
		return nil
	}
	if err := tx.SetBlock(p, o.Block, m.HarvestLevel(small)); err != nil {
		return err
	}
	tx.SetBlockTags(p, []string{o.Tag(m, small)})
	return nil
}

// GregTech's meta item offsets of the small ores' drops
// (MetaGeneratedItem01's prefixes: dustImpure 3000, crushed 5000; the quest
// "Redstone, Early Game Processing" asks for crushed redstone as
// gregtech:gt.metaitem.01:5810).
const (
	gtMetaItem01    = "gregtech:gt.metaitem.01"
	dustImpureShift = 3000
	crushedShift    = 5000
)

// oreDrops is what a harvested GregTech ore gives (TileEntityOres.getDrops,
// the FortuneItem drop system, no fortune): a regular ore its raw ore; a
// small ore of a metal one crushed ore or one impure dust, even odds (its
// selector holds 15 of each: crushed 10 and flawed gem's fallback 5,
// impure dust 10 and chipped gem's 5; a natural small ore's free fortune
// of 1 adds nothing to an ore multiplier of 1). The stone dust a small ore
// adds half the time is not modelled. An ore whose material the table does
// not know gives nothing.
func (s *Sim) oreDrops(o *rules.Ores, b world.Block) []world.ItemStack {
	m, small, ok := o.MaterialOfTags(b.Tags)
	if !ok {
		return nil
	}
	if !small {
		item, meta := o.RawOre(m)
		return []world.ItemStack{s.rules.Stack(item, meta, 1)}
	}
	shift := crushedShift
	if s.rng.IntN(2) == 0 {
		shift = dustImpureShift
	}
	return []world.ItemStack{s.rules.Stack(gtMetaItem01, shift+m.ID, 1)}
}
