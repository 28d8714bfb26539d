package selection_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/selection"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

var shipped struct {
	once sync.Once
	cat  *catalog.Catalog
	err  error
}

// shippedCatalog is the shipped registry and knowledge skills, loaded once
// (a Catalog holds no state of its own).
func shippedCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	shipped.once.Do(func() {
		reg, err := registry.LoadConfig(config.FS, registry.Options{})
		if err == nil {
			err = reg.RegisterProvided()
		}
		if err == nil {
			err = reg.Finalize()
		}
		if err != nil {
			shipped.err = err
			return
		}
		lib := knowledge.New(knowledge.Options{Tiers: reg.Tiers()})
		if _, err := lib.Add(knowledge.Source{Label: knowledge.LabelShipped, FS: config.FS, FSDir: "skills", Display: "config/skills"}); err != nil {
			shipped.err = err
			return
		}
		if p := lib.Problems(); len(p) > 0 {
			shipped.err = fmt.Errorf("shipped skills: %v", p)
			return
		}
		shipped.cat = &catalog.Catalog{Registry: reg, Library: lib}
	})
	require.NoError(t, shipped.err)
	return shipped.cat
}

// onTopic are tasks and the shipped knowledge skill each is about.
var onTopic = []struct{ task, skill string }{
	{"feed coal to the coke ovens", "coke-oven-operation"},
	{"keep the coke ovens running", "coke-oven-operation"},
	{"my ovens stopped", "coke-oven-operation"},
	{"set up a steam boiler", "steam-age-boilers"},
	{"my steam boiler is low on water", "steam-age-boilers"},
	{"the boiler exploded", "steam-age-boilers"},
	{"refuel the bronze boiler with lignite", "steam-age-boilers"},
	{"make a steel high pressure boiler", "steam-age-boilers"},
	{"get more ingots from copper ore", "basic-ore-processing"},
	{"wash crushed ore", "basic-ore-processing"},
	{"smelt iron", "basic-ore-processing"},
	{"plant a tree farm", "sustainable-wood"},
	{"cut down trees and replant saplings", "sustainable-wood"},
	{"craft a flint pickaxe", "stone-age-progression"},
	{"craft a crafting table", "stone-age-progression"},
	{"what should I gather first", "stone-age-progression"},
}

// offTopic are tasks no shipped knowledge skill is about, several sharing a
// word with one ("build", "feed", "set up", "mine").
var offTopic = []string{
	"build a nuclear reactor",
	"build a windmill",
	"build a nether portal",
	"build a house",
	"build an electric blast furnace",
	"feed the chickens",
	"set up applied energistics storage",
	"mine diamonds",
	"fly to the moon",
	"tame a horse",
	"kill the ender dragon",
	"explore the nether",
	"trade with villagers",
	"go fishing",
	"automate with redstone",
}

// TestScoreFloorShipped is the measurement behind knowledge.DefaultMinScore
// (see selection.Relevance): over the shipped skills, in the three indexes a
// selection meets — the knowledge skills of every tier (what a run at
// stone_age offers), those usable at lv, and the whole catalog with the
// executable skills (what `agent skills select` offers) — every on-topic
// task's skill reaches the floor and is selected offline, and no off-topic
// task gets anything. Run with -v to see the margins.
func TestScoreFloorShipped(t *testing.T) {
	cat := shippedCatalog(t)
	lv, err := cat.ForTechState("lv", nil)
	require.NoError(t, err)
	indexes := []struct {
		name    string
		entries []catalog.Entry
	}{
		{"knowledge skills", catalog.Knowledge(cat.Entries())},
		{"knowledge skills at lv", catalog.Knowledge(lv)},
		{"whole catalog", cat.Entries()},
	}
	floor := knowledge.DefaultMinScore
	for _, ix := range indexes {
		t.Run(ix.name, func(t *testing.T) {
			cands, errs := selection.FromCatalog(cat, ix.entries)
			require.Empty(t, errs)
			present := map[string]bool{}
			for _, c := range cands {
				present[c.Name] = true
			}
			names := map[string]string{}
			for _, c := range cands {
				names[c.ID] = c.Name
			}
			lowestOn, highestOff := 1e9, 0.0
			for _, c := range onTopic {
				if !present[c.skill] {
					continue // not usable at this tier
				}
				res, err := selection.Select(context.Background(), c.task, cands, selection.Options{MinScore: floor})
				require.NoError(t, err)
				rel := relevanceOf(res, names, c.skill)
				lowestOn = min(lowestOn, rel)
				t.Logf("on  %-40s %-22s %.2f", c.task, c.skill, rel)
				assert.GreaterOrEqual(t, rel, floor, "%q → %s", c.task, c.skill)
				assert.Contains(t, pickNames(res.Selected), c.skill, "%q selects %s offline", c.task, c.skill)
			}
			for _, task := range offTopic {
				res, err := selection.Select(context.Background(), task, cands, selection.Options{MinScore: floor})
				require.NoError(t, err)
				best := selection.Ranked{}
				for _, r := range res.Ranking {
					if r.Relevance > best.Relevance {
						best = r
					}
					highestOff = max(highestOff, r.Relevance)
					assert.Less(t, r.Relevance, floor, "%q → %s", task, names[r.ID])
				}
				assert.Empty(t, res.Selected, "%q selects nothing offline", task)
				t.Logf("off %-40s %-22s %.2f", task, names[best.ID], best.Relevance)
			}
			t.Logf("%d candidates: lowest on-topic %.2f, floor %.2f, highest off-topic %.2f", len(cands), lowestOn, floor, highestOff)
		})
	}
}

func relevanceOf(res *selection.Result, names map[string]string, skill string) float64 {
	for _, r := range res.Ranking {
		if names[r.ID] == skill {
			return r.Relevance
		}
	}
	return 0
}

func pickNames(p []selection.Pick) []string {
	out := make([]string, len(p))
	for i, x := range p {
		out[i] = x.Name
	}
	return out
}
