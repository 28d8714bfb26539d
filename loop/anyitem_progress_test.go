package loop_test

import (
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

// TestAnyItemGainIsProgress: mine_block declares a gain of any item ("*")
// and the block gone. Gravel that falls into the hole it mined leaves the
// block effect unmet, but each step still picked up a block: that is the
// progress the skill intends, so the invocation is tried again rather than
// blocked after two such steps.
func TestAnyItemGainIsProgress(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy()
	gravel := world.Pos(2, 64, 2)
	body.blocks.SetID(gravel, "minecraft:gravel", 0)
	body.hook = func(a action.Action) *ipc.Result {
		if b, ok := a.(action.BreakBlock); ok && b.Pos == gravel {
			// The block breaks and drops; the gravel above falls into its place.
			body.add("minecraft:gravel", 1)
			return &ipc.Result{Code: ipc.OK, Ticks: 30}
		}
		return nil
	}
	inv := loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:gravel"}}
	var steps []loop.StepRecord
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(inv, inv, inv, inv),
		Goal: goal(t, reg, "have 99 minecraft:diamond"), OnStep: func(r loop.StepRecord) { steps = append(steps, r) }})
	require.NoError(t, r.err)
	require.Len(t, steps, 4)
	for i, st := range steps {
		assert.Equal(t, loop.EffectsUnmet, st.Verdict, "step %d: the gravel is still there", i+1)
		assert.True(t, st.Progressed, "step %d gained a block", i+1)
		if assert.NotNil(t, st.After, "step %d", i+1) {
			assert.Equal(t, i+1, st.After.Inventory["minecraft:gravel"], "step %d", i+1)
		}
	}
	assert.Equal(t, loop.PlannerDone, r.out.Reason)

	// A step that gained nothing made no progress: two such steps block it.
	body2 := newToy()
	body2.blocks.SetID(gravel, "minecraft:gravel", 0)
	body2.hook = func(a action.Action) *ipc.Result {
		if _, ok := a.(action.BreakBlock); ok {
			return &ipc.Result{Code: ipc.OK, Ticks: 30} // nothing breaks, nothing drops
		}
		return nil
	}
	steps = nil
	r = runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body2), Planner: script.New(inv, inv, inv),
		Goal: goal(t, reg, "have 99 minecraft:diamond"), OnStep: func(r loop.StepRecord) { steps = append(steps, r) }})
	require.NoError(t, r.err)
	require.Len(t, steps, 3)
	assert.False(t, steps[0].Progressed)
	assert.False(t, steps[1].Progressed)
	assert.Equal(t, loop.Rejected, steps[2].Verdict, "failed the same way twice without progress: blocked")
}

// TestAnyItemUseIsProgress: a skill that declares it uses up items of any
// kind ("*": min_decrease) made progress when a step fell short after
// using some, and not when it used none.
func TestAnyItemUseIsProgress(t *testing.T) {
	spec, err := skills.ParseSpec("", []byte("name: tender\nversion: 1\ndescription: burns whatever it holds\nemits: [wait]\n"+
		"effects:\n  inventory_delta:\n    \"*\": {min_decrease: 2}\n"))
	require.NoError(t, err)
	pk, err := packs.ParsePack("p.yaml", []byte("name: p\nrequires_tech_state: any\nskills: [tender]\n"), nil)
	require.NoError(t, err)
	set, err := packs.NewSet(nil, pk)
	require.NoError(t, err)
	reg, err := registry.New([]*skills.Spec{spec}, registry.Options{Packs: set})
	require.NoError(t, err)
	require.NoError(t, reg.Register(tender{}))
	require.NoError(t, reg.Finalize())
	for _, use := range []bool{true, false} {
		body := newToy()
		body.add("minecraft:coal", 4)
		body.hook = func(a action.Action) *ipc.Result {
			if use {
				body.take(world.MustItem("minecraft:coal"), 1)
			}
			r := ipc.Failf(ipc.Rejected, 1, "the fire went out")
			return &r
		}
		r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(loop.Invocation{Skill: "tender"}),
			Goal: goal(t, reg, "have 99 minecraft:diamond")})
		require.NoError(t, r.err)
		require.Len(t, r.trace, 1)
		assert.Equal(t, loop.ActionFailed, r.trace[0].Verdict)
		assert.Equal(t, use, r.trace[0].Progressed, "used a coal: %v", use)
	}
}
