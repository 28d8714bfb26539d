package sim_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/sim"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

func shipped(t testing.TB) *registry.Registry {
	t.Helper()
	reg, err := registry.LoadConfig(config.FS, registry.Options{})
	require.NoError(t, err)
	require.NoError(t, reg.RegisterProvided())
	require.NoError(t, reg.Finalize())
	return reg
}

func defaultSim(t testing.TB) *sim.Sim {
	t.Helper()
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

func runGoal(t *testing.T, s *sim.Sim, text string, pl loop.Planner) (loop.Outcome, []loop.StepRecord, string) {
	t.Helper()
	reg := shipped(t)
	g, err := loop.ParseGoal(text, reg.Tiers())
	require.NoError(t, err)
	var buf bytes.Buffer
	var steps []loop.StepRecord
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(s), Planner: pl, Goal: g, Trace: &buf, MaxSteps: 60,
		OnStep: func(r loop.StepRecord) { steps = append(steps, r) }})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	return out, steps, buf.String()
}

func TestCollectLogsInTheDefaultScenario(t *testing.T) {
	out, steps, trace := runGoal(t, defaultSim(t), "collect 16 minecraft:log", chain.Planner{})
	for _, st := range steps {
		t.Logf("step %d %v %s %s %s", st.Step, st.Invocation, st.Verdict, st.Code, st.Error)
	}
	require.True(t, out.GoalMet, trace)
	assert.Equal(t, loop.GoalMet, out.Reason)
}

// TestSkillsReachTheirEffects runs every shipped skill in the default
// scenario through the real loop and checks its declared effects held.
func TestSkillsReachTheirEffects(t *testing.T) {
	invs := []loop.Invocation{
		{Skill: "chop_tree", Params: map[string]any{"min_logs": 6}},
		{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:planks", "count": 4}},
		{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:stick", "count": 2}},
		{Skill: "plant_sapling", Params: map[string]any{"count": 2}},
		{Skill: "feed_coke_ovens", Params: map[string]any{"per_oven": 4}},
		{Skill: "wait_for", Params: map[string]any{"duration": "200s"}},
		{Skill: "maintain_coke_ovens"},
		{Skill: "feed_steam_boiler", Params: map[string]any{"amount": 4}},
		{Skill: "fill_bucket"},
		{Skill: "refill_water_tanks"},
		{Skill: "mine_block", Params: map[string]any{"target": "minecraft:grass"}},
		{Skill: "report_status", Params: map[string]any{"note": "done"}},
	}
	s := defaultSim(t)
	out, steps, trace := runGoal(t, s, "have 1 minecraft:diamond", script.New(invs...))
	assert.Equal(t, loop.PlannerDone, out.Reason)
	require.Len(t, steps, len(invs), trace)
	for i, st := range steps {
		assert.Equal(t, loop.Success, st.Verdict, "step %d %s: %s %s", i+1, st.Invocation, st.Code, st.Error)
	}
	snap, err := s.Observe(context.Background())
	require.NoError(t, err)
	var coke, boilerFuel, tankWater int
	for _, m := range snap.Machines {
		switch m.Kind {
		case "steam_boiler":
			boilerFuel = m.Slot("fuel").Count
		case "water_tank":
			tankWater = m.Fluid("water").Amount
		}
	}
	coke = snap.Inventory.CountID("Railcraft:fuel.coke")
	assert.Greater(t, coke, 0, "the ovens made coke and it was collected")
	assert.Greater(t, boilerFuel, 0)
	assert.Greater(t, tankWater, 2000, "the tank was refilled")
	assert.Equal(t, []string{"[Bot] done: steam_age in the overworld"}, s.Chat())
}

// TestSkillsFailWithTheRightCode checks the failure side in the simulator.
func TestSkillsFailWithTheRightCode(t *testing.T) {
	tests := []struct {
		inv  loop.Invocation
		want string
	}{
		{loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:chest"}}, "missing_items"},
		{loop.Invocation{Skill: "chop_tree", Params: map[string]any{"require_axe": true}}, "missing_tool"},
		{loop.Invocation{Skill: "chop_tree", Params: map[string]any{"radius": 2}}, "no_target"},
		{loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:diamond_ore"}}, "no_target"},
		{loop.Invocation{Skill: "feed_coke_ovens", Params: map[string]any{"fuel": "minecraft:coal_block"}}, "missing_items"},
	}
	for _, tc := range tests {
		t.Run(tc.inv.String(), func(t *testing.T) {
			_, steps, _ := runGoal(t, defaultSim(t), "have 1 minecraft:diamond", script.New(tc.inv))
			require.Len(t, steps, 1)
			assert.Equal(t, loop.SkillFailed, steps[0].Verdict, steps[0].Error)
			assert.Equal(t, tc.want, steps[0].Code, steps[0].Error)
		})
	}
}

func TestDeterministicTrace(t *testing.T) {
	var traces []string
	for range 3 {
		_, _, trace := runGoal(t, defaultSim(t), "have 8 minecraft:stick", chain.Planner{})
		traces = append(traces, trace)
	}
	require.NotEmpty(t, traces[0])
	assert.Equal(t, traces[0], traces[1])
	assert.Equal(t, traces[0], traces[2])
}
