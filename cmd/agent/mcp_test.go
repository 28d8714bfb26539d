package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/internal/syncbuf"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/mcpserver"
)

// mcpChild starts `agent mcp ARGS` as a child process and connects the
// SDK's client to it over its stdin and stdout (CommandTransport).
func mcpChild(t *testing.T, args ...string) (*mcp.ClientSession, *syncbuf.Buffer) {
	t.Helper()
	return mcpChildWith(t, nil, args...)
}

// mcpChildWith is mcpChild with the client's options (notification
// handlers).
func mcpChildWith(t *testing.T, opts *mcp.ClientOptions, args ...string) (*mcp.ClientSession, *syncbuf.Buffer) {
	t.Helper()
	cmd := exec.Command(agentBinary(t), append([]string{"mcp"}, args...)...)
	stderr := &syncbuf.Buffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	ctx, cancel := testdeadline.WithCancel(t, "agent mcp's initialize")
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	require.NoError(t, err, "stderr:\n%s", stderr)
	t.Cleanup(func() {
		// Closing stdin ends the server; it exits on its own.
		assert.NoError(t, cs.Close())
		assert.True(t, cmd.ProcessState != nil && cmd.ProcessState.Success(), "agent mcp exit: %v\nstderr:\n%s", cmd.ProcessState, stderr)
	})
	return cs, stderr
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := testdeadline.WithCancel(t, "the call of "+name)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	return res
}

func toolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func decodeResult[T any](t *testing.T, res *mcp.CallToolResult) T {
	t.Helper()
	require.False(t, res.IsError, toolText(res))
	var v T
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &v), string(b))
	return v
}

// TestMCPOverStdio: agent mcp on the simulated world, over a real pipe:
// initialize, the tools and resources, a knowledge skill, an invocation
// whose effects are checked, the goal and the trace.
func TestMCPOverStdio(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	cs, stderr := mcpChild(t, "--goal", "collect 3 minecraft:log", "--trace", trace)
	init := cs.InitializeResult()
	assert.Equal(t, "gtnh-agent", init.ServerInfo.Name)
	assert.True(t, init.Capabilities.Tools.ListChanged)

	ctx := context.Background()
	var tools []string
	for tool, err := range cs.Tools(ctx, nil) {
		require.NoError(t, err)
		tools = append(tools, tool.Name)
	}
	for _, n := range []string{"list_skills", "load_skill", "read_skill_resource", "observe", "invoke_skill", "goal_status", "skill_chop_tree", "skill_feed_steam_boiler"} {
		assert.Contains(t, tools, n)
	}
	var uris []string
	for r, err := range cs.Resources(ctx, nil) {
		require.NoError(t, err)
		uris = append(uris, r.URI)
	}
	assert.Contains(t, uris, "skill://steam-age-boilers")
	assert.Contains(t, uris, "skill://steam-age-boilers/references/safety-checklist.md")

	assert.Contains(t, toolText(callTool(t, cs, "load_skill", map[string]any{"name": "steam-age-boilers"})), "### Skill: steam-age-boilers")
	res := callTool(t, cs, "read_skill_resource", map[string]any{"name": "steam-age-boilers", "path": "../coke-oven-operation/SKILL.md"})
	assert.True(t, res.IsError)

	obs := decodeResult[mcpserver.Observation](t, callTool(t, cs, "observe", nil))
	assert.Equal(t, "steam_age", obs.Tier)
	assert.Equal(t, []string{"collected 0/3 minecraft:log"}, obs.Goal.Unmet)
	step := decodeResult[mcpserver.StepResult](t, callTool(t, cs, "skill_chop_tree", map[string]any{"min_logs": 3}))
	assert.Equal(t, "success", step.Verdict, step.Error)
	assert.NotEmpty(t, step.Effects)
	assert.True(t, step.Goal.Met)
	goal := decodeResult[mcpserver.GoalStatus](t, callTool(t, cs, "goal_status", nil))
	assert.True(t, goal.Met)
	res = callTool(t, cs, "invoke_skill", map[string]any{"skill": "chop_tre"})
	assert.True(t, res.IsError)
	assert.Contains(t, toolText(res), `did you mean "chop_tree"?`)

	data, err := os.ReadFile(trace)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	assert.Len(t, lines, 2, "one trace line per invocation")
	assert.Contains(t, lines[0], `"verdict":"success"`)
	assert.Contains(t, stderr.String(), "serving the skills on the simulated world forest_base")
}

// TestMCPOnAGTNHServer: agent mcp --server plays on the scripted GTNH
// server; when the server goes away, the tools answer with errors and the
// agent keeps serving until the client leaves.
func TestMCPOnAGTNHServer(t *testing.T) {
	t.Parallel()                       // mostly waiting on a child process or a timer: overlap it with the others
	const tick = 50 * time.Millisecond // the game's: the agent is a child process, outside any synctest bubble
	gs, err := fakeserver.New(fakeserver.Options{Registry: fakeserver.RegistryMultipart, TickDuration: tick})
	require.NoError(t, err)
	defer gs.Close()
	cs, _ := mcpChild(t, "--server", gs.Addr(), "--username", "Bot", "--config-file", agentYAML(t, tick))
	obs := decodeResult[mcpserver.Observation](t, callTool(t, cs, "observe", nil))
	assert.Equal(t, "stone_age", obs.Tier)
	step := decodeResult[mcpserver.StepResult](t, callTool(t, cs, "invoke_skill", map[string]any{"skill": "chop_tree", "params": map[string]any{"min_logs": 2}}))
	assert.Equal(t, "success", step.Verdict, step.Error)
	assert.GreaterOrEqual(t, step.InventoryDelta["minecraft:log"], 2)

	gs.Close() // the connection is lost for good (no --reconnect)
	require.Eventually(t, func() bool {
		return callTool(t, cs, "observe", nil).IsError
	}, 20*time.Second, 50*time.Millisecond)
	res := callTool(t, cs, "invoke_skill", map[string]any{"skill": "chop_tree"})
	assert.True(t, res.IsError)
	assert.Contains(t, toolText(res), "the body did not answer")
	list := decodeResult[mcpserver.ListSkillsResult](t, callTool(t, cs, "list_skills", nil))
	assert.Equal(t, "stone_age", list.Tier, "the catalog of the last tier seen")
}

// TestMCPOnAServedBody: agent mcp --body drives a body that agent serve
// exposes.
func TestMCPOnAServedBody(t *testing.T) {
	dir := shortDir(t)
	srv := startAgent(t, 0, "serve", "--body", "sim", "--listen", "unix://"+filepath.Join(dir, "sim.sock"))
	addr := waitServing(t, srv)
	cs, stderr := mcpChild(t, "--body", addr)
	obs := decodeResult[mcpserver.Observation](t, callTool(t, cs, "observe", nil))
	assert.Equal(t, "steam_age", obs.Tier)
	step := decodeResult[mcpserver.StepResult](t, callTool(t, cs, "invoke_skill", map[string]any{"skill": "chop_tree", "params": map[string]any{"min_logs": 2}}))
	assert.Equal(t, "success", step.Verdict, step.Error)
	assert.GreaterOrEqual(t, step.InventoryDelta["minecraft:log"], 2)
	assert.Contains(t, stderr.String(), "serving the skills on the body at "+addr+" (sim)")
}

// TestMCPUsage: what agent mcp refuses before it starts.
func TestMCPUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "extra"}, `unexpected argument "extra"`},
		{[]string{"mcp", "--body", "unix:///x.sock", "--scenario", "s.yaml"}, "belong to the body"},
		{[]string{"mcp", "--token-file", "t"}, "--token-file needs --body"},
		{[]string{"mcp", "--server", "h:1", "--seed", "3"}, "are for the simulated world"},
		{[]string{"mcp", "--username", "Bot"}, "need --server"},
		{[]string{"mcp", "--goal", "collect 3 minecraft:lgo"}, `did you mean "minecraft:log"?`},
		// In the simulated world every name comes from the configuration: a
		// mod's unknown item is an error there (on a server, a warning).
		{[]string{"mcp", "--goal", "have 1 gregtech:gt.metaitem.99"}, `unknown item "gregtech:gt.metaitem.99"`},
		{[]string{"mcp", "--scenario", "missing.yaml"}, "missing.yaml"},
		{[]string{"mcp", "--body", "ftp://x"}, "--body"},
		{[]string{"mcp", "--packs", "stone_age,steam_ag"}, `unknown pack "steam_ag" (did you mean "steam_age"?)`},
		{[]string{"mcp", "--metrics-token-file", "t"}, "--metrics-token-file needs --metrics"},
		{[]string{"mcp", "--metrics", "unix:///m.sock"}, `--metrics "unix:///m.sock": want HOST:PORT`},
		{[]string{"mcp", "--metrics", "0.0.0.0:0"}, "--metrics 0.0.0.0:0 is not a loopback address: give --metrics-token-file FILE"},
		{[]string{"mcp", "--metrics", "0.0.0.0:0", "--metrics-token-file", "missing-token"}, "mcp: --metrics-token-file:"},
	} {
		code, _, errOut := runAgent(t, tc.args...)
		assert.Equal(t, exitUsage, code, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.want, tc.args)
	}
}

// TestMCPOverlongMessage: a message longer than the limit ends the session
// with exit 1 and the reason, without reading it into memory whole.
func TestMCPOverlongMessage(t *testing.T) {
	cmd := exec.Command(agentBinary(t), "mcp")
	stderr := &syncbuf.Buffer{}
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	go func() {
		defer in.Close()
		io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
		io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		io.WriteString(in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"load_skill","arguments":{"name":"`+strings.Repeat("a", 2*maxMCPMessage)+`"}}}`+"\n")
	}()
	replies, err := io.ReadAll(out)
	require.NoError(t, err)
	err = cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "stderr:\n%s", stderr)
	assert.Equal(t, exitFail, exit.ExitCode())
	assert.Contains(t, stderr.String(), "agent: mcp: the connection to the client: inbound JSON-RPC frame exceeded the configured maximum line length")
	assert.NotContains(t, stderr.String(), "panic")
	assert.Contains(t, string(replies), `"id":1,"result"`, "initialize was answered")
	assert.NotContains(t, string(replies), `"id":2`)
}

// TestMCPTierChangeOverStdio: over a real pipe, a step that drops the body
// to the stone age sends the list-changed notification, and the tool list
// no longer has the steam age's skills.
func TestMCPTierChangeOverStdio(t *testing.T) {
	changed := make(chan struct{}, 16)
	cs, _ := mcpChildWith(t, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	}, "--scenario", "../../mcpserver/testdata/coke_kit.yaml")
	tools := func() []string {
		var names []string
		for tool, err := range cs.Tools(context.Background(), nil) {
			require.NoError(t, err)
			names = append(names, tool.Name)
		}
		return names
	}
	require.Contains(t, tools(), "skill_feed_steam_boiler")
	// No notification comes without a change (mcpserver's
	// TestNoChangeNoNotification): the one after the step is the step's.
	for len(changed) > 0 {
		<-changed
	}
	step := decodeResult[mcpserver.StepResult](t, callTool(t, cs, "invoke_skill", map[string]any{"skill": "basic_crafting", "params": map[string]any{"item": "minecraft:torch", "count": 5}}))
	require.Equal(t, "stone_age", step.Tier, step.Error)
	select {
	case <-changed:
	case <-testdeadline.After(t):
		t.Fatal("no tools/list_changed notification")
	}
	assert.NotContains(t, tools(), "skill_feed_steam_boiler")
	assert.Contains(t, tools(), "skill_chop_tree")
}

// TestMCPMetrics: agent mcp --metrics serves the steps the client's
// invocations run and the actions they executed, by skill and verdict, by
// kind and code, beside the world model's memory.
func TestMCPMetrics(t *testing.T) {
	cs, stderr := mcpChild(t, "--metrics", "127.0.0.1:0")
	// The metrics listen before the MCP server answers its first message.
	_, rest, ok := strings.Cut(stderr.String(), "metrics at ")
	require.True(t, ok, "stderr:\n%s", stderr)
	url, _, _ := strings.Cut(rest, "\n")

	code, fams := scrapeMetrics(t, url, "")
	require.Equal(t, http.StatusOK, code)
	assert.Empty(t, byLabels(fams, "gtnh_agent_steps_total", "skill", "verdict"), "no step before an invocation")

	step := decodeResult[mcpserver.StepResult](t, callTool(t, cs, "skill_chop_tree", map[string]any{"min_logs": 3}))
	require.Equal(t, "success", step.Verdict, step.Error)
	res := callTool(t, cs, "invoke_skill", map[string]any{"skill": "chop_tree", "params": map[string]any{"min_logs": -4}})
	require.True(t, res.IsError, toolText(res))

	code, fams = scrapeMetrics(t, url, "")
	require.Equal(t, http.StatusOK, code)
	steps := byLabels(fams, "gtnh_agent_steps_total", "skill", "verdict")
	assert.Equal(t, map[string]float64{"chop_tree/success": 1, "chop_tree/rejected": 1}, steps)
	actions := byLabels(fams, "gtnh_agent_actions_total", "kind", "code")
	assert.Positive(t, actions["break_block/ok"], "%v", actions)
	assert.Positive(t, actions["move_to/ok"], "%v", actions)
	require.Contains(t, fams, "gtnh_agent_world_memory_bytes")
	assert.Positive(t, fams["gtnh_agent_world_memory_bytes"].GetMetric()[0].GetGauge().GetValue())
}
