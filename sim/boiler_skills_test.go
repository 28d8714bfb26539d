package sim_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// boilerSim is a small world with a cold boiler holding 1000 mB of water.
func boilerSim(t *testing.T, inventory string) *sim.Sim {
	t.Helper()
	sc, err := sim.ParseScenario("t.yaml", []byte("name: t\nseed: 5\nsize: {x: 16, z: 16}\nplayer:\n  pos: [8, 64, 8]\n  inventory:\n"+inventory+
		"machines:\n  - kind: steam_boiler\n    pos: [10, 64, 8]\n    fluids: {water: {amount: 1000, capacity: 16000}}\n"))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

// suggestAndRun asks a shipped skill for actions and executes every one.
func suggestAndRun(t *testing.T, s *sim.Sim, skill string, raw map[string]any) (*world.Snapshot, error) {
	t.Helper()
	sk, err := shipped(t).GetSkill(skill)
	require.NoError(t, err)
	w, err := s.Observe(context.Background())
	require.NoError(t, err)
	sug, err := sk.Suggest(w, raw)
	if err != nil {
		return w, err
	}
	require.NotEmpty(t, sug.Actions)
	for i, a := range sug.Actions {
		r := s.Execute(context.Background(), a)
		require.True(t, r.OK(), "action %d %s: %s", i, a.Kind(), r.Error)
	}
	w, err = s.Observe(context.Background())
	require.NoError(t, err)
	return w, nil
}

func TestRefillWaterTanksPoursBucketsAndCellsTheGregTechWay(t *testing.T) {
	s := boilerSim(t, "    - {item: minecraft:water_bucket, count: 1}\n    - {item: \"IC2:itemCellEmpty:1\", count: 1}\n    - {item: \"IC2:itemCellEmpty:1\", count: 1}\n")
	w, err := suggestAndRun(t, s, "refill_water_tanks", map[string]any{"max_trips": 1})
	require.NoError(t, err)
	require.Len(t, w.Machines, 1)
	assert.Equal(t, 4000, w.Machines[0].Fluid("water").Amount, "one bucket and two cells")
	assert.Equal(t, 1, w.Inventory.CountID("minecraft:bucket"))
	assert.Equal(t, 2, w.Inventory.Count(world.MustItem("ore:cellEmpty")), "the empty cells came back out of the fluid output slot")
	assert.True(t, w.Machines[0].Slot("fluid_out").Empty())
}

func TestFeedSteamBoilerRefusesLogsBeforeActing(t *testing.T) {
	s := boilerSim(t, "    - {item: minecraft:log, count: 16}\n")
	_, err := suggestAndRun(t, s, "feed_steam_boiler", map[string]any{"fuel": "ore:logWood"})
	var f *skills.Failure
	require.ErrorAs(t, err, &f)
	assert.Equal(t, skills.CodeInvalidParams, f.Code)
	assert.Contains(t, f.Msg, "2000 ticks")

	s = boilerSim(t, "    - {item: \"minecraft:coal:1\", count: 16}\n")
	w, err := suggestAndRun(t, s, "feed_steam_boiler", map[string]any{"fuel": "ore:gemCharcoal"})
	require.NoError(t, err)
	// Sixteen went in; the boiler took the first to burn at once.
	assert.Equal(t, 15, w.Machines[0].Slot("fuel").Count, "charcoal burns in a GregTech boiler")
	assert.True(t, w.Machines[0].Active)
}
