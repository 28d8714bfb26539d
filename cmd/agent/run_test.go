package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateGolden = flag.Bool("update", false, "rewrite golden traces")

func TestNoArgsRunsTheDefaultScenario(t *testing.T) {
	code, out, errOut := runAgent(t)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "scenario forest_base, goal: "+defaultGoal)
	assert.Contains(t, out, "chop_tree")
	assert.Contains(t, out, "basic_crafting")
	assert.Contains(t, out, "goal met after")
}

func TestRunExitCodes(t *testing.T) {
	code, out, _ := runAgent(t, "run", "--goal", "collect 200 minecraft:log", "--max-steps", "2")
	assert.Equal(t, exitFail, code, "goal not met")
	assert.Contains(t, out, "goal NOT met (max_steps)")

	for _, args := range [][]string{
		{"run", "--goal", "collect many logs"},
		{"run", "--planner", "magic"},
		{"run", "--planner", "script"},
		{"run", "--max-steps", "0"},
		{"run", "--scenario", "/does/not/exist.yaml"},
		{"run", "--goal", "collect 1 minecraft:log", "--goal-file", "x.yaml"},
		{"run", "stray"},
	} {
		code, _, errOut := runAgent(t, args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, errOut)
	}
}

func TestRunRejectsABadScenarioWithPositions(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("name: x\nplayer: {pos: [1, 64, 1]}\nmachines:\n  - {kind: fusion, pos: [3, 64, 3]}\n"), 0o644))
	code, _, errOut := runAgent(t, "run", "--scenario", bad)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, bad+":4:12: machines[0].kind: unknown machine kind")
}

func TestRunJSONAndTrace(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	code, out, errOut := runAgent(t, "run", "--goal", "collect 6 minecraft:log", "--json", "--trace", trace)
	require.Equal(t, exitOK, code, errOut)
	var outcome map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &outcome))
	assert.Equal(t, true, outcome["goal_met"])
	assert.Equal(t, "goal_met", outcome["reason"])

	f, err := os.Open(trace)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	lines := 0
	for sc.Scan() {
		var rec map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
		for _, k := range []string{"step", "before", "invocation", "actions", "results", "after", "verdict"} {
			assert.Contains(t, rec, k)
		}
		lines++
	}
	assert.Positive(t, lines)
}

func TestRunScriptPlanner(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "script.yaml")
	require.NoError(t, os.WriteFile(script, []byte("- {skill: report_status, params: {note: hello}}\n- {skill: chop_tree, params: {min_logs: 2}}\n"), 0o644))
	code, out, errOut := runAgent(t, "run", "--planner", "script", "--script", script, "--goal", "collect 64 minecraft:log")
	assert.Equal(t, exitFail, code, errOut)
	assert.Contains(t, out, "report_status note=hello")
	assert.Contains(t, out, "goal NOT met (planner_done)")

	require.NoError(t, os.WriteFile(script, []byte("- {skil: report_status}\n"), 0o644))
	code, _, errOut = runAgent(t, "run", "--planner", "script", "--script", script)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, script+`:1:4: script[0].skil: unknown field "skil" (did you mean "skill"?)`)
}

// TestGoldenTrace: the default run's trace is byte-identical run after run
// and matches the committed golden file.
func TestGoldenTrace(t *testing.T) {
	dir := t.TempDir()
	var traces []string
	for i := range 2 {
		file := filepath.Join(dir, "trace"+string(rune('a'+i))+".jsonl")
		code, _, errOut := runAgent(t, "run", "--trace", file)
		require.Equal(t, exitOK, code, errOut)
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		traces = append(traces, string(data))
	}
	require.Equal(t, traces[0], traces[1], "the same scenario and seed give the same trace")
	golden := filepath.Join("testdata", "default_run.jsonl")
	if *updateGolden {
		require.NoError(t, os.WriteFile(golden, []byte(traces[0]), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test ./cmd/agent -run TestGoldenTrace -update")
	assert.Equal(t, string(want), traces[0], "the default run changed; review and run with -update")

	// Another seed grows another forest.
	other := filepath.Join(dir, "seeded.jsonl")
	code, _, _ := runAgent(t, "run", "--trace", other, "--seed", "7")
	require.Equal(t, exitOK, code)
	data, err := os.ReadFile(other)
	require.NoError(t, err)
	assert.NotEqual(t, traces[0], string(data))
	assert.True(t, strings.HasPrefix(string(data), `{"step":1,`))
}

// TestRunValidate: each check of run's flags refuses with exit 2 and its
// own message, before anything is loaded (the files named do not exist).
func TestRunValidate(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--goal", "collect 1 minecraft:log", "--goal-file", "x.yaml"}, "run: give --goal or --goal-file, not both"},
		{[]string{"--max-steps", "0"}, "run: --max-steps must be at least 1"},
		{[]string{"--planner-timeout", "0s", "--planner-cmd", "x"}, "run: --planner-timeout must be positive, e.g. 30s"},
		{[]string{"--planner-timeout", "5s"}, "run: --planner-timeout is for --planner-cmd and --planner ADDR"},
		{[]string{"--planner-cmd", "x", "--planner", "goal"}, "run: give --planner or --planner-cmd, not both"},
		{[]string{"--script", "x.yaml"}, "run: --script needs --planner script"},
		{[]string{"--planner", "llm", "--script", "x.yaml"}, "run: --script needs --planner script"},
		{[]string{"--planner", "script"}, "run: --planner script needs --script FILE"},
		{[]string{"--token-file", "x"}, "run: --token-file needs --body or --planner ADDR"},
		{[]string{"--record", "x.rec"}, errNoRecording.Error()},
		{[]string{"--server", "h:1", "--record-max-mb", "-1"}, "run: --record-max-mb must not be negative"},
		{[]string{"--server", "h:1", "--scenario", "x"}, "run: --scenario, --seed and --survival are for the simulated world, not with --server"},
		{[]string{"--body", "tcp://127.0.0.1:1", "--seed", "1"}, "run: --scenario, --seed, --survival, --server and --reconnect belong to the body; with --body give them to agent serve"},
		{[]string{"--llm-url", "http://x"}, "run: --llm-url is for --planner llm"},
	} {
		code, out, errOut := runAgent(t, append([]string{"run"}, c.args...)...)
		assert.Equal(t, exitUsage, code, "%v", c.args)
		assert.Empty(t, out, "%v", c.args)
		assert.Equal(t, "agent: "+c.want+"\n", errOut, "%v", c.args)
	}
}
