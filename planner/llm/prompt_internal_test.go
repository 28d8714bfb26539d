package llm

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

func TestGoalWords(t *testing.T) {
	assert.Equal(t, []string{"stick", "log"}, goalWords("have 8 minecraft:stick and collect 8 minecraft:logs"))
	assert.Equal(t, []string{"build", "coke", "oven", "boiler"}, goalWords("build a coke oven next to the boiler"))
}

func TestRelevance(t *testing.T) {
	w := goalWords("collect 16 minecraft:log")
	assert.Equal(t, 3, relevance(w, "", "log_skill", "", nil, nil), "in the name")
	assert.Equal(t, 3, relevance(w, "", "x", "", []string{"logs"}, nil), "in the tags")
	assert.Equal(t, 1, relevance(w, "", "x", "fells logs", nil, nil), "in the description")
	assert.Equal(t, 0, relevance(w, "", "x", "mines ore", nil, nil))
	assert.Equal(t, 2, relevance(nil, "steam_age", "x", "", []string{"steam_age"}, nil), "tagged for the tier")
	assert.Equal(t, 2, relevance(nil, "steam_age", "x", "", nil, []string{">= steam_age"}), "gated to the tier")
	assert.Equal(t, 0, relevance(nil, "steam_age", "x", "", nil, []string{">= stone_age"}))
}

// TestFitCatalogRelevantFirst: with room for one description, the skill
// the goal is about gets it; every executable skill is listed, every
// knowledge skill named.
func TestFitCatalogRelevantFirst(t *testing.T) {
	descs := []*registry.Description{
		{Name: "mine_ore", Description: "Mine an ore block with a pickaxe. More text."},
		{Name: "chop_tree", Description: "Fell the nearest tree for its logs. More text."},
	}
	entries := []catalog.Entry{
		{Name: "boilers", Kind: knowledge.KindKnowledge, Description: "Run steam boilers."},
		{Name: "wood", Kind: knowledge.KindKnowledge, Description: "Keep logs coming."},
	}
	words := goalWords("collect 8 minecraft:log")
	bare := fitCatalog(0, 0, descs, entries, nil, words, "")
	require.True(t, bare.overflow)
	need := bare.used + len(": Fell the nearest tree for its logs.")
	plan := fitCatalog(0, (need+bytesPerToken-1)/bytesPerToken, descs, entries, nil, words, "")
	assert.False(t, plan.overflow)
	assert.Contains(t, plan.catalog, "- chop_tree(): Fell the nearest tree for its logs.\n")
	assert.Contains(t, plan.catalog, "- mine_ore()\n")
	assert.Contains(t, plan.catalog, "- also: boilers, wood")
	// More room: the knowledge skill about logs before the other.
	plan = fitCatalog(0, (bare.used+len(": Fell the nearest tree for its logs.")+len(": Mine an ore block with a pickaxe.")+len("- wood: Keep logs coming.")+3)/bytesPerToken, descs, entries, nil, words, "")
	assert.Contains(t, plan.catalog, "- wood: Keep logs coming.")
	assert.Contains(t, plan.catalog, "- also: boilers")
	// Room for everything: full descriptions and the skills in full.
	full := []loadedSkill{{name: "wood", text: "\n#### wood\n\nbody\n"}}
	plan = fitCatalog(0, 10000, descs, entries, full, words, "")
	assert.Contains(t, plan.catalog, "Mine an ore block with a pickaxe. More text.")
	assert.Contains(t, plan.catalog, "#### wood")
	assert.Equal(t, []string{"wood"}, plan.full)
	assert.Empty(t, plan.omitted)
	assert.Equal(t, 1, strings.Count(plan.catalog, "chop_tree("))
}

// TestFitCatalogStaysWithinBudget: whatever the budget, the catalog the
// fitter renders is no larger than it counted.
func TestFitCatalogStaysWithinBudget(t *testing.T) {
	descs := []*registry.Description{
		{Name: "mine_ore", Description: "Mine an ore block with a pickaxe. More text about ores and pickaxes."},
		{Name: "chop_tree", Description: "Fell the nearest tree for its logs. More text about trees."},
	}
	entries := []catalog.Entry{
		{Name: "boilers", Kind: knowledge.KindKnowledge, Description: "Run steam boilers. Water first."},
		{Name: "wood", Kind: knowledge.KindKnowledge, Description: "Keep logs coming. Replant."},
	}
	full := []loadedSkill{{name: "boilers", text: "\n#### boilers\n\n" + strings.Repeat("Water first. ", 20) + "\n"}}
	words := goalWords("collect 8 minecraft:log")
	bare := fitCatalog(0, 0, descs, entries, full, words, "")
	for budget := bare.used / bytesPerToken; budget < bare.used; budget += 3 {
		plan := fitCatalog(0, budget, descs, entries, full, words, "")
		if plan.overflow {
			continue
		}
		assert.LessOrEqual(t, jsonLen(plan.catalog), budget*bytesPerToken, "budget %d", budget)
	}
	// A skill to give in full is listed before a more relevant one.
	plan := fitCatalog(0, (bare.used+len(": Fell the nearest tree for its logs.")+len(": Mine an ore block with a pickaxe.")+len("- boilers: Run steam boilers.")+3)/bytesPerToken, descs, entries, full, words, "")
	assert.Contains(t, plan.catalog, "- boilers: Run steam boilers.")
	assert.Contains(t, plan.catalog, "- also: wood")
}

// TestFitCatalogCompactsSignaturesBeforeOverflowing: when every signature
// in full is over the budget, the least relevant skills are listed by name
// and parameter names (required ones marked) until the catalog fits, and
// the most relevant keeps its full signature.
func TestFitCatalogCompactsSignaturesBeforeOverflowing(t *testing.T) {
	lo, hi := 1.0, 30000000.0
	param := func(req bool) registry.ParamDescription {
		return registry.ParamDescription{Type: "int", Required: req, Default: 5, Min: &lo, Max: &hi}
	}
	descs := []*registry.Description{
		{Name: "chop_tree", Description: "Fell a tree for its logs.", Params: map[string]registry.ParamDescription{"radius": param(false), "min_logs": param(false)}},
		{Name: "recover_drops", Description: "Walk back.", Params: map[string]registry.ParamDescription{"x": param(true), "y": param(true), "z": param(true)}},
		{Name: "unstuck", Description: "Get out.", Params: map[string]registry.ParamDescription{"distance": param(false), "attempt": param(false)}},
	}
	words := goalWords("collect 8 minecraft:log with chop_tree")
	all := fitCatalog(0, 1<<20, descs, nil, nil, words, "")
	require.False(t, all.overflow)
	// Room for the catalog with a third of the signatures' length less.
	bareFull := 0
	for _, d := range descs {
		bareFull += jsonLen("- "+signature(d)) + nl
	}
	budget := (all.used - bareFull/3) / bytesPerToken
	plan := fitCatalog(0, budget, descs, nil, nil, words, "")
	require.False(t, plan.overflow, "compacting makes it fit")
	assert.LessOrEqual(t, plan.used, budget*bytesPerToken)
	assert.Contains(t, plan.catalog, "- "+signature(descs[0]), "the most relevant skill keeps its signature")
	assert.Contains(t, plan.catalog, "- unstuck(attempt, distance)\n", "the least relevant is compacted first")
	// With no room at all it still lists every skill, compacted, and says
	// it is over.
	none := fitCatalog(0, 0, descs, nil, nil, words, "")
	assert.True(t, none.overflow)
	for _, d := range descs {
		assert.Contains(t, none.catalog, "- "+compactSignature(d))
	}
	assert.Contains(t, none.catalog, "- recover_drops(x required, y required, z required)")
}

// TestRequestBaseCountsTheModel: the request the prompt is fitted with
// names the model as the one the server gets does (Client.chat sets it),
// so the budget counts the name's bytes.
func TestRequestBaseCountsTheModel(t *testing.T) {
	c, err := NewClient(Config{URL: "http://127.0.0.1:1", Model: "a-model-with-a-rather-long-name:70b-instruct-q4"}, Options{})
	require.NoError(t, err)
	s := &stepRun{p: &Planner{client: c}, exec: []string{"chop_tree"}}
	req := s.requestBase()
	req.Messages = append(req.Messages, userMessage("go"))
	sent := req
	sent.Model = c.cfg.Model // what Client.chat sends
	assert.Equal(t, requestTokens(sent), requestTokens(req))
	assert.Equal(t, c.cfg.Model, req.Model)
}
