package chain

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestOnlyUnmetPartsArePlanned: a goal with several parts plans only the
// parts that do not hold yet. A run clause already done is not run again;
// a tier already reached is not worked towards when an item is out of
// reach (the run is stuck on the item).
func TestOnlyUnmetPartsArePlanned(t *testing.T) {
	reg := shipped(t)
	w := snapshot("stone_age", nil)
	g, err := loop.ParseGoal("run report_status and have 2 minecraft:log", reg.Tiers())
	require.NoError(t, err)
	catalog, err := reg.DescribeForTechState(w.TechState, reg.Packs().Names())
	require.NoError(t, err)
	obs := loop.Observation{Snapshot: w, Progress: g.Check(w, reg.Tiers(), true)}
	dec, err := Planner{}.Plan(context.Background(), g, obs, catalog)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree", dec.Invocation.Skill, "report_status already ran: the logs are next")

	obs.Progress = g.Check(w, reg.Tiers(), false)
	dec, err = Planner{}.Plan(context.Background(), g, obs, catalog)
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "report_status"}, dec.Invocation)

	steam := snapshot("steam_age", world.NewSparseBlocks())
	_, err = planTier(t, withSkills(t, map[string]string{"light_boiler": "steam_age"}), nil, steam, "reach steam_age and have 1 minecraft:diamond")
	require.ErrorIs(t, err, loop.ErrStuck, "the tier holds; only the diamond is missing")
	assert.Contains(t, err.Error(), "no available skill produces minecraft:diamond")
	assert.NotContains(t, err.Error(), "steam_age")
}
