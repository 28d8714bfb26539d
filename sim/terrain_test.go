package sim

import (
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// census counts the blocks of a generated world by id, and the distance
// from the start to the nearest one of each.
type census struct {
	count   map[string]int
	nearest map[string]float64
	// exposed counts blocks with air or water right above them.
	exposed map[string]int
	hash    uint64
}

func takeCensus(t *testing.T, s *Sim) census {
	t.Helper()
	snap := s.state.Snapshot()
	sc := s.sc
	c := census{count: map[string]int{}, nearest: map[string]float64{}, exposed: map[string]int{}}
	h := fnv.New64a()
	start := snap.Player.Pos
	for z := 0; z < sc.SizeZ; z++ {
		for x := 0; x < sc.SizeX; x++ {
			for y := 0; y < 128; y++ {
				b := snap.BlockAt(world.Pos(x, y, z))
				if b.IsAir() {
					continue
				}
				h.Write([]byte{byte(x), byte(x >> 8), byte(y), byte(z), byte(z >> 8), byte(b.Meta)})
				h.Write([]byte(b.ID))
				c.count[b.ID]++
				d := math.Hypot(math.Hypot(float64(x)+0.5-start.X, float64(y)-start.Y), float64(z)+0.5-start.Z)
				if n, ok := c.nearest[b.ID]; !ok || d < n {
					c.nearest[b.ID] = d
				}
				if above := snap.BlockAt(world.Pos(x, y+1, z)); above.IsAir() || above.ID == "minecraft:water" {
					c.exposed[b.ID]++
				}
			}
		}
	}
	c.hash = h.Sum64()
	return c
}

// TestFreshStartHasTheStoneAge: for five seeds, the embedded fresh_start
// world holds what the Stone Age chain needs within a walk of the start
// (logs for the table, tools, fuel and the oven's charcoal; gravel for
// flint; clay and sand for the coke oven bricks; stone for the furnace and
// the mortar), the player stands on the ground with an empty inventory,
// and nothing is built. Each seed makes its own world, the same one every
// time.
func TestFreshStartHasTheStoneAge(t *testing.T) {
	race.SkipOneGoroutine(t, "generating five worlds and counting their blocks")
	sc, err := Embedded("fresh_start")
	require.NoError(t, err)
	assert.Equal(t, "natural", sc.Generator)
	seen := map[uint64]int64{}
	for _, seed := range []int64{1, 2, 3, 4, 5} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			s, err := New(sc, Options{Seed: seed})
			require.NoError(t, err)
			c := takeCensus(t, s)
			snap := s.state.Snapshot()
			assert.Equal(t, len(snap.Inventory.Slots), snap.Inventory.FreeSlots(), "an empty inventory")
			assert.Empty(t, snap.Machines, "nothing built")
			feet := world.Pos(int(snap.Player.Pos.X), int(snap.Player.Pos.Y), int(snap.Player.Pos.Z))
			assert.True(t, snap.BlockAt(feet).IsAir(), "the player's feet are in the air")
			assert.True(t, snap.BlockAt(feet.Add(0, 1, 0)).IsAir(), "and the head")
			assert.Equal(t, "minecraft:grass", snap.BlockAt(feet.Add(0, -1, 0)).ID, "standing on the grass")

			// logs: 2 (table) + 4 (planks, sticks) + 8 (pulp) + 8 (charcoal) + ~37 (fuel)
			for _, need := range []struct {
				id      string
				min     int
				exposed bool
				within  float64
			}{
				{"minecraft:log", 70, false, 20},
				{"minecraft:gravel", 25, true, 32},
				{"minecraft:clay", 40, true, 40}, // 4 balls each: 125 balls
				{"minecraft:sand", 180, true, 40},
				{"minecraft:stone", 15, true, 30}, // the outcrop
				{"minecraft:water", 50, true, 40},
			} {
				assert.GreaterOrEqual(t, c.count[need.id], need.min, "%s blocks", need.id)
				assert.LessOrEqual(t, c.nearest[need.id], need.within, "the nearest %s", need.id)
				if need.exposed {
					assert.Positive(t, c.exposed[need.id], "some %s can be reached without digging", need.id)
				}
			}
			assert.Zero(t, c.count["minecraft:crafting_table"]+c.count["minecraft:furnace"]+c.count["Railcraft:machine.alpha"], "nothing built")
			if seed == 1 {
				again, err := New(sc, Options{Seed: seed})
				require.NoError(t, err)
				assert.Equal(t, c.hash, takeCensus(t, again).hash, "the same seed makes the same world")
			}
			if other, ok := seen[c.hash]; ok {
				t.Errorf("seeds %d and %d made the same world", other, seed)
			}
			seen[c.hash] = seed
		})
	}
}

// TestNaturalKeepsOtherWorlds: the natural generator draws from its own
// stream, so the flat and hills worlds and everything drawn after them
// (tree placement, drops) are what they were.
func TestNaturalKeepsOtherWorlds(t *testing.T) {
	sc, err := DefaultScenario()
	require.NoError(t, err)
	s, err := New(sc, Options{})
	require.NoError(t, err)
	// The default world's trees are where they were before the natural
	// generator existed (captured from the world before the change).
	assert.Equal(t, wantDefaultWorld, fmt.Sprintf("%016x", takeCensus(t, s).hash))
}

// wantDefaultWorld is the census hash of the default scenario's world as
// it was generated before the natural generator existed.
const wantDefaultWorld = "23d2b694698e35eb"

// TestResolveScenario: embedded scenarios by name, files by path, and a
// misspelt name gets the embedded names with a did-you-mean.
func TestResolveScenario(t *testing.T) {
	sc, err := Resolve("fresh_start")
	require.NoError(t, err)
	assert.Equal(t, "fresh_start", sc.Name)
	sc, err = Resolve("forest_base")
	require.NoError(t, err)
	assert.Equal(t, "forest_base", sc.Name)
	assert.Equal(t, []string{"forest_base", "fresh_start", "survival"}, EmbeddedNames())

	_, err = Resolve("fresh_strat")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `scenario "fresh_strat": no such file, and no embedded scenario of that name (did you mean "fresh_start"?) (embedded: forest_base, fresh_start, survival)`)
	_, err = Resolve("testdata/none.yaml")
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "embedded", "a path is a file")

	dir := t.TempDir()
	file := dir + "/mine.yaml"
	require.NoError(t, os.WriteFile(file, []byte("name: mine\nplayer: {pos: [1, 64, 1]}\n"), 0o600))
	sc, err = Resolve(file)
	require.NoError(t, err)
	assert.Equal(t, "mine", sc.Name)

	_, err = ParseScenario("g.yaml", []byte("name: g\ngenerator: naturl\nplayer: {pos: [1, 64, 1]}\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `must be flat, hills or natural, got "naturl" (did you mean "natural"?)`)
}
