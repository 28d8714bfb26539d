package loop_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func TestParseBuildGoal(t *testing.T) {
	tiers := rules.Default().Tiers
	g, err := loop.ParseGoal("build coke_oven and collect 8 minecraft:coal:1", tiers)
	require.NoError(t, err)
	assert.Equal(t, []loop.BuildGoal{{Name: "coke_oven", Machine: world.MachineCokeOven}}, g.Builds)
	assert.Len(t, g.Items, 1)

	for _, c := range []struct{ text, want string }{
		{"build coke_ovn", `"build coke_ovn": no blueprint "coke_ovn" (did you mean "coke_oven"?) (known: coke_oven)`},
		{"build", "write build NAME, e.g. build coke_oven"},
		{"build coke_oven twice", "write build NAME"},
		{"bild coke_oven", "starts with collect, have, kill, reach, build, run, quest or line"},
	} {
		_, err := loop.ParseGoal(c.text, tiers)
		require.Error(t, err, c.text)
		assert.Contains(t, err.Error(), c.want, c.text)
	}

	g, err = loop.ParseGoalYAML("g.yaml", []byte("build: [coke_oven]\n"), tiers)
	require.NoError(t, err)
	assert.Equal(t, []loop.BuildGoal{{Name: "coke_oven", Machine: world.MachineCokeOven}}, g.Builds)
	_, err = loop.ParseGoalYAML("g.yaml", []byte("build: [coke]\n"), tiers)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `g.yaml:1:9: build[0]: no blueprint "coke"`)

	// Another table's blueprints.
	bt, err := rules.ParseBlueprints("b.yaml", []byte("blueprints:\n  - {name: post, machine: marker, legend: {S: minecraft:stone}, layers: [[S]], master: [0,0,0]}\n"))
	require.NoError(t, err)
	g, err = loop.GoalParser{Tiers: tiers, Blueprints: bt}.Parse("build post")
	require.NoError(t, err)
	assert.Equal(t, "marker", g.Builds[0].Machine)
	_, err = loop.GoalParser{Tiers: tiers, Blueprints: bt}.Parse("build coke_oven")
	assert.ErrorContains(t, err, "known: post")
}

// TestBuildGoalCountsOnlyWhatWasBuilt: the goal holds when a formed
// machine of the blueprint's kind stands that was not formed at the start;
// an oven that was already there, or one not formed, does not count.
func TestBuildGoalCountsOnlyWhatWasBuilt(t *testing.T) {
	tiers := rules.Default().Tiers
	g, err := loop.ParseGoal("build coke_oven", tiers)
	require.NoError(t, err)
	old := world.Machine{Kind: world.MachineCokeOven, Pos: world.Pos(1, 64, 1), Formed: true}
	boiler := world.Machine{Kind: world.MachineSteamBoiler, Pos: world.Pos(5, 64, 1), Formed: true}
	g = g.Anchor(&world.Snapshot{Machines: []world.Machine{old, boiler}})
	assert.Equal(t, []world.BlockPos{old.Pos}, g.Builds[0].Start)

	for _, c := range []struct {
		name     string
		machines []world.Machine
		met      bool
	}{
		{"only the old oven", []world.Machine{old, boiler}, false},
		{"a new oven, not formed", []world.Machine{old, {Kind: world.MachineCokeOven, Pos: world.Pos(9, 64, 9)}}, false},
		{"a new formed boiler", []world.Machine{old, {Kind: world.MachineSteamBoiler, Pos: world.Pos(9, 64, 9), Formed: true}}, false},
		{"a new formed oven", []world.Machine{old, {Kind: world.MachineCokeOven, Pos: world.Pos(9, 64, 9), Formed: true}}, true},
	} {
		p := g.Check(&world.Snapshot{Machines: c.machines}, tiers, false)
		assert.Equal(t, c.met, p.Met, c.name)
		if !c.met {
			assert.Equal(t, []string{"build coke_oven"}, p.Unmet, c.name)
		}
	}
}
