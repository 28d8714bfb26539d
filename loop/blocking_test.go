package loop_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/packs"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// tender tends the machine kind named by its parameter; it only waits.
type tender struct{}

func (tender) Name() string { return "tender" }
func (tender) SuggestActions(*world.Snapshot, skills.Params) ([]action.Action, error) {
	return []action.Action{action.Wait{Ticks: 1}}, nil
}

// TestBlockedByTheKindItsParameterNames: an invocation whose parameter names
// a machine kind (tender machine=steam_boiler) is blocked until a machine of
// that kind changes; a coke oven filling up does not lift it, the boiler
// getting water does.
func TestBlockedByTheKindItsParameterNames(t *testing.T) {
	spec, err := skills.ParseSpec("", []byte("name: tender\nversion: 1\ndescription: tends a machine\nemits: [wait]\n"+
		"params:\n  machine: {type: string, description: the machine kind}\n"+
		"effects:\n  inventory_delta:\n    \"minecraft:diamond\": {min_increase: 1}\n"))
	require.NoError(t, err)
	pk, err := packs.ParsePack("p.yaml", []byte("name: p\nrequires_tech_state: any\nskills: [tender]\n"), nil)
	require.NoError(t, err)
	set, err := packs.NewSet(nil, pk)
	require.NoError(t, err)
	reg, err := registry.New([]*skills.Spec{spec}, registry.Options{Packs: set})
	require.NoError(t, err)
	require.NoError(t, reg.Register(tender{}))
	require.NoError(t, reg.Finalize())

	body := newToy()
	body.machines = []world.Machine{
		{Kind: world.MachineCokeOven, Pos: world.Pos(-3, 64, -3), Formed: true,
			Fluids: map[string]world.FluidTank{"creosote": {Fluid: "creosote", Capacity: 64000}}},
		{Kind: world.MachineSteamBoiler, Pos: world.Pos(3, 64, 3), Formed: true,
			Fluids: map[string]world.FluidTank{"water": {Fluid: "water", Capacity: 16000}}},
	}
	body.hook = func(a action.Action) *ipc.Result {
		if a.Kind() == action.KindWait {
			r := ipc.Failf(ipc.Rejected, 1, "the machine does not answer")
			return &r
		}
		return nil
	}
	inv := loop.Invocation{Skill: "tender", Params: map[string]any{"machine": world.MachineSteamBoiler}}
	var steps []loop.StepRecord
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(inv, inv, inv, inv),
		Goal: goal(t, reg, "have 99 minecraft:diamond"), OnStep: func(r loop.StepRecord) {
			steps = append(steps, r)
			body.mu.Lock()
			defer body.mu.Unlock()
			switch r.Step {
			case 2: // the coke oven fills with creosote: not the tender's machine
				body.machines[0].Fluids = map[string]world.FluidTank{"creosote": {Fluid: "creosote", Amount: 500, Capacity: 64000}}
			case 3: // the boiler gets water
				body.machines[1].Fluids = map[string]world.FluidTank{"water": {Fluid: "water", Amount: 1000, Capacity: 16000}}
			}
		}})
	require.NoError(t, r.err)
	require.Len(t, steps, 4)
	want := []loop.Verdict{loop.ActionFailed, loop.ActionFailed, loop.Rejected, loop.ActionFailed}
	for i, v := range want {
		assert.Equal(t, v, steps[i].Verdict, "step %d: %s", i+1, steps[i].Error)
	}
}

// TestDifferentFailuresDoNotBlock: an invocation is blocked when it fails
// the same way twice; failing one way and then another (unreachable, then
// a timeout) is two different answers, and it is tried again.
func TestDifferentFailuresDoNotBlock(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	codes := []ipc.Code{ipc.Unreachable, ipc.Timeout, ipc.Unreachable, ipc.Unreachable}
	n := 0
	body.hook = func(a action.Action) *ipc.Result {
		if a.Kind() == action.KindMoveTo {
			r := ipc.Failf(codes[n%len(codes)], 1, "try %d", n+1)
			n++
			return &r
		}
		return nil
	}
	chop := loop.Invocation{Skill: "chop_tree"}
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(chop, chop, chop, chop, chop),
		Goal: goal(t, reg, "have 99 minecraft:diamond")})
	require.NoError(t, r.err)
	require.Len(t, r.trace, 5)
	want := []loop.Verdict{loop.ActionFailed, loop.ActionFailed, loop.ActionFailed, loop.ActionFailed, loop.Rejected}
	for i, v := range want {
		assert.Equal(t, v, r.trace[i].Verdict, "step %d: %s", i+1, r.trace[i].Error)
	}
	assert.Contains(t, r.trace[4].Error, "failed the same way twice")
}

// TestLiftedBlockStartsAFreshCount: when the world changes, a blocked
// invocation gets two more tries, like a new one: one failure after the
// change does not block it again at once. Changing the held item, or
// standing elsewhere, is a change of the world (a retry may now hold the
// right tool, or find a path).
func TestLiftedBlockStartsAFreshCount(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(b *toyBody)
	}{
		{"another held item", func(b *toyBody) { b.inv.Held = 1 }},
		{"another position", func(b *toyBody) { b.pos = world.Vec3{X: -2.5, Y: 64, Z: 1.5} }},
	} {
		t.Run(tc.name, func(t *testing.T) { liftedBlock(t, tc.change) })
	}
}

func liftedBlock(t *testing.T, change func(b *toyBody)) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	body.add("minecraft:stick", 1)
	body.add("minecraft:dirt", 1)
	body.hook = func(a action.Action) *ipc.Result {
		if a.Kind() == action.KindMoveTo {
			r := ipc.Failf(ipc.Unreachable, 1, "no path")
			return &r
		}
		return nil
	}
	chop := loop.Invocation{Skill: "chop_tree"}
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(chop, chop, chop, chop, chop, chop),
		Goal: goal(t, reg, "have 99 minecraft:diamond"), OnStep: func(r loop.StepRecord) {
			if r.Step == 3 { // blocked; now the world changes
				body.mu.Lock()
				change(body)
				body.mu.Unlock()
			}
		}})
	require.NoError(t, r.err)
	require.Len(t, r.trace, 6)
	want := []loop.Verdict{loop.ActionFailed, loop.ActionFailed, loop.Rejected, loop.ActionFailed, loop.ActionFailed, loop.Rejected}
	for i, v := range want {
		assert.Equal(t, v, r.trace[i].Verdict, "step %d: %s", i+1, r.trace[i].Error)
	}
}

// TestSuccessResetsTheFailureCount: "the same way twice" means twice in a
// row for the invocation: a failure, a success and a failure do not block it.
func TestSuccessResetsTheFailureCount(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2), world.Pos(-4, 64, 3))
	moves := 0
	body.hook = func(a action.Action) *ipc.Result {
		if a.Kind() != action.KindMoveTo {
			return nil
		}
		moves++
		if moves == 2 {
			return nil // this walk gets there
		}
		r := ipc.Failf(ipc.Unreachable, 1, "no path")
		return &r
	}
	chop := loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 1}}
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(chop, chop, chop, chop, chop),
		Goal: goal(t, reg, "have 99 minecraft:diamond")})
	require.NoError(t, r.err)
	require.Len(t, r.trace, 5)
	want := []loop.Verdict{loop.ActionFailed, loop.Success, loop.ActionFailed, loop.ActionFailed, loop.Rejected}
	for i, v := range want {
		assert.Equal(t, v, r.trace[i].Verdict, "step %d: %s", i+1, r.trace[i].Error)
	}
}

// TestRejectedIsNotBlocked: an invocation the loop refuses (bad parameters)
// is refused for that reason every time, not "blocked after failing twice":
// nothing ran, so the world could not answer the same way twice. Eight
// failures in a row (the default) end the run.
func TestRejectedIsNotBlocked(t *testing.T) {
	reg := shipped(t, registry.Options{})
	bad := loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": -5}}
	invs := make([]loop.Invocation, 12)
	for i := range invs {
		invs[i] = bad
	}
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy(world.Pos(3, 64, 2))), Planner: script.New(invs...),
		Goal: goal(t, reg, "have 99 minecraft:diamond")})
	require.NoError(t, r.err)
	assert.Equal(t, loop.Stuck, r.out.Reason)
	require.Len(t, r.trace, 8, "the default MaxConsecutiveFailures is 8")
	for i, st := range r.trace {
		assert.Equal(t, loop.Rejected, st.Verdict, "step %d", i+1)
		assert.Equal(t, "invalid_params", st.Code, "step %d: %s", i+1, st.Error)
		assert.NotContains(t, st.Error, "blocked", "step %d", i+1)
	}
}

// forever plans the same invocation at every step.
type forever struct{ inv loop.Invocation }

func (f forever) Plan(context.Context, loop.Goal, loop.Observation, []*registry.Description) (loop.Decision, error) {
	inv := f.inv
	return loop.Decision{Invocation: &inv}, nil
}

// TestDefaultMaxSteps: without a step budget a run stops after 200 steps.
func TestDefaultMaxSteps(t *testing.T) {
	reg := shipped(t, registry.Options{})
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy()), Planner: forever{loop.Invocation{Skill: "report_status"}},
		Goal: goal(t, reg, "have 99 minecraft:diamond")})
	require.NoError(t, r.err)
	assert.Equal(t, loop.MaxSteps, r.out.Reason)
	assert.Equal(t, 200, r.out.Steps)
}

// TestDriftDoesNotLiftANoop: "run refill_water_tanks" beside a full boiler
// whose water falls a mB and whose temperature rises a degree at every
// look (a boiling boiler, or the live client's bounds moving with the
// clock) ends after one noop step, stuck; before, each look lifted the
// block and the bot asked again, a noop a step.
func TestDriftDoesNotLiftANoop(t *testing.T) {
	reg := shipped(t, registry.Options{})
	g, err := loop.ParseGoal("run refill_water_tanks", reg.Tiers())
	require.NoError(t, err)
	body := newToy()
	body.tier = "steam_age"
	body.add("minecraft:water_bucket", 2)
	body.machines = []world.Machine{{Kind: world.MachineSteamBoiler, Pos: world.Pos(3, 64, 3), Formed: true, Temperature: 20,
		Fluids: map[string]world.FluidTank{"water": {Fluid: "water", Amount: 32000, Capacity: 32000}}}}
	body.onObserve = func(b *toyBody) {
		m := &b.machines[0]
		w := m.Fluids["water"]
		w.Amount--
		m.Fluids = map[string]world.FluidTank{"water": w}
		m.Temperature++
		b.tick += 11
	}
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: chain.Planner{}, Goal: g, MaxSteps: 10})
	require.NoError(t, r.err)
	assert.Equal(t, loop.Stuck, r.out.Reason, r.out.Why)
	require.Len(t, r.trace, 1)
	assert.Equal(t, loop.Noop, r.trace[0].Verdict, "%+v", r.trace[0])
}
