package sim

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// countryside: a flat 128×128 plain (8×8 chunks: an animals' cap of
// 10 × 64 / 256 = 2) at midnight, mobs on, the player at (16, 65, 112),
// extra scenario lines appended.
func countryside(t *testing.T, seed int64, extra string) *Sim {
	t.Helper()
	sc, err := ParseScenario("countryside.yaml", []byte(fmt.Sprintf(`name: countryside
seed: %d
size: {x: 128, z: 128}
generator: flat
ground_y: 64
mobs: true
night: true
time: 18000
player:
  pos: [16, 65, 112]
%s`, seed, extra)))
	require.NoError(t, err)
	s, err := New(sc, Options{})
	require.NoError(t, err)
	return s
}

// animalPass runs one animals' pass as the world's tick would, and
// returns the animals that stand in the world after it. The light the
// passes read is kept from pass to pass: nothing changes the blocks.
func animalPass(s *Sim) (spawned int, animals []*mob) {
	s.state.Update(func(tx *world.Tx) {
		spawned = s.spawnAnimals(tx)
		s.syncEntities(tx)
	})
	for _, mb := range s.danger.mobs {
		if mb.kind.Passive() {
			animals = append(animals, mb)
		}
	}
	return spawned, animals
}

// TestAnimalsComeBackUnderTheCap: with more animals than the cap (3
// against 2) no pass spawns one; with the herd hunted down to the cap the
// next passes bring new animals, and once a pass has taken the count past
// the cap the passes stop again. One pass may overshoot the cap: Forge
// checks countEntities against it once, before the pass.
func TestAnimalsComeBackUnderTheCap(t *testing.T) {
	herd := "animals:\n  - {kind: cow, count: 3, area: [[100, 20], [120, 30]]}\n"
	s := countryside(t, 3, herd)
	require.Equal(t, 2, s.animalCap(world.Pos(16, 65, 112)), "10 × 64 chunks / 256")
	for range 100 {
		n, animals := animalPass(s)
		require.Zero(t, n, "a pass over the cap")
		require.Len(t, animals, 3)
	}
	// One cow hunted: 2 left, at the cap.
	s.danger.mobs = s.danger.mobs[1:]
	passes := 0
	for ; passes < 400; passes++ {
		if n, _ := animalPass(s); n > 0 {
			break
		}
	}
	require.Less(t, passes, 400, "a hunted-out field fills again")
	_, animals := animalPass(s)
	after := len(animals)
	assert.Greater(t, after, 2, "the pass spawned past the count it started from")
	for range 100 {
		n, animals := animalPass(s)
		require.Zero(t, n, "a pass once the count is past the cap")
		require.Len(t, animals, after)
	}
}

// TestAnimalsSpawnOnLitGrassAwayFromPlayers: half the world is a stone
// field (z < 48), a stone roof at y = 67 covers the grass of 48 ≤ z < 96
// (its sky light falls one a block from the open edges: above 8 only
// within 6 blocks of them), the rest is open grass; the player stands at
// (100, 65, 112), away from the world spawn at (16, 65, 112). At midnight
// (nothing is subtracted from the light animals read) hundreds of passes
// over two seeds spawn animals, none on stone, none deep under the
// roof, none within 24 blocks of the player or of the spawn, every one on
// grass.
func TestAnimalsSpawnOnLitGrassAwayFromPlayers(t *testing.T) {
	field := `blocks:
  - {block: "minecraft:stone", from: [0, 64, 0], to: [127, 64, 47]}
  - {block: "minecraft:stone", from: [0, 67, 48], to: [127, 67, 95]}
`
	player := world.Vec3{X: 100.5, Y: 65, Z: 112.5}
	spawnAt := world.Vec3{X: 16.5, Y: 65, Z: 112.5}
	total, roofEdge, open := 0, 0, 0
	for seed := int64(1); seed <= 2; seed++ {
		s := countryside(t, seed, field)
		s.state.Update(func(tx *world.Tx) {
			p := tx.Player()
			p.Pos = player
			tx.SetPlayer(p)
		})
		for range 100 {
			if n, animals := animalPass(s); n > 0 {
				for _, a := range animals {
					total++
					c := a.pos.Block()
					s.state.Update(func(tx *world.Tx) {
						assert.Equal(t, "minecraft:grass", tx.BlockAt(c.Down()).ID, "seed %d: a %s at %v", seed, a.kind.Name, c)
					})
					assert.GreaterOrEqual(t, c.Z, 48, "seed %d: a %s on the stone field at %v", seed, a.kind.Name, c)
					assert.False(t, c.Z >= 54 && c.Z <= 89, "seed %d: a %s in the dark under the roof at %v", seed, a.kind.Name, c)
					assert.GreaterOrEqual(t, math.Sqrt(a.pos.DistSq(player)), 24.0, "seed %d: a %s %v near the player", seed, a.kind.Name, a.pos)
					assert.GreaterOrEqual(t, math.Sqrt(a.pos.DistSq(spawnAt)), 24.0, "seed %d: a %s %v near the world spawn", seed, a.kind.Name, a.pos)
					assert.Equal(t, 65.0, a.pos.Y)
					if c.Z < 96 {
						roofEdge++
					} else {
						open++
					}
				}
				// Hunted at once: the count stays under the cap.
				s.danger.mobs = s.danger.mobs[:0]
			}
		}
	}
	t.Logf("%d animals: %d on the roof's lit edge, %d in the open", total, roofEdge, open)
	assert.Greater(t, total, 30, "spawns to judge by")
	assert.Positive(t, roofEdge, "the lit edge under the roof takes animals")
	assert.Positive(t, open, "the open field takes animals")
}

// TestAnimalsSpawnBySeed: a seed gives the same animals at the same
// places pass by pass; another seed others.
func TestAnimalsSpawnBySeed(t *testing.T) {
	record := func(seed int64) []string {
		s := countryside(t, seed, "")
		var out []string
		for range 100 {
			if n, animals := animalPass(s); n > 0 {
				for _, a := range animals {
					out = append(out, fmt.Sprintf("%s %v", a.kind.Name, a.pos))
				}
				s.danger.mobs = s.danger.mobs[:0]
			}
		}
		return out
	}
	a := record(11)
	require.NotEmpty(t, a)
	assert.Equal(t, a, record(11))
	assert.NotEqual(t, a, record(12))
}

// TestAnimalMayStand: EntityAnimal.getCanSpawnHere and
// EntityLiving.getCanSpawnHere at places that pass canSpawnAt: open grass
// at midnight is fine (the light read has nothing taken off); dirt, a
// place where a sheep's box already reaches, water at a cow's head,
// and grass under a low roof are not, and a chicken (0.7 high) fits where
// a cow (1.3) does not.
func TestAnimalMayStand(t *testing.T) {
	s := countryside(t, 1, `blocks:
  - {block: "minecraft:dirt", pos: [40, 64, 40]}
  - {block: "minecraft:water", pos: [50, 66, 40]}
  - {block: "minecraft:stone", from: [70, 67, 30], to: [90, 67, 50]}
`)
	cow, _ := s.rules.Mobs.Kind("cow")
	chicken, _ := s.rules.Mobs.Kind("chicken")
	sheep, _ := s.rules.Mobs.Kind("sheep")
	s.danger.mobs = append(s.danger.mobs, &mob{id: 99, kind: sheep, pos: world.Vec3{X: 61, Y: 65, Z: 40.5}, health: 8}) // knocked to the cells' edge
	at := func(x, z int) (world.BlockPos, world.Vec3) {
		return world.Pos(x, 65, z), world.Vec3{X: float64(x) + 0.5, Y: 65, Z: float64(z) + 0.5}
	}
	s.state.Update(func(tx *world.Tx) {
		for _, c := range []struct {
			name string
			kind rules.MobKind
			x, z int
			want bool
		}{
			{"open grass at midnight", cow, 30, 40, true},
			{"dirt", cow, 40, 40, false},
			{"water at the head", cow, 50, 40, false},
			{"a chicken under the water's cell", chicken, 50, 40, true},
			{"half a sheep in the cell", cow, 60, 40, false},
			{"the sheep's other half", cow, 61, 40, false},
			{"clear of the sheep", cow, 62, 40, true},
			{"deep under the roof", cow, 80, 40, false},
			{"at the roof's edge", cow, 71, 40, true},
		} {
			p, centre := at(c.x, c.z)
			assert.Equal(t, c.want, s.animalMayStand(tx, c.kind, p, centre), c.name)
		}
	})
}
