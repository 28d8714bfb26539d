package sim_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestBuildStructureFormsACokeOven: build_structure's actions, executed in
// the simulator from an inventory of 26 coke oven blocks, leave a formed
// coke oven that turns a log into charcoal.
func TestBuildStructureFormsACokeOven(t *testing.T) {
	sc, err := sim.ParseScenario("t.yaml", []byte("name: t\nseed: 5\nsize: {x: 24, z: 24}\nplayer:\n  pos: [12, 64, 12]\n  inventory:\n"+
		"    - {item: \"Railcraft:machine.alpha:7\", count: 26}\n    - {item: minecraft:log, count: 1}\n"+
		"trees:\n  - {at: [10, 12], height: 5}\n"))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	w, err := suggestAndRun(t, s, "build_structure", map[string]any{"name": "coke_oven"})
	require.NoError(t, err)
	require.Len(t, w.Machines, 1)
	oven := w.Machines[0]
	assert.Equal(t, world.MachineCokeOven, oven.Kind)
	assert.True(t, oven.Formed)
	assert.Zero(t, w.Inventory.Count(world.MustItem("Railcraft:machine.alpha:7")), "all 26 placed")
	assert.Equal(t, "Railcraft:machine.alpha", w.BlockAt(oven.Pos).ID)
	assert.True(t, w.BlockAt(oven.Pos.Up()).IsAir(), "the centre above the master is air")

	ctx := context.Background()
	for _, a := range []action.Action{
		action.MoveTo{Pos: oven.Pos, Radius: 3},
		action.OpenContainer{Pos: oven.Pos},
		action.TransferItems{Pos: oven.Pos, Item: "minecraft:log", Count: 1, Direction: action.Deposit, Slot: "input"},
		action.Wait{Ticks: 1800},
	} {
		r := s.Execute(ctx, a)
		require.True(t, r.OK(), "%s: %s", a.Kind(), r.Error)
	}
	w, err = s.Observe(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, w.Machines[0].Slot("output").Count, "charcoal from the oven the bot built")
}

// TestBuildGoalInTheSimulator: the goal "build coke_oven" runs through the
// loop and the goal planner from an inventory of 26 coke oven blocks and is
// met by the oven the bot built.
func TestBuildGoalInTheSimulator(t *testing.T) {
	sc, err := sim.ParseScenario("t.yaml", []byte("name: t\nseed: 5\nsize: {x: 24, z: 24}\nplayer:\n  pos: [12, 64, 12]\n  inventory:\n"+
		"    - {item: \"Railcraft:machine.alpha:7\", count: 26}\n    - {item: minecraft:log, count: 4}\n"))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	out, steps, trace := runGoal(t, s, "build coke_oven", chain.Planner{})
	for _, st := range steps {
		t.Logf("step %d %v %s %s %s", st.Step, st.Invocation, st.Verdict, st.Code, st.Error)
	}
	require.True(t, out.GoalMet, trace)
	require.NotEmpty(t, steps)
	require.Len(t, steps, 1)
	assert.Equal(t, "build_structure name=coke_oven", steps[0].Invocation.String())
	w, err := s.Observe(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "steam_age", w.TechState, "a formed coke oven shows the steam age")
}
