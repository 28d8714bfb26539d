package sim

import (
	"math"
	"math/rand/v2"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// The animals' pass of SpawnerAnimals.findChunksForSpawning
// (config/mobs.yaml's spawning: creature_*): in 1.7.10 a hunted-out
// countryside fills again. Every creature_interval ticks of world time,
// while the world's animals number at most creature_cap × the eligible
// chunks / cap_chunks, each inner chunk around the player (in a shuffled
// order, as Forge walks them) starts packs at a random air block; a pack
// walks pack_tries steps at that height and spawns an animal of a kind
// drawn by the creature list's weights wherever one may stand: a solid
// top below that is grass, a light above creature_light_above with
// nothing subtracted for the night, room for its body, and
// min_player_distance from the player and the world spawn. Its random
// draws come from a generator of their own (animalSpawnStream), so the
// monsters' and the world's stay as they were.

// animalSpawnStream seeds the animals' pass apart from the world's
// generator and the one that places a scenario's animals.
const animalSpawnStream = 0xA11A6

// animalRand is the animals' pass's generator, made on first use.
func (s *Sim) animalRand() *rand.Rand {
	if s.animalRng == nil {
		s.animalRng = rand.New(rand.NewPCG(uint64(s.seed), animalSpawnStream))
	}
	return s.animalRng
}

// animalsDue reports whether the animals' pass runs at a tick of world
// time (WorldServer.tick: getWorldTotalTime() % 400 == 0).
func (s *Sim) animalsDue(tick int64) bool {
	iv := int64(s.rules.Mobs.Spawning.CreatureInterval)
	return iv > 0 && tick%iv == 0
}

// animalCap is how many animals the world may hold for the animals' pass
// to run, with the player's feet at feet.
func (s *Sim) animalCap(feet world.BlockPos) int {
	sp := s.rules.Mobs.Spawning
	_, count := s.eligibleChunks(feet)
	return sp.CreatureCap * count / sp.CapChunks
}

// spawnAnimals is one animals' pass; it returns how many it spawned.
func (s *Sim) spawnAnimals(tx *world.Tx) int {
	kinds := s.animalKinds
	total := 0
	for _, k := range kinds {
		total += k.Weight
	}
	if total == 0 {
		return 0
	}
	p := tx.Player()
	feet := p.Pos.Block()
	animals := 0
	for _, mb := range s.danger.mobs {
		if mb.kind.Passive() {
			animals++
		}
	}
	// Forge's countEntities(creature, true) <= cap, checked once.
	if animals > s.animalCap(feet) {
		return 0
	}
	rng := s.animalRand()
	inner, _ := s.eligibleChunks(feet)
	order := append([][2]int(nil), inner...)
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	return s.packPass(tx, rng, order, kinds, total, max(s.spawnTop, 1), false, func(k rules.MobKind, at world.BlockPos, centre world.Vec3) bool {
		return s.animalMayStand(tx, k, at, centre)
	})
}

// animalMayStand is EntityAnimal.getCanSpawnHere at a place that passed
// canSpawnAt: grass below, a full light (nothing subtracted for the
// night) above creature_light_above, and (EntityLiving.getCanSpawnHere)
// its body clear of blocks, liquids and every other living mob's box.
func (s *Sim) animalMayStand(tx *world.Tx, k rules.MobKind, at world.BlockPos, centre world.Vec3) bool {
	sp := s.rules.Mobs.Spawning
	if tx.BlockAt(at.Down()).ID != sp.CreatureGround || s.lightAt(tx, at, 0) <= sp.CreatureLightAbove {
		return false
	}
	g := grid{s, tx}
	for dy := 0; float64(dy) < k.Height; dy++ {
		if g.Cell(at.X, at.Y+dy, at.Z) != path.Passable {
			return false
		}
	}
	for _, mb := range s.danger.mobs {
		reach := (k.Width + mb.kind.Width) / 2
		if math.Abs(mb.pos.X-centre.X) < reach && math.Abs(mb.pos.Z-centre.Z) < reach &&
			mb.pos.Y < centre.Y+k.Height && centre.Y < mb.pos.Y+mb.kind.Height {
			return false
		}
	}
	return true
}
