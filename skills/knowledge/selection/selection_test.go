package selection

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQualityFilterReason(t *testing.T) {
	cases := []struct {
		name string
		q    Quality
		out  bool
	}{
		{"new", Quality{}, false},
		{"selected once, never completed", Quality{Selections: 1}, false},
		{"selected twice, never completed", Quality{Selections: 2}, true},
		{"selected often, completed once", Quality{Selections: 9, Applied: 1, Completions: 1}, false},
		{"applied once, fell back", Quality{Selections: 1, Applied: 1, Completions: 1, Fallbacks: 1}, false},
		{"applied twice, half fell back", Quality{Selections: 2, Applied: 2, Completions: 1, Fallbacks: 1}, false},
		{"applied twice, both fell back", Quality{Selections: 2, Applied: 2, Completions: 1, Fallbacks: 2}, true},
		{"applied three times, two fell back", Quality{Selections: 3, Applied: 3, Completions: 3, Fallbacks: 2}, true},
		{"applied four times, two fell back", Quality{Selections: 4, Applied: 4, Completions: 4, Fallbacks: 2}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.out, c.q.FilterReason() != "", c.q.FilterReason())
		})
	}
	assert.Equal(t, "new", Quality{}.Note())
	assert.Equal(t, "selected 3x, never succeeded", Quality{Selections: 3}.Note())
	assert.Equal(t, "success 1/4 = 25%", Quality{Applied: 4, Completions: 1}.Note())
}

func TestQualityStorePersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "quality.json")
	s, err := OpenQualityStore(path)
	require.NoError(t, err)
	require.NoError(t, s.RecordSelected("a", "b"))
	require.NoError(t, s.RecordSelected("a"))
	require.NoError(t, s.RecordApplied("a"))
	require.NoError(t, s.RecordCompleted("a"))
	require.NoError(t, s.RecordFallback("b"))
	require.Error(t, s.RecordApplied(""))

	again, err := OpenQualityStore(path)
	require.NoError(t, err)
	assert.Equal(t, map[string]Quality{
		"a": {Selections: 2, Applied: 1, Completions: 1},
		"b": {Selections: 1, Fallbacks: 1},
	}, again.All())
	assert.Equal(t, Quality{}, again.Get("zz"))
	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary files are left behind")

	mem := NewQualityStore()
	require.NoError(t, mem.RecordSelected("x"))
	assert.Equal(t, 1, mem.Get("x").Selections)
}

func TestQualityStoreCorrupt(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"syntax":   "{\"format\": 1,\n \"skills\": {,}}",
		"unknown":  `{"format": 1, "skills": {}, "extra": 1}`,
		"format":   `{"format": 2, "skills": {}}`,
		"negative": `{"format": 1, "skills": {"a": {"selections": -1}}}`,
		"trailing": `{"format": 1, "skills": {}} {}`,
		"null":     `{"format": 1, "skills": {"a": null}}`,
	}
	for name, data := range cases {
		p := filepath.Join(dir, name+".json")
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
		_, err := OpenQualityStore(p)
		require.ErrorIs(t, err, ErrCorruptQuality, name)
		assert.Contains(t, err.Error(), p)
	}
	_, err := OpenQualityStore(filepath.Join(dir, "syntax.json"))
	assert.Contains(t, err.Error(), "line 2")
}

func TestQualityStoreConcurrent(t *testing.T) {
	s, err := OpenQualityStore(filepath.Join(t.TempDir(), "q.json"))
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Go(func() {
			for i := 0; i < 6; i++ {
				_ = s.RecordSelected(fmt.Sprintf("s%d", i%3))
				_ = s.All()
			}
		})
	}
	wg.Wait()
	total := 0
	for _, q := range s.All() {
		total += q.Selections
	}
	assert.Equal(t, 24, total)
}

// cands is a small GTNH catalog.
func cands() []Candidate {
	return []Candidate{
		{ID: "steam-age-boilers__ro_1", Name: "steam-age-boilers", Kind: "knowledge", Description: "Run steam boilers safely: water first, never water a hot dry boiler.", Body: "boiler explode water fuel coke"},
		{ID: "coke-oven-operation__ro_2", Name: "coke-oven-operation", Kind: "knowledge", Description: "Build and run coke ovens for coal coke, charcoal and creosote.", Body: "26 bricks hollow oven"},
		{ID: "feed_steam_boiler", Name: "feed_steam_boiler", Kind: "go", Description: "Put solid fuel into steam boilers.", Body: "fuel boiler coal"},
		{ID: "refill_water_tanks", Name: "refill_water_tanks", Kind: "go", Description: "Carry water to tanks and boilers.", Body: "water bucket boiler"},
		{ID: "chop_tree", Name: "chop_tree", Kind: "go", Description: "Fell the nearest tree.", Body: "logs axe wood"},
	}
}

func answer(s string) Model {
	return ModelFunc(func(ctx context.Context, prompt string) (string, error) { return s, nil })
}

func names(p []Pick) []string {
	out := make([]string, len(p))
	for i, x := range p {
		out[i] = x.Name
	}
	return out
}

const task = "my steam boiler is low on water"

func TestSelectWithModel(t *testing.T) {
	cases := []struct {
		name     string
		model    Model
		max      int
		method   string
		selected []string
		fallback string
		unknown  []string
		dropped  []string
		plan     string
	}{
		{name: "valid answer", model: answer(`{"brief_plan": "Refill water, then fuel.", "skills": ["steam-age-boilers__ro_1", "refill_water_tanks"]}`),
			method: MethodLLM, selected: []string{"steam-age-boilers", "refill_water_tanks"}, plan: "Refill water, then fuel."},
		{name: "fenced answer with prose", model: answer("Sure!\n```json\n{\"brief_plan\": \"p\", \"skills\": [\"refill_water_tanks\"]}\n```\nDone."),
			method: MethodLLM, selected: []string{"refill_water_tanks"}, plan: "p"},
		{name: "bare object in prose", model: answer(`I pick {"brief_plan": "p", "skills": ["chop_tree"]} as asked.`),
			method: MethodLLM, selected: []string{"chop_tree"}},
		{name: "names instead of ids", model: answer(`{"brief_plan": "p", "skills": ["steam-age-boilers"]}`),
			method: MethodLLM, selected: []string{"steam-age-boilers"}},
		{name: "empty selection is respected", model: answer(`{"brief_plan": "nothing fits", "skills": []}`),
			method: MethodLLM, selected: []string{}, plan: "nothing fits"},
		{name: "unknown ids dropped", model: answer(`{"brief_plan": "p", "skills": ["summon_golem", "refill_water_tanks", 42]}`),
			method: MethodLLM, selected: []string{"refill_water_tanks"}, unknown: []string{"summon_golem", "42"}},
		{name: "at most N", max: 1, model: answer(`{"brief_plan": "p", "skills": ["refill_water_tanks", "feed_steam_boiler", "refill_water_tanks"]}`),
			method: MethodLLM, selected: []string{"refill_water_tanks"}, dropped: []string{"feed_steam_boiler"}},
		{name: "only unknown ids", model: answer(`{"brief_plan": "p", "skills": ["nope", "also_nope"]}`),
			method: MethodBM25, selected: bm25Top, fallback: "every skill the model named is unknown (nope, also_nope)", unknown: []string{"nope", "also_nope"}},
		{name: "malformed answer", model: answer("I would use the boiler skill."),
			method: MethodBM25, selected: bm25Top, fallback: "malformed model answer"},
		{name: "skills not a list", model: answer(`{"brief_plan": "p", "skills": "refill_water_tanks"}`),
			method: MethodBM25, fallback: `"skills" is not a list`, selected: bm25Top},
		{name: "no skills field", model: answer(`{"brief_plan": "p"}`),
			method: MethodBM25, fallback: `no "skills" list`, selected: bm25Top},
		{name: "model error", model: ModelFunc(func(context.Context, string) (string, error) { return "", errors.New("HTTP 503") }),
			method: MethodBM25, fallback: "model failed: HTTP 503", selected: bm25Top},
		{name: "model panics", model: ModelFunc(func(context.Context, string) (string, error) { panic("boom") }),
			method: MethodBM25, fallback: "model panicked: boom", selected: bm25Top},
		{name: "no model", method: MethodBM25, fallback: "no model configured", selected: bm25Top},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Select(context.Background(), task, cands(), Options{Model: c.model, MaxSkills: c.max})
			require.NoError(t, err)
			assert.Equal(t, c.method, res.Method)
			assert.Equal(t, c.selected, names(res.Selected))
			if c.fallback == "" {
				assert.Empty(t, res.Fallback)
			} else {
				assert.Contains(t, res.Fallback, c.fallback)
				assert.Contains(t, res.Fallback, "BM25")
			}
			assert.Equal(t, c.unknown, res.Unknown)
			assert.Equal(t, c.dropped, res.Dropped)
			if c.plan != "" {
				assert.Equal(t, c.plan, res.Plan)
			}
			if c.model != nil {
				assert.Contains(t, res.Prompt, "# Task\n"+task)
				assert.Contains(t, res.Prompt, "- **steam-age-boilers__ro_1** (knowledge): Run steam boilers safely")
				assert.Contains(t, res.Prompt, "Step 1 — Plan")
				assert.Contains(t, res.Prompt, `{"brief_plan": "1-2 sentence plan for this task", "skills": ["skill_id_1", "skill_id_2"]}`)
			}
			assert.NotEmpty(t, res.Ranking)
			assert.Equal(t, "steam-age-boilers__ro_1", res.Ranking[0].ID)
		})
	}
}

func TestSelectTimeout(t *testing.T) {
	// A model that honours its context, and one that ignores it.
	honours := ModelFunc(func(ctx context.Context, _ string) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	release := make(chan struct{})
	defer close(release)
	ignores := ModelFunc(func(context.Context, string) (string, error) {
		<-release
		return `{"brief_plan": "late", "skills": ["chop_tree"]}`, nil
	})
	for name, m := range map[string]Model{"honours": honours, "ignores": ignores} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			res, err := Select(context.Background(), task, cands(), Options{Model: m, Timeout: 50 * time.Millisecond})
			require.NoError(t, err)
			assert.Less(t, time.Since(start), 5*time.Second)
			assert.Equal(t, MethodBM25, res.Method)
			assert.Contains(t, res.Fallback, "model timed out after 50ms")
			assert.Equal(t, bm25Top, names(res.Selected))
		})
	}
}

func TestSelectQualityFilter(t *testing.T) {
	quality := map[string]Quality{
		"steam-age-boilers__ro_1": {Selections: 3},                                           // never completed
		"refill_water_tanks":      {Selections: 4, Applied: 4, Completions: 1, Fallbacks: 3}, // falls back
		"feed_steam_boiler":       {Selections: 5, Applied: 5, Completions: 4, Fallbacks: 1}, // fine
	}
	var prompt string
	m := ModelFunc(func(_ context.Context, p string) (string, error) {
		prompt = p
		return `{"brief_plan": "p", "skills": ["steam-age-boilers__ro_1", "feed_steam_boiler"]}`, nil
	})
	res, err := Select(context.Background(), task, cands(), Options{Model: m, Quality: quality})
	require.NoError(t, err)
	assert.Equal(t, []string{"feed_steam_boiler"}, names(res.Selected), "a filtered skill named by the model is unknown")
	assert.Equal(t, []string{"steam-age-boilers__ro_1"}, res.Unknown)
	require.Len(t, res.Filtered, 3)
	verdicts := map[string]Decision{}
	for _, d := range res.Filtered {
		verdicts[d.Name] = d
	}
	assert.False(t, verdicts["steam-age-boilers"].Kept)
	assert.Equal(t, "selected 3 times and never completed", verdicts["steam-age-boilers"].Reason)
	assert.False(t, verdicts["refill_water_tanks"].Kept)
	assert.Contains(t, verdicts["refill_water_tanks"].Reason, "fell back in 3 of 4")
	assert.True(t, verdicts["feed_steam_boiler"].Kept)
	assert.NotContains(t, prompt, "steam-age-boilers__ro_1")
	assert.Contains(t, prompt, "- **feed_steam_boiler** (go): Put solid fuel into steam boilers. (success 4/5 = 80%)")
	for _, r := range res.Ranking {
		assert.NotEqual(t, "refill_water_tanks", r.ID, "filtered skills are not ranked")
	}

	res, err = Select(context.Background(), task, cands()[:1], Options{Quality: quality})
	require.NoError(t, err)
	assert.Empty(t, res.Selected)
	assert.Contains(t, res.Fallback, "no candidates left")
}

func TestSelectPrefilter(t *testing.T) {
	var many []Candidate
	for i := 0; i < 40; i++ {
		many = append(many, Candidate{ID: fmt.Sprintf("filler_%02d", i), Name: fmt.Sprintf("filler_%02d", i), Kind: "knowledge", Description: "Unrelated chores around the base.", Body: "torches chests"})
	}
	many = append(many, cands()...)
	var offered string
	m := ModelFunc(func(_ context.Context, p string) (string, error) {
		offered = p
		return `{"brief_plan": "p", "skills": ["refill_water_tanks", "filler_39"]}`, nil
	})
	res, err := Select(context.Background(), task, many, Options{Model: m, MaxSkills: 2})
	require.NoError(t, err)
	p := res.Prefilter
	assert.True(t, p.Used)
	assert.Equal(t, 45, p.Before)
	assert.Equal(t, 15, p.Keep, "max(15, 5 x 2)")
	assert.Equal(t, 15, p.After)
	assert.Len(t, res.Offered, 15)
	assert.Equal(t, "steam-age-boilers__ro_1", res.Offered[0], "the best BM25 matches come first")
	assert.Contains(t, offered, "refill_water_tanks")
	assert.Contains(t, offered, "filler_00", "too few matches: filled in catalog order")
	assert.NotContains(t, offered, "filler_39")
	assert.Equal(t, []string{"refill_water_tanks"}, names(res.Selected))
	assert.Equal(t, []string{"filler_39"}, res.Unknown, "a skill not offered is unknown")

	res, err = Select(context.Background(), task, many, Options{MaxSkills: 4, PrefilterThreshold: 10})
	require.NoError(t, err)
	assert.Equal(t, 20, res.Prefilter.Keep, "max(15, 5 x 4)")

	res, err = Select(context.Background(), task, cands(), Options{})
	require.NoError(t, err)
	assert.False(t, res.Prefilter.Used, "below the threshold every candidate is offered")
	assert.Len(t, res.Offered, 5)
}

func TestSelectEmbeddings(t *testing.T) {
	failing := embedFunc(func() error { return errors.New("model not loaded") })
	res, err := Select(context.Background(), task, cands(), Options{Embedder: failing})
	require.NoError(t, err)
	assert.False(t, res.Prefilter.Embeddings)
	require.Len(t, res.Notes, 1)
	assert.Contains(t, res.Notes[0], "model not loaded")
	assert.NotEmpty(t, res.Selected, "BM25 alone still selects")
}

func TestSelectEmptyTask(t *testing.T) {
	_, err := Select(context.Background(), "  ", cands(), Options{})
	require.ErrorIs(t, err, ErrEmptyTask)
}

func TestParseAnswer(t *testing.T) {
	ids, plan, err := ParseAnswer("```\n{\"brief_plan\":\"x\",\"skills\":[\" a \",\"\",\"b\"]}\n```")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, ids)
	assert.Equal(t, "x", plan)
	for _, bad := range []string{"", "no json", "{", `{"skills": null}`, `{"skills": {"a": 1}}`, "[1,2]"} {
		_, _, err := ParseAnswer(bad)
		assert.Error(t, err, bad)
	}
}

type embedFunc func() error

func (f embedFunc) Embed(context.Context, []string) ([][]float32, error) { return nil, f() }

func TestPromptLists(t *testing.T) {
	p := Prompt("t", cands()[:2], nil, 2)
	assert.Equal(t, 2, strings.Count(p, "\n- **"))
	assert.Contains(t, p, "Select at most 2 skill(s)")
}

// bm25Top is the BM25 ranking's best three for task over cands().
var bm25Top = []string{"steam-age-boilers", "feed_steam_boiler", "refill_water_tanks"}

// The score floor applies to the BM25 fallback, never to the model's
// choice; 0 turns it off.
func TestSelectScoreFloor(t *testing.T) {
	const offTopic = "build a nuclear reactor boiler"
	rel := Relevance(offTopic, cands())
	require.Positive(t, rel["steam-age-boilers__ro_1"], "shares a word")
	assert.Zero(t, rel["chop_tree"])

	res, err := Select(context.Background(), task, cands(), Options{MinScore: 1.0})
	require.NoError(t, err)
	assert.Equal(t, 1.0, res.Floor)
	relevance := map[string]float64{}
	for _, r := range res.Ranking {
		relevance[r.ID] = r.Relevance
	}
	for _, p := range res.Selected {
		assert.GreaterOrEqual(t, relevance[p.ID], 1.0, p.Name)
	}
	assert.Equal(t, []string{"steam-age-boilers", "feed_steam_boiler"}, names(res.Selected))
	assert.Equal(t, []string{"refill_water_tanks"}, names(res.BelowFloor))
	for _, p := range res.BelowFloor {
		assert.Less(t, relevance[p.ID], 1.0, p.Name)
	}
	assert.Equal(t, len(res.Ranking), len(res.Selected)+len(res.BelowFloor), "every ranked candidate is picked or below the floor (max_skills not reached)")

	// The floor is inclusive: a candidate scoring exactly the floor is
	// picked.
	exact := relevance["feed_steam_boiler"]
	res, err = Select(context.Background(), task, cands(), Options{MinScore: exact})
	require.NoError(t, err)
	assert.Equal(t, []string{"steam-age-boilers", "feed_steam_boiler"}, names(res.Selected))

	// A floor no candidate reaches: nothing, and the trace says so.
	res, err = Select(context.Background(), task, cands(), Options{MinScore: 10})
	require.NoError(t, err)
	assert.Empty(t, res.Selected)
	assert.Len(t, res.BelowFloor, len(res.Ranking))
	// A model failure falls back with the floor too.
	res, err = Select(context.Background(), task, cands(), Options{MinScore: 10, Model: ModelFunc(func(context.Context, string) (string, error) { return "", errors.New("down") })})
	require.NoError(t, err)
	assert.Empty(t, res.Selected)
	// The model's choice is not floored.
	res, err = Select(context.Background(), task, cands(), Options{MinScore: 10, Model: answer(`{"brief_plan": "p", "skills": ["chop_tree"]}`)})
	require.NoError(t, err)
	assert.Equal(t, []string{"chop_tree"}, names(res.Selected))
	assert.Zero(t, res.Floor)
	assert.Empty(t, res.BelowFloor)
	// No floor: the best three, as before.
	res, err = Select(context.Background(), task, cands(), Options{})
	require.NoError(t, err)
	assert.Equal(t, bm25Top, names(res.Selected))
	assert.Empty(t, res.BelowFloor)
}

// The BM25 fallback picks at most MaxSkills, however many candidates clear
// the floor; the rest are neither picked nor below the floor.
func TestSelectScoreFloorKeepsMaxSkills(t *testing.T) {
	res, err := Select(context.Background(), task, cands(), Options{MaxSkills: 1})
	require.NoError(t, err)
	assert.Equal(t, bm25Top[:1], names(res.Selected))
	assert.Empty(t, res.BelowFloor)
	res, err = Select(context.Background(), task, cands(), Options{MaxSkills: 1, MinScore: 0.01})
	require.NoError(t, err)
	assert.Equal(t, bm25Top[:1], names(res.Selected))
}
