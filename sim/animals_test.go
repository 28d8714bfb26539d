package sim_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// pasture: a flat 32×32 plain (grass at 64), the player at (16, 65, 16)
// with the inventory lines given, sheep placed by animals: in the area
// given, mobs on or off.
func pasture(t *testing.T, seed int64, mobsOn bool, animals, inventory string) *sim.Sim {
	t.Helper()
	sc, err := sim.ParseScenario("pasture.yaml", []byte(fmt.Sprintf(`name: pasture
seed: %d
size: {x: 32, z: 32}
generator: flat
ground_y: 64
mobs: %v
night: true
time: 18000
player:
  pos: [16, 65, 16]
  inventory: [%s]
animals:
%s`, seed, mobsOn, inventory, animals)))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

func sheep(snap *world.Snapshot) []world.Entity {
	var out []world.Entity
	for _, e := range mobs(snap) {
		if e.Name == "sheep" {
			out = append(out, e)
		}
	}
	return out
}

// TestAnimalsArePlacedOnTheGrass: the scenario's sheep stand on the grass
// of their area, one a column, with EntitySheep's 8 health; the same seed
// places them alike, another seed elsewhere.
func TestAnimalsArePlacedOnTheGrass(t *testing.T) {
	const area = "  - {kind: sheep, count: 6, area: [[4, 4], [12, 12]]}\n"
	s := pasture(t, 7, false, area, "")
	got := sheep(look(t, s))
	require.Len(t, got, 6)
	cols := map[[2]int]bool{}
	for _, e := range got {
		assert.Equal(t, 65.0, e.Pos.Y, "feet on the grass at 64")
		assert.True(t, e.Pos.X >= 4 && e.Pos.X < 13 && e.Pos.Z >= 4 && e.Pos.Z < 13, "%v outside the area", e.Pos)
		assert.Equal(t, 8.0, e.Health)
		c := [2]int{int(e.Pos.X), int(e.Pos.Z)}
		assert.False(t, cols[c], "two sheep in column %v", c)
		cols[c] = true
	}
	assert.Equal(t, got, sheep(look(t, pasture(t, 7, false, area, ""))))
	assert.NotEqual(t, got, sheep(look(t, pasture(t, 8, false, area, ""))))
}

// TestAnimalsNeedGrassAndAColumnEach: sheep are placed only on grass, and
// no more of them than the area has columns.
func TestAnimalsNeedGrassAndAColumnEach(t *testing.T) {
	s := pasture(t, 4, false, "  - {kind: sheep, count: 20, area: [[4, 4], [12, 12]]}\nblocks:\n  - {block: minecraft:stone, from: [4, 64, 4], to: [12, 64, 10]}\n", "")
	got := sheep(look(t, s))
	require.NotEmpty(t, got)
	for _, e := range got {
		assert.GreaterOrEqual(t, e.Pos.Z, 11.0, "%v stands on stone", e.Pos)
	}
	s = pasture(t, 4, false, "  - {kind: sheep, count: 4, area: [[4, 4], [6, 4]]}\n", "")
	assert.Len(t, sheep(look(t, s)), 3, "three columns, one sheep each")
}

// TestSheepStayAtNightAndAttackNobody: with the dangers on at midnight,
// sheep neither move, hurt the player nor despawn, and the night's
// spawning brings no new sheep.
func TestSheepStayAtNightAndAttackNobody(t *testing.T) {
	s := pasture(t, 3, true, "  - {kind: sheep, count: 4, area: [[14, 14], [18, 18]]}\n", "")
	before := sheep(look(t, s))
	require.Len(t, before, 4)
	wait(t, s, 2000)
	snap := look(t, s)
	assert.Equal(t, before, sheep(snap), "the same sheep, where they were")
	assert.Equal(t, 20.0, snap.Player.Health, "nothing hurt the player")
}

// TestKillingASheepDropsOneWool: a wooden sword kills a sheep in two hits
// (5 + 5 against 8 health, the second after the hurt resistance wore off,
// in a world without the dangers too), and the white wool it drops where
// it died is picked up by walking to it.
func TestKillingASheepDropsOneWool(t *testing.T) {
	s := pasture(t, 5, false, "  - {kind: sheep, count: 1, area: [[17, 16], [17, 16]]}\n",
		`{item: minecraft:wooden_sword, count: 1, durability: 59, max_durability: 59}`)
	got := sheep(look(t, s))
	require.Len(t, got, 1)
	id := got[0].ID
	r := s.Execute(context.Background(), action.Attack{Entity: id})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, 3.0, r.Details["health"])
	r = s.Execute(context.Background(), action.Attack{Entity: id})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, true, r.Details["killed"], "the second hit counts in full")
	snap := look(t, s)
	assert.Empty(t, sheep(snap))
	drops := snap.EntitiesOfKind(world.EntityItem)
	require.Len(t, drops, 1, "the wool lies where the sheep died, knocked back by the first hit")
	assert.Greater(t, drops[0].Pos.X, 18.0)
	r = s.Execute(context.Background(), action.MoveTo{Pos: drops[0].Pos.Block(), Radius: 1})
	require.True(t, r.OK(), r.Error)
	wait(t, s, 10)
	snap = look(t, s)
	assert.Equal(t, 1, snap.Inventory.Count(world.MustItem("minecraft:wool:0")), "one white wool")
	assert.Equal(t, ipc.InvalidParams, s.Execute(context.Background(), action.Attack{Entity: id}).Code, "the sheep is gone")
}

// TestAnimalsErrors: an animals entry is checked where it is written and,
// for its kind, when the world is made.
func TestAnimalsErrors(t *testing.T) {
	for _, c := range []struct{ name, animals, want string }{
		{"no area", "  - {kind: sheep, count: 2}\n", "animals[0].area: required field is missing"},
		{"count", "  - {kind: sheep, count: 0, area: [[1, 1], [4, 4]]}\n", "animals[0].count: must be within 1..1000, got 0"},
		{"outside", "  - {kind: sheep, count: 1, area: [[1, 1], [40, 4]]}\n", "animals[0].area[1]: [40, 4] is outside the world"},
		{"column", "  - {kind: sheep, count: 1, area: [[1, 1, 1], [4, 4]]}\n", "animals[0].area[0]: a column is [x, z]"},
		{"unknown field", "  - {kind: sheep, count: 1, area: [[1, 1], [4, 4]], colour: red}\n", "colour"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := sim.ParseScenario("a.yaml", []byte("name: a\nseed: 1\nsize: {x: 32, z: 32}\ngenerator: flat\nground_y: 64\nplayer:\n  pos: [16, 65, 16]\nanimals:\n"+c.animals))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), "a.yaml:")
		})
	}
	sc, err := sim.ParseScenario("a.yaml", []byte("name: a\nseed: 1\nsize: {x: 32, z: 32}\ngenerator: flat\nground_y: 64\nplayer:\n  pos: [16, 65, 16]\nanimals:\n  - {kind: zombie, count: 1, area: [[1, 1], [4, 4]]}\n"))
	require.NoError(t, err)
	_, err = sim.New(sc, sim.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `animals[0].kind: "zombie" is not a passive mob (they are [sheep pig cow chicken])`)
}

// TestFreshStartHasItsAnimals: the embedded fresh_start world has its
// farm animals on the grass, in the creature list's shares: ten sheep,
// eight pigs, eight chickens, seven cows.
func TestFreshStartHasItsAnimals(t *testing.T) {
	sc, err := sim.Embedded("fresh_start")
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	snap := look(t, s)
	n := map[string]int{}
	for _, e := range mobs(snap) {
		n[e.Name]++
		assert.Equal(t, "minecraft:grass", snap.BlockAt(e.Pos.Block().Down()).ID, "%s at %v", e.Name, e.Pos)
	}
	assert.Equal(t, map[string]int{"sheep": 10, "pig": 8, "chicken": 8, "cow": 7}, n)
}

// TestKillingFarmAnimals: each farm animal dies from the hits its health
// asks for (a wooden sword's 5 against a pig's and a cow's 10, a
// chicken's 4) and drops what its class drops: 1 to 3 porkchops; 0 to 2
// leather and 1 to 3 beef; 0 to 2 feathers and one raw chicken. Over
// many seeds every count of the ranges comes up and none outside them.
func TestKillingFarmAnimals(t *testing.T) {
	for _, c := range []struct {
		kind  string
		hits  int
		drops map[string][2]int
	}{
		{"pig", 2, map[string][2]int{"minecraft:porkchop": {1, 3}}},
		{"cow", 2, map[string][2]int{"minecraft:leather": {0, 2}, "minecraft:beef": {1, 3}}},
		{"chicken", 1, map[string][2]int{"minecraft:feather": {0, 2}, "minecraft:chicken": {1, 1}}},
	} {
		t.Run(c.kind, func(t *testing.T) {
			seen := map[string]map[int]bool{}
			for seed := int64(1); seed <= 40; seed++ {
				s := pasture(t, seed, false, fmt.Sprintf("  - {kind: %s, count: 1, area: [[17, 16], [17, 16]]}\n", c.kind),
					`{item: minecraft:wooden_sword, count: 1, durability: 59, max_durability: 59}`)
				var prey []world.Entity
				for _, e := range mobs(look(t, s)) {
					if e.Name == c.kind {
						prey = append(prey, e)
					}
				}
				require.Len(t, prey, 1)
				for h := 1; h <= c.hits; h++ {
					r := s.Execute(context.Background(), action.Attack{Entity: prey[0].ID})
					require.True(t, r.OK(), r.Error)
					assert.Equal(t, h == c.hits, r.Details["killed"] == true, "hit %d of %d", h, c.hits)
				}
				// What lies where it died, and what the player standing by it
				// picked up.
				wait(t, s, 20)
				snap := look(t, s)
				got := map[string]int{}
				for _, e := range snap.EntitiesOfKind(world.EntityItem) {
					got[e.Item.ID] += e.Item.Count
				}
				for _, st := range snap.Inventory.Slots {
					if !st.Empty() && st.ID != "minecraft:wooden_sword" {
						got[st.ID] += st.Count
					}
				}
				for item, rng := range c.drops {
					if seen[item] == nil {
						seen[item] = map[int]bool{}
					}
					seen[item][got[item]] = true
					assert.True(t, got[item] >= rng[0] && got[item] <= rng[1], "seed %d: %d %s", seed, got[item], item)
					delete(got, item)
				}
				assert.Empty(t, got, "nothing else drops")
			}
			for item, rng := range c.drops {
				for n := rng[0]; n <= rng[1]; n++ {
					assert.True(t, seen[item][n], "%d %s never dropped in 40 kills", n, item)
				}
			}
		})
	}
}

// TestSheepNeitherDespawnNorSpawnAtNight: sheep 60 blocks from the player
// through a night of the dangers stay (a hostile mob that far would
// despawn, 1 in 800 a tick after 600 ticks), and the night's spawning,
// which brings zombies, spiders and the rest, brings no sheep.
func TestSheepNeitherDespawnNorSpawnAtNight(t *testing.T) {
	s := dangerWorld(t, 2, 14000, "animals:\n  - {kind: sheep, count: 3, area: [[2, 2], [6, 6]]}\n")
	before := sheep(look(t, s))
	require.Len(t, before, 3)
	for _, e := range before {
		require.Greater(t, e.Pos.DistSq(look(t, s).Player.Pos), 32.0*32)
	}
	wait(t, s, 8000)
	snap := look(t, s)
	assert.Equal(t, before, sheep(snap))
	assert.NotEmpty(t, mobs(snap), "the night brought hostile mobs")
}

// TestAnimalsSpawnEveryFourHundredTicks: the animals' pass runs on the
// ticks of world time divisible by 400 (WorldServer.tick), as time passes
// in actions: a wait of 399 ticks after one brings no animal, the next
// tick may; a day at noon on an open plain brings some.
func TestAnimalsSpawnEveryFourHundredTicks(t *testing.T) {
	sc, err := sim.ParseScenario("plain.yaml", []byte(`name: plain
seed: 5
size: {x: 128, z: 128}
generator: flat
ground_y: 64
mobs: true
time: 6000
player:
  pos: [64, 65, 64]
`))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	animals := func() int {
		return len(mobs(look(t, s))) - len(monsters(look(t, s)))
	}
	require.Zero(t, animals())
	r := wait(t, s, 399)
	require.Equal(t, ipc.OK, r.Code, r.Error)
	require.Zero(t, animals(), "no pass before tick 400")
	came := false
	for pass := 0; pass < 30 && !came; pass++ {
		before := animals()
		r := wait(t, s, 1) // tick 400·(pass+1)
		require.Equal(t, ipc.OK, r.Code, r.Error)
		mid := animals()
		came = mid > before
		r = wait(t, s, 399)
		require.Equal(t, ipc.OK, r.Code, r.Error)
		require.Equal(t, mid, animals(), "no animal between the passes")
	}
	assert.True(t, came, "thirty passes over an empty plain bring animals")
}

// TestAnimalsLeaveTheMonstersAlone: the animals' pass draws its random
// numbers apart from the world's: on a stone plain, where no animal can
// spawn but the pass still tries every 400 ticks, the night's monsters
// are the same, tick by tick, as in a world whose animals' pass never
// comes.
func TestAnimalsLeaveTheMonstersAlone(t *testing.T) {
	build := func(set *rules.Set) *sim.Sim {
		sc, err := sim.ParseScenario("stone.yaml", []byte(`name: stone
seed: 9
size: {x: 96, z: 96}
generator: flat
ground_y: 64
mobs: true
night: true
time: 14000
player:
  pos: [48, 65, 48]
blocks:
  - {block: "minecraft:stone", from: [0, 64, 0], to: [95, 64, 95]}
`))
		require.NoError(t, err)
		s, err := sim.New(sc, sim.Options{Rules: set})
		require.NoError(t, err)
		return s
	}
	never := *rules.Default()
	mobRules := *never.Mobs
	mobRules.Spawning.CreatureInterval = 1 << 20
	never.Mobs = &mobRules
	with, without := build(nil), build(&never)
	seen := 0
	for range 8 {
		wait(t, with, 400)
		wait(t, without, 400)
		a, b := mobs(look(t, with)), mobs(look(t, without))
		require.Equal(t, b, a)
		seen += len(a)
	}
	assert.Positive(t, seen, "monsters to compare")
}
