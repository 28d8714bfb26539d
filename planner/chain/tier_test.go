package chain

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// torchTech is the test tier evidence of testdata/tech_torches.yaml.
func torchTech(t *testing.T) *rules.TechRules {
	t.Helper()
	data, err := os.ReadFile("testdata/tech_torches.yaml")
	require.NoError(t, err)
	tech, err := rules.ParseTech("testdata/tech_torches.yaml", data, rules.Default().Tiers)
	require.NoError(t, err)
	return tech
}

// retiered shows a body's world with the tier inferred by other evidence.
type retiered struct {
	ipc.Body
	tech *rules.TechRules
}

func (r retiered) Observe(ctx context.Context) (*world.Snapshot, error) {
	w, err := r.Body.Observe(ctx)
	if err == nil {
		w.TechState = r.tech.Infer(w.Inventory, w.Machines)
	}
	return w, err
}

func simOf(t *testing.T, file string) *sim.Sim {
	t.Helper()
	var sc *sim.Scenario
	var err error
	if file == "" {
		sc, err = sim.DefaultScenario()
	} else {
		sc, err = sim.LoadScenario(file)
	}
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

func runTier(t *testing.T, body ipc.Body, pl Planner, text string) (loop.Outcome, []loop.StepRecord) {
	t.Helper()
	reg := shipped(t)
	g, err := loop.ParseGoal(text, reg.Tiers())
	require.NoError(t, err)
	var steps []loop.StepRecord
	var buf bytes.Buffer
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: pl, Goal: g, Trace: &buf, MaxSteps: 40,
		OnStep: func(r loop.StepRecord) { steps = append(steps, r) }})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	return out, steps
}

// TestTierGoalsInTheSimulator: a tier goal is planned towards a piece of
// the tier's evidence that the skills can obtain, or ends stuck at once
// naming every piece of evidence and why it cannot be obtained.
func TestTierGoalsInTheSimulator(t *testing.T) {
	t.Run("reach lv from the steam-age base", func(t *testing.T) {
		out, steps := runTier(t, simOf(t, ""), Planner{}, "reach lv")
		assert.Empty(t, steps)
		assert.Equal(t, loop.Stuck, out.Reason)
		assert.Equal(t, "stuck: no plan: tier steam_age, want lv: no available skill reaches lv and none of its evidence can be obtained: "+
			"item ore:circuitBasic: no available skill produces ore:circuitBasic; "+
			"item gregtech:gt.metaitem.01:32600: no available skill produces gregtech:gt.metaitem.01:32600; "+
			"machine of tier lv: no skill builds machines", out.Why)
	})
	t.Run("reach steam_age in a bare forest", func(t *testing.T) {
		// Coke comes from a coke oven the bot builds: it works towards
		// the oven's blocks until the forest has no gravel for the flint.
		out, steps := runTier(t, simOf(t, "testdata/forest.yaml"), Planner{}, "reach steam_age")
		require.NotEmpty(t, steps)
		assert.Equal(t, "chop_tree", steps[0].Invocation.Skill)
		assert.Equal(t, loop.Stuck, out.Reason)
		oven := "build coke_oven: cannot get 26 Railcraft:machine.alpha:7: basic_crafting: cannot get 104 dreamcraft:item.CokeOvenBrick: smelt: cannot get 1 minecraft:furnace: basic_crafting: cannot get 3 minecraft:flint: basic_crafting: no available skill produces minecraft:gravel"
		assert.Equal(t, "stuck: no plan: tier stone_age, want steam_age: no available skill reaches steam_age and none of its evidence can be obtained: "+
			"item ore:ingotBronze: no available skill produces ore:ingotBronze; "+
			"item ore:plateBronze: no available skill produces ore:plateBronze; "+
			"item ore:fuelCoke: cannot get 1 ore:fuelCoke: "+oven+"; "+
			"item ore:blockFuelCoke: cannot get 1 ore:blockFuelCoke: "+oven+"; "+
			"formed machine coke_oven: no skill builds machines; "+
			"machine steam_boiler: no skill builds machines; "+
			"machine steam_machine: no skill builds machines; "+
			"formed machine bricked_blast_furnace: no skill builds machines", out.Why)
	})
	t.Run("reach steam_age when torches show it", func(t *testing.T) {
		tech := torchTech(t)
		out, steps := runTier(t, retiered{Body: simOf(t, "testdata/forest.yaml"), tech: tech}, Planner{Tech: tech}, "reach steam_age")
		require.True(t, out.GoalMet, "%+v", out)
		var chain []string
		for _, st := range steps {
			require.Equal(t, loop.Success, st.Verdict, "%s: %s", st.Invocation, st.Error)
			chain = append(chain, st.Invocation.String())
		}
		t.Logf("chain: %q", chain)
		assert.Equal(t, "chop_tree", steps[0].Invocation.Skill)
		assert.Equal(t, "minecraft:torch", steps[len(steps)-1].Invocation.Params["item"])
		assert.Contains(t, chain, "basic_crafting count=3 item=minecraft:stick", "sticks for the torches")
		last := steps[len(steps)-1]
		assert.GreaterOrEqual(t, last.After.Inventory["minecraft:torch"], 8)
		assert.Equal(t, "steam_age", last.After.TechState)
	})
}

// withSkills is the shipped stone-age catalog plus descriptions that declare
// the tiers they reach.
func withSkills(t *testing.T, reaches map[string]string) []*registry.Description {
	t.Helper()
	reg := shipped(t)
	catalog, err := reg.DescribeForTechState("stone_age", reg.Packs().Names())
	require.NoError(t, err)
	for name, tier := range reaches {
		catalog = append(catalog, &registry.Description{Name: name, Effects: skills.Effects{TechDelta: skills.TechDelta{ReachesTier: tier}}})
	}
	return catalog
}

func planTier(t *testing.T, catalog []*registry.Description, tech *rules.TechRules, w *world.Snapshot, text string, blocked ...loop.Invocation) (loop.Decision, error) {
	t.Helper()
	reg := shipped(t)
	goal, err := loop.ParseGoal(text, reg.Tiers())
	require.NoError(t, err)
	obs := loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false), Blocked: blocked}
	return Planner{Tech: tech}.Plan(context.Background(), goal, obs, catalog)
}

// TestTierGoalSkills: a skill is chosen for a tier goal only when it
// declares that it reaches that tier or a higher one.
func TestTierGoalSkills(t *testing.T) {
	w := snapshot("stone_age", world.NewSparseBlocks())
	dec, err := planTier(t, withSkills(t, map[string]string{"light_boiler": "steam_age", "tidy_up": "stone_age"}), nil, w, "reach steam_age")
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "light_boiler"}, dec.Invocation)
	dec, err = planTier(t, withSkills(t, map[string]string{"build_lv_machine": "lv"}), nil, w, "reach steam_age")
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "build_lv_machine"}, dec.Invocation, "lv is past steam_age")

	_, err = planTier(t, withSkills(t, map[string]string{"tidy_up": "stone_age"}), nil, w, "reach steam_age")
	require.ErrorIs(t, err, loop.ErrStuck, "a skill reaching a lower tier does not help")
	assert.Contains(t, err.Error(), "no available skill reaches steam_age and none of its evidence can be obtained")
	_, err = planTier(t, withSkills(t, nil), nil, w, "reach steam_age")
	require.ErrorIs(t, err, loop.ErrStuck, "no skill at all reaches a tier")

	_, err = planTier(t, withSkills(t, map[string]string{"light_boiler": "steam_age"}), nil, w, "reach steam_age", loop.Invocation{Skill: "light_boiler"})
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "the skills that reach steam_age are blocked (light_boiler)")

	oven := snapshot("stone_age", world.NewSparseBlocks())
	oven.Machines = []world.Machine{{Kind: world.MachineCokeOven, Pos: world.Pos(4, 64, 4)}}
	_, err = planTier(t, withSkills(t, nil), nil, oven, "reach steam_age")
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "formed machine coke_oven: the coke_oven at (4, 64, 4) is not formed, and no skill builds machines")
}

// TestTierGoalEvidenceChain: with no skill that reaches the tier, the
// planner works towards the first piece of its evidence it can obtain,
// through the recipe chain (torches need sticks need planks need logs).
func TestTierGoalEvidenceChain(t *testing.T) {
	tech := torchTech(t)
	catalog := withSkills(t, nil)
	coal := world.NewStack("minecraft:coal", 0, 4)
	steps := []struct {
		w    *world.Snapshot
		want *loop.Invocation
	}{
		{snapshot("stone_age", nil, coal), &loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 2}}},
		{snapshot("stone_age", nil, coal, stack("minecraft:log", 2)), &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:planks", "count": 4}}},
		{snapshot("stone_age", nil, coal, stack("minecraft:planks", 4)), &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:stick", "count": 3}}},
		{snapshot("stone_age", nil, coal, stack("minecraft:stick", 4)), &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:torch", "count": 8}}},
	}
	for i, st := range steps {
		dec, err := planTier(t, catalog, tech, st.w, "reach steam_age")
		require.NoError(t, err, "step %d", i+1)
		assert.Equal(t, st.want, dec.Invocation, "step %d", i+1)
		assert.Equal(t, "towards item minecraft:torch ×8 (evidence of steam_age)", dec.Reason)
	}
}
