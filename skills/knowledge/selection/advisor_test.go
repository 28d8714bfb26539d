package selection_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/planner/llm"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/rank"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/selection"
)

// The model planner's contract, met without selection importing llm.
var _ llm.Advisor = (*selection.Advisor)(nil)

func newAdvisor(t *testing.T, cat *catalog.Catalog, o selection.AdvisorOptions) *selection.Advisor {
	t.Helper()
	o.Catalog = cat
	if o.Config.MaxSkills == 0 {
		o.Config = knowledge.DefaultConfig()
	}
	a, err := selection.NewAdvisor(o)
	require.NoError(t, err)
	return a
}

func idOf(t *testing.T, cat *catalog.Catalog, name string) string {
	t.Helper()
	e, ok := cat.Lookup(name)
	require.True(t, ok, name)
	return e.ID
}

// Offline, the BM25 ranking chooses, above the score floor.
func TestAdvisorOffline(t *testing.T) {
	cat := shippedCatalog(t)
	a := newAdvisor(t, cat, selection.AdvisorOptions{})
	cases := []struct {
		task, tier string
		want       []string
	}{
		{"build a nuclear reactor", "stone_age", []string{}},
		{"feed coal to the coke ovens", "stone_age", []string{"coke-oven-operation", "sustainable-wood"}},
		{"set up a steam boiler", "stone_age", []string{"steam-age-boilers"}},
		{"set up a steam boiler", "lv", []string{"steam-age-boilers"}},
		{"craft a flint pickaxe", "stone_age", []string{"stone-age-progression"}},
		{"craft a flint pickaxe", "lv", []string{}}, // a stone-age skill is not offered at lv
	}
	for _, c := range cases {
		t.Run(c.task+"@"+c.tier, func(t *testing.T) {
			adv, err := a.Select(context.Background(), c.task, c.tier, nil)
			require.NoError(t, err)
			assert.Equal(t, c.want, adv.Names)
			assert.Equal(t, "no model configured; using the BM25 ranking", adv.Fallback)
		})
	}
	adv, err := a.Select(context.Background(), "build a nuclear reactor", "stone_age", nil)
	require.NoError(t, err)
	assert.Contains(t, adv.Events, "below the score floor 1.10: coke-oven-operation, stone-age-progression, steam-age-boilers")

	_, err = a.Select(context.Background(), "build a nuclear reactor", "space_age", nil)
	assert.ErrorContains(t, err, `unknown tech state "space_age"`)
	_, err = a.Select(context.Background(), "  ", "stone_age", nil)
	assert.ErrorIs(t, err, selection.ErrEmptyTask)
	_, err = selection.NewAdvisor(selection.AdvisorOptions{})
	assert.Error(t, err)
}

// With a model, the model chooses among the knowledge skills usable at the
// tier; a failing model or an answer of unknown ids falls back to the
// ranking and its floor.
func TestAdvisorModel(t *testing.T) {
	cat := shippedCatalog(t)
	coke := idOf(t, cat, "coke-oven-operation")
	const task = "feed coal to the coke ovens"
	cases := []struct {
		name     string
		answer   func(prompt string) (string, error)
		names    []string
		fallback string
		event    string
	}{
		{name: "chooses", answer: func(string) (string, error) {
			return fmt.Sprintf(`{"brief_plan": "fill the ovens", "skills": [%q]}`, coke), nil
		}, names: []string{"coke-oven-operation"}},
		{name: "chooses none", answer: func(string) (string, error) {
			return `{"brief_plan": "nothing fits", "skills": []}`, nil
		}, names: []string{}},
		{name: "fails", answer: func(string) (string, error) { return "", errors.New("HTTP 503") },
			names: []string{"coke-oven-operation"}, fallback: "model failed: HTTP 503; using the BM25 ranking"},
		{name: "unknown ids", answer: func(string) (string, error) {
			return `{"brief_plan": "p", "skills": ["feed_coke_ovens", "summon_golem"]}`, nil
		}, names: []string{"coke-oven-operation"}, fallback: "every skill the model named is unknown",
			event: "model named unknown skills: feed_coke_ovens, summon_golem"},
		{name: "malformed", answer: func(string) (string, error) { return "use the coke oven skill", nil },
			names: []string{"coke-oven-operation"}, fallback: "malformed model answer"},
	}
	// At lv, sustainable-wood scores 1.05 for this task, under the floor
	// (1.27 at stone_age, where the index is larger).
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var prompt string
			m := selection.ModelFunc(func(_ context.Context, p string) (string, error) {
				prompt = p
				return c.answer(p)
			})
			q := selection.NewQualityStore()
			a := newAdvisor(t, cat, selection.AdvisorOptions{Model: m, Quality: q})
			// Every pack enabled: executable skills exist at lv, but only
			// knowledge skills are candidates.
			adv, err := a.Select(context.Background(), task, "lv", cat.Registry.Packs().Names())
			require.NoError(t, err)
			assert.Equal(t, c.names, adv.Names)
			if c.fallback == "" {
				assert.Empty(t, adv.Fallback)
			} else {
				assert.Contains(t, adv.Fallback, c.fallback)
			}
			if c.event != "" {
				assert.Contains(t, adv.Events, c.event)
			}
			// The model is offered the knowledge skills usable at lv only.
			assert.Contains(t, prompt, "- **"+coke+"** (knowledge)")
			assert.NotContains(t, prompt, "(go)")
			assert.NotContains(t, prompt, "stone-age-progression")
			// Each chosen skill is recorded as selected, nothing else.
			for _, n := range []string{"coke-oven-operation", "sustainable-wood", "steam-age-boilers"} {
				want := 0
				if assert.ObjectsAreEqual(true, contains(c.names, n)) {
					want = 1
				}
				assert.Equal(t, want, q.Get(idOf(t, cat, n)).Selections, n)
			}
		})
	}
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// The same task is selected once; a new task (the goal changed) selects
// again; going back to an earlier task reuses its advice.
func TestAdvisorReselectsOnGoalChange(t *testing.T) {
	cat := shippedCatalog(t)
	var calls atomic.Int32
	m := selection.ModelFunc(func(_ context.Context, p string) (string, error) {
		calls.Add(1)
		if strings.Contains(p, "# Task\nmy steam boiler") {
			return `{"brief_plan": "p", "skills": ["steam-age-boilers"]}`, nil
		}
		return `{"brief_plan": "p", "skills": ["coke-oven-operation"]}`, nil
	})
	q := selection.NewQualityStore()
	a := newAdvisor(t, cat, selection.AdvisorOptions{Model: m, Quality: q})
	ctx := context.Background()
	first, err := a.Select(ctx, "feed coal to the coke ovens", "stone_age", []string{"stone_age", "steam_age"})
	require.NoError(t, err)
	again, err := a.Select(ctx, "feed coal to the coke ovens", "stone_age", []string{"steam_age", "stone_age"})
	require.NoError(t, err)
	assert.Equal(t, first, again)
	assert.EqualValues(t, 1, calls.Load(), "the same task is not selected twice")
	first.Names[0] = "changed by the caller"
	again, _ = a.Select(ctx, "feed coal to the coke ovens", "stone_age", []string{"steam_age", "stone_age"})
	assert.Equal(t, []string{"coke-oven-operation"}, again.Names, "callers get copies")

	other, err := a.Select(ctx, "my steam boiler is low on water", "stone_age", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"steam-age-boilers"}, other.Names)
	assert.EqualValues(t, 2, calls.Load(), "a new goal selects again")
	_, err = a.Select(ctx, "feed coal to the coke ovens", "lv", []string{"steam_age", "stone_age"})
	require.NoError(t, err)
	assert.EqualValues(t, 3, calls.Load(), "a new tier selects again")
	assert.Equal(t, 2, q.Get(idOf(t, cat, "coke-oven-operation")).Selections)
	assert.Equal(t, 1, q.Get(idOf(t, cat, "steam-age-boilers")).Selections)
}

// Records follow the run: an application, a completion and a fallback count
// at most once per skill and task; a skill that informed a step was
// applied; executable and unknown skills are not recorded.
func TestAdvisorRecords(t *testing.T) {
	cat := shippedCatalog(t)
	q := selection.NewQualityStore()
	a := newAdvisor(t, cat, selection.AdvisorOptions{Quality: q})
	ctx := context.Background()
	_, err := a.Select(ctx, "feed coal to the coke ovens", "stone_age", nil)
	require.NoError(t, err)
	a.Applied("coke-oven-operation")
	a.Applied("coke-oven-operation")
	a.Applied("feed_coke_ovens") // executable: not a knowledge skill
	a.Applied("summon-golem")
	a.StepEnded([]string{"coke-oven-operation", "steam-age-boilers"}, true)
	a.StepEnded([]string{"coke-oven-operation"}, true)
	a.StepEnded([]string{"coke-oven-operation"}, false)
	a.StepEnded([]string{"coke-oven-operation"}, false)
	coke, boilers, wood := idOf(t, cat, "coke-oven-operation"), idOf(t, cat, "steam-age-boilers"), idOf(t, cat, "sustainable-wood")
	assert.Equal(t, map[string]selection.Quality{
		coke:    {Selections: 1, Applied: 1, Completions: 1, Fallbacks: 1},
		boilers: {Applied: 1, Completions: 1}, // given in full, not selected here
		wood:    {Selections: 1},
	}, q.All())

	// A new task is a new episode: the skill counts again.
	_, err = a.Select(ctx, "keep the coke ovens running", "stone_age", nil)
	require.NoError(t, err)
	a.Applied(coke) // by id
	a.StepEnded([]string{"coke-oven-operation"}, false)
	assert.Equal(t, selection.Quality{Selections: 2, Applied: 2, Completions: 1, Fallbacks: 2}, q.Get(coke))
}

// What one run records, the next honours: a skill selected in two runs and
// never completed is filtered in the third; one that completed is kept.
func TestAdvisorQualityAcrossRuns(t *testing.T) {
	cat := shippedCatalog(t)
	coke := idOf(t, cat, "coke-oven-operation")
	const task = "feed coal to the coke ovens"
	run := func(path string, complete bool) selection.Advice {
		t.Helper()
		store, err := selection.OpenQualityStore(path)
		require.NoError(t, err)
		a := newAdvisor(t, cat, selection.AdvisorOptions{Quality: store})
		adv, err := a.Select(context.Background(), task, "stone_age", nil)
		require.NoError(t, err)
		if complete {
			a.StepEnded(adv.Names, true)
		}
		return adv
	}
	t.Run("never completed", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "skill-quality.json")
		assert.Contains(t, run(path, false).Names, "coke-oven-operation")
		assert.Contains(t, run(path, false).Names, "coke-oven-operation", "selected once: still kept")
		third := run(path, false)
		assert.NotContains(t, third.Names, "coke-oven-operation")
		assert.Contains(t, third.Events, "quality filter removed coke-oven-operation: selected 2 times and never completed")
		store, err := selection.OpenQualityStore(path)
		require.NoError(t, err)
		assert.Equal(t, selection.Quality{Selections: 2}, store.Get(coke))
	})
	t.Run("completed", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "skill-quality.json")
		run(path, true)
		run(path, false)
		assert.Contains(t, run(path, false).Names, "coke-oven-operation")
		store, err := selection.OpenQualityStore(path)
		require.NoError(t, err)
		assert.Equal(t, selection.Quality{Selections: 3, Applied: 1, Completions: 1}, store.Get(coke))
	})
}

// Embeddings re-rank the BM25 hits; an embedder that fails leaves the BM25
// ranking, with an event, and the run goes on.
func TestAdvisorEmbeddings(t *testing.T) {
	cat := shippedCatalog(t)
	cfg := knowledge.DefaultConfig()
	cfg.Embeddings = true
	const task = "feed coal to the coke ovens"
	// The fake model server finds sustainable-wood closest to every task.
	var texts atomic.Int32
	near := rank.EmbedderFunc(func(_ context.Context, in []string) ([][]float32, error) {
		texts.Add(int32(len(in)))
		out := make([][]float32, len(in))
		for i, s := range in {
			out[i] = []float32{0, 1}
			if i == 0 || strings.HasPrefix(s, "sustainable-wood\n") {
				out[i] = []float32{1, 0}
			}
		}
		return out, nil
	})
	adv, err := newAdvisor(t, cat, selection.AdvisorOptions{Config: cfg, Embedder: near}).Select(context.Background(), task, "stone_age", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"sustainable-wood", "coke-oven-operation"}, adv.Names)
	assert.Contains(t, adv.Events, "ranking re-ranked by embeddings")
	assert.Positive(t, texts.Load())

	off := cfg
	off.Embeddings = false
	texts.Store(0)
	adv, err = newAdvisor(t, cat, selection.AdvisorOptions{Config: off, Embedder: near}).Select(context.Background(), task, "stone_age", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"coke-oven-operation", "sustainable-wood"}, adv.Names, "embeddings off: BM25 order")
	assert.Zero(t, texts.Load())

	down := rank.EmbedderFunc(func(context.Context, []string) ([][]float32, error) {
		return nil, errors.New("connection refused")
	})
	adv, err = newAdvisor(t, cat, selection.AdvisorOptions{Config: cfg, Embedder: down}).Select(context.Background(), task, "stone_age", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"coke-oven-operation", "sustainable-wood"}, adv.Names)
	assert.Contains(t, strings.Join(adv.Events, "\n"), "embedding re-rank failed (rank: embedding: connection refused); BM25 ranking kept")

	named := cfg
	named.EmbeddingModel = "nomic-embed-text"
	adv, err = newAdvisor(t, cat, selection.AdvisorOptions{Config: named}).Select(context.Background(), task, "stone_age", nil)
	require.NoError(t, err)
	assert.Contains(t, adv.Events, `no model server for embedding model "nomic-embed-text"; the hashing embedder (the offline fallback) re-ranks`)
	assert.Contains(t, adv.Events, "ranking re-ranked by embeddings")
}

// Concurrent selections and records keep every count.
func TestAdvisorConcurrent(t *testing.T) {
	cat := shippedCatalog(t)
	q, err := selection.OpenQualityStore(filepath.Join(t.TempDir(), "q.json"))
	require.NoError(t, err)
	a := newAdvisor(t, cat, selection.AdvisorOptions{Quality: q})
	tasks := []string{"feed coal to the coke ovens", "keep the coke ovens running", "my ovens stopped"}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Go(func() {
			for _, task := range tasks {
				_, err := a.Select(context.Background(), task, "stone_age", nil)
				assert.NoError(t, err)
				a.Applied("coke-oven-operation")
				a.StepEnded([]string{"coke-oven-operation"}, true)
			}
		})
	}
	wg.Wait()
	got := q.Get(idOf(t, cat, "coke-oven-operation"))
	assert.Equal(t, 3, got.Selections, "each task selected once")
	assert.LessOrEqual(t, got.Completions, got.Applied)
	assert.GreaterOrEqual(t, got.Applied, 1)
	assert.LessOrEqual(t, got.Applied, 3, "at most once per task")
}

// The quality file named in the configuration is opened by the advisor; a
// corrupt one is an error and stays as it was; one that cannot be written
// any more costs a warning and an event, not the run.
func TestAdvisorQualityFile(t *testing.T) {
	cat := shippedCatalog(t)
	dir := t.TempDir()
	cfg := knowledge.DefaultConfig()
	cfg.QualityFile = filepath.Join(dir, "skill-quality.json")
	a, err := selection.NewAdvisor(selection.AdvisorOptions{Catalog: cat, Config: cfg})
	require.NoError(t, err)
	_, err = a.Select(context.Background(), "feed coal to the coke ovens", "stone_age", nil)
	require.NoError(t, err)
	store, err := selection.OpenQualityStore(cfg.QualityFile)
	require.NoError(t, err)
	assert.Equal(t, 1, store.Get(idOf(t, cat, "coke-oven-operation")).Selections, "written to the configured file")

	broken := []byte("{\"format\": 1, \"skills\": {\"x\": {\"selections\": -4}}}\n")
	require.NoError(t, os.WriteFile(cfg.QualityFile, broken, 0o644))
	_, err = selection.NewAdvisor(selection.AdvisorOptions{Catalog: cat, Config: cfg})
	require.ErrorIs(t, err, selection.ErrCorruptQuality)
	assert.ErrorContains(t, err, cfg.QualityFile)
	data, err := os.ReadFile(cfg.QualityFile)
	require.NoError(t, err)
	assert.Equal(t, broken, data, "never reset")

	gone := filepath.Join(t.TempDir(), "gone")
	require.NoError(t, os.Mkdir(gone, 0o755))
	q, err := selection.OpenQualityStore(filepath.Join(gone, "q.json"))
	require.NoError(t, err)
	require.NoError(t, os.RemoveAll(gone))
	var logs bytes.Buffer
	a, err = selection.NewAdvisor(selection.AdvisorOptions{Catalog: cat, Config: knowledge.DefaultConfig(), Quality: q, Logger: zerolog.New(&logs)})
	require.NoError(t, err)
	adv, err := a.Select(context.Background(), "feed coal to the coke ovens", "stone_age", nil)
	require.NoError(t, err)
	assert.Contains(t, adv.Names, "coke-oven-operation")
	assert.Contains(t, strings.Join(adv.Events, "\n"), "quality not recorded: selection: writing quality")
	a.StepEnded(adv.Names, true)
	assert.Contains(t, logs.String(), `"record":"completion"`)
	assert.Contains(t, logs.String(), "knowledge skill quality not recorded")
}

// A run stopped during the model's choice neither records nor remembers
// the fallback it got meanwhile.
func TestAdvisorCancelled(t *testing.T) {
	cat := shippedCatalog(t)
	var calls atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := selection.ModelFunc(func(mctx context.Context, _ string) (string, error) {
		if calls.Add(1) == 1 {
			cancel() // the run stops while the model thinks
			<-mctx.Done()
			return "", mctx.Err()
		}
		return `{"brief_plan": "p", "skills": ["coke-oven-operation"]}`, nil
	})
	q := selection.NewQualityStore()
	a := newAdvisor(t, cat, selection.AdvisorOptions{Model: m, Quality: q})
	_, err := a.Select(ctx, "feed coal to the coke ovens", "stone_age", nil)
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, q.All())
	adv, err := a.Select(context.Background(), "feed coal to the coke ovens", "stone_age", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"coke-oven-operation"}, adv.Names, "not cached: selected again")
	assert.Empty(t, adv.Fallback)
	assert.EqualValues(t, 2, calls.Load())
}

// The episodes an Advisor remembers are bounded: after 64 other tasks, the
// first one is a new selection and counts again.
func TestAdvisorForgetsOldEpisodes(t *testing.T) {
	cat := shippedCatalog(t)
	q := selection.NewQualityStore()
	a := newAdvisor(t, cat, selection.AdvisorOptions{Quality: q})
	ctx := context.Background()
	const first = "feed coal to the coke ovens"
	_, err := a.Select(ctx, first, "stone_age", nil)
	require.NoError(t, err)
	coke := idOf(t, cat, "coke-oven-operation")
	require.Equal(t, 1, q.Get(coke).Selections)
	_, err = a.Select(ctx, first, "stone_age", nil)
	require.NoError(t, err)
	require.Equal(t, 1, q.Get(coke).Selections, "remembered")
	for i := range 64 {
		_, err := a.Select(ctx, fmt.Sprintf("task number %d", i), "stone_age", nil)
		require.NoError(t, err)
	}
	_, err = a.Select(ctx, first, "stone_age", nil)
	require.NoError(t, err)
	assert.Equal(t, 2, q.Get(coke).Selections, "forgotten, selected again")
}
