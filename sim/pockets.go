package sim

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// Dirt and gravel pockets in the stone of a natural world, as GTNH's world
// generator lays them in every overworld chunk. GTNH locks the world type
// to Realistic World Gen (the modpack's config/defaultworldgenerator.cfg:
// "Lock World Generator"=true, "World Generator"=RWG; GT-New-Horizons-
// Modpack at 3b492d6), and RWG's ChunkGeneratorRealistic.populate
// (GTNewHorizons/Realistic-World-Gen, src/main/java/rwg/world/
// ChunkGeneratorRealistic.java at f066937) lays, each behind Forge's ore
// event (TerrainGen.generateOre, DIRT then GRAVEL):
//
//   - ten WorldGenMinable(Blocks.dirt, 32), each at x + rand(16),
//     rand(64), z + rand(16);
//   - then five WorldGenMinable(Blocks.gravel, 32) the same way.
//
// So every pocket lies below y 64, and a WorldGenMinable replaces stone
// only: dirt laid first keeps its cells from the gravel. (RWG's own biomes
// never run vanilla's BiomeDecorator.generateOres, whose twenty dirt and
// ten gravel veins a chunk at heights 0 to 255 a vanilla world has, MCP
// 1.7.10's BiomeDecorator.genStandardOre1 calls; only a modded biome RWG
// places through its support classes decorates as its mod does.)
//
// GregTech lets both through: GTProxy.onOreGenEvent denies only
// PREVENTED_ORES, the vanilla ores COAL, IRON, GOLD, DIAMOND, REDSTONE,
// LAPIS and QUARTZ, and adds GRAVEL and DIRT to them only when
// WorldGeneration.cfg's generateUndergroundGravelGen and
// generateUndergroundDirtGen are false (default true; GT5-Unofficial,
// src/main/java/gregtech/common/GTProxy.java at 002bca2). A player short
// of gravel digs for these pockets.
const (
	dirtVeinsPerChunk   = 10
	gravelVeinsPerChunk = 5
	pocketVeinSize      = 32
	pocketMaxY          = 64 // rand.nextInt(64): y 0 to 63
)

// pocketStream seeds the pockets apart from the terrain's generator, so the
// surface of every seed stays as it was.
const pocketStream = 0x6AB7E1

// pockets lays the dirt and gravel pockets over the whole world, chunk by
// chunk: a chunk's dirt, then its gravel.
func (s *Sim) pockets(ctx context.Context, tx *world.Tx) error {
	sc := s.sc
	rng := rand.New(rand.NewPCG(uint64(s.seed), pocketStream))
	for cz := 0; cz*16 < sc.SizeZ; cz++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("generating the dirt and gravel pockets: %w", err)
		}
		for cx := 0; cx*16 < sc.SizeX; cx++ {
			for _, gen := range []struct {
				block string
				veins int
			}{{"minecraft:dirt", dirtVeinsPerChunk}, {"minecraft:gravel", gravelVeinsPerChunk}} {
				for range gen.veins {
					x, y, z := cx*16+rng.IntN(16), rng.IntN(pocketMaxY), cz*16+rng.IntN(16)
					if err := s.minable(tx, rng, x, y, z, gen.block, pocketVeinSize); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// minable is WorldGenMinable.generate (1.7.10): a vein of n+1 blobs along
// a line of length n/4 through (x+8, y, z+8) at a random bearing, rising
// or falling by up to 2; each blob an ellipsoid of random size (up to
// n/16·2 + 1 across, largest mid-vein) whose cells of stone become block.
// Cells outside the world are skipped.
func (s *Sim) minable(tx *world.Tx, rng *rand.Rand, x, y, z int, block string, n int) error {
	nb := float64(n)
	f := rng.Float64() * math.Pi
	x0, x1 := float64(x+8)+math.Sin(f)*nb/8, float64(x+8)-math.Sin(f)*nb/8
	z0, z1 := float64(z+8)+math.Cos(f)*nb/8, float64(z+8)-math.Cos(f)*nb/8
	y0, y1 := float64(y+rng.IntN(3)-2), float64(y+rng.IntN(3)-2)
	for l := 0; l <= n; l++ {
		t := float64(l) / nb
		cx, cy, cz := x0+(x1-x0)*t, y0+(y1-y0)*t, z0+(z1-z0)*t
		size := (math.Sin(float64(l)*math.Pi/nb)+1)*(rng.Float64()*nb/16) + 1
		half := size / 2
		for bx := int(math.Floor(cx - half)); bx <= int(math.Floor(cx+half)); bx++ {
			dx := (float64(bx) + 0.5 - cx) / half
			if dx*dx >= 1 {
				continue
			}
			for by := int(math.Floor(cy - half)); by <= int(math.Floor(cy+half)); by++ {
				dy := (float64(by) + 0.5 - cy) / half
				if dx*dx+dy*dy >= 1 {
					continue
				}
				for bz := int(math.Floor(cz - half)); bz <= int(math.Floor(cz+half)); bz++ {
					dz := (float64(bz) + 0.5 - cz) / half
					if dx*dx+dy*dy+dz*dz >= 1 || bx < 0 || bz < 0 || by < 1 || bx >= s.sc.SizeX || bz >= s.sc.SizeZ {
						continue
					}
					p := world.Pos(bx, by, bz)
					if tx.BlockAt(p).ID != "minecraft:stone" {
						continue // WorldGenMinable replaces stone only
					}
					if err := s.set(tx, p, block); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}
