package sim_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// hungryWorld: a flat 64×64 plain with the player at (8, 64, 8), food and
// health as given, hunger on or off, holding inv (a YAML list).
func hungryWorld(t *testing.T, hunger bool, food, health float64, inv string) *sim.Sim {
	t.Helper()
	sc, err := sim.ParseScenario("hungry.yaml", []byte(fmt.Sprintf(`name: hungry
seed: 3
size: {x: 64, z: 64}
generator: flat
ground_y: 63
hunger: %v
player:
  pos: [8, 64, 8]
  health: %g
  food: %g
  inventory: %s
`, hunger, health, food, inv)))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

func body(t *testing.T, s *sim.Sim) world.Player {
	t.Helper()
	snap, err := s.Observe(context.Background())
	require.NoError(t, err)
	return snap.Player
}

func run(t *testing.T, s *sim.Sim, a action.Action) ipc.Result {
	t.Helper()
	r := s.Execute(context.Background(), a)
	require.Equal(t, ipc.OK, r.Code, r.Error)
	return r
}

// walkBackAndForth walks 50 blocks east and back, times times (100 m a
// round).
func walkBackAndForth(t *testing.T, s *sim.Sim, times int) {
	t.Helper()
	for i := 0; i < times; i++ {
		run(t, s, action.MoveTo{Pos: world.Pos(58, 64, 8)})
		run(t, s, action.MoveTo{Pos: world.Pos(8, 64, 8)})
	}
}

func TestHungerWalkingCostsFood(t *testing.T) {
	s := hungryWorld(t, true, 20, 20, "[]")
	// 2,000 m at 0.01 a metre: 20.0 exhaustion, six whole 3.0 points
	// (GTNH's level on normal difficulty): the 5 of saturation and one
	// food point.
	walkBackAndForth(t, s, 20)
	assert.Equal(t, 19.0, body(t, s).Food, "2,000 m of walking cost the saturation and one food point")

	off := hungryWorld(t, false, 20, 20, "[]")
	walkBackAndForth(t, off, 20)
	assert.Equal(t, 20.0, body(t, off).Food, "without hunger the bar stays full")
}

// digDown harvests n blocks around and under the player: the four sides
// at the feet and the head, then the block below (the player falls in).
func digDown(t *testing.T, s *sim.Sim, n int) {
	t.Helper()
	mined := 0
	for mined < n {
		snap, err := s.Observe(context.Background())
		require.NoError(t, err)
		f := snap.Feet()
		for _, p := range []world.BlockPos{f.Add(1, 0, 0), f.Add(-1, 0, 0), f.Add(0, 0, 1), f.Add(0, 0, -1),
			f.Add(1, 1, 0), f.Add(-1, 1, 0), f.Add(0, 1, 1), f.Add(0, 1, -1), f.Add(0, -1, 0)} {
			if mined == n {
				return
			}
			if s.Execute(context.Background(), action.BreakBlock{Pos: p}).Code == ipc.OK {
				mined++
			}
		}
	}
}

func TestHungerBreakingBlocksCostsFood(t *testing.T) {
	// 1,700 m of walking (17.0 exhaustion) leave the saturation at 0,
	// the food level at 20 and 2.0 of exhaustion; 60 harvested blocks at
	// 0.025 (1.5) take it past the next 3.0.
	pick := `[{item: "gregtech:gt.metatool.01:2", count: 1}]` // GTNH's vanilla diamond pickaxe digs nothing
	s := hungryWorld(t, true, 20, 20, pick)
	walkBackAndForth(t, s, 17)
	require.Equal(t, 20.0, body(t, s).Food)
	digDown(t, s, 60)
	run(t, s, action.Wait{Ticks: 1})
	assert.Equal(t, 19.0, body(t, s).Food, "harvesting blocks costs exhaustion")
}

func TestHungerStarvesDownToOneHealth(t *testing.T) {
	s := hungryWorld(t, true, 0, 5, "[]")
	r := run(t, s, action.Wait{Ticks: 80})
	assert.Equal(t, 3.0, body(t, s).Health, "two points lost on the 80th tick at food 0")
	require.Contains(t, r.Details, "events")
	assert.Contains(t, fmt.Sprint(r.Details["events"]), "starving")
	run(t, s, action.Wait{Ticks: 20 * 60 * 20})
	assert.Equal(t, 1.0, body(t, s).Health, "normal difficulty: starving stops at one point")
}

// TestHungerStarvesToDeath: starving hurts by 2 while health is above 1,
// so from an even health it kills; the player respawns with the food
// level Hunger Overhaul gives on normal difficulty.
func TestHungerStarvesToDeath(t *testing.T) {
	s := hungryWorld(t, true, 0, 6, "[]")
	r := s.Execute(context.Background(), action.Wait{Ticks: 240})
	assert.Contains(t, fmt.Sprint(r.Details["events"], r.Error), "starved to death")
	b := body(t, s)
	assert.Equal(t, 20.0, b.Health, "respawned")
	assert.Equal(t, 16.0, b.Food, "respawn_food on normal difficulty")
}

func TestHungerRegeneratesWhenFed(t *testing.T) {
	// 10 points missing: a point after 147 ticks, the next 140 later.
	s := hungryWorld(t, true, 8, 10, "[]")
	run(t, s, action.Wait{Ticks: 286})
	assert.Equal(t, 11.0, body(t, s).Health)
	run(t, s, action.Wait{Ticks: 1})
	assert.Equal(t, 12.0, body(t, s).Health, "healing slows with the health missing, at food 8 or more")
	assert.Equal(t, 8.0, body(t, s).Food, "healing costs no food")

	low := hungryWorld(t, true, 7, 10, "[]")
	run(t, low, action.Wait{Ticks: 400})
	assert.Equal(t, 10.0, body(t, low).Health, "no regeneration below food 8")
}

func TestEatAFood(t *testing.T) {
	s := hungryWorld(t, false, 14, 20, `[{item: "minecraft:bread", count: 3}]`)
	r := run(t, s, action.UseItem{Item: "minecraft:bread"})
	assert.Equal(t, int64(32), r.Ticks, "eating bread takes 3 × 8 + 8 ticks")
	assert.Equal(t, 17.0, body(t, s).Food, "bread restores 3")
	snap, _ := s.Observe(context.Background())
	assert.Equal(t, 2, snap.Inventory.Count(world.MustItem("minecraft:bread")))
	run(t, s, action.UseItem{Item: "minecraft:bread"})
	assert.Equal(t, 20.0, body(t, s).Food, "capped at 20")
	r = s.Execute(context.Background(), action.UseItem{Item: "minecraft:bread"})
	assert.Equal(t, ipc.Rejected, r.Code, "a full player does not eat")
	assert.Contains(t, r.Error, "not hungry")
	snap, _ = s.Observe(context.Background())
	assert.Equal(t, 1, snap.Inventory.Count(world.MustItem("minecraft:bread")), "nothing eaten when full")

	s = hungryWorld(t, false, 10, 20, `[{item: "minecraft:cooked_porkchop", count: 1}]`)
	r = run(t, s, action.UseItem{Item: "minecraft:cooked_porkchop"})
	assert.Equal(t, int64(24), r.Ticks, "a cooked porkchop in 2 × 8 + 8 ticks")
	assert.Equal(t, 12.0, body(t, s).Food, "and restores 2")
}

func TestHungerHealsFromTheHealthAFallLeft(t *testing.T) {
	sc, err := sim.ParseScenario("ledge.yaml", []byte(`name: ledge
seed: 3
size: {x: 16, z: 16}
generator: flat
ground_y: 63
hunger: true
player:
  pos: [8, 73, 8]
  inventory: [{item: "minecraft:wooden_shovel", count: 1, max_durability: 64}]
blocks:
  - {block: "minecraft:dirt", pos: [8, 72, 8]}
`))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	r := run(t, s, action.BreakBlock{Pos: world.Pos(8, 72, 8)})
	require.Contains(t, r.Details, "fall_damage")
	hurt := body(t, s).Health
	require.Less(t, hurt, 20.0)
	// One point in the period of the health missing (config/food.yaml),
	// which grows with it.
	period := rules.Default().Food.RegenPeriod(hurt, false)
	run(t, s, action.Wait{Ticks: action.Ticks(period)})
	assert.Equal(t, hurt+1, body(t, s).Health, "regeneration starts from the health the fall left")
}

func TestHungerOffLeavesTheBarAlone(t *testing.T) {
	s := hungryWorld(t, false, 0, 6, "[]")
	r := run(t, s, action.Wait{Ticks: 2000})
	assert.Equal(t, 6.0, body(t, s).Health, "no starvation without hunger")
	assert.NotContains(t, r.Details, "events")
	s = hungryWorld(t, false, 20, 10, "[]")
	run(t, s, action.Wait{Ticks: 2000})
	assert.Equal(t, 10.0, body(t, s).Health, "no regeneration without hunger: scenarios keep their traces")
}

// TestEatSkillThroughTheLoop: the eat skill in the simulator, checked by
// the loop: one bread gone and the food level up.
func TestEatSkillThroughTheLoop(t *testing.T) {
	s := hungryWorld(t, true, 8, 20, `[{item: "minecraft:bread", count: 2}]`)
	out, steps, trace := runGoal(t, s, "run eat", script.New(loop.Invocation{Skill: "eat"}))
	require.True(t, out.GoalMet, trace)
	require.Len(t, steps, 1)
	assert.Equal(t, loop.Success, steps[0].Verdict)
	assert.Contains(t, trace, `"food level increases by >= 1","before":8,"after":11`)
	assert.Equal(t, 11.0, body(t, s).Food)
}
