package llm_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/llm"
	"github.com/gtnh-agent/gtnh-agent/planner/llm/llmtest"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

// steamAgeTarget is the most a steam-age planning call may take at the
// default context, by the documented count (bytes/4).
const steamAgeTarget = 2500

func TestPromptBudget(t *testing.T) {
	for ctxLen, want := range map[int]int{8192: 2457, 4096: 1536, 2048: 1024, 32768: 9830, 1024: 512} {
		assert.Equal(t, want, llm.PromptBudget(ctxLen), "context %d", ctxLen)
	}
	assert.Equal(t, 0, llm.EstimateTokens(0))
	assert.Equal(t, 1, llm.EstimateTokens(1))
	assert.Equal(t, 1, llm.EstimateTokens(4))
	assert.Equal(t, 2, llm.EstimateTokens(5))
}

// playRecorded plays the recorded default-goal run against f's server and
// returns the outcome and the step records.
func playRecorded(t *testing.T, f *fixture) (loop.Outcome, []loop.StepRecord) {
	t.Helper()
	out, recs, _ := playRecordedTrace(t, f)
	return out, recs
}

// playRecordedTrace is playRecorded that also returns the trace as written.
func playRecordedTrace(t *testing.T, f *fixture) (loop.Outcome, []loop.StepRecord, string) {
	t.Helper()
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	reg := f.cat.Registry
	g, err := loop.GoalParser{Tiers: reg.Tiers()}.Parse(defaultGoal)
	require.NoError(t, err)
	var trace bytes.Buffer
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(w), Planner: f.planner, Goal: g,
		Trace: &trace, OnStep: f.planner.StepDone})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	written := trace.String()
	var recs []loop.StepRecord
	sc2 := bufio.NewScanner(&trace)
	sc2.Buffer(make([]byte, 1<<20), 1<<20)
	for sc2.Scan() {
		var r loop.StepRecord
		require.NoError(t, json.Unmarshal(sc2.Bytes(), &r))
		recs = append(recs, r)
	}
	return out, recs, written
}

func invocations(recs []loop.StepRecord) []string {
	var out []string
	for _, r := range recs {
		if r.Invocation != nil {
			out = append(out, r.Invocation.String())
		}
	}
	return out
}

// TestSteamAgePromptFitsBudget: at the default context a steam-age
// planning call is at most 2,500 tokens by the documented count, and the
// scripted model's run makes the same decisions as with a context large
// enough for everything.
func TestSteamAgePromptFitsBudget(t *testing.T) {
	// Sizes counted on the planner's goroutine; the model server's round
	// trips are a whole run's.
	race.SkipCovered(t, "measuring the steam-age prompt, a recorded run twice", "TestRunMeetsDefaultGoalThroughToolCalls")
	large := newFixture(t, llm.Config{Context: 32768}, llm.PlannerOptions{Advisor: &advisor{names: []string{"sustainable-wood"}}, Catalog: shippedCatalog(t)},
		llmtest.Files(t, recordedRun...)...)
	outLarge, recsLarge := playRecorded(t, large)
	require.True(t, outLarge.GoalMet)

	f := newFixture(t, llm.Config{}, llm.PlannerOptions{Advisor: &advisor{names: []string{"sustainable-wood"}}, Catalog: shippedCatalog(t)},
		llmtest.Files(t, recordedRun...)...)
	out, recs := playRecorded(t, f)
	require.True(t, out.GoalMet, "%+v", out)
	assert.Equal(t, outLarge.Steps, out.Steps)
	assert.Equal(t, invocations(recsLarge), invocations(recs), "the same decisions")
	require.Equal(t, "steam_age", recs[0].Before.TechState)

	reqs := f.srv.Requests()
	first := llmtest.TokensOf(reqs[0].Body)
	t.Logf("steam-age planning call: %d tokens (%d bytes) at the default context; %d tokens (%d bytes) with room for everything",
		first, len(reqs[0].Body), llmtest.TokensOf(large.srv.Requests()[0].Body), len(large.srv.Requests()[0].Body))
	assert.LessOrEqual(t, first, steamAgeTarget)
	assert.LessOrEqual(t, first, llm.PromptBudget(llm.DefaultContext))
	assert.Equal(t, llm.EstimateTokens(len(reqs[0].Body)), first, "the planner counts what the server gets")
	// Every step's first request is within the budget; the one that
	// carries a loaded skill too.
	for i, r := range reqs {
		if msgs := requestMessagesOf(t, r); len(msgs) == 2 {
			assert.LessOrEqual(t, llmtest.TokensOf(r.Body), llm.PromptBudget(llm.DefaultContext), "request %d", i)
		}
	}
	system := f.requestMessages(t, 0)[0]["content"].(string)
	assert.Equal(t, 1, strings.Count(system, "chop_tree("), "each skill described once")
	assert.NotContains(t, system, "Root Path")
	assert.NotContains(t, system, "ABSOLUTE", "no path rules for files the model cannot open")
}

func requestMessagesOf(t *testing.T, r llmtest.Request) []map[string]any {
	t.Helper()
	var body struct {
		Messages []map[string]any `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &body))
	return body.Messages
}

// TestRunInA4096Context: against a server whose context is 4,096 tokens
// and that refuses longer prompts, the recorded run meets its goal when
// the agent is told the context; told a larger one, a request is refused.
func TestRunInA4096Context(t *testing.T) {
	// Sizes counted on the planner's goroutine; the model server's round
	// trips are a whole run's.
	race.SkipCovered(t, "a recorded run in a 4096-token context, twice", "TestRunMeetsDefaultGoalThroughToolCalls")
	f := newFixture(t, llm.Config{Context: 4096}, llm.PlannerOptions{Advisor: &advisor{names: []string{"sustainable-wood"}}, Catalog: shippedCatalog(t)},
		llmtest.Files(t, recordedRun...)...)
	f.srv.SetContext(4096, llmtest.Refuse)
	out, recs := playRecorded(t, f)
	require.True(t, out.GoalMet, "%+v", out)
	assert.Equal(t, 4, out.Steps)
	assert.Equal(t, "chop_tree min_logs=7", recs[3].Invocation.String())
	assert.Zero(t, f.srv.Remaining())
	for i, r := range f.srv.Requests() {
		assert.LessOrEqual(t, llmtest.TokensOf(r.Body), 4096, "request %d", i)
	}

	g := newFixture(t, llm.Config{Context: 32768}, llm.PlannerOptions{Advisor: &advisor{names: []string{"sustainable-wood"}}, Catalog: shippedCatalog(t)},
		llmtest.Files(t, recordedRun...)...)
	g.srv.SetContext(4096, llmtest.Refuse)
	_, recs = playRecorded(t, g)
	require.NotEmpty(t, recs)
	assert.Equal(t, loop.PlannerError, recs[0].Verdict, "the server refuses a prompt over its context")
	assert.Contains(t, recs[0].Error, "exceeds the available context size")
}

// TestCutPromptIsWarned: a server that cuts the prompt to a context
// smaller than the agent was told reports fewer prompt tokens than were
// sent; one reporting more than the context is warned about too.
func TestCutPromptIsWarned(t *testing.T) {
	chop := llmtest.File(t, "testdata/run/02-chop.json")
	f := newFixture(t, llm.Config{Context: 32768}, llm.PlannerOptions{}, chop, chop)
	f.srv.SetContext(1024, llmtest.Cut)
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Contains(t, joined(dec.Trace.Events), "the server counted 1024 prompt tokens of about")
	assert.Contains(t, f.logs.String(), `"level":"warn"`)
	assert.Contains(t, f.logs.String(), "OLLAMA_CONTEXT_LENGTH")
	dec, err = f.plan(t)
	require.NoError(t, err)
	assert.Contains(t, joined(dec.Trace.Events), "most likely cut the prompt", "every time in the trace")
	assert.Equal(t, 1, strings.Count(f.logs.String(), "most likely cut"), "logged once a run")

	// Within the context: nothing said.
	h := newFixture(t, llm.Config{}, llm.PlannerOptions{}, chop)
	h.srv.SetContext(8192, llmtest.Cut)
	dec, err = h.plan(t)
	require.NoError(t, err)
	assert.NotContains(t, joined(dec.Trace.Events), "the server counted")
	assert.NotContains(t, h.logs.String(), "prompt tokens")

	// More than the context.
	over := llmtest.Reply{Body: strings.Replace(chop.Body, `"prompt_tokens": 4300`, `"prompt_tokens": 9000`, 1)}
	require.NotEqual(t, chop.Body, over.Body)
	o := newFixture(t, llm.Config{}, llm.PlannerOptions{}, over)
	dec, err = o.plan(t)
	require.NoError(t, err)
	assert.Contains(t, joined(dec.Trace.Events), "the server counted 9000 prompt tokens, more than the context of 8192")
}

// TestSmallContextNamesWhatItLeavesOut: a preloaded skill that does not
// fit is left out (the model can load it), and the trace says so.
func TestSmallContextNamesWhatItLeavesOut(t *testing.T) {
	f := newFixture(t, llm.Config{Context: 4096}, llm.PlannerOptions{Preload: []string{"steam-age-boilers"}},
		llmtest.File(t, "testdata/run/02-chop.json"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	system := f.requestMessages(t, 0)[0]["content"].(string)
	assert.NotContains(t, system, "#### steam-age-boilers")
	assert.Contains(t, system, "steam-age-boilers", "still named")
	assert.Contains(t, joined(dec.Trace.Events), "0 of 1 skills to give in full given")
	assert.LessOrEqual(t, llmtest.TokensOf(f.srv.Requests()[0].Body), llm.PromptBudget(4096))
}

// TestToolResultsFitTheContext: what load_skill and read_skill_resource
// return is cut to the room left in the context, and the trace says so.
func TestToolResultsFitTheContext(t *testing.T) {
	// Sizes counted on the planner's goroutine; the model server's round
	// trips are a whole run's.
	race.SkipCovered(t, "fitting tool results into a 4096-token context", "TestRunMeetsDefaultGoalThroughToolCalls")
	f := newFixture(t, llm.Config{Context: 4096}, llm.PlannerOptions{Catalog: bigSkillCatalog(t)},
		llmtest.ToolCall("load_skill", `{"name":"big-notes"}`),
		llmtest.ToolCall("read_skill_resource", `{"name":"big-notes","path":"references/long.md"}`),
		llmtest.File(t, "testdata/run/02-chop.json"))
	f.srv.SetContext(4096, llmtest.Refuse)
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree", dec.Invocation.Skill)
	ev := joined(dec.Trace.Events)
	assert.Contains(t, ev, "the skill big-notes cut to fit the model's context")
	assert.Contains(t, ev, "no room in the model's context for big-notes/references/long.md")
	res := f.toolResults(t, 2)
	require.Len(t, res, 2)
	assert.Contains(t, res[0], "[cut: ")
	assert.Contains(t, res[1], "is not shown: the model's context (4096 tokens) is full")
	for i, r := range f.srv.Requests() {
		assert.LessOrEqual(t, llmtest.TokensOf(r.Body), 4096-512, "request %d leaves room for an answer", i)
	}
}
