package llm_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/llm"
	"github.com/gtnh-agent/gtnh-agent/planner/llm/llmtest"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
)

// toolResults returns the contents of the tool messages of the n-th
// request, in order.
func (f *fixture) toolResults(t *testing.T, n int) []string {
	t.Helper()
	var out []string
	for _, m := range f.requestMessages(t, n) {
		if m["role"] == "tool" {
			c, _ := m["content"].(string)
			out = append(out, c)
		}
	}
	return out
}

func TestKeyNamedByTheModelIsNotInTheStepError(t *testing.T) {
	// The model names the key as a skill: the reason the answer was sent
	// back quotes it, and the step's error carries the last reason.
	bad := llmtest.ToolCall("invoke_skill", `{"skill":"`+testKey+`"}`)
	f := newFixture(t, llm.Config{MaxCorrections: 1}, llm.PlannerOptions{}, bad, bad)
	dec, err := f.plan(t)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown skill "[REDACTED]"`)
	noKey(t, "error", err.Error())
	noKey(t, "trace", traceText(t, dec.Trace))
}

func TestReadSkillResourceRefusesPathsOutsideTheList(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"../steam-age-boilers/SKILL.md", `".." leaves the skill directory`},
		{"references/../../steam-age-boilers/SKILL.md", `".." leaves the skill directory`},
		{"/etc/passwd", "absolute paths are not allowed"},
		{"SKILL.md", "is not a resource of coke-oven-operation"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			f := newFixture(t, llm.Config{}, llm.PlannerOptions{},
				llmtest.ToolCall("read_skill_resource", `{"name":"coke-oven-operation","path":"`+tt.path+`"}`),
				llmtest.File(t, "testdata/run/02-chop.json"))
			dec, err := f.plan(t)
			require.NoError(t, err)
			res := f.toolResults(t, 1)
			require.Len(t, res, 1)
			assert.True(t, strings.HasPrefix(res[0], "error: "), res[0])
			assert.Contains(t, res[0], tt.want)
			assert.NotContains(t, res[0], "steam-age-boilers\n", "no file content")
			assert.Empty(t, dec.Trace.Resources, "a refused file is not recorded as read")
			assert.Contains(t, joined(dec.Trace.Events), "read_skill_resource coke-oven-operation")
		})
	}
}

func TestReadSkillResourceOfAnExecutableSkill(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{},
		llmtest.ToolCall("read_skill_resource", `{"name":"chop_tree","path":"chop_tree.yaml"}`),
		llmtest.File(t, "testdata/run/02-chop.json"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, []string{"error: chop_tree is an executable skill and has no files"}, f.toolResults(t, 1))
	assert.Empty(t, dec.Trace.Resources)
}

// bigSkillCatalog is the shipped registry and a knowledge skill whose body
// and one file are far larger than a tool result may be.
func bigSkillCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	dir := t.TempDir()
	skill := filepath.Join(dir, "big-notes")
	require.NoError(t, os.MkdirAll(filepath.Join(skill, "references"), 0o755))
	body := strings.Repeat("Chop oak trees first and keep the saplings for later.\n", 520) // ~28 KiB
	require.NoError(t, os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: big-notes\ndescription: Long notes about trees and saplings, for testing the bounds of a tool result.\nmetadata:\n  version: 1.0.0\n---\n\n# Big notes\n\n"+body), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(skill, "references", "long.md"), []byte(strings.Repeat("Oak, birch, spruce and jungle trees.\n", 520)), 0o644)) // ~19 KiB
	// The shared registry, and a library of this skill alone: building the
	// shipped library again is the slow part.
	shared, _ := sharedFixture(t)
	lib := knowledge.New(knowledge.Options{Tiers: shared.Registry.Tiers()})
	_, err := lib.Add(knowledge.Source{Label: knowledge.LabelCustom, Dir: dir})
	require.NoError(t, err)
	return &catalog.Catalog{Registry: shared.Registry, Library: lib}
}

func TestToolResultsAreBounded(t *testing.T) {
	// Sizes counted on the planner's goroutine; the model server's round
	// trips are a whole run's.
	race.SkipCovered(t, "cutting megabyte tool results", "TestRunMeetsDefaultGoalThroughToolCalls")
	f := newFixture(t, llm.Config{Context: 65536}, llm.PlannerOptions{Catalog: bigSkillCatalog(t)},
		llmtest.ToolCall("load_skill", `{"name":"big-notes"}`),
		llmtest.ToolCall("read_skill_resource", `{"name":"big-notes","path":"references/long.md"}`),
		llmtest.File(t, "testdata/run/02-chop.json"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, []string{"big-notes"}, dec.Trace.Loaded)
	res := f.toolResults(t, 2)
	require.Len(t, res, 2)
	assert.LessOrEqual(t, len(res[0]), 24<<10+64, "load_skill")
	assert.Contains(t, res[0], "### Skill: big-notes")
	assert.Contains(t, res[0], "[cut: ")
	assert.LessOrEqual(t, len(res[1]), 16<<10+64, "read_skill_resource")
	assert.True(t, strings.HasPrefix(res[1], "Oak, birch"), res[1][:40])
	assert.Contains(t, res[1], "[cut: ")
}

func TestSelectionKeepsOnlyKnowledgeSkills(t *testing.T) {
	adv := &advisor{names: []string{"chop_tree", "sustainable-wood"}}
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{Advisor: adv}, llmtest.File(t, "testdata/run/02-chop.json"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, []string{"sustainable-wood"}, dec.Trace.Selected, "an executable skill is not given in full as knowledge")
	assert.Contains(t, joined(dec.Trace.Events), `selection named "chop_tree", which is not a knowledge skill`)
}

// TestStepVerdictsCreditTheKnowledge: the knowledge behind a decision is
// credited once, by the verdict of the step that decision ran as: success
// completes it, a failure is a fallback, nothing to do, a look into
// machines first or an interrupted step say nothing.
func TestStepVerdictsCreditTheKnowledge(t *testing.T) {
	for _, tt := range []struct {
		verdict loop.Verdict
		want    []string
	}{
		{loop.Success, []string{"sustainable-wood ok"}},
		{loop.ActionFailed, []string{"sustainable-wood failed"}},
		{loop.EffectsUnmet, []string{"sustainable-wood failed"}},
		{loop.Rejected, []string{"sustainable-wood failed"}},
		{loop.Noop, nil},
		{loop.Looked, nil},
		{loop.StepInterrupted, nil},
	} {
		t.Run(string(tt.verdict), func(t *testing.T) {
			// A context large enough that the knowledge is given in full
			// beside every shipped skill.
			adv := &advisor{names: []string{"sustainable-wood"}}
			f := newFixture(t, llm.Config{Context: 16384}, llm.PlannerOptions{Advisor: adv}, llmtest.File(t, "testdata/run/02-chop.json"))
			_, err := f.plan(t)
			require.NoError(t, err)
			f.planner.StepDone(loop.StepRecord{Step: 2, Verdict: loop.Success})
			assert.Empty(t, adv.ended, "another step's verdict")
			f.planner.StepDone(loop.StepRecord{Step: 1, Verdict: tt.verdict})
			f.planner.StepDone(loop.StepRecord{Step: 1, Verdict: tt.verdict})
			assert.Equal(t, tt.want, adv.ended, "once")
		})
	}
}

func TestStepSettledByTheNextObservation(t *testing.T) {
	adv := &advisor{names: []string{"sustainable-wood"}}
	chop := llmtest.File(t, "testdata/run/02-chop.json")
	f := newFixture(t, llm.Config{Context: 16384}, llm.PlannerOptions{Advisor: adv}, chop, chop)
	g, obs, descs := f.observation(t)
	dec, err := f.planner.Plan(context.Background(), g, obs, descs)
	require.NoError(t, err)
	obs2 := obs
	obs2.Step = 2
	obs2.Last = &loop.StepRecord{Step: 1, Invocation: dec.Invocation, Verdict: loop.ActionFailed, Before: loop.Summarize(obs.Snapshot)}
	_, err = f.planner.Plan(context.Background(), g, obs2, descs)
	require.NoError(t, err)
	assert.Equal(t, []string{"sustainable-wood failed"}, adv.ended)
}

func TestFinishCreditsNothing(t *testing.T) {
	adv := &advisor{names: []string{"sustainable-wood"}}
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{Advisor: adv}, llmtest.ToolCall("finish", `{"reason":"done"}`))
	dec, err := f.plan(t)
	require.NoError(t, err)
	require.True(t, dec.Done)
	f.planner.StepDone(loop.StepRecord{Step: 1, Verdict: loop.Success})
	assert.Empty(t, adv.ended, "no step ran on this decision")
}

func TestTraceRecordsLatency(t *testing.T) {
	srv := llmtest.New(t, llmtest.File(t, "testdata/run/01-load.json"), llmtest.File(t, "testdata/run/02-chop.json"))
	var ticks int64
	clock := func() time.Time {
		ticks++
		return time.Unix(0, 0).Add(time.Duration(ticks) * 750 * time.Millisecond) // each call: 750 ms
	}
	c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "qwen3"}, llm.Options{Now: clock})
	require.NoError(t, err)
	cat, _ := sharedFixture(t)
	p, err := llm.NewPlanner(c, llm.PlannerOptions{Catalog: cat})
	require.NoError(t, err)
	f := &fixture{srv: srv, client: c, planner: p, cat: cat}
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, 2, dec.Trace.Calls)
	assert.Equal(t, int64(1500), dec.Trace.LatencyMS)
}

func TestCancellationIsTraced(t *testing.T) {
	f := newBubbleFixture(t, llm.Config{}, llm.PlannerOptions{},
		llmtest.Slow(10*time.Second, llmtest.File(t, "testdata/run/02-chop.json")))
	g, obs, descs := f.observation(t)
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var dec loop.Decision
		var err error
		done := make(chan struct{})
		go func() {
			defer close(done)
			dec, err = f.planner.Plan(ctx, g, obs, descs)
		}()
		synctest.Wait() // the model has the request and holds its answer back
		require.Len(t, f.srv.Requests(), 1)
		cancel()
		<-done
		require.ErrorIs(t, err, context.Canceled)
		require.NotNil(t, dec.Trace)
		assert.Contains(t, joined(dec.Trace.Events), "cancelled while waiting for the model")
		assert.Equal(t, 1, dec.Trace.Calls)
	})
}

func TestTimeoutIsTraced(t *testing.T) {
	f := newBubbleFixture(t, llm.Config{Timeout: 50 * time.Millisecond}, llm.PlannerOptions{},
		llmtest.Slow(5*time.Second, llmtest.File(t, "testdata/run/02-chop.json")))
	g, obs, descs := f.observation(t)
	synctest.Test(t, func(t *testing.T) {
		dec, err := f.planner.Plan(context.Background(), g, obs, descs)
		require.ErrorIs(t, err, llm.ErrTimeout)
		assert.Contains(t, joined(dec.Trace.Events), "timeout: chat completion: the model did not answer in time")
	})
}

func TestPreloadedSkillsAreGivenInFull(t *testing.T) {
	f := newFixture(t, llm.Config{Context: 32768}, llm.PlannerOptions{Preload: []string{"coke-oven-operation"}},
		llmtest.File(t, "testdata/run/02-chop.json"), llmtest.File(t, "testdata/run/02-chop.json"))
	_, err := f.plan(t)
	require.NoError(t, err)
	_, err = f.plan(t)
	require.NoError(t, err)
	for n := range 2 {
		system := f.requestMessages(t, n)[0]["content"].(string)
		assert.Contains(t, system, "#### coke-oven-operation", "step %d", n+1)
		assert.NotContains(t, system, "#### steam-age-boilers")
	}

	cat, _ := sharedFixture(t)
	_, err = llm.NewPlanner(f.client, llm.PlannerOptions{Catalog: cat, Preload: []string{"coke-oven-operaton"}})
	require.ErrorIs(t, err, knowledge.ErrUnknownSkill)
	assert.Contains(t, err.Error(), `did you mean "coke-oven-operation"?`)
}

// TestCatalogFollowsTheTier: the catalog the model reads lists the
// knowledge skills of the body's tier only (the default world is at the
// steam age; stone-age-progression is for the stone age).
func TestCatalogFollowsTheTier(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{}, llmtest.File(t, "testdata/run/02-chop.json"))
	_, obs, _ := f.observation(t)
	require.Equal(t, "steam_age", obs.Snapshot.TechState)
	_, err := f.plan(t)
	require.NoError(t, err)
	system := f.requestMessages(t, 0)[0]["content"].(string)
	// Listed with its description, or by name where the budget ran out.
	assert.Regexp(t, `(?m)^- steam-age-boilers: |^- also: .*\bsteam-age-boilers\b`, system)
	assert.NotContains(t, system, "stone-age-progression")
}

// packsAdvisor records the packs selection is asked for.
type packsAdvisor struct{ packs [][]string }

func (a *packsAdvisor) Select(_ context.Context, _, _ string, packs []string) (llm.Advice, error) {
	a.packs = append(a.packs, packs)
	return llm.Advice{}, nil
}
func (a *packsAdvisor) Applied(string)           {}
func (a *packsAdvisor) StepEnded([]string, bool) {}

func TestSelectionGetsTheEnabledPacks(t *testing.T) {
	adv := &packsAdvisor{}
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{Advisor: adv, Packs: []string{"stone_age", "utility"}},
		llmtest.File(t, "testdata/run/02-chop.json"))
	_, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"stone_age", "utility"}}, adv.packs)

	adv = &packsAdvisor{}
	f = newFixture(t, llm.Config{}, llm.PlannerOptions{Advisor: adv}, llmtest.File(t, "testdata/run/02-chop.json"))
	_, err = f.plan(t)
	require.NoError(t, err)
	require.Len(t, adv.packs, 1)
	assert.Equal(t, f.cat.Registry.Packs().Names(), adv.packs[0], "every pack by default")
}

// TestEmbedderUsesTheModelItWasGiven: the knowledge configuration may name
// another embedding model than the llm section.
func TestEmbedderUsesTheModelItWasGiven(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Body: `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1,0]}],"model":"bge-m3"}`})
	c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "qwen3", EmbeddingModel: "nomic-embed-text"}, llm.Options{})
	require.NoError(t, err)
	v, err := c.Embedder("bge-m3").Embed(context.Background(), []string{"coke oven"})
	require.NoError(t, err)
	assert.Equal(t, [][]float32{{1, 0}}, v)
	assert.Equal(t, "bge-m3", srv.Requests()[0].JSON()["model"])
	assert.Equal(t, "/v1/embeddings", srv.Requests()[0].Path)
}

// TestUndecodableAnswerNeverShowsTheKey: an answer that does not decode
// (a proxy's page echoing the request) is an error without the key.
func TestUndecodableAnswerNeverShowsTheKey(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{}, llmtest.Reply{Body: `{"choices": "Authorization: Bearer ` + testKey + `"`})
	dec, err := f.plan(t)
	require.Error(t, err)
	noKey(t, "error", err.Error())
	noKey(t, "trace", traceText(t, dec.Trace))
	noKey(t, "logs", f.logs.String())
}

// TestModelNameFromTheServerIsRedactedAndBounded: the trace's model is what
// the server says it is; a server that echoes the key there (or sends a
// page of text, or something that is not a name) does not put it in the
// trace.
func TestModelNameFromTheServerIsRedactedAndBounded(t *testing.T) {
	chop := llmtest.ToolCall("invoke_skill", `{"skill":"chop_tree"}`)
	echo := chop
	echo.Body = strings.Replace(chop.Body, `"model":"fake-model"`, `"model":"Authorization: Bearer `+testKey+`"`, 1)
	object := chop
	object.Body = strings.Replace(chop.Body, `"model":"fake-model"`, `"model":{"x":"Authorization: Bearer `+testKey+`"}`, 1)
	long := chop
	long.Body = strings.Replace(chop.Body, `"model":"fake-model"`, `"model":"`+strings.Repeat("m", 5000)+`"`, 1)
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{}, echo, object, long)
	dec, err := f.plan(t)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	noKey(t, "trace", traceText(t, dec.Trace))
	assert.Contains(t, dec.Trace.Model, "[REDACTED]")
	dec, err = f.plan(t)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation, "a model name that is not a string does not spoil the answer")
	noKey(t, "trace", traceText(t, dec.Trace))
	assert.Equal(t, "qwen3", dec.Trace.Model, "the configured name stands")
	dec, err = f.plan(t)
	require.NoError(t, err)
	assert.LessOrEqual(t, len(dec.Trace.Model), 200+len("…"))
}

func TestFinishReasonWithoutTheKey(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{}, llmtest.ToolCall("finish", `{"reason":"your key `+testKey+` is wrong"}`))
	dec, err := f.plan(t)
	require.NoError(t, err)
	require.True(t, dec.Done)
	assert.Equal(t, "your key [REDACTED] is wrong", dec.Reason)
}
