package sim_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// guardRun plays a plan of five 20 s waits in s with the defend reflex,
// the loop guarding at guard blocks (0: not at all), and returns the
// steps.
func guardRun(t *testing.T, s *sim.Sim, guard float64) ([]loop.StepRecord, loop.Outcome) {
	t.Helper()
	reg := shipped(t)
	g, err := loop.ParseGoal("collect 1 minecraft:diamond", reg.Tiers())
	require.NoError(t, err)
	wait := loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": "20s"}}
	var steps []loop.StepRecord
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(s), Planner: script.New(wait, wait, wait, wait, wait), Goal: g,
		MaxSteps: 40, Guard: ipc.Guard{Range: guard},
		Reflexes: []loop.Reflex{loop.DefendReflex{Range: loop.DefaultDefendRange, FleeHealth: loop.DefaultFleeHealth, MinWeaponDamage: loop.DefaultMinWeaponDamage}},
		OnStep:   func(r loop.StepRecord) { steps = append(steps, r) }})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	return steps, out
}

// TestAZombieInterruptsAWaitAndIsFought: a zombie walks at a bot waiting
// with a stone sword. Guarded, the wait ends when it comes within 8
// blocks ("interrupted: a zombie ..."), a step that is neither a success
// nor a failure; the defend reflex lets it come (it fights a zombie within
// 4 blocks), so the next wait ends when it crosses 3 blocks; the reflex
// fights it hit by hit, and the plan's waits go on after it. Unguarded,
// the wait runs on while the zombie hits, to the bot's death.
func TestAZombieInterruptsAWaitAndIsFought(t *testing.T) {
	race.SkipOneGoroutine(t, "two runs of the loop in 96×96 worlds on one goroutine")
	sword := `  inventory:
    - {item: "minecraft:stone_sword", count: 1, durability: 131, max_durability: 131}
`
	s := dangerWorld(t, 1, 6000, sword)
	_, err := s.Summon("zombie", world.Vec3{X: 34.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	steps, out := guardRun(t, s, loop.DefaultDefendRange)
	require.NotEmpty(t, steps)
	first := steps[0]
	assert.Equal(t, loop.Threatened, first.Verdict, "%+v", first)
	assert.Contains(t, first.Error, "wait: interrupted: a zombie (entity")
	assert.Less(t, first.Ticks, int64(400))
	assert.Nil(t, first.Reflex)
	require.Greater(t, len(steps), 2)
	second := steps[1]
	assert.Nil(t, second.Reflex, "a zombie 7.6 blocks off is let come")
	assert.Equal(t, loop.Threatened, second.Verdict, "%+v", second)
	assert.Contains(t, second.Error, "wait: interrupted: a zombie (entity")
	require.NotNil(t, steps[2].Reflex, "%+v", steps[2])
	assert.Equal(t, "defend", steps[2].Reflex.Name)
	assert.Equal(t, "fight", steps[2].Invocation.Skill)
	assert.Equal(t, 20.0, steps[2].Before.Health, "met before it hit")
	var fought, resumed int
	for _, st := range steps[2:] {
		switch {
		case st.Reflex != nil && st.Invocation.Skill == "fight":
			fought++
		case st.Reflex == nil && st.Verdict == loop.Success:
			resumed++
		}
	}
	assert.GreaterOrEqual(t, fought, 3, "a zombie's 20 health takes three or four hits of 6 (the sun burns it too)")
	assert.Equal(t, 3, resumed, "the plan's other three waits ran to their end after the fight")
	assert.Empty(t, s.Deaths())
	assert.Equal(t, 2, out.Skills["wait_for"].Threatened)
	assert.Equal(t, 3, out.Skills["wait_for"].Attempts, "the threatened wait is not an attempt")
	assert.Equal(t, 3, out.Skills["wait_for"].Successes)

	bare := dangerWorld(t, 1, 6000, sword)
	_, err = bare.Summon("zombie", world.Vec3{X: 34.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	steps, _ = guardRun(t, bare, 0)
	assert.NotEqual(t, loop.Threatened, steps[0].Verdict)
	assert.Contains(t, steps[0].Error, "died", "unguarded, the wait runs on while the zombie hits, to the end")
	assert.NotEmpty(t, bare.Deaths())
}

// guardSpy is a body that notes, for each action, whether it ran under a
// guard.
type guardSpy struct {
	ipc.Body
	seen []string
}

func (b *guardSpy) Execute(ctx context.Context, a action.Action) ipc.Result {
	g, on := ipc.GuardOf(ctx)
	seen := fmt.Sprintf("%s guarded=%v", a.Kind(), on)
	if len(g.Facing) > 0 {
		seen += fmt.Sprintf(" facing=%v", g.Facing)
	}
	b.seen = append(b.seen, seen)
	return b.Body.Execute(ctx, a)
}

// TestWhichStepsAreGuarded: the plan's steps run guarded; the defend
// reflex's fight runs guarded with the mob it fights left out (it would
// end the fight's own walk; a second mob coming near does); a wait walled
// in does not (a mob outside the walls must not cut the night short); a
// guard of no range guards nothing.
func TestWhichStepsAreGuarded(t *testing.T) {
	race.SkipOneGoroutine(t, "three runs of the loop in 96×96 worlds on one goroutine")
	s := dangerWorld(t, 1, 6000, `  inventory:
    - {item: "minecraft:stone_sword", count: 1, durability: 131, max_durability: 131}
`)
	zombie, err := s.Summon("zombie", world.Vec3{X: 42.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	spy := &guardSpy{Body: s}
	reg := shipped(t)
	g, err := loop.ParseGoal("collect 1 minecraft:diamond", reg.Tiers())
	require.NoError(t, err)
	wait := loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": "1s"}}
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(spy), Planner: script.New(wait), Goal: g,
		MaxSteps: 20, Guard: ipc.Guard{Range: 8},
		Reflexes: []loop.Reflex{loop.DefendReflex{Range: loop.DefaultDefendRange, FleeHealth: loop.DefaultFleeHealth, MinWeaponDamage: loop.DefaultMinWeaponDamage}}})
	require.NoError(t, err)
	_, err = l.Run(context.Background())
	require.NoError(t, err)
	facing := fmt.Sprintf("attack guarded=true facing=[%d]", zombie)
	assert.Contains(t, spy.seen, facing, "%v", spy.seen)
	for _, seen := range spy.seen {
		if strings.HasPrefix(seen, "attack") {
			assert.Equal(t, facing, seen)
		}
	}
	assert.Contains(t, spy.seen, "wait guarded=true", "%v", spy.seen)

	// Walled in at night, the shelter's wait runs unguarded.
	night := dangerWorld(t, 1, 18000, `blocks:
  - {block: "minecraft:cobblestone", from: [47, 64, 47], to: [49, 67, 49]}
  - {block: "minecraft:air", from: [48, 65, 48], to: [48, 66, 48]}
`)
	spy = &guardSpy{Body: night}
	l, err = loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(spy), Planner: script.New(), Goal: g,
		MaxSteps: 2, Guard: ipc.Guard{Range: 8},
		Reflexes: []loop.Reflex{&loop.ShelterReflex{From: loop.DefaultShelterFrom, Until: loop.DefaultShelterUntil}}})
	require.NoError(t, err)
	_, err = l.Run(context.Background())
	require.NoError(t, err)
	require.NotEmpty(t, spy.seen)
	assert.NotContains(t, spy.seen, "wait guarded=true", "%v", spy.seen)
	assert.Contains(t, spy.seen, "wait guarded=false", "%v", spy.seen)

	// No range: nothing is guarded.
	s = dangerWorld(t, 1, 6000, "")
	spy = &guardSpy{Body: s}
	l, err = loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(spy), Planner: script.New(wait), Goal: g, MaxSteps: 2})
	require.NoError(t, err)
	_, err = l.Run(context.Background())
	require.NoError(t, err)
	assert.Equal(t, []string{"wait guarded=false"}, spy.seen)
}

// TestThreatenedStepsNeitherFailNorBlock: a zombie cutting the same wait
// short again and again (no reflex deals with it here) neither stops the
// run for failing in a row (MaxConsecutiveFailures 1) nor blocks the
// invocation as one that failed twice.
func TestThreatenedStepsNeitherFailNorBlock(t *testing.T) {
	s := dangerWorld(t, 1, 6000, "")
	_, err := s.Summon("zombie", world.Vec3{X: 34.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	reg := shipped(t)
	g, err := loop.ParseGoal("collect 1 minecraft:diamond", reg.Tiers())
	require.NoError(t, err)
	wait := loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": "20s"}}
	var steps []loop.StepRecord
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(s), Planner: script.New(wait, wait, wait), Goal: g,
		MaxSteps: 3, MaxConsecutiveFailures: 1, Guard: ipc.Guard{Range: 8},
		OnStep: func(r loop.StepRecord) { steps = append(steps, r) }})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	require.Len(t, steps, 3)
	for _, st := range steps {
		assert.Equal(t, loop.Threatened, st.Verdict, "%+v", st)
		assert.Positive(t, st.Ticks, "every threat took game time")
	}
	assert.Contains(t, steps[2].Error, "hurting the player", "the third time the zombie hit")
	assert.Equal(t, loop.MaxSteps, out.Reason)
	assert.Equal(t, 3, out.Skills["wait_for"].Threatened)
	assert.Zero(t, out.Skills["wait_for"].Attempts)
}

// waitReflex always fires: a 20 s wait.
type waitReflex struct{}

func (waitReflex) Name() string { return "waiter" }
func (waitReflex) Fire(*world.Snapshot) (loop.Invocation, string, bool) {
	return loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": "20s"}}, "always", true
}

// TestAThreatenedReflexStepIsNoFailure: a reflex whose step a mob cut short
// has not failed, so it fires again on the next step (a reflex that failed
// waits for a planned step).
func TestAThreatenedReflexStepIsNoFailure(t *testing.T) {
	race.SkipOneGoroutine(t, "a run of the loop in a 96×96 world on one goroutine")
	s := dangerWorld(t, 1, 6000, "")
	_, err := s.Summon("zombie", world.Vec3{X: 34.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	reg := shipped(t)
	g, err := loop.ParseGoal("collect 1 minecraft:diamond", reg.Tiers())
	require.NoError(t, err)
	var steps []loop.StepRecord
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(s),
		Planner: script.New(loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": "1s"}}), Goal: g,
		MaxSteps: 2, Guard: ipc.Guard{Range: 8}, Reflexes: []loop.Reflex{waitReflex{}},
		OnStep: func(r loop.StepRecord) { steps = append(steps, r) }})
	require.NoError(t, err)
	_, err = l.Run(context.Background())
	require.NoError(t, err)
	require.Len(t, steps, 2)
	assert.Equal(t, loop.Threatened, steps[0].Verdict)
	require.NotNil(t, steps[1].Reflex, "the reflex fires again: %+v", steps[1])
	assert.Equal(t, "waiter", steps[1].Reflex.Name)
}
