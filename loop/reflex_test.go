package loop_test

import (
	"bytes"
	"context"
	"fmt"
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
	assert.Equal(t, 10.0, recs[0].After.Food, "bread: 5 + 5")
	assert.Equal(t, "chop_tree", recs[1].Invocation.Skill)
	assert.Nil(t, recs[1].Reflex)
	first := strings.SplitN(trace, "\n", 2)[0]
	assert.Contains(t, first, `"reflex":{"name":"eat","reason":"food 5 is at or below 6 and the inventory holds food"}`)
	assert.Contains(t, first, `"food level increases by >= 1","before":5,"after":10,"ok":true`)
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
