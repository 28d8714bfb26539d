package main

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

// freshStartServer is the test server playing in the fresh_start
// scenario's world of a seed (the simulator's blocks, copied by name), the
// player at the scenario's start with an empty inventory.
func freshStartServer(t *testing.T, seed int64) fakeserver.Options {
	t.Helper()
	sc, err := sim.Embedded("fresh_start")
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{Seed: seed})
	require.NoError(t, err)
	snap := s.State().Snapshot()
	feet := snap.Player.Pos
	terrain, ok := snap.Chunks() // under the ores' position tags
	require.True(t, ok)
	return fakeserver.Options{TickDuration: steamTick, Terrain: terrain,
		Spawn:     [3]float64{feet.X, feet.Y, feet.Z},
		Inventory: []fakeserver.Item{}, Blocks: []fakeserver.Block{}}
}

// liveSeed is the fresh_start world the furnace run plays in (the stone
// run plays in several).
const liveSeed = 1

// TestFreshStartFurnaceLive: the start of GTNH's Stone Age from an empty
// inventory against the test server, in a world of the fresh_start
// scenario (liveSeed): the goal planner chops a tree, mines gravel and
// crafts it into flint, crafts the crafting table in the inventory grid,
// places it and crafts the wooden pickaxe there, mines stone into
// cobblestone and crafts the furnace at the table. The server plays by the
// same rules (drops, harvest levels, dig times, recipes) and refuses or
// corrects none of the bot's digs, clicks, placements or moves.
func TestFreshStartFurnaceLive(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: TestFreshStartStoneLive plays the same chain further, past the furnace, in another world")
	}
	synctest.Test(t, func(t *testing.T) {
		srv, code, out, steps := steamAgeRun(t, freshStartServer(t, liveSeed), "have 1 minecraft:furnace", 80)
		require.Equal(t, exitOK, code, out)
		assert.Contains(t, out, "goal met")
		assert.Equal(t, 1, player(t, srv).Count("minecraft:furnace"), "the server's player has the furnace")
		var crafted []string
		for _, c := range srv.Crafts() {
			crafted = append(crafted, c.String())
		}
		all := strings.Join(crafted, ", ")
		for _, want := range []string{"1 minecraft:flint", "1 minecraft:crafting_table", "1 minecraft:wooden_pickaxe", "1 minecraft:furnace"} {
			assert.Contains(t, all, want, "crafted on the server")
		}
		var cobble int
		for _, d := range srv.Digs() {
			if d.Block == "minecraft:stone" && d.Accepted {
				cobble++
				assert.Equal(t, "minecraft:wooden_pickaxe", d.Held, "stone needs a pickaxe to drop")
			}
		}
		assert.GreaterOrEqual(t, cobble, 6)
		assert.Empty(t, srv.Refusals(), "no dig, click, placement or move refused or corrected")
		assert.Empty(t, srv.Kicks())
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "goal met") {
				t.Logf("%s (%d steps in the trace)", line, len(steps))
			}
		}
	})
}

// TestFreshStartStoneLive: one quest further ("Basic Processing"), live,
// in the fresh_start worlds of seeds 0 to 5: the crafted furnace is
// placed, fuelled with planks and smelts cobblestone into stone on the
// test server's furnace, which cooks it by config/smelting.yaml. Where
// the nearest stone lies under the grass, the bot digs down to it live
// through the soil (a digging route or mine_ore's way down, each dig
// checked against the server's block changes); nothing is refused or corrected in any world. With -short (CI's
// race detector run) it plays one world, the one where the stone is buried
// (its run has every goroutine and message of the others, and digs): the
// others add no goroutine the detector has not seen, only minutes.
func TestFreshStartStoneLive(t *testing.T) {
	// Sand and gravel fall as the bot digs, which changes what lies open:
	// of these worlds, seed 4's stone is the one still reached by digging.
	seeds, wantBuried := []int64{0, 1, 2, 3, 4, 5}, 1
	if testing.Short() {
		seeds, wantBuried = []int64{4}, 1
	}
	buried := 0 // worlds where a move_to dug
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, code, out, steps := steamAgeRun(t, freshStartServer(t, seed), "have 3 minecraft:stone", 80)
				require.Equal(t, exitOK, code, out)
				for _, line := range strings.Split(out, "\n") {
					if strings.HasPrefix(line, "goal met") {
						t.Log(line)
					}
				}
				assert.Contains(t, out, "goal met")
				assert.Contains(t, out, "smelt count=3 item=minecraft:stone")
				assert.Equal(t, 3, player(t, srv).Count("minecraft:stone"), "the server's player has the stone")
				assert.Len(t, srv.Smelted(), 3, "the server's furnace smelted it")
				assert.Empty(t, srv.Refusals(), "no dig, click, placement or move refused or corrected")
				assert.Empty(t, srv.Kicks())
				dug := 0
				for _, st := range steps {
					for _, r := range st.Results {
						if n, ok := r.Details["dug"].(float64); ok {
							dug += int(n)
						}
					}
				}
				accepted, overburden := 0, 0
				for _, d := range srv.Digs() {
					if d.Accepted {
						accepted++
						if d.Block == "minecraft:dirt" || d.Block == "minecraft:grass" {
							overburden++ // the soil over the stone, dug by a route or by mine_ore's way down
						}
					}
				}
				assert.GreaterOrEqual(t, accepted, dug, "every dig a move counted the server made")
				if overburden > 0 {
					buried++
					t.Logf("dug %d blocks of soil on the way (move_to's routes dug %d blocks)", overburden, dug)
				}
			})
		})
	}
	assert.GreaterOrEqual(t, buried, wantBuried, "where the stone is buried the live run digs to it")
}
