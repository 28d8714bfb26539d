package loop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func fed(food float64, inv ...world.ItemStack) *world.Snapshot {
	w := snap(inv, nil)
	w.Player.Food = food
	return w
}

func TestEatReflexFiresAtTheThreshold(t *testing.T) {
	bread := world.NewStack("minecraft:bread", 0, 2)
	r := loop.EatReflex{Threshold: loop.DefaultEatThreshold}
	for _, c := range []struct {
		name string
		w    *world.Snapshot
		want bool
	}{
		{"at the threshold", fed(6, bread), true},
		{"below it", fed(1, bread), true},
		{"starving", fed(0, bread), true},
		{"above it", fed(7, bread), false},
		{"full", fed(20, bread), false},
		{"no food held", fed(3, world.NewStack("minecraft:cobblestone", 0, 5)), false},
		{"a pufferfish is not food", fed(3, world.NewStack("minecraft:fish", 3, 1)), false},
		{"an empty inventory", fed(3), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			inv, why, ok := r.Fire(c.w)
			assert.Equal(t, c.want, ok)
			if ok {
				assert.Equal(t, loop.Invocation{Skill: "eat"}, inv)
				assert.Contains(t, why, fmt.Sprintf("food %d is at or below 6", int(c.w.Player.Food)))
			}
		})
	}
	_, _, ok := loop.EatReflex{Threshold: 10, Food: rules.Default().Food}.Fire(fed(10, bread))
	assert.True(t, ok, "the threshold is configurable")
	_, _, ok = loop.EatReflex{Threshold: 0}.Fire(fed(1, bread))
	assert.False(t, ok, "threshold 0 eats only at an empty bar")
	_, _, ok = loop.EatReflex{Threshold: 25}.Fire(fed(20, bread))
	assert.False(t, ok, "a full bar never eats, whatever the threshold")
}

// forest: a flat world with hunger on, one tree near the player, the food
// level and inventory given.
func forest(t *testing.T, food float64, inv string) *sim.Sim {
	t.Helper()
	sc, err := sim.ParseScenario("forest.yaml", []byte(fmt.Sprintf(`name: forest
seed: 11
size: {x: 32, z: 32}
generator: flat
ground_y: 63
hunger: true
player:
  pos: [8, 64, 8]
  food: %g
  inventory: %s
trees:
  - {at: [12, 12], height: 5}
`, food, inv)))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

func runWithReflexes(t *testing.T, s *sim.Sim, goalText string, packs []string, reflexes []loop.Reflex, steps ...loop.Invocation) (loop.Outcome, []loop.StepRecord, string) {
	t.Helper()
	reg := shipped(t, registry.Options{})
	var buf bytes.Buffer
	var recs []loop.StepRecord
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(s), Planner: script.New(steps...),
		Goal: goal(t, reg, goalText), Trace: &buf, MaxSteps: 20, Packs: packs, Reflexes: reflexes,
		OnStep: func(r loop.StepRecord) { recs = append(recs, r) }})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	return out, recs, buf.String()
}

var chop = loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 2}}

// TestEatReflexPreemptsThePlan: hungry and holding bread, the bot eats
// first (a step of its own, with its reason in the trace), then the plan
// resumes with its first invocation and the goal is met.
func TestEatReflexPreemptsThePlan(t *testing.T) {
	s := forest(t, 5, `[{item: "minecraft:bread", count: 3}]`)
	out, recs, trace := runWithReflexes(t, s, "collect 2 minecraft:log", nil, []loop.Reflex{loop.EatReflex{Threshold: 6}}, chop)
	require.True(t, out.GoalMet, trace)
	require.Len(t, recs, 2, trace)
	assert.Equal(t, "eat", recs[0].Invocation.Skill)
	assert.Equal(t, loop.Success, recs[0].Verdict, recs[0].Error)
	require.NotNil(t, recs[0].Reflex)
	assert.Equal(t, "eat", recs[0].Reflex.Name)
	assert.Equal(t, 8.0, recs[0].After.Food, "bread: 5 + 3")
	assert.Equal(t, "chop_tree", recs[1].Invocation.Skill)
	assert.Nil(t, recs[1].Reflex)
	first := strings.SplitN(trace, "\n", 2)[0]
	assert.Contains(t, first, `"reflex":{"name":"eat","reason":"food 5 is at or below 6 and the inventory holds food"}`)
	assert.Contains(t, first, `"food level increases by >= 1","before":5,"after":8,"ok":true`)
	assert.Equal(t, loop.Stats{Attempts: 1, Successes: 1}, out.Skills["eat"])
}

func TestEatReflexStaysQuietAboveTheThreshold(t *testing.T) {
	s := forest(t, 7, `[{item: "minecraft:bread", count: 3}]`)
	out, recs, trace := runWithReflexes(t, s, "collect 2 minecraft:log", nil, []loop.Reflex{loop.EatReflex{Threshold: 6}}, chop)
	require.True(t, out.GoalMet, trace)
	require.Len(t, recs, 1)
	assert.Equal(t, "chop_tree", recs[0].Invocation.Skill)
	assert.NotContains(t, trace, `"reflex"`)
}

func TestNoReflexesNoEating(t *testing.T) {
	s := forest(t, 2, `[{item: "minecraft:bread", count: 3}]`)
	out, recs, trace := runWithReflexes(t, s, "collect 2 minecraft:log", nil, nil, chop)
	require.True(t, out.GoalMet, trace)
	require.Len(t, recs, 1)
	assert.Equal(t, "chop_tree", recs[0].Invocation.Skill)
}

func TestReflexNeedsItsSkillOffered(t *testing.T) {
	s := forest(t, 2, `[{item: "minecraft:bread", count: 3}]`)
	out, recs, trace := runWithReflexes(t, s, "collect 2 minecraft:log", []string{"stone_age"}, []loop.Reflex{loop.EatReflex{Threshold: 6}}, chop)
	require.True(t, out.GoalMet, trace)
	require.Len(t, recs, 1, "eat is in the utility pack, not enabled here")
	assert.Equal(t, "chop_tree", recs[0].Invocation.Skill)
}

// alwaysEat fires on every step, even with a full bar (where eat fails).
type alwaysEat struct{}

func (alwaysEat) Name() string { return "always_eat" }
func (alwaysEat) Fire(*world.Snapshot) (loop.Invocation, string, bool) {
	return loop.Invocation{Skill: "eat"}, "always", true
}

// TestAFailedReflexWaitsForAPlannedStep: a reflex whose step failed does
// not fire again until the planner had a step, so it cannot take the run
// over.
func TestAFailedReflexWaitsForAPlannedStep(t *testing.T) {
	s := forest(t, 20, `[{item: "minecraft:bread", count: 3}]`)
	wait := loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": 20}}
	out, recs, trace := runWithReflexes(t, s, "collect 2 minecraft:log", nil, []loop.Reflex{alwaysEat{}}, wait, chop)
	require.True(t, out.GoalMet, trace)
	var got []string
	for _, r := range recs {
		got = append(got, r.Invocation.Skill+"/"+string(r.Verdict))
	}
	assert.Equal(t, []string{"eat/skill_failed", "wait_for/success", "eat/skill_failed", "chop_tree/success"}, got)
}

// boxed: a flat world with the player walled in on all sides and above by
// cobblestone (a pocket one block wide and two high), holding a stone
// pickaxe, and a tree outside.
func boxed(t *testing.T) *sim.Sim {
	t.Helper()
	sc, err := sim.ParseScenario("boxed.yaml", []byte(`name: boxed
seed: 11
size: {x: 32, z: 32}
generator: flat
ground_y: 63
player:
  pos: [8, 64, 8]
  inventory: [{item: "minecraft:wooden_pickaxe", count: 1}]
blocks:
  - {block: "minecraft:cobblestone", from: [7, 64, 7], to: [9, 65, 7]}
  - {block: "minecraft:cobblestone", from: [7, 64, 9], to: [9, 65, 9]}
  - {block: "minecraft:cobblestone", from: [7, 64, 8], to: [7, 65, 8]}
  - {block: "minecraft:cobblestone", from: [9, 64, 8], to: [9, 65, 8]}
  - {block: "minecraft:cobblestone", from: [7, 66, 7], to: [9, 66, 9]}
trees:
  - {at: [14, 14], height: 5}
`))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

func waitFor(seconds int) loop.Invocation {
	return loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": seconds * 20}}
}

func steps(recs []loop.StepRecord) []string {
	var got []string
	for _, r := range recs {
		s := r.Invocation.Skill + "/" + string(r.Verdict)
		if r.Reflex != nil {
			s = r.Reflex.Name + ":" + s
		}
		got = append(got, s)
	}
	return got
}

// TestUnstuckReflexDigsOutOfABox: a boxed-in bot whose plan only waits
// makes no progress; after more than 30 s of game time the unstuck reflex
// walks it out (digging through the wall), the trace says why, and the
// plan resumes.
func TestUnstuckReflexDigsOutOfABox(t *testing.T) {
	s := boxed(t)
	r := &loop.UnstuckReflex{Seconds: loop.DefaultUnstuckSeconds}
	out, recs, trace := runWithReflexes(t, s, "collect 2 minecraft:log", nil, []loop.Reflex{r},
		waitFor(20), waitFor(15), waitFor(5), chop)
	require.True(t, out.GoalMet, trace)
	assert.Equal(t, []string{"wait_for/success", "wait_for/success", "unstuck:unstuck/success", "wait_for/success", "chop_tree/success"}, steps(recs))
	u := recs[2]
	require.NotNil(t, u.Reflex)
	assert.Contains(t, u.Reflex.Reason, "no progress for 35.0 s of game time (700 ticks since tick 0; more than 30 s)")
	assert.Equal(t, map[string]any{"attempt": float64(0), "distance": float64(5)}, jsonRoundTrip(t, u.Params))
	assert.Equal(t, world.Pos(8, 64, 4), u.After.Pos, "within a block of five blocks north (8, 64, 3): out of the box")
	require.Len(t, u.Results, 1)
	assert.Positive(t, u.Results[0].Details["dug"], "it dug through the wall")
	assert.Contains(t, trace, `"reflex":{"name":"unstuck","reason":"no progress for 35.0 s`)
}

func jsonRoundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// TestUnstuckReflexWaitsOutItsThreshold: 30 s without progress is not yet
// stuck (more than the threshold is); without the reflex the bot stays in
// its box whatever the waits.
func TestUnstuckReflexWaitsOutItsThreshold(t *testing.T) {
	s := boxed(t)
	out, recs, trace := runWithReflexes(t, s, "collect 2 minecraft:log", nil,
		[]loop.Reflex{&loop.UnstuckReflex{Seconds: 30}}, waitFor(20), waitFor(10))
	assert.False(t, out.GoalMet)
	assert.Equal(t, []string{"wait_for/success", "wait_for/success"}, steps(recs), trace)

	s = boxed(t)
	_, recs, trace = runWithReflexes(t, s, "collect 2 minecraft:log", nil, nil, waitFor(60), waitFor(60), waitFor(60))
	assert.Equal(t, []string{"wait_for/success", "wait_for/success", "wait_for/success"}, steps(recs), trace)
	assert.Equal(t, world.Pos(8, 64, 8), recs[2].After.Pos)

	s = boxed(t)
	_, recs, trace = runWithReflexes(t, s, "collect 2 minecraft:log", nil,
		[]loop.Reflex{&loop.UnstuckReflex{Seconds: 10}}, waitFor(6), waitFor(6), waitFor(1))
	assert.Equal(t, []string{"wait_for/success", "wait_for/success", "unstuck:unstuck/success", "wait_for/success"}, steps(recs), "a shorter threshold fires sooner: %s", trace)
}

// TestUnstuckReflexCountsProgress: what resets the clock (progress) and
// what does not, step by step at the reflex.
func TestUnstuckReflexCountsProgress(t *testing.T) {
	at := func(tick int64, x float64, inv []world.ItemStack, machines ...world.Machine) *world.Snapshot {
		w := snap(inv, nil, machines...)
		w.Tick, w.Player.Pos.X, w.TechState = tick, x, "stone_age"
		return w
	}
	dirt := stacks("minecraft:dirt", 1)
	oven := func(coke int) world.Machine {
		return world.Machine{Kind: world.MachineCokeOven, Pos: world.Pos(3, 64, 0), Slots: map[string]world.ItemStack{"output": world.NewStack("Railcraft:fuel.coke", 0, coke)}}
	}
	for _, c := range []struct {
		name string
		then *world.Snapshot
		want bool
	}{
		{"nothing changed", at(601, 0.5, dirt, oven(1)), true},
		{"exactly the threshold", at(600, 0.5, dirt, oven(1)), false},
		{"moved two blocks", at(601, 2.5, dirt, oven(1)), true},
		{"moved three blocks", at(601, 3.5, dirt, oven(1)), false},
		{"the inventory changed", at(601, 0.5, stacks("minecraft:dirt", 2), oven(1)), false},
		{"a machine's contents moved", at(601, 0.5, dirt, oven(2)), false},
		{"the health and food changed", func() *world.Snapshot {
			w := at(601, 0.5, dirt, oven(1))
			w.Player.Health, w.Player.Food = 3, 4
			return w
		}(), true},
		{"the tier changed", func() *world.Snapshot { w := at(601, 0.5, dirt, oven(1)); w.TechState = "steam_age"; return w }(), false},
		{"the dimension changed", func() *world.Snapshot {
			w := at(601, 0.5, dirt, oven(1))
			w.Player.Dimension = world.Nether
			return w
		}(), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &loop.UnstuckReflex{Seconds: 30, Distance: 7}
			_, _, ok := r.Fire(at(0, 0.5, dirt, oven(1)))
			require.False(t, ok, "the first look only marks")
			inv, why, ok := r.Fire(c.then)
			assert.Equal(t, c.want, ok)
			if ok {
				assert.Equal(t, loop.Invocation{Skill: "unstuck", Params: map[string]any{"attempt": 0, "distance": 7}}, inv)
				assert.Contains(t, why, "601 ticks since tick 0")
			}
		})
	}
	// After firing, the clock runs again from then, and the next attempt
	// goes in the next direction.
	r := &loop.UnstuckReflex{Seconds: 30}
	r.Fire(at(0, 0.5, dirt))
	inv, _, ok := r.Fire(at(700, 0.5, dirt))
	require.True(t, ok)
	assert.Equal(t, map[string]any{"attempt": 0, "distance": loop.DefaultUnstuckDistance}, inv.Params)
	_, _, ok = r.Fire(at(1300, 0.5, dirt))
	assert.False(t, ok, "600 ticks after the recovery")
	inv, _, ok = r.Fire(at(1301, 0.5, dirt))
	require.True(t, ok)
	assert.Equal(t, 1, inv.Params["attempt"])
}

// creeperWorld: a flat world by day with hostile mobs on, the player at
// (8, 64, 8) with 10 health and five cobblestone, a tree at (16, 16) and
// a creeper summoned beside it.
func creeperWorld(t *testing.T) *sim.Sim {
	t.Helper()
	sc, err := sim.ParseScenario("creeper.yaml", []byte(`name: creeper
seed: 11
size: {x: 32, z: 32}
generator: flat
ground_y: 63
mobs: true
time: 6000
player:
  pos: [8, 64, 8]
  health: 10
  inventory: [{item: "minecraft:cobblestone", count: 5}]
trees:
  - {at: [16, 16], height: 5}
`))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	_, err = s.Summon("creeper", world.Vec3{X: 16.5, Y: 64, Z: 13.5})
	require.NoError(t, err)
	return s
}

// TestRecoverReflexGoesBackForTheDrops: a creeper kills the bot by the
// tree; it respawns at the start with nothing, and the recover reflex
// walks it back to where it died before anything else, where it picks up
// what it dropped; then the plan resumes.
func TestRecoverReflexGoesBackForTheDrops(t *testing.T) {
	s := creeperWorld(t)
	out, recs, trace := runWithReflexes(t, s, "collect 9 minecraft:log", nil, []loop.Reflex{&loop.RecoverReflex{}},
		chop, waitFor(5), waitFor(5))
	require.Len(t, s.Deaths(), 1, trace)
	death := s.Deaths()[0]
	i := slices.IndexFunc(recs, func(r loop.StepRecord) bool { return r.Reflex != nil })
	require.Positive(t, i, "a reflex step after the death: %s", trace)
	died := recs[i-1]
	assert.Equal(t, true, died.Results[len(died.Results)-1].Details["died"], trace)
	assert.Equal(t, 0, died.After.Inventory["minecraft:cobblestone"], "respawned with nothing")
	r := recs[i]
	assert.Equal(t, "recover", r.Reflex.Name)
	assert.Equal(t, "recover_drops", r.Invocation.Skill)
	assert.Equal(t, loop.Success, r.Verdict, r.Error)
	assert.Contains(t, r.Reflex.Reason, fmt.Sprintf("died at %v", death.Pos.Block()))
	assert.Contains(t, r.Reflex.Reason, "(item_lifespan 6000)")
	assert.Equal(t, 5, r.After.Inventory["minecraft:cobblestone"], "picked up where it died: %s", trace)
	assert.Equal(t, death.Pos.Block(), r.After.Pos)
	require.Greater(t, len(recs), i+1, "the plan resumes")
	assert.Nil(t, recs[i+1].Reflex)
	assert.Equal(t, 1, out.Skills["recover_drops"].Successes)
}

// TestRecoverReflexWhileTheItemsLast: the reflex goes back only while the
// walk ends before the items are gone, lets the death go on arriving, and
// ignores deaths with nothing held or no place.
func TestRecoverReflexWhileTheItemsLast(t *testing.T) {
	at := world.Vec3{X: 40.5, Y: 64, Z: 0.5} // 40 blocks east of the bot's (0.5, 64, 0.5)
	died := func(tick int64, inv map[string]int, details map[string]any) loop.StepRecord {
		return loop.StepRecord{Before: loop.Summary{Tick: tick, Inventory: inv}, Results: []ipc.Result{{Code: ipc.Rejected, Details: details}}}
	}
	cobble := map[string]int{"minecraft:cobblestone": 5}
	here := func(tick int64) *world.Snapshot { w := snap(nil, nil); w.Tick = tick; return w }
	// 40 blocks: 40 / 0.2159 × 1.5 = 277.9, so a walk of 278 ticks.
	for _, c := range []struct {
		name string
		now  int64
		want bool
	}{
		{"at once", 100, true},
		{"the walk ends a tick before they go", 100 + 6000 - 278 - 1, true},
		{"the walk ends as they go", 100 + 6000 - 278, false},
		{"gone", 100 + 6000, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &loop.RecoverReflex{}
			r.Stepped(died(100, cobble, map[string]any{"died": true, "died_at": at}))
			inv, why, ok := r.Fire(here(c.now))
			assert.Equal(t, c.want, ok)
			if ok {
				assert.Equal(t, loop.Invocation{Skill: "recover_drops", Params: map[string]any{"x": 40, "y": 64, "z": 0}}, inv)
				assert.Contains(t, why, "holding 5 items; they lie there until tick 6100 (item_lifespan 6000), 40 blocks away")
			}
		})
	}
	r := &loop.RecoverReflex{Lifespan: 1000}
	r.Stepped(died(0, cobble, map[string]any{"died": true, "died_at": map[string]any{"x": 40.5, "y": 64.0, "z": 0.5}}))
	_, _, ok := r.Fire(here(721))
	assert.True(t, ok, "a remote body's position; the lifespan is configurable")
	_, _, ok = r.Fire(here(722))
	assert.False(t, ok)
	_, _, ok = r.Fire(here(1))
	assert.False(t, ok, "given up for good")

	r = &loop.RecoverReflex{}
	r.Stepped(died(0, cobble, map[string]any{"died": true, "died_at": world.Vec3{X: 1.5, Y: 64, Z: 0.5}}))
	_, _, ok = r.Fire(here(10))
	assert.False(t, ok, "already there (1 block)")
	r.Stepped(died(0, cobble, map[string]any{"died": true, "died_at": world.Vec3{X: 2.5, Y: 64, Z: 0.5}}))
	_, _, ok = r.Fire(here(10))
	assert.True(t, ok, "2 blocks away")
	r.Stepped(died(0, map[string]int{}, map[string]any{"died": true, "died_at": at}))
	_, _, ok = r.Fire(here(10))
	assert.False(t, ok, "nothing held: nothing to go back for")
	r.Stepped(died(0, cobble, map[string]any{"died": true}))
	_, _, ok = r.Fire(here(10))
	assert.False(t, ok, "no place")
	r.Stepped(died(0, cobble, map[string]any{"died": false, "died_at": at}))
	_, _, ok = r.Fire(here(10))
	assert.False(t, ok, "not a death")

	// Lava where the items fell: they burned there.
	for _, c := range []struct {
		name  string
		lava  world.BlockPos
		chase bool
	}{
		{"lava at the feet", world.Pos(40, 64, 0), false},
		{"lava at the head", world.Pos(40, 65, 0), false},
		{"lava beside", world.Pos(41, 64, 0), true},
	} {
		r = &loop.RecoverReflex{}
		r.Stepped(died(0, cobble, map[string]any{"died": true, "died_at": at}))
		w := snap(nil, map[world.BlockPos]string{c.lava: "minecraft:lava"})
		w.Tick = 10
		_, _, ok = r.Fire(w)
		assert.Equal(t, c.chase, ok, c.name)
	}
}
