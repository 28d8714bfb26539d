package llm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/llm"
	"github.com/gtnh-agent/gtnh-agent/planner/llm/llmtest"
)

// recordedRun is the default goal played through tool calls: the model
// reads the stone-age skill and one of its files, then invokes what the
// goal needs.
var recordedRun = []string{
	"testdata/run/01-load.json", "testdata/run/02-chop.json", "testdata/run/03-planks.json",
	"testdata/run/04-sticks.json", "testdata/run/05-chop.json",
}

// advisor records what the planner tells it.
type advisor struct {
	names   []string
	selects []string
	applied []string
	ended   []string
}

func (a *advisor) Select(_ context.Context, task, tier string, packs []string) (llm.Advice, error) {
	a.selects = append(a.selects, task+" @ "+tier)
	return llm.Advice{Names: a.names, Events: []string{"bm25: 5 candidates"}}, nil
}

func (a *advisor) Applied(name string) { a.applied = append(a.applied, name) }

func (a *advisor) StepEnded(informed []string, success bool) {
	a.ended = append(a.ended, strings.Join(informed, ",")+map[bool]string{true: " ok", false: " failed"}[success])
}

func TestRunMeetsDefaultGoalThroughToolCalls(t *testing.T) {
	adv := &advisor{names: []string{"sustainable-wood"}}
	// Its own catalog: the run records outcomes in the registry.
	// A large context: every skill given in full fits (the budget's own
	// tests are in prompt_test.go).
	f := newFixture(t, llm.Config{Context: 32768}, llm.PlannerOptions{Advisor: adv, Catalog: shippedCatalog(t)}, llmtest.Files(t, recordedRun...)...)
	out, recs, trace := playRecordedTrace(t, f)
	require.True(t, out.GoalMet, "%+v", out)
	assert.Equal(t, 4, out.Steps)
	assert.Zero(t, f.srv.Remaining())
	require.Len(t, recs, 4)
	for _, r := range recs {
		assert.Equal(t, loop.Success, r.Verdict, "step %d", r.Step)
		require.NotNil(t, r.Planner, "step %d has the planner's trace", r.Step)
		assert.Equal(t, "llm", r.Planner.Planner)
		assert.Equal(t, "qwen3:8b", r.Planner.Model, "the model the server reports")
		assert.Equal(t, []string{"sustainable-wood"}, r.Planner.Selected)
	}
	first := recs[0].Planner
	assert.Equal(t, 2, first.Calls, "a load call, then the invocation")
	assert.Equal(t, int64(2100+4300), first.TokensIn)
	assert.Equal(t, int64(52+31), first.TokensOut)
	assert.Equal(t, []string{"stone-age-progression"}, first.Loaded)
	assert.Equal(t, []string{"stone-age-progression/references/early-recipes.md"}, first.Resources)
	assert.Equal(t, 1, recs[1].Planner.Calls)
	assert.Empty(t, recs[1].Planner.Loaded, "loads are per step")
	assert.Equal(t, "chop_tree min_logs=7", recs[3].Invocation.String())

	// The tool results went back to the model: the skill's body with its
	// root path, then the file.
	msgs := f.requestMessages(t, 1)
	var tools []string
	for _, m := range msgs {
		if m["role"] == "tool" {
			tools = append(tools, m["content"].(string))
		}
	}
	require.Len(t, tools, 2)
	assert.Contains(t, tools[0], "### Skill: stone-age-progression")
	assert.Contains(t, tools[0], "**Root Path:**")
	assert.NotContains(t, tools[0], "{baseDir}")
	assert.NotEmpty(t, tools[1])
	assert.NotContains(t, tools[1], "error:")

	// The first request: the tools with exactly these names, the catalog
	// in the injection format, parameters, the selected skill in full.
	req := f.srv.Requests()[0].JSON()
	var names []string
	for _, tl := range req["tools"].([]any) {
		names = append(names, tl.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	assert.Equal(t, []string{"load_skill", "read_skill_resource", "invoke_skill", "finish"}, names)
	system := msgs[0]["content"].(string)
	assert.Contains(t, system, "## Skills")
	assert.Contains(t, system, "- chop_tree(min_logs int=4 1..256, radius int=16 1..64, require_axe bool=false): Find the nearest tree")
	assert.Contains(t, system, "- basic_crafting(count int=1 1..64, item item_id required): ")
	assert.Contains(t, system, "- coke-oven-operation: Build, fill")
	assert.Equal(t, 1, strings.Count(system, "chop_tree("), "each skill described once")
	assert.NotContains(t, system, "Root Path", "no file paths the model cannot open")
	assert.Contains(t, system, "#### sustainable-wood", "the selected skill in full")
	user := msgs[1]["content"].(string)
	assert.Contains(t, user, "Goal: "+defaultGoal)
	assert.Contains(t, user, `"inventory":{`)
	// Later steps carry the skill the model loaded, and the last verdict.
	later := f.requestMessages(t, 2)
	assert.Contains(t, later[0]["content"], "#### stone-age-progression")
	assert.Contains(t, later[1]["content"], `"last_step":{"invocation":"chop_tree min_logs=4","verdict":"success"`)

	// The advisor: one selection, the load, and every step informed by
	// knowledge credited.
	assert.Equal(t, []string{defaultGoal + " @ " + recs[0].Before.TechState}, adv.selects)
	assert.Equal(t, []string{"stone-age-progression"}, adv.applied)
	require.Len(t, adv.ended, 4)
	assert.Equal(t, "sustainable-wood,stone-age-progression ok", adv.ended[0])

	// The key went in the Authorization header and nowhere else.
	for _, r := range f.srv.Requests() {
		assert.Equal(t, "Bearer "+testKey, r.Header.Get("Authorization"))
		noKey(t, "request body", string(r.Body))
	}
	noKey(t, "trace", trace)
	noKey(t, "logs", f.logs.String())
}

func TestUnknownSkillCorrectedAfterFeedback(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{},
		llmtest.ToolCall("invoke_skill", `{"skill":"chop_tre","params":{"min_logs":4}}`),
		llmtest.File(t, "testdata/run/02-chop.json"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "chop_tree min_logs=4", dec.Invocation.String())
	fb := f.lastContent(t, 1)
	assert.Contains(t, fb, `unknown skill "chop_tre" (did you mean "chop_tree"?)`)
	assert.Equal(t, "tool", f.requestMessages(t, 1)[3]["role"])
	assert.Equal(t, 2, dec.Trace.Calls)
	assert.Contains(t, joined(dec.Trace.Events), "invoke_skill chop_tre min_logs=4 sent back: unknown skill")
}

func TestInvocationRulesSentBack(t *testing.T) {
	tests := []struct {
		name, args, want string
	}{
		{"bad parameter", `{"skill":"chop_tree","params":{"min_logs":0}}`, `bad parameters for chop_tree: parameter "min_logs": 0 is below the minimum 1`},
		{"unknown parameter", `{"skill":"chop_tree","params":{"min_log":3}}`, `unknown parameter "min_log"`},
		{"knowledge skill", `{"skill":"coke-oven-operation"}`, "is a knowledge skill"},
		{"parameters outside params", `{"skill":"chop_tree","min_logs":3}`, `unknown field "min_logs" (skill parameters go inside "params")`},
		{"params not an object", `{"skill":"chop_tree","params":[1]}`, `"params" must be a JSON object`},
		{"no skill", `{"params":{}}`, `"skill" is required`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, llm.Config{}, llm.PlannerOptions{},
				llmtest.ToolCall("invoke_skill", tt.args), llmtest.File(t, "testdata/run/02-chop.json"))
			dec, err := f.plan(t)
			require.NoError(t, err)
			assert.Equal(t, "chop_tree", dec.Invocation.Skill)
			assert.Contains(t, f.lastContent(t, 1), tt.want)
		})
	}
}

func TestTierGatedSkillSentBack(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{},
		llmtest.ToolCall("invoke_skill", `{"skill":"chop_tree"}`), llmtest.File(t, "testdata/run/03-planks.json"))
	g, obs, descs := f.observation(t)
	// The same step with chop_tree left out of the catalog, as a tier
	// without its pack would.
	var rest = descs[:0:0]
	for _, d := range descs {
		if d.Name != "chop_tree" {
			rest = append(rest, d)
		}
	}
	dec, err := f.planner.Plan(context.Background(), g, obs, rest)
	require.NoError(t, err)
	assert.Equal(t, "basic_crafting", dec.Invocation.Skill)
	assert.Contains(t, f.lastContent(t, 1), `skill "chop_tree" is not available at tier `+obs.Snapshot.TechState)
}

func TestBlockedInvocationSentBack(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{},
		llmtest.File(t, "testdata/run/02-chop.json"),
		llmtest.ToolCall("invoke_skill", `{"skill":"chop_tree","params":{"min_logs":5}}`))
	g, obs, descs := f.observation(t)
	obs.Blocked = []loop.Invocation{{Skill: "chop_tree", Params: map[string]any{"min_logs": float64(4)}}}
	dec, err := f.planner.Plan(context.Background(), g, obs, descs)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree min_logs=5", dec.Invocation.String())
	assert.Contains(t, f.lastContent(t, 1), "chop_tree min_logs=4 is blocked")
	assert.Contains(t, f.lastContent(t, 0), `"blocked":["chop_tree min_logs=4"]`, "the observation lists it")
}

func TestCorrectionsAreBounded(t *testing.T) {
	bad := llmtest.ToolCall("invoke_skill", `{"skill":"nope"}`)
	f := newFixture(t, llm.Config{MaxCorrections: 2}, llm.PlannerOptions{}, bad, bad, bad)
	dec, err := f.plan(t)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "sent back 3 times, more than 2")
	assert.Nil(t, dec.Invocation)
	require.NotNil(t, dec.Trace, "the trace comes with the error")
	assert.Equal(t, 3, dec.Trace.Calls)
	assert.Zero(t, f.srv.Remaining())
}

func TestModelCallsAreBounded(t *testing.T) {
	load := llmtest.ToolCall("load_skill", `{"name":"chop_tree"}`)
	f := newFixture(t, llm.Config{MaxCalls: 3}, llm.PlannerOptions{}, load, load, load)
	_, err := f.plan(t)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no decision after 3 model calls")
}

func TestMalformedArguments(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{},
		llmtest.ToolCall("invoke_skill", `{"skill": "chop_tree", "params": {"min_logs": 4}`),
		llmtest.File(t, "testdata/run/02-chop.json"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree min_logs=4", dec.Invocation.String())
	assert.Contains(t, f.lastContent(t, 1), "error: invoke_skill arguments are not a JSON object")
	assert.Contains(t, joined(dec.Trace.Events), "malformed invoke_skill call")
}

func TestRefusal(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{},
		llmtest.Refusal("I can't help with that."),
		llmtest.File(t, "testdata/run/02-chop.json"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree", dec.Invocation.Skill)
	assert.Contains(t, joined(dec.Trace.Events), "refusal: I can't help with that.")
	assert.Contains(t, f.lastContent(t, 1), "Answer with a tool call")
}

func TestTextWithoutToolCall(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{},
		llmtest.Text("I think we should chop a tree first."),
		llmtest.Text(`{"tool":"invoke_skill","arguments":{"skill":"chop_tree","params":{"min_logs":4}}}`))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree min_logs=4", dec.Invocation.String(), "a call written as text is taken")
	ev := joined(dec.Trace.Events)
	assert.Contains(t, ev, "no tool call in the answer")
	assert.Contains(t, ev, "the model wrote its invoke_skill call as text")
}

func TestFinish(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{}, llmtest.ToolCall("finish", `{"reason":"the goal is met"}`))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.True(t, dec.Done)
	assert.Equal(t, "the goal is met", dec.Reason)
}

func TestRateLimitRetriedAfterRetryAfter(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{},
		llmtest.RateLimited("2"), llmtest.ServerError(), llmtest.File(t, "testdata/run/02-chop.json"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree", dec.Invocation.Skill)
	assert.Equal(t, []time.Duration{2 * time.Second, time.Second}, f.sleeps.all(), "Retry-After, then backoff")
	assert.Equal(t, 3, dec.Trace.Calls, "retries count as calls")
	ev := joined(dec.Trace.Events)
	assert.Contains(t, ev, "HTTP 429, retry 1/3 in 2s (Retry-After)")
	assert.Contains(t, ev, "HTTP 500, retry 2/3 in 1s (backoff)")
	assert.Contains(t, f.logs.String(), `"status":429`)
}

func TestRetryAfterIsCapped(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{}, llmtest.RateLimited("3600"), llmtest.File(t, "testdata/run/02-chop.json"))
	_, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, []time.Duration{30 * time.Second}, f.sleeps.all())
}

func TestRetriesAreBounded(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{},
		llmtest.RateLimited("0.01"), llmtest.RateLimited("0.01"), llmtest.RateLimited("0.01"), llmtest.RateLimited("0.01"))
	dec, err := f.plan(t)
	require.Error(t, err)
	var ae *llm.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 429, ae.Status)
	assert.Contains(t, err.Error(), "Rate limit reached")
	assert.Len(t, f.sleeps.all(), 3)
	assert.Equal(t, 4, dec.Trace.Calls)
}

func TestRealRetryAfterWait(t *testing.T) {
	// The real timer, on a bubble's clock: a tiny Retry-After is waited
	// for, not skipped, and no longer than asked.
	srv := llmtest.New(t, llmtest.RateLimited("0.05"), llmtest.File(t, "testdata/run/02-chop.json"))
	synctest.Test(t, func(t *testing.T) {
		c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m"}, llm.Options{HTTPClient: &http.Client{Transport: srv.Transport()}})
		require.NoError(t, err)
		start := time.Now()
		_, err = c.Complete(context.Background(), "hi")
		require.NoError(t, err)
		assert.Equal(t, 50*time.Millisecond, time.Since(start))
	})
}

func TestTimeout(t *testing.T) {
	f := newBubbleFixture(t, llm.Config{Timeout: 50 * time.Millisecond}, llm.PlannerOptions{},
		llmtest.Slow(5*time.Second, llmtest.File(t, "testdata/run/02-chop.json")))
	g, obs, descs := f.observation(t)
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		dec, err := f.planner.Plan(context.Background(), g, obs, descs)
		require.Error(t, err)
		assert.Equal(t, 50*time.Millisecond, time.Since(start))
		assert.ErrorIs(t, err, llm.ErrTimeout)
		assert.Contains(t, joined(dec.Trace.Events), "no answer within 50ms")
		assert.Equal(t, 1, dec.Trace.Calls, "a timeout is not retried")
	})
}

func TestCancellationReturnsPromptly(t *testing.T) {
	f := newBubbleFixture(t, llm.Config{}, llm.PlannerOptions{},
		llmtest.Slow(10*time.Second, llmtest.File(t, "testdata/run/02-chop.json")))
	g, obs, descs := f.observation(t)
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		_, err := f.planner.Plan(ctx, g, obs, descs)
		require.Error(t, err)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, 50*time.Millisecond, time.Since(start))
	})
}

func TestCancelledWhileWaitingToRetry(t *testing.T) {
	srv := llmtest.New(t, llmtest.RateLimited("10"))
	synctest.Test(t, func(t *testing.T) {
		c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m"}, llm.Options{HTTPClient: &http.Client{Transport: srv.Transport()}})
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		_, err = c.Complete(ctx, "hi")
		assert.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, 50*time.Millisecond, time.Since(start))
	})
}

func TestServerWithoutToolCallingFallsBackToJSON(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{},
		llmtest.ToolsUnsupported(),
		llmtest.File(t, "testdata/json/load.json"),
		llmtest.File(t, "testdata/json/chop.json"),
		llmtest.File(t, "testdata/json/chop.json"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree min_logs=4", dec.Invocation.String())
	assert.True(t, f.planner.JSONMode())
	assert.Contains(t, joined(dec.Trace.Events), "the server does not take tool calls (HTTP 400: tools param requires --jinja flag): JSON answers from now on")
	assert.Equal(t, []string{"stone-age-progression"}, dec.Trace.Loaded)
	reqs := f.srv.Requests()
	require.Len(t, reqs, 3)
	second := reqs[1].JSON()
	assert.Nil(t, second["tools"], "no tools after the switch")
	rf := second["response_format"].(map[string]any)
	assert.Equal(t, "json_schema", rf["type"])
	schema := rf["json_schema"].(map[string]any)["schema"].(map[string]any)
	assert.Equal(t, []any{"tool", "arguments"}, schema["required"])
	assert.Contains(t, f.lastContent(t, 2), "Result of load_skill: ### Skill: stone-age-progression")
	// The switch holds for the rest of the run: the next step asks for
	// JSON at once.
	dec, err = f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree", dec.Invocation.Skill)
	assert.Nil(t, f.srv.Requests()[3].JSON()["tools"])
}

func TestToolsModeDoesNotFallBack(t *testing.T) {
	f := newFixture(t, llm.Config{Mode: llm.ModeTools}, llm.PlannerOptions{}, llmtest.ToolsUnsupported())
	_, err := f.plan(t)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "try --llm-mode json")
	assert.False(t, f.planner.JSONMode())
}

func TestJSONModeValidatesTheSameWay(t *testing.T) {
	f := newFixture(t, llm.Config{Mode: llm.ModeJSON}, llm.PlannerOptions{},
		llmtest.Text(`{"tool":"invoke_skill","arguments":{"skill":"chop_tre"}}`),
		llmtest.Text(`{"tool":"invoke_skill","arguments":{"skill":"chop_tree"`),
		llmtest.Text("<think>Trees are near.</think>\n```json\n{\"tool\":\"invoke_skill\",\"arguments\":{\"skill\":\"chop_tree\",\"params\":{\"min_logs\":4}}}\n```"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree min_logs=4", dec.Invocation.String())
	assert.Contains(t, f.lastContent(t, 1), `unknown skill "chop_tre" (did you mean "chop_tree"?)`)
	assert.Contains(t, f.lastContent(t, 2), "error: the answer is not one JSON object")
	assert.Nil(t, f.srv.Requests()[0].JSON()["tools"])
}

func TestKeyNeverInOutputs(t *testing.T) {
	// A server that echoes the key in its error (as some gateways do).
	echo := llmtest.Reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided: ` + testKey + `"}}`}
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{}, echo)
	dec, err := f.plan(t)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "HTTP 401")
	assert.Contains(t, err.Error(), "[REDACTED]")
	noKey(t, "error", err.Error())
	noKey(t, "trace", traceText(t, dec.Trace))
	noKey(t, "logs", f.logs.String())
	var ae *llm.APIError
	require.True(t, errors.As(err, &ae))
	noKey(t, "API error", ae.Message)
}

func TestSelectionRunsAgainWhenTheGoalChanges(t *testing.T) {
	adv := &advisor{names: []string{"sustainable-wood", "no-such-skill"}}
	chop := llmtest.File(t, "testdata/run/02-chop.json")
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{Advisor: adv}, chop, chop, chop)
	g, obs, descs := f.observation(t)
	ctx := context.Background()
	dec, err := f.planner.Plan(ctx, g, obs, descs)
	require.NoError(t, err)
	assert.Equal(t, []string{"sustainable-wood"}, dec.Trace.Selected, "a name outside the catalog is dropped")
	assert.Contains(t, joined(dec.Trace.Events), `selection named "no-such-skill"`)
	assert.Contains(t, joined(dec.Trace.Events), "selection: bm25: 5 candidates")
	obs.Step = 2
	_, err = f.planner.Plan(ctx, g, obs, descs)
	require.NoError(t, err)
	require.Len(t, adv.selects, 1, "the same goal: no new selection")
	g2, err := loop.ParseGoal("collect 4 minecraft:log", f.cat.Registry.Tiers())
	require.NoError(t, err)
	obs.Step = 3
	_, err = f.planner.Plan(ctx, g2, obs, descs)
	require.NoError(t, err)
	require.Len(t, adv.selects, 2)
	assert.True(t, strings.HasPrefix(adv.selects[1], "collect 4 minecraft:log @ "))
}

func TestLoadedKnowledgeCarriedIntoLaterSteps(t *testing.T) {
	loads := `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[` +
		`{"id":"c1","type":"function","function":{"name":"load_skill","arguments":"{\"name\":\"basic-ore-processing\"}"}},` +
		`{"id":"c2","type":"function","function":{"name":"load_skill","arguments":"{\"name\":\"coke-oven-operation\"}"}},` +
		`{"id":"c3","type":"function","function":{"name":"load_skill","arguments":"{\"name\":\"steam-age-boilers\"}"}},` +
		`{"id":"c4","type":"function","function":{"name":"load_skill","arguments":"{\"name\":\"stone-age-progression\"}"}},` +
		`{"id":"c5","type":"function","function":{"name":"load_skill","arguments":"{\"name\":\"sustainable-wood\"}"}},` +
		`{"id":"c6","type":"function","function":{"name":"invoke_skill","arguments":"{\"skill\":\"chop_tree\"}"}},` +
		`{"id":"c7","type":"function","function":{"name":"finish","arguments":"{}"}}]}}]}`
	chop := llmtest.File(t, "testdata/run/02-chop.json")
	f := newFixture(t, llm.Config{Context: 32768}, llm.PlannerOptions{}, llmtest.Reply{Body: loads}, chop)
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree", dec.Invocation.Skill, "the first decision in the answer wins")
	assert.Len(t, dec.Trace.Loaded, 5)
	assert.Contains(t, joined(dec.Trace.Events), "1 tool calls after invoke_skill ignored")
	_, err = f.plan(t)
	require.NoError(t, err)
	system := f.requestMessages(t, 1)[0]["content"].(string)
	assert.NotContains(t, system, "#### basic-ore-processing", "only the last four loaded are carried")
	for _, n := range []string{"coke-oven-operation", "steam-age-boilers", "stone-age-progression", "sustainable-wood"} {
		assert.Contains(t, system, "#### "+n)
	}
}

func TestKeyEchoedByTheModelIsRedacted(t *testing.T) {
	echo := llmtest.Refusal("Your header said Bearer " + testKey)
	f := newFixture(t, llm.Config{MaxCorrections: 1}, llm.PlannerOptions{}, echo, echo)
	dec, err := f.plan(t)
	require.Error(t, err)
	assert.Contains(t, joined(dec.Trace.Events), "refusal: Your header said Bearer [REDACTED]")
	noKey(t, "trace", traceText(t, dec.Trace))
	noKey(t, "error", err.Error())
}

func TestToolCallsPerAnswerAreBounded(t *testing.T) {
	var calls []string
	for i := range 40 {
		calls = append(calls, fmt.Sprintf(`{"id":"c%d","type":"function","function":{"name":"load_skill","arguments":"{\"name\":\"chop_tree\"}"}}`, i))
	}
	many := `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[` +
		strings.Join(calls, ",") + `]}}]}`
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{}, llmtest.Reply{Body: many}, llmtest.File(t, "testdata/run/02-chop.json"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Contains(t, joined(dec.Trace.Events), "40 tool calls in one answer: the first 16 are carried out")
	n := 0
	for _, m := range f.requestMessages(t, 1) {
		if m["role"] == "tool" {
			n++
		}
	}
	assert.Equal(t, 16, n)
}
