package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// pocketBlocks counts a world's gravel and dirt by where they lie: gravel
// within the top four blocks of its column (the surface patches, the
// lake's floor, the stone just under the lake and the outcrop) or below
// them, and the dirt below them (the terrain's own dirt is the three
// blocks under the grass); it reports the highest buried block, and any
// gravel with air under it.
type pocketBlocks struct {
	surfaceGravel, buriedGravel, buriedDirt int
	highest, deep                           int // deep: the buried blocks at y 1 to 4
	floating                                []world.BlockPos
}

func countPockets(t *testing.T, s *sim.Sim, sizeX, sizeZ int) pocketBlocks {
	t.Helper()
	snap := look(t, s)
	var c pocketBlocks
	for x := 0; x < sizeX; x++ {
		for z := 0; z < sizeZ; z++ {
			top := 0
			for y := 255; y > 0; y-- {
				if b := snap.BlockAt(world.Pos(x, y, z)); !b.IsAir() && b.ID != "minecraft:water" {
					top = y
					break
				}
			}
			for y := 1; y <= top; y++ {
				p := world.Pos(x, y, z)
				id := snap.BlockAt(p).ID
				if id == "minecraft:gravel" && snap.BlockAt(p.Down()).IsAir() {
					c.floating = append(c.floating, p)
				}
				switch {
				case id == "minecraft:gravel" && y > top-4:
					c.surfaceGravel++
				case id == "minecraft:gravel":
					c.buriedGravel++
				case id == "minecraft:dirt" && y <= top-4:
					c.buriedDirt++
				default:
					continue
				}
				if y <= top-4 {
					c.highest = max(c.highest, y)
					if y <= 4 {
						c.deep++
					}
				}
			}
		}
	}
	return c
}

// TestPockets: fresh_start's stone holds the dirt and gravel pockets of
// GTNH's world generator (RWG: ten dirt and five gravel WorldGenMinable
// veins of 32 a chunk, at heights 0 to 63, in stone only, dirt first):
// thousands of blocks of each, none buried above the veins' reach (a vein
// rises up to 2 blocks from its height, a blob up to 2.5 more), no gravel
// hanging over air, the lowest down to the bedrock; another seed lays them elsewhere.
func TestPockets(t *testing.T) {
	sc, err := sim.Embedded("fresh_start")
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	c := countPockets(t, s, sc.SizeX, sc.SizeZ)
	t.Logf("fresh_start: %d gravel blocks in the top four of their column, %d gravel and %d dirt below, the highest at y %d, %d at y 1 to 4",
		c.surfaceGravel, c.buriedGravel, c.buriedDirt, c.highest, c.deep)
	assert.Empty(t, c.floating, "gravel over air would fall")
	// 36 chunks: 180 gravel veins of about 80 blocks where dirt has not
	// taken the stone, 360 dirt veins.
	assert.True(t, c.buriedGravel > 11000 && c.buriedGravel < 15500, "the gravel pockets of 36 chunks: %d blocks", c.buriedGravel)
	assert.True(t, c.buriedDirt > 24000 && c.buriedDirt < 38000, "the dirt pockets of 36 chunks: %d blocks", c.buriedDirt)
	assert.LessOrEqual(t, c.highest, 67, "no pocket above y 63 + 2 + 2.5")
	// Veins from y 0 up: some reach the stone just above the bedrock.
	assert.Greater(t, c.deep, 1000, "pockets at y 1 to 4")

	if testing.Short() {
		t.Skip("another seed's world takes 2 s more; the default seed's pockets are checked above")
	}
	other, err := sim.New(sc, sim.Options{Seed: 7})
	require.NoError(t, err)
	c7 := countPockets(t, other, sc.SizeX, sc.SizeZ)
	t.Logf("seed 7: %d gravel and %d dirt below", c7.buriedGravel, c7.buriedDirt)
	assert.NotEqual(t, c.buriedGravel, c7.buriedGravel, "another seed, other pockets")
	assert.True(t, c7.buriedGravel > 11000 && c7.buriedGravel < 15500, "%d blocks", c7.buriedGravel)
}
