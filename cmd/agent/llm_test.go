package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/llm"
	"github.com/gtnh-agent/gtnh-agent/planner/llm/llmtest"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// llmKey is a recognisable API key: no output may contain it.
const llmKey = "sk-cli-KEY-5e8d1a7c9b3f2e40-never-print"

// recordedRun plays the default goal through tool calls (planner/llm/testdata).
func recordedRun(t *testing.T) []llmtest.Reply {
	return append([]llmtest.Reply{selectionAnswer("sustainable-wood")}, llmtest.Files(t,
		"../../planner/llm/testdata/run/01-load.json", "../../planner/llm/testdata/run/02-chop.json", "../../planner/llm/testdata/run/03-planks.json",
		"../../planner/llm/testdata/run/04-sticks.json", "../../planner/llm/testdata/run/05-chop.json")...)
}

// selectionAnswer is the model's answer to the knowledge-skill selection
// that starts a run.
func selectionAnswer(skills ...string) llmtest.Reply {
	b, _ := json.Marshal(map[string]any{"brief_plan": "chop trees, then craft", "skills": append([]string{}, skills...)})
	return llmtest.Text(string(b))
}

func TestRunWithLLMPlanner(t *testing.T) {
	t.Setenv(llm.DefaultKeyEnv, llmKey)
	srv := llmtest.New(t, recordedRun(t)...)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	code, out, errOut := runAgent(t, "run", "--planner", "llm", "--llm-url", srv.URL, "--llm-model", "qwen3", "--llm-context", "16384", "--trace", trace)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "goal: "+defaultGoal+", planner llm (qwen3 at "+srv.URL+")")
	assert.Contains(t, out, "step   1  chop_tree min_logs=4")
	assert.Contains(t, out, "[llm: 2 calls, 6400+83 tokens,")
	assert.Contains(t, out, "goal met after 4 steps")
	data, err := os.ReadFile(trace)
	require.NoError(t, err)
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		var rec loop.StepRecord
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
		require.NotNil(t, rec.Planner)
		assert.Equal(t, "qwen3:8b", rec.Planner.Model)
		n++
	}
	assert.Equal(t, 4, n)
	assert.Equal(t, []string{"stone-age-progression"}, firstLoaded(t, data))
	assert.Equal(t, []string{"sustainable-wood"}, firstRecord(t, data).Planner.Selected, "the model selection is given in full")
	assert.Contains(t, string(srv.Requests()[1].Body), "Wood is the first bottleneck of GTNH", "the selected skill's instructions are in the first step's prompt")
	assert.Contains(t, srv.Requests()[0].JSON()["messages"].([]any)[0].(map[string]any)["content"], "skill selector", "the run starts with the selection")
	for _, r := range srv.Requests() {
		assert.Equal(t, "Bearer "+llmKey, r.Header.Get("Authorization"))
		assert.Equal(t, "qwen3", r.JSON()["model"])
	}
	for what, text := range map[string]string{"stdout": out, "stderr": errOut, "trace": string(data)} {
		assert.NotContains(t, text, llmKey, what)
	}
}

func firstLoaded(t *testing.T, trace []byte) []string {
	return firstRecord(t, trace).Planner.Loaded
}

func firstRecord(t *testing.T, trace []byte) loop.StepRecord {
	line, _, _ := strings.Cut(string(trace), "\n")
	var rec loop.StepRecord
	require.NoError(t, json.Unmarshal([]byte(line), &rec))
	require.NotNil(t, rec.Planner)
	return rec
}

func TestRunWithLLMPlannerFromTheConfigFile(t *testing.T) {
	t.Setenv("MY_MODEL_KEY", llmKey)
	srv := llmtest.New(t, selectionAnswer(), llmtest.ToolsUnsupported(),
		llmtest.Text(`{"tool":"invoke_skill","arguments":{"skill":"chop_tree","params":{"min_logs":4}}}`))
	cfg := filepath.Join(t.TempDir(), "agent.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("run:\n  goal: collect 4 minecraft:log\nllm:\n  url: "+srv.URL+"\n  model: llama3.2\n  key_env: MY_MODEL_KEY\n  mode: auto\n  max_calls: 4\n"), 0o644))
	code, out, errOut := runAgent(t, "run", "--planner", "llm", "--config-file", cfg)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "goal met after 1 steps")
	assert.Equal(t, "Bearer "+llmKey, srv.Requests()[2].Header.Get("Authorization"))
	assert.Contains(t, errOut, "asking for JSON answers for the rest of the run")
	assert.NotContains(t, out+errOut, llmKey)
}

func TestRunLLMModelErrorsNeverShowTheKey(t *testing.T) {
	t.Setenv(llm.DefaultKeyEnv, llmKey)
	echo := llmtest.Reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided: ` + llmKey + `"}}`}
	srv := llmtest.New(t, echo, echo, echo) // the selection, then two steps
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	code, out, errOut := runAgent(t, "run", "--planner", "llm", "--llm-url", srv.URL, "--llm-model", "m", "--max-steps", "2", "--trace", trace)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, out, "planner_error")
	assert.Contains(t, out, "HTTP 401")
	data, err := os.ReadFile(trace)
	require.NoError(t, err)
	assert.Contains(t, string(data), "[REDACTED]")
	for what, text := range map[string]string{"stdout": out, "stderr": errOut, "trace": string(data)} {
		assert.NotContains(t, text, llmKey, what)
		assert.NotContains(t, text, llmKey[7:23], what+" (part of the key)")
	}
}

func TestRunLLMFlagErrors(t *testing.T) {
	dir := t.TempDir()
	kcfg := filepath.Join(dir, "skills.yaml")
	require.NoError(t, os.WriteFile(kcfg, []byte("preload: [coke-oven-operaton]\n"), 0o644))
	url := "http://127.0.0.1:11434/v1"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no url", []string{"--planner", "llm", "--llm-model", "qwen3"}, "--planner llm needs --llm-url (or llm.url in agent.yaml)"},
		{"no model", []string{"--planner", "llm", "--llm-url", url}, "--planner llm needs --llm-model"},
		{"bad url", []string{"--planner", "llm", "--llm-url", "localhost:11434", "--llm-model", "q"}, "url: want http:// or https://"},
		{"mode typo", []string{"--planner", "llm", "--llm-url", url, "--llm-model", "q", "--llm-mode", "tool"}, `unknown mode "tool" (did you mean "tools"?)`},
		{"key variable unset", []string{"--planner", "llm", "--llm-url", url, "--llm-model", "q", "--llm-key-env", "NO_SUCH_KEY_VAR_FOR_TEST"}, "the environment variable NO_SUCH_KEY_VAR_FOR_TEST holding the model server's API key is not set"},
		{"bad key variable", []string{"--planner", "llm", "--llm-url", url, "--llm-model", "q", "--llm-key-env", "MY-KEY"}, "--llm-key-env: want the name of an environment variable"},
		{"llm flag without llm", []string{"--llm-url", url}, "--llm-url is for --planner llm"},
		{"skills flag without llm", []string{"--skills-config", kcfg}, "--skills-config is for --planner llm"},
		{"planner typo", []string{"--planner", "lm"}, `unknown planner "lm" (did you mean "llm"?)`},
		{"script with llm", []string{"--planner", "llm", "--llm-url", url, "--llm-model", "q", "--script", "x.yaml"}, "--script needs --planner script"},
		{"preload typo", []string{"--planner", "llm", "--llm-url", url, "--llm-model", "q", "--skills-config", kcfg}, `unknown skill to preload "coke-oven-operaton" (did you mean "coke-oven-operation"?)`},
		{"context too small", []string{"--planner", "llm", "--llm-url", url, "--llm-model", "q", "--llm-context", "512"}, "--llm-context: 512 tokens is outside 1024..2097152"},
		{"context without llm", []string{"--llm-context", "4096"}, "--llm-context is for --planner llm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runAgent(t, append([]string{"run"}, tt.args...)...)
			assert.Equal(t, exitUsage, code, out)
			assert.Contains(t, errOut, tt.want)
			assert.NotContains(t, out, "step ", "nothing ran")
		})
	}
}

func TestAgentConfigLLMSection(t *testing.T) {
	cfg, err := parseAgentConfig("agent.yaml", []byte(`llm:
  url: http://127.0.0.1:8000/v1
  model: Qwen/Qwen3-8B
  key_env: VLLM_KEY
  embedding_model: bge-m3
  timeout: 45s
  max_calls: 6
  max_corrections: 2
  mode: tools
  context: 4096
`))
	require.NoError(t, err)
	assert.Equal(t, llm.Config{URL: "http://127.0.0.1:8000/v1", Model: "Qwen/Qwen3-8B", KeyEnv: "VLLM_KEY", EmbeddingModel: "bge-m3",
		Timeout: 45e9, MaxCalls: 6, MaxCorrections: 2, Mode: llm.ModeTools, Context: 4096}, cfg.LLM)

	for _, tt := range []struct{ yaml, want string }{
		{"llm:\n  urll: x\n", `agent.yaml:2:3: llm.urll: unknown field "urll" (did you mean "url"?)`},
		{"llm:\n  url: ftp://x\n", "agent.yaml:2:8: llm.url: want http:// or https://"},
		{"llm:\n  model: \"\"\n", "agent.yaml:2:10: llm.model: must not be empty"},
		{"llm:\n  mode: jsn\n", `agent.yaml:2:9: llm.mode: unknown mode "jsn" (did you mean "json"?)`},
		{"llm:\n  max_calls: 0\n", "agent.yaml:2:14: llm.max_calls: must be within 1..100, got 0"},
		{"llm:\n  max_corrections: 0\n", "agent.yaml:2:20: llm.max_corrections: must be within 1..20, got 0"},
		{"llm:\n  max_corrections: 99\n", "agent.yaml:2:20: llm.max_corrections: must be within 1..20, got 99"},
		{"llm:\n  timeout: soon\n", `agent.yaml:2:12: llm.timeout: want a positive duration`},
		{"llm:\n  key_env: sk-abc\n", `agent.yaml:2:12: llm.key_env: want the name of an environment variable`},
		{"llm:\n  context: 100\n", "agent.yaml:2:12: llm.context: must be within 1024..2097152, got 100"},
	} {
		_, err := parseAgentConfig("agent.yaml", []byte(tt.yaml))
		require.Error(t, err, tt.yaml)
		assert.Contains(t, err.Error(), tt.want)
		assert.NotContains(t, err.Error(), "sk-abc", "a key put in key_env by mistake is not echoed")
	}
}

// recordingAdvisor selects one knowledge skill and records the rest.
type recordingAdvisor struct{ selected []string }

func (a *recordingAdvisor) Select(_ context.Context, task, tier string, _ []string) (llm.Advice, error) {
	a.selected = append(a.selected, task)
	return llm.Advice{Names: []string{"sustainable-wood"}}, nil
}
func (a *recordingAdvisor) Applied(string)           {}
func (a *recordingAdvisor) StepEnded([]string, bool) {}

func TestLLMPlannerMakesTheAdvisor(t *testing.T) {
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb, log: newLogger(&errb)}
	var cf configFlags
	reg, err := cf.load(e, registry.ActiveOnly)
	require.NoError(t, err)
	srv := llmtest.New(t, llmtest.File(t, "../../planner/llm/testdata/run/02-chop.json"))
	adv := &recordingAdvisor{}
	var gotClient *llm.Client
	var gotKnowledge int
	mk := func(_ *env, c *llm.Client, cat *catalog.Catalog, _ *knowledge.Config) (llm.Advisor, error) {
		gotClient, gotKnowledge = c, len(catalog.Knowledge(cat.Entries()))
		return adv, nil
	}
	pl, err := llmPlanner(e, llm.Config{URL: srv.URL, Model: "qwen3"}.WithDefaults(), &knowledgeFlags{}, &cf, reg, mk)
	require.NoError(t, err)
	require.NotNil(t, gotClient)
	assert.Equal(t, "qwen3", gotClient.Config().Model)
	assert.Equal(t, 5, gotKnowledge, "the shipped knowledge skills")

	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	snap, err := ipc.InProcess(w).Observe(context.Background())
	require.NoError(t, err)
	descs, err := reg.DescribeForTechState(snap.TechState, reg.Packs().Names())
	require.NoError(t, err)
	dec, err := pl.Plan(context.Background(), loop.Goal{Text: "collect 4 minecraft:log"}, loop.Observation{Step: 1, Snapshot: snap}, descs)
	require.NoError(t, err)
	assert.Equal(t, []string{"collect 4 minecraft:log"}, adv.selected)
	assert.Equal(t, []string{"sustainable-wood"}, dec.Trace.Selected)

	_, err = llmPlanner(e, llm.Config{URL: srv.URL, Model: "qwen3"}.WithDefaults(), &knowledgeFlags{}, &cf, reg,
		func(*env, *llm.Client, *catalog.Catalog, *knowledge.Config) (llm.Advisor, error) {
			return nil, errors.New("quality file unreadable")
		})
	require.ErrorContains(t, err, "quality file unreadable")
}

// TestRunLLMEmbeddingsRerankKnowledge: with llm.embedding_model set, the
// knowledge selection asks the model server's /v1/embeddings with that
// model; two different embedding models are refused before the run.
func TestRunLLMEmbeddingsRerankKnowledge(t *testing.T) {
	chat := llmtest.New(t, recordedRun(t)...)
	var mu sync.Mutex
	var models []string
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/embeddings", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&req))
		mu.Lock()
		models = append(models, req.Model)
		mu.Unlock()
		data := make([]map[string]any, len(req.Input))
		for i := range req.Input {
			data[i] = map[string]any{"object": "embedding", "index": i, "embedding": []float64{1, float64(i), 0.5}}
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
	})
	mux.Handle("/", httputil.NewSingleHostReverseProxy(mustURL(t, chat.URL)))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	cfg := filepath.Join(t.TempDir(), "agent.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("llm:\n  url: "+srv.URL+"/v1\n  model: qwen3\n  embedding_model: nomic-embed-text\n"), 0o644))
	code, out, errOut := runAgent(t, "run", "--planner", "llm", "--config-file", cfg)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "goal met")
	mu.Lock()
	assert.Equal(t, []string{"nomic-embed-text"}, models, "one re-rank, for the one goal")
	mu.Unlock()

	kcfg := filepath.Join(t.TempDir(), "skills.yaml")
	require.NoError(t, os.WriteFile(kcfg, []byte("selection:\n  embedding_model: bge-m3\n"), 0o644))
	code, _, errOut = runAgent(t, "run", "--planner", "llm", "--config-file", cfg, "--skills-config", kcfg)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `two embedding models: "bge-m3" in the knowledge configuration and "nomic-embed-text" in llm.embedding_model`)
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	require.NoError(t, err)
	u.Path = ""
	return u
}

// TestRunLLMWritesTheQualityFile: a run with the model planner records in
// the knowledge configuration's quality file what its knowledge did: the
// selected skill was selected, applied (given in full to a step) and
// completed (that step succeeded). The run ends with that step, so only
// the step's own report credits it.
func TestRunLLMWritesTheQualityFile(t *testing.T) {
	srv := llmtest.New(t, selectionAnswer("sustainable-wood"), llmtest.File(t, "../../planner/llm/testdata/run/02-chop.json"))
	dir := t.TempDir()
	kcfg := filepath.Join(dir, "skills.yaml")
	require.NoError(t, os.WriteFile(kcfg, []byte("quality_file: "+filepath.Join(dir, "quality.json")+"\n"), 0o644))
	code, out, errOut := runAgent(t, "run", "--planner", "llm", "--llm-url", srv.URL, "--llm-model", "qwen3", "--llm-context", "16384",
		"--skills-config", kcfg, "--goal", "collect 4 minecraft:log")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "goal met after 1 steps")
	data, err := os.ReadFile(filepath.Join(dir, "quality.json"))
	require.NoError(t, err)
	var file struct {
		Skills map[string]map[string]int `json:"skills"`
	}
	require.NoError(t, json.Unmarshal(data, &file), string(data))
	var wood map[string]int
	for id, q := range file.Skills {
		if strings.Contains(id, "sustainable-wood") {
			wood = q
		}
	}
	require.NotNil(t, wood, string(data))
	assert.Equal(t, map[string]int{"selections": 1, "applied": 1, "completions": 1, "fallbacks": 0}, wood)
}

// TestRunLLMPreloadsTheConfiguredSkills: the knowledge configuration's
// preload list reaches the model in full when the context has room for it
// (--llm-context), and is named only when it has not.
func TestRunLLMPreloadsTheConfiguredSkills(t *testing.T) {
	kcfg := filepath.Join(t.TempDir(), "skills.yaml")
	require.NoError(t, os.WriteFile(kcfg, []byte("preload: [steam-age-boilers]\n"), 0o644))
	for _, tt := range []struct {
		context string
		full    bool
	}{{"32768", true}, {"4096", false}} {
		srv := llmtest.New(t, selectionAnswer(), llmtest.File(t, "../../planner/llm/testdata/run/02-chop.json"))
		code, out, errOut := runAgent(t, "run", "--planner", "llm", "--llm-url", srv.URL, "--llm-model", "qwen3",
			"--skills-config", kcfg, "--goal", "collect 4 minecraft:log", "--llm-context", tt.context)
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, "goal met after 1 steps")
		system := srv.Requests()[1].JSON()["messages"].([]any)[0].(map[string]any)["content"].(string)
		assert.Equal(t, tt.full, strings.Contains(system, "#### steam-age-boilers"), "context %s", tt.context)
		assert.Contains(t, system, "steam-age-boilers")
	}
}

// TestRunLLMGoalInWords: with --planner llm a goal the grammar does not
// parse goes to the model in words, and the run is met when the model
// finishes it with claims that hold; other planners keep the grammar.
func TestRunLLMGoalInWords(t *testing.T) {
	const goal = "build a coke oven next to the boiler"
	srv := llmtest.New(t, selectionAnswer(),
		llmtest.ToolCall("finish", `{"reason":"two ovens stand by the boiler","met":true,"machines":["coke_oven","steam_boiler"]}`))
	code, out, errOut := runAgent(t, "run", "--planner", "llm", "--llm-url", srv.URL, "--llm-model", "qwen3", "--goal", goal)
	require.Equal(t, exitOK, code, errOut+out)
	assert.Contains(t, out, "goal: "+goal)
	assert.Contains(t, out, "goal met after 0 steps")
	assert.Contains(t, out, "the model says the goal is met (checked: a formed coke_oven nearby, a formed steam_boiler nearby): two ovens stand by the boiler")
	user := srv.Requests()[1].JSON()["messages"].([]any)[1].(map[string]any)["content"].(string)
	assert.Contains(t, user, "Goal: "+goal)

	// Not met in the model's word: exit 1.
	srv = llmtest.New(t, selectionAnswer(), llmtest.ToolCall("finish", `{"reason":"no bricks","met":false}`))
	code, out, _ = runAgent(t, "run", "--planner", "llm", "--llm-url", srv.URL, "--llm-model", "qwen3", "--goal", goal, "--json")
	assert.Equal(t, exitFail, code, out)
	assert.Contains(t, out, `"goal_met": false`)

	code, out, errOut = runAgent(t, "run", "--goal", goal)
	assert.Equal(t, exitUsage, code, out)
	assert.Contains(t, errOut, `write build NAME, e.g. build coke_oven (a goal in words is for --planner llm)`)
	code, _, errOut = runAgent(t, "run", "--planner", "llm", "--llm-url", srv.URL, "--llm-model", "qwen3", "--goal", "build\x01it")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "without control characters")
}

// TestRunLLMSystemFile: --llm-system replaces the built-in instructions
// with a file's text; a file that is missing, too large or empty stops the
// command with exit 2.
func TestRunLLMSystemFile(t *testing.T) {
	dir := t.TempDir()
	profile := filepath.Join(dir, "andy.md")
	require.NoError(t, os.WriteFile(profile, []byte("You are Andy. Chop first, ask later.\n"), 0o600))
	srv := llmtest.New(t, selectionAnswer(), llmtest.File(t, "../../planner/llm/testdata/run/02-chop.json"))
	code, out, errOut := runAgent(t, "run", "--planner", "llm", "--llm-url", srv.URL, "--llm-model", "qwen3",
		"--llm-system", profile, "--goal", "collect 4 minecraft:log")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "goal met after 1 steps")
	system := srv.Requests()[1].JSON()["messages"].([]any)[0].(map[string]any)["content"].(string)
	assert.True(t, strings.HasPrefix(system, "You are Andy. Chop first, ask later."), system[:80])
	assert.Contains(t, system, "- chop_tree(")

	big := filepath.Join(dir, "big.md")
	require.NoError(t, os.WriteFile(big, []byte(strings.Repeat("a", llm.MaxSystemBytes+1)), 0o600))
	empty := filepath.Join(dir, "empty.md")
	require.NoError(t, os.WriteFile(empty, []byte("\n"), 0o600))
	for _, tt := range []struct{ file, want string }{
		{filepath.Join(dir, "missing.md"), "--llm-system: open " + filepath.Join(dir, "missing.md")},
		{big, "--llm-system: " + big + ": file is too large"},
		{empty, "--llm-system: " + empty + ": empty"},
	} {
		code, _, errOut := runAgent(t, "run", "--planner", "llm", "--llm-url", srv.URL, "--llm-model", "qwen3", "--llm-system", tt.file)
		assert.Equal(t, exitUsage, code, tt.file)
		assert.Contains(t, errOut, tt.want)
	}
	code, _, errOut = runAgent(t, "run", "--llm-system", profile)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "--llm-system is for --planner llm")
}
