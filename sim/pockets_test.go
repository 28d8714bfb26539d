package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// gravelIn counts the gravel blocks of a world by where they lie: within
// the top four blocks of their column (the surface patches and the lake's
// floor) or below them, in the stone; and reports one with air under it.
func gravelIn(t *testing.T, s *sim.Sim, sizeX, sizeZ int) (surface, buried int, floating []world.BlockPos) {
	t.Helper()
	snap := look(t, s)
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
				if snap.BlockAt(p).ID != "minecraft:gravel" {
					continue
				}
				if snap.BlockAt(p.Down()).IsAir() {
					floating = append(floating, p)
				}
				if y > top-4 {
					surface++
				} else {
					buried++
				}
			}
		}
	}
	return surface, buried, floating
}

// TestGravelPockets: fresh_start's stone holds 1.7.10's gravel pockets
// (ten WorldGenMinable veins of 32 a chunk, in stone only), hundreds of
// blocks, none hanging over air; the surface is the same as without them
// (the pockets have their own random stream), and another seed lays them
// elsewhere.
func TestGravelPockets(t *testing.T) {
	sc, err := sim.Embedded("fresh_start")
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	surface, buried, floating := gravelIn(t, s, sc.SizeX, sc.SizeZ)
	assert.Empty(t, floating, "gravel over air would fall")
	assert.Equal(t, 102, surface, "the surface patches and the lake's floor, as before the pockets")
	// 36 chunks, ten veins each, a quarter of them below the ground (y
	// 0..255 against a surface near 64), a vein of 32 about 100 blocks.
	assert.True(t, buried > 4000 && buried < 12000, "the pockets of 36 chunks: %d blocks", buried)
	t.Logf("fresh_start: %d gravel blocks at the surface, %d in pockets", surface, buried)

	other, err := sim.New(sc, sim.Options{Seed: 7})
	require.NoError(t, err)
	_, buried7, _ := gravelIn(t, other, sc.SizeX, sc.SizeZ)
	assert.NotEqual(t, buried, buried7, "another seed, other pockets")
	assert.True(t, buried7 > 4000 && buried7 < 12000, "%d blocks", buried7)
}
