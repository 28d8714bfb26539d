package loop_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/packs"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

var lookBoiler = world.Pos(3, 64, 3)

// unknownBoilerBody is a steam-age toy body beside a boiler whose contents it
// does not know (as the live client before the boiler's window showed
// them), with 32 coal. Opening the boiler's window makes its contents known
// (8000 mB of water, an empty fuel slot) when shows is true; otherwise the
// window opens and the result says what did not come.
func unknownBoilerBody(shows bool) *toyBody {
	body := newToy()
	body.tier = "steam_age"
	body.add("minecraft:coal", 32)
	body.machines = []world.Machine{{Kind: world.MachineSteamBoiler, Pos: lookBoiler, Formed: true, Temperature: 500,
		ContentsUnknown: true, Fluids: map[string]world.FluidTank{"water": {Fluid: "water", Capacity: 16000}}}}
	body.hook = func(a action.Action) *ipc.Result {
		open, ok := a.(action.OpenContainer)
		if !ok || open.Pos != lookBoiler {
			return nil
		}
		if !shows {
			return &ipc.Result{Code: ipc.OK, Ticks: 60, Details: map[string]any{"contents_read": false,
				"unread": "the boiler's window sent no water level within 60 ticks"}}
		}
		m := &body.machines[0]
		m.ContentsUnknown, m.Temperature = false, 20
		m.Fluids = map[string]world.FluidTank{"water": {Fluid: "water", Amount: 8000, Capacity: 16000}}
		return &ipc.Result{Code: ipc.OK, Ticks: 2, Details: map[string]any{"contents_read": true}}
	}
	return body
}

func boilerLoop(t *testing.T, reg *registry.Registry, body *toyBody) *loop.Loop {
	t.Helper()
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Goal: goal(t, reg, "run feed_steam_boiler")})
	require.NoError(t, err)
	return l
}

func samples(t *testing.T, reg *registry.Registry, name string) int {
	t.Helper()
	sk, err := reg.GetSkill(name)
	require.NoError(t, err)
	return sk.Spec().Metrics.Samples
}

// TestLookingIsItsOwnVerdict: feed_steam_boiler's first visit to a boiler
// whose contents are unknown only looks into it. The step is "looked", not a
// failure: the skill's learned metrics are untouched, the run counts it
// apart from attempts, and the same invocation runs next (not blocked),
// now fuelling the boiler by what the window showed.
func TestLookingIsItsOwnVerdict(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := unknownBoilerBody(true)
	l := boilerLoop(t, reg, body)
	inv := loop.Invocation{Skill: "feed_steam_boiler"}
	rec, err := l.Step(context.Background(), inv)
	require.NoError(t, err)
	assert.Equal(t, loop.Looked, rec.Verdict, "%+v", rec)
	assert.Empty(t, rec.Code)
	assert.Empty(t, rec.Error)
	require.Len(t, rec.Actions, 3)
	assert.Equal(t, action.OpenContainer{Pos: lookBoiler}, rec.Actions[1].Action)
	assert.Zero(t, samples(t, reg, "feed_steam_boiler"), "a look teaches the metrics nothing")

	rec, err = l.Step(context.Background(), inv)
	require.NoError(t, err)
	assert.NotEqual(t, loop.Rejected, rec.Verdict, "a look does not block the invocation: %+v", rec)
	var deposit bool
	for _, e := range rec.Actions {
		if tr, ok := e.Action.(action.TransferItems); ok && tr.Direction == action.Deposit && tr.Slot == "fuel" {
			deposit = true
		}
	}
	assert.True(t, deposit, "fuelled by what the window showed: %+v", rec.Actions)
	// The toy body moves no items: the deposit's effect is unmet, an attempt.
	assert.Equal(t, loop.EffectsUnmet, rec.Verdict)
	assert.Equal(t, 1, samples(t, reg, "feed_steam_boiler"))
}

// TestLookInARunIsCountedApart: in a run, the look is in the skill's Looks,
// not its Attempts, and not a failure in a row (a run that stops at the
// first failure goes on after it).
func TestLookInARunIsCountedApart(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := unknownBoilerBody(true)
	inv := loop.Invocation{Skill: "feed_steam_boiler"}
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(inv, inv),
		Goal: goal(t, reg, "run feed_steam_boiler"), MaxSteps: 2, MaxConsecutiveFailures: 1})
	require.NoError(t, r.err)
	require.Len(t, r.trace, 2)
	assert.Equal(t, loop.Looked, r.trace[0].Verdict)
	assert.Equal(t, loop.Stats{Attempts: 1, Looks: 1}, r.out.Skills["feed_steam_boiler"])
}

// TestUnreadWindowFailsWithItsReason: a window that opens but never shows
// the boiler's contents leaves them unknown. The step fails (action_failed,
// contents_unread) with the body's reason, not as unmet effects; the skill
// never fuels the boiler blind, and after the same failure twice the
// invocation is blocked.
func TestUnreadWindowFailsWithItsReason(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := unknownBoilerBody(false)
	l := boilerLoop(t, reg, body)
	inv := loop.Invocation{Skill: "feed_steam_boiler"}
	for i := range 2 {
		rec, err := l.Step(context.Background(), inv)
		require.NoError(t, err)
		assert.Equal(t, loop.ActionFailed, rec.Verdict, "step %d: %+v", i+1, rec)
		assert.Equal(t, loop.CodeContentsUnread, rec.Code)
		assert.Contains(t, rec.Error, "open_container at (3, 64, 3): the boiler's window sent no water level")
		for _, e := range rec.Actions {
			assert.NotEqual(t, action.KindTransferItems, e.Action.Kind(), "nothing is fuelled blind")
		}
	}
	rec, err := l.Step(context.Background(), inv)
	require.NoError(t, err)
	assert.Equal(t, loop.Rejected, rec.Verdict, "failed the same way twice: blocked")

	// Without the body's word, the reason still names the machine.
	body = unknownBoilerBody(false)
	body.hook = func(action.Action) *ipc.Result { return nil }
	rec, err = boilerLoop(t, reg, body).Step(context.Background(), inv)
	require.NoError(t, err)
	assert.Equal(t, loop.CodeContentsUnread, rec.Code)
	assert.Contains(t, rec.Error, "the steam_boiler's window showed none of its contents")
}

// TestLookAmongOtherActionsIsNotALook: a step that also did something
// besides looking (refill_water_tanks looks into the unknown boiler and
// pours into a known tank) is judged by its effects, though the look read
// the boiler.
func TestLookAmongOtherActionsIsNotALook(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := unknownBoilerBody(true)
	body.add("minecraft:water_bucket", 2)
	body.machines = append(body.machines, world.Machine{Kind: world.MachineWaterTank, Pos: world.Pos(-3, 64, -3), Formed: true,
		Fluids: map[string]world.FluidTank{"water": {Fluid: "water", Amount: 0, Capacity: 16000}}})
	rec, err := boilerLoop(t, reg, body).Step(context.Background(), loop.Invocation{Skill: "refill_water_tanks"})
	require.NoError(t, err)
	assert.Equal(t, loop.EffectsUnmet, rec.Verdict, "%+v", rec)
	var opened, other bool
	for _, e := range rec.Actions {
		switch e.Action.(type) {
		case action.OpenContainer:
			opened = true
		case action.MoveTo, action.CloseContainer:
		default:
			other = true
		}
	}
	assert.True(t, opened && other, "the step looked and poured: %+v", rec.Actions)
}

type peeker struct{}

func (peeker) Name() string { return "peeker" }
func (peeker) SuggestActions(w *world.Snapshot, _ skills.Params) ([]action.Action, error) {
	var acts []action.Action
	for _, m := range w.MachinesOfKind(world.MachineSteamBoiler, 16) {
		acts = append(acts, action.OpenContainer{Pos: m.Pos}, action.CloseContainer{})
	}
	return acts, nil
}

// TestLookIntoAKnownMachineIsNoLook: a step that only opens windows of
// machines whose contents were known already made nothing known: it is
// judged by its effects like any other.
func TestLookIntoAKnownMachineIsNoLook(t *testing.T) {
	spec, err := skills.ParseSpec("", []byte("name: peeker\nversion: 1\ndescription: peeks\nemits: [open_container, close_container]\n"+
		"effects:\n  inventory_delta:\n    minecraft:coal: {min_decrease: 1}\n"))
	require.NoError(t, err)
	pk, err := packs.ParsePack("p.yaml", []byte("name: p\nrequires_tech_state: any\nskills: [peeker]\n"), nil)
	require.NoError(t, err)
	set, err := packs.NewSet(nil, pk)
	require.NoError(t, err)
	reg, err := registry.New([]*skills.Spec{spec}, registry.Options{Packs: set})
	require.NoError(t, err)
	require.NoError(t, reg.Register(peeker{}))
	require.NoError(t, reg.Finalize())
	body := unknownBoilerBody(true)
	body.machines[0].ContentsUnknown = false
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Goal: goal(t, reg, "run peeker")})
	require.NoError(t, err)
	rec, err := l.Step(context.Background(), loop.Invocation{Skill: "peeker"})
	require.NoError(t, err)
	assert.Equal(t, loop.EffectsUnmet, rec.Verdict, "%+v", rec)
}
