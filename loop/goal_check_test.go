package loop_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestTierGoalOnAnUnknownTier: a world whose tier the tier table does not
// know (a body reporting another table's tier) does not meet a tier goal.
func TestTierGoalOnAnUnknownTier(t *testing.T) {
	tiers := rules.Default().Tiers
	g := loop.Goal{Tier: "steam_age"}
	for _, tc := range []struct {
		tier string
		met  bool
	}{{"steam_age", true}, {"lv", true}, {"stone_age", false}, {"bronze_age", false}, {"", false}} {
		w := &world.Snapshot{TechState: tc.tier}
		p := g.Check(w, tiers, false)
		assert.Equal(t, tc.met, p.Met, "tier %q", tc.tier)
		if !tc.met {
			assert.Equal(t, []string{"tier " + tc.tier + ", want steam_age"}, p.Unmet)
		}
	}
}
