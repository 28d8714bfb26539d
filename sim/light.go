package sim

import (
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// Light, as far as hostile mobs need it (config/mobs.yaml, rules.Mobs).
// The saved sky light of a position is 15 where nothing opaque stands
// above it; elsewhere it is 15 less the steps (through blocks that let
// light through) to the nearest position that sees the sky, as
// World.computeLightValue spreads it. Block light is the brightest source
// within reach less the blocks between (counted as steps in x, y and z;
// walls between the source and the position are not subtracted, so a
// torch lights the far side of a thin wall too — the simulator's one
// simplification here). Leaves and glass let light through whole; water
// does too (vanilla takes 3 a block in water). Results are kept until the
// next action changes the world (lightReset).

// lightReach is how far light spreads: a level of 15 is gone after 15
// steps.
const lightReach = 15

// lightCache keeps what an action's time has computed.
type lightCache struct {
	sky map[world.BlockPos]int8 // saved sky light
	blk map[world.BlockPos]int8 // block light
	top map[[2]int]int          // highest opaque block of a column (−1: none)
}

func (s *Sim) lightReset() {
	s.light = lightCache{sky: map[world.BlockPos]int8{}, blk: map[world.BlockPos]int8{}, top: map[[2]int]int{}}
}

// opaque reports whether a block stops light: every block with a collision
// box but leaves and glass.
func (s *Sim) opaque(tx *world.Tx, p world.BlockPos) bool {
	b := tx.BlockAt(p)
	switch b.ID {
	case "minecraft:leaves", "minecraft:leaves2", "minecraft:glass", "minecraft:glass_pane", "minecraft:stained_glass", "minecraft:stained_glass_pane":
		return false
	}
	switch (grid{s, tx}).Cell(p.X, p.Y, p.Z) {
	case path.Solid, path.Fence, path.Slab:
		return true
	}
	return false
}

// skyTop is the highest opaque block in the column (x, z), −1 when none.
func (s *Sim) skyTop(tx *world.Tx, x, z int) int {
	k := [2]int{x, z}
	if y, ok := s.light.top[k]; ok {
		return y
	}
	y := 255
	for ; y >= 0; y-- {
		if s.opaque(tx, world.Pos(x, y, z)) {
			break
		}
	}
	s.light.top[k] = y
	return y
}

// seesSky reports whether nothing opaque stands above p.
func (s *Sim) seesSky(tx *world.Tx, p world.BlockPos) bool { return p.Y > s.skyTop(tx, p.X, p.Z) }

// skyLight is the saved sky light at p (before the night takes its part).
func (s *Sim) skyLight(tx *world.Tx, p world.BlockPos) int {
	if v, ok := s.light.sky[p]; ok {
		return int(v)
	}
	v := s.spreadSky(tx, p)
	s.light.sky[p] = int8(v)
	return v
}

var lightSteps = [6]world.BlockPos{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {Z: 1}, {Z: -1}}

// spreadSky searches outwards from p, breadth first through blocks that
// let light through, for the nearest position that sees the sky.
func (s *Sim) spreadSky(tx *world.Tx, p world.BlockPos) int {
	if s.seesSky(tx, p) {
		return lightReach
	}
	if s.opaque(tx, p) {
		return 0
	}
	seen := map[world.BlockPos]bool{p: true}
	frontier := []world.BlockPos{p}
	for d := 1; d < lightReach && len(frontier) > 0; d++ {
		var next []world.BlockPos
		for _, q := range frontier {
			for _, st := range lightSteps {
				r := q.Add(st.X, st.Y, st.Z)
				if seen[r] || r.Y < 0 || r.Y > 255 || r.X < 0 || r.Z < 0 || r.X >= s.sc.SizeX || r.Z >= s.sc.SizeZ {
					continue
				}
				seen[r] = true
				if s.opaque(tx, r) {
					continue
				}
				if s.seesSky(tx, r) {
					return lightReach - d
				}
				next = append(next, r)
			}
		}
		frontier = next
	}
	return 0
}

// blockLight is the light blocks give at p: the brightest source within
// reach less the steps to it.
func (s *Sim) blockLight(tx *world.Tx, p world.BlockPos) int {
	if v, ok := s.light.blk[p]; ok {
		return int(v)
	}
	m := s.rules.Mobs
	best := 0
	for _, h := range tx.Nearest(p, lightReach, 0, func(b world.Block) bool { return m.LightOf(b.ID) > 0 }) {
		d := abs(h.Pos.X-p.X) + abs(h.Pos.Y-p.Y) + abs(h.Pos.Z-p.Z)
		best = max(best, m.LightOf(h.Block.ID)-d)
	}
	s.light.blk[p] = int8(best)
	return best
}

// lightAt is the light a mob sees at p at a sky darkness: the sky's light
// less the darkness, or the blocks' light, whichever is more
// (Chunk.getBlockLightValue).
func (s *Sim) lightAt(tx *world.Tx, p world.BlockPos, darkness int) int {
	return max(s.skyLight(tx, p)-darkness, s.blockLight(tx, p))
}

// topFilled is where spawning tries stop: 15 above the base of the
// highest section holding a block (SpawnerAnimals.func_151350_a:
// nextInt(getTopFilledSegment() + 16 − 1)).
func (s *Sim) topFilled(tx *world.Tx) int {
	top := 0
	for z := 0; z < s.sc.SizeZ; z++ {
		for x := 0; x < s.sc.SizeX; x++ {
			for y := 255; y > top; y-- {
				if !tx.BlockAt(world.Pos(x, y, z)).IsAir() {
					top = y
					break
				}
			}
		}
	}
	return top&^15 + 15
}
