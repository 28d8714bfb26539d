package loop_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func TestCookReflexFires(t *testing.T) {
	beef := world.NewStack("minecraft:beef", 0, 3)
	planks := world.NewStack("minecraft:planks", 0, 4)
	furnace := world.NewStack("minecraft:furnace", 0, 1)
	bread := world.NewStack("minecraft:bread", 0, 1)
	r := loop.CookReflex{Threshold: loop.DefaultEatThreshold}
	near := func(w *world.Snapshot, at world.BlockPos) *world.Snapshot {
		w.Machines = []world.Machine{{Kind: world.MachineFurnace, Pos: at}}
		return w
	}
	for _, c := range []struct {
		name string
		w    *world.Snapshot
		want string // the cooked item; "" = does not fire
	}{
		{"raw beef, fuel and a furnace to place", fed(5, beef, planks, furnace), "minecraft:cooked_beef"},
		{"at the threshold", fed(6, beef, planks, furnace), "minecraft:cooked_beef"},
		{"above it", fed(7, beef, planks, furnace), ""},
		{"no fuel", fed(5, beef, furnace), ""},
		{"no furnace", fed(5, beef, planks), ""},
		{"a furnace in sight", near(fed(5, beef, planks), world.Pos(10, 64, 0)), "minecraft:cooked_beef"},
		{"a furnace out of reach", near(fed(5, beef, planks), world.Pos(17, 64, 0)), ""},
		{"bread needs no cooking", fed(5, beef, planks, furnace, bread), ""},
		{"raw fish", fed(3, world.NewStack("minecraft:fish", 0, 2), planks, furnace), "minecraft:cooked_fished:0"},
		{"a pufferfish is not cooked", fed(3, world.NewStack("minecraft:fish", 3, 2), planks, furnace), ""},
		{"no food", fed(3, planks, furnace), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			inv, why, ok := r.Fire(c.w)
			assert.Equal(t, c.want != "", ok, why)
			if ok {
				assert.Equal(t, "smelt", inv.Skill)
				assert.Equal(t, c.want, inv.Params["item"])
				assert.Contains(t, why, "the food held is raw")
			}
		})
	}
	inv, _, ok := r.Fire(fed(5, beef, world.NewStack("minecraft:beef", 0, 2), planks, furnace))
	require.True(t, ok)
	assert.Equal(t, 5, inv.Params["count"], "all the raw beef held")
}

// TestCookReflexCooksThenEats: hungry with raw beef, planks and a furnace,
// the bot cooks the beef first (smelt, placing the furnace), then the eat
// reflex eats a cooked one (2 points in GTNH, not a raw one's 1), then the plan
// goes on.
func TestCookReflexCooksThenEats(t *testing.T) {
	s := forest(t, 5, `[{item: "minecraft:beef", count: 2}, {item: "minecraft:planks", count: 4}, {item: "minecraft:furnace", count: 1}]`)
	reflexes := []loop.Reflex{loop.CookReflex{Threshold: 6}, loop.EatReflex{Threshold: 6}}
	out, recs, trace := runWithReflexes(t, s, "collect 2 minecraft:log", nil, reflexes, chop)
	require.True(t, out.GoalMet, trace)
	require.GreaterOrEqual(t, len(recs), 3, trace)
	require.NotNil(t, recs[0].Reflex, trace)
	assert.Equal(t, "cook", recs[0].Reflex.Name)
	assert.Equal(t, loop.Success, recs[0].Verdict, recs[0].Error)
	assert.Equal(t, 2, recs[0].After.Inventory["minecraft:cooked_beef"])
	require.NotNil(t, recs[1].Reflex, trace)
	assert.Equal(t, "eat", recs[1].Reflex.Name)
	assert.Equal(t, 7.0, recs[1].After.Food, "5 + a cooked beef's 2")
	assert.Equal(t, "chop_tree", recs[2].Invocation.Skill)

	s = forest(t, 5, `[{item: "minecraft:beef", count: 2}, {item: "minecraft:planks", count: 4}, {item: "minecraft:furnace", count: 1}]`)
	_, recs, trace = runWithReflexes(t, s, "collect 2 minecraft:log", nil, []loop.Reflex{loop.EatReflex{Threshold: 6}}, chop)
	require.NotEmpty(t, recs)
	assert.Equal(t, 6.0, recs[0].After.Food, "without cooking: a raw beef's 1, %s", trace)
}
