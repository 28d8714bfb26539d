package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/internal/syncbuf"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/mcpserver"
	"github.com/gtnh-agent/gtnh-agent/sim"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// shippedCatalog is the configuration in the binary: the registry and the
// shipped knowledge skills.
func shippedCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	reg, err := registry.LoadConfig(config.FS, registry.Options{})
	require.NoError(t, err)
	require.NoError(t, reg.RegisterProvided())
	require.NoError(t, reg.Finalize())
	lib := knowledge.New(knowledge.Options{Tiers: reg.Tiers()})
	_, err = lib.Add(knowledge.Source{Label: knowledge.LabelShipped, FS: config.FS, FSDir: "skills", Display: "config/skills"})
	require.NoError(t, err)
	return &catalog.Catalog{Registry: reg, Library: lib}
}

// session is a client connected in memory to a server on a simulated body.
type session struct {
	t       *testing.T
	seen    map[string]bool // notifications received and not yet waited for
	sim     *sim.Sim
	srv     *mcpserver.Server
	cs      *mcp.ClientSession
	changed chan string // "tools" or "resources", per list-changed notification
}

func newSession(t *testing.T, scenario string, goal string) *session {
	t.Helper()
	sc, err := sim.LoadScenario(scenario)
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return connect(t, ipc.InProcess(w), w, goal)
}

func connect(t *testing.T, conn ipc.Conn, w *sim.Sim, goalText string, packs ...string) *session {
	t.Helper()
	return connectCatalog(t, shippedCatalog(t), conn, w, goalText, packs...)
}

func connectCatalog(t *testing.T, cat *catalog.Catalog, conn ipc.Conn, w *sim.Sim, goalText string, packs ...string) *session {
	t.Helper()
	opts := mcpserver.Options{Catalog: cat, Conn: conn, Log: zerolog.Nop(), Version: "test", Packs: packs}
	if goalText != "" {
		g, err := loop.ParseGoal(goalText, cat.Registry.Tiers())
		require.NoError(t, err)
		opts.Goal = g
	}
	return connectOpts(t, opts, w)
}

// connectOpts connects a client in memory to a server built with opts.
func connectOpts(t *testing.T, opts mcpserver.Options, w *sim.Sim) *session {
	t.Helper()
	ctx := context.Background()
	srv, err := mcpserver.New(ctx, opts)
	require.NoError(t, err)
	s := &session{t: t, sim: w, srv: srv, changed: make(chan string, 64), seen: map[string]bool{}}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) { s.changed <- "tools" },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { s.changed <- "resources" },
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	require.NoError(t, err)
	s.cs, err = client.Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { s.cs.Close(); ss.Wait() })
	return s
}

func (s *session) tools() []string {
	s.t.Helper()
	var names []string
	for tool, err := range s.cs.Tools(context.Background(), nil) {
		require.NoError(s.t, err)
		names = append(names, tool.Name)
	}
	return names
}

func (s *session) tool(name string) *mcp.Tool {
	s.t.Helper()
	for tool, err := range s.cs.Tools(context.Background(), nil) {
		require.NoError(s.t, err)
		if tool.Name == name {
			return tool
		}
	}
	return nil
}

func (s *session) resources() []string {
	s.t.Helper()
	var uris []string
	for r, err := range s.cs.Resources(context.Background(), nil) {
		require.NoError(s.t, err)
		uris = append(uris, r.URI)
	}
	return uris
}

// call calls a tool; the result must not be a protocol error.
func (s *session) call(name string, args any) *mcp.CallToolResult {
	s.t.Helper()
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(s.t, err)
	return res
}

// structured decodes a successful result's structured content.
func structured[T any](t *testing.T, res *mcp.CallToolResult) T {
	t.Helper()
	require.False(t, res.IsError, "tool error: %s", textOf(res))
	var v T
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &v), string(b))
	return v
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// waitChanged waits for a list-changed notification of the kind.
func (s *session) waitChanged(kind string) {
	s.t.Helper()
	deadline := testdeadline.After(s.t)
	for !s.seen[kind] {
		select {
		case k := <-s.changed:
			s.seen[k] = true
		case <-deadline:
			s.t.Fatalf("no %s list-changed notification", kind)
		}
	}
	delete(s.seen, kind)
}

// drain forgets the notifications so far.
func (s *session) drain() {
	clear(s.seen)
	for {
		select {
		case <-s.changed:
		default:
			return
		}
	}
}

var fixedTools = []string{"goal_status", "invoke_skill", "list_skills", "load_skill", "observe", "read_skill_resource", "recall", "set_packs"}

// TestSessionOnTheDefaultWorld: initialize, the tools and resources, the
// catalog, observe and an invocation whose effects are checked.
func TestSessionOnTheDefaultWorld(t *testing.T) {
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	s := connect(t, ipc.InProcess(w), w, "collect 3 minecraft:log")

	init := s.cs.InitializeResult()
	require.NotNil(t, init)
	assert.Equal(t, "gtnh-agent", init.ServerInfo.Name)
	require.NotNil(t, init.Capabilities.Tools)
	assert.True(t, init.Capabilities.Tools.ListChanged)
	require.NotNil(t, init.Capabilities.Resources)
	assert.True(t, init.Capabilities.Resources.ListChanged)
	assert.Contains(t, init.Instructions, "invoke_skill")

	tools := s.tools()
	for _, n := range fixedTools {
		assert.Contains(t, tools, n)
	}
	// The default world is at the steam age: the steam pack's skills are
	// tools, next to the stone age's.
	for _, n := range []string{"skill_chop_tree", "skill_basic_crafting", "skill_feed_steam_boiler", "skill_maintain_coke_ovens", "skill_report_status", "skill_wait_for", "skill_eat", "skill_unstuck", "skill_fight", "skill_flee", "skill_shelter", "skill_recover_drops", "skill_escape", "skill_wall_in", "skill_mine_gt_ore", "skill_drop_items"} {
		assert.Contains(t, tools, n)
	}
	assert.Len(t, tools, len(fixedTools)+30, "%v", tools)

	chop := s.tool("skill_chop_tree")
	require.NotNil(t, chop)
	assert.Contains(t, chop.Description, "fell all of it")
	schema := chop.InputSchema.(map[string]any)
	assert.Equal(t, "object", schema["type"])
	assert.Equal(t, false, schema["additionalProperties"])
	props := schema["properties"].(map[string]any)
	radius := props["radius"].(map[string]any)
	assert.Equal(t, "integer", radius["type"])
	assert.EqualValues(t, 16, radius["default"])
	assert.EqualValues(t, 1, radius["minimum"])
	assert.EqualValues(t, 64, radius["maximum"])
	assert.NotEmpty(t, radius["description"])
	assert.Equal(t, "boolean", props["require_axe"].(map[string]any)["type"])
	craft := s.tool("skill_basic_crafting").InputSchema.(map[string]any)
	assert.Equal(t, []any{"item"}, craft["required"])
	assert.Contains(t, craft["properties"].(map[string]any)["item"].(map[string]any)["description"], "ore:Name")

	res := s.resources()
	assert.Contains(t, res, "skill://coke-oven-operation")
	assert.Contains(t, res, "skill://coke-oven-operation/references/build-layers.md")
	assert.Contains(t, res, "skill://sustainable-wood")
	assert.NotContains(t, res, "skill://stone-age-progression", "for the stone age only")

	list := structured[mcpserver.ListSkillsResult](t, s.call("list_skills", map[string]any{}))
	assert.Equal(t, "steam_age", list.Tier)
	assert.Equal(t, []string{"stone_age", "steam_age", "survival", "utility"}, list.Packs)
	byName := map[string]mcpserver.CatalogEntry{}
	for _, sk := range list.Skills {
		byName[sk.Name] = sk
	}
	assert.Equal(t, "go", byName["chop_tree"].Kind)
	assert.Equal(t, "skill_chop_tree", byName["chop_tree"].Tool)
	assert.Equal(t, "knowledge", byName["coke-oven-operation"].Kind)
	assert.Equal(t, "skill://coke-oven-operation", byName["coke-oven-operation"].Resource)
	assert.Empty(t, byName["coke-oven-operation"].Tool)
	assert.NotContains(t, byName, "stone-age-progression")

	obs := structured[mcpserver.Observation](t, s.call("observe", nil))
	assert.Equal(t, "steam_age", obs.Tier)
	assert.Equal(t, world.Pos(24, 64, 32), obs.Position)
	assert.Equal(t, 24, obs.Inventory["minecraft:coal"])
	assert.EqualValues(t, 20, obs.Health)
	require.NotEmpty(t, obs.Machines)
	assert.Len(t, obs.Machines, 5)
	for i := 1; i < len(obs.Machines); i++ {
		assert.LessOrEqual(t, obs.Machines[i-1].Distance, obs.Machines[i].Distance, "nearest first")
	}
	require.NotNil(t, obs.Goal)
	assert.False(t, obs.Goal.Met)
	assert.Equal(t, []string{"collected 0/3 minecraft:log"}, obs.Goal.Unmet)

	step := structured[mcpserver.StepResult](t, s.call("invoke_skill", map[string]any{"skill": "chop_tree", "params": map[string]any{"min_logs": 3}}))
	assert.Equal(t, "success", step.Verdict, step.Error)
	assert.Equal(t, 1, step.Step)
	assert.Equal(t, "chop_tree", step.Skill)
	assert.EqualValues(t, 16, step.Params["radius"], "defaults filled in")
	require.NotEmpty(t, step.Effects)
	for _, e := range step.Effects {
		assert.True(t, e.OK, "%+v", e)
	}
	require.NotEmpty(t, step.Actions)
	assert.Equal(t, "move_to", step.Actions[0].Action["type"])
	assert.Equal(t, "ok", step.Actions[0].Code)
	assert.GreaterOrEqual(t, step.InventoryDelta["minecraft:log"], 3)
	assert.Positive(t, step.Ticks)
	require.NotNil(t, step.Goal)
	assert.True(t, step.Goal.Met, "%v", step.Goal.Unmet)

	goal := structured[mcpserver.GoalStatus](t, s.call("goal_status", nil))
	assert.Equal(t, mcpserver.GoalStatus{Goal: "collect 3 minecraft:log", Met: true}, goal)

	// The skill's own tool runs it the same way.
	step = structured[mcpserver.StepResult](t, s.call("skill_basic_crafting", map[string]any{"item": "minecraft:planks", "count": 4}))
	assert.Equal(t, "success", step.Verdict, step.Error)
	assert.Equal(t, 2, step.Step)
	assert.Equal(t, 4, step.InventoryDelta["minecraft:planks"])
	assert.Equal(t, -2, step.InventoryDelta["minecraft:log"], "two planks a log in GTNH")
}

// TestKnowledgeSkills: load_skill, read_skill_resource and the resources;
// only listed files are served and traversal is refused.
func TestKnowledgeSkills(t *testing.T) {
	s := newSession(t, "testdata/coke_kit.yaml", "")
	res := s.call("load_skill", map[string]any{"name": "coke-oven-operation"})
	require.False(t, res.IsError, textOf(res))
	body := textOf(res)
	assert.Contains(t, body, "### Skill: coke-oven-operation")
	assert.Contains(t, body, "**Root Path:** `config/skills/coke-oven-operation`")
	assert.Contains(t, body, "`references/build-layers.md`")
	assert.NotContains(t, body, "{baseDir}", "resolved")

	res = s.call("load_skill", map[string]any{"name": "chop_tree"})
	require.False(t, res.IsError)
	assert.Contains(t, textOf(res), "# Executable skill `chop_tree`")

	res = s.call("load_skill", map[string]any{"name": "coke-oven-operaton"})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), `unknown skill "coke-oven-operaton" (did you mean "coke-oven-operation"?)`)
	res = s.call("load_skill", map[string]any{"name": strings.Repeat("a", 200)})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "at most 128")

	res = s.call("read_skill_resource", map[string]any{"name": "coke-oven-operation", "path": "references/build-layers.md"})
	require.False(t, res.IsError, textOf(res))
	layers := textOf(res)
	assert.NotEmpty(t, layers)
	for _, bad := range []struct{ path, want string }{
		{"../steam-age-boilers/SKILL.md", `".." leaves the skill directory`},
		{"references/../../chop_tree.yaml", `".." leaves the skill directory`},
		{"/etc/passwd", "absolute paths are not allowed"},
		{"SKILL.md", "is not a resource of coke-oven-operation"},
		{"references/missing.md", "is not a resource"},
		{strings.Repeat("a/", 600), "at most 1024"},
	} {
		res = s.call("read_skill_resource", map[string]any{"name": "coke-oven-operation", "path": bad.path})
		assert.True(t, res.IsError, bad.path)
		assert.Contains(t, textOf(res), bad.want, bad.path)
	}
	res = s.call("read_skill_resource", map[string]any{"name": "chop_tree", "path": "x.md"})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "executable skill without files")
	// Arguments the schema does not allow are refused by the SDK.
	res = s.call("read_skill_resource", map[string]any{"name": "coke-oven-operation"})
	assert.True(t, res.IsError)

	ctx := context.Background()
	rr, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://coke-oven-operation"})
	require.NoError(t, err)
	require.Len(t, rr.Contents, 1)
	assert.Equal(t, body, rr.Contents[0].Text, "the resource is what load_skill returns")
	assert.Equal(t, "text/markdown", rr.Contents[0].MIMEType)
	rr, err = s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://coke-oven-operation/references/build-layers.md"})
	require.NoError(t, err)
	assert.Equal(t, layers, rr.Contents[0].Text)
	_, err = s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://coke-oven-operation/../steam-age-boilers/SKILL.md"})
	require.Error(t, err, "only listed files are resources")
	_, err = s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://coke-oven-operation/SKILL.md"})
	require.Error(t, err)
}

// TestInvokeErrors: a bad skill name or bad parameters are tool errors with
// a did-you-mean; nothing runs.
func TestInvokeErrors(t *testing.T) {
	s := newSession(t, "testdata/coke_kit.yaml", "")
	before := structured[mcpserver.Observation](t, s.call("observe", nil))
	for _, tc := range []struct {
		args any
		want string
	}{
		{map[string]any{"skill": "chop_tre"}, `skill "chop_tre" is not available at tier steam_age with packs lv_core,steam_age,stone_age,survival,utility (did you mean "chop_tree"?)`},
		{map[string]any{"skill": "build_reactor"}, "; available now: basic_crafting, build_structure, chop_tree"},
		{map[string]any{"skill": "chop_tree", "params": map[string]any{"radus": 8}}, `unknown parameter "radus" (declared: min_logs, radius, require_axe) ("radus": did you mean "radius"?)`},
		{map[string]any{"skill": "chop_tree", "params": map[string]any{"radius": 500}}, `parameter "radius": 500 is above the maximum 64`},
		{map[string]any{"skill": "basic_crafting"}, `missing required parameter "item"`},
		{map[string]any{"skill": ""}, "skill is empty"},
		{map[string]any{"skill": strings.Repeat("x", 129)}, "at most 128"},
		{map[string]any{"skill": "chop_tree", "params": manyParams(65)}, "65 parameters; at most 64"},
	} {
		res := s.call("invoke_skill", tc.args)
		assert.True(t, res.IsError, "%v", tc.args)
		assert.Contains(t, textOf(res), tc.want)
	}
	res := s.call("skill_chop_tree", map[string]any{"radius": "far"})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), `parameter "radius": expected an integer`)
	res = s.call("skill_chop_tree", map[string]any{"radis": 3})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), `did you mean "radius"?`)
	// An unknown tool is the SDK's protocol error.
	_, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "skill_build_reactor"})
	require.Error(t, err)

	after := structured[mcpserver.Observation](t, s.call("observe", nil))
	assert.Equal(t, before.Inventory, after.Inventory)
	assert.Equal(t, before.Tick, after.Tick, "nothing ran")
	res = s.call("goal_status", nil)
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "no goal was given")
}

func manyParams(n int) map[string]any {
	m := map[string]any{}
	for i := range n {
		m[strings.Repeat("p", i+1)] = i
	}
	return m
}

// TestTierChangeFollowsTheToolList: crafting the only coal coke into
// torches drops the body to the stone age, and coke handed to the player
// raises it again; each time the client is told that the tools and
// resources changed and the lists follow.
func TestTierChangeFollowsTheToolList(t *testing.T) {
	s := newSession(t, "testdata/coke_kit.yaml", "")
	steam := []string{"skill_feed_steam_boiler", "skill_maintain_coke_ovens", "skill_refill_water_tanks", "skill_fill_bucket"}
	tools := s.tools()
	for _, n := range steam {
		assert.Contains(t, tools, n)
	}
	assert.NotContains(t, s.resources(), "skill://stone-age-progression")
	s.drain()

	step := structured[mcpserver.StepResult](t, s.call("invoke_skill", map[string]any{"skill": "basic_crafting", "params": map[string]any{"item": "minecraft:torch", "count": 5}}))
	require.Equal(t, "success", step.Verdict, step.Error)
	assert.Equal(t, "steam_age", step.TierBefore)
	assert.Equal(t, "stone_age", step.Tier)
	assert.Equal(t, map[string]int{"Railcraft:fuel.coke": -1, "minecraft:stick": -1, "minecraft:torch": 5}, step.InventoryDelta, "items used up count too")
	s.waitChanged("tools")
	tools = s.tools()
	for _, n := range steam {
		assert.NotContains(t, tools, n, "the steam age's skills are gone")
	}
	assert.Contains(t, tools, "skill_chop_tree")
	s.waitChanged("resources")
	assert.Contains(t, s.resources(), "skill://stone-age-progression")
	_, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "skill_feed_steam_boiler", Arguments: map[string]any{}})
	require.Error(t, err, "no longer a tool")
	res := s.call("invoke_skill", map[string]any{"skill": "feed_steam_boiler"})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "feed_steam_boiler is for tiers >= steam_age and the body is at stone_age")

	// Someone hands the player coal coke: the world changes outside any
	// invocation, and observe sees the new tier.
	s.drain()
	s.sim.State().Update(func(tx *world.Tx) {
		inv := tx.Inventory()
		for i := range inv.Slots {
			if inv.Slots[i].Empty() {
				inv.Slots[i] = world.NewStack("Railcraft:fuel.coke", 0, 2)
				break
			}
		}
		tx.SetInventory(inv)
	})
	obs := structured[mcpserver.Observation](t, s.call("observe", nil))
	assert.Equal(t, "steam_age", obs.Tier)
	s.waitChanged("tools")
	s.waitChanged("resources")
	assert.NotContains(t, s.resources(), "skill://stone-age-progression", "for the stone age only")
	tools = s.tools()
	for _, n := range steam {
		assert.Contains(t, tools, n, "a higher tier's skill is a tool again")
	}
	list := structured[mcpserver.ListSkillsResult](t, s.call("list_skills", nil))
	assert.Equal(t, "steam_age", list.Tier)
}

// deadConn is a body whose connection is gone after the start.
type deadConn struct {
	ipc.Conn
	mu   sync.Mutex
	dead bool
}

func (c *deadConn) kill() { c.mu.Lock(); c.dead = true; c.mu.Unlock() }

func (c *deadConn) Observe(ctx context.Context) (*world.Snapshot, error) {
	c.mu.Lock()
	dead := c.dead
	c.mu.Unlock()
	if dead {
		return nil, errors.New("gtnh: not connected: connection reset by peer")
	}
	return c.Conn.Observe(ctx)
}

// TestLostBodyIsAToolError: a body that stops answering gives tool errors,
// and the server keeps serving.
func TestLostBodyIsAToolError(t *testing.T) {
	sc, err := sim.LoadScenario("testdata/coke_kit.yaml")
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	conn := &deadConn{Conn: ipc.InProcess(w)}
	s := connect(t, conn, w, "have 1 minecraft:torch")
	conn.kill()
	for _, c := range []struct {
		tool string
		args any
	}{
		{"observe", nil}, {"goal_status", nil},
		{"invoke_skill", map[string]any{"skill": "chop_tree"}},
		{"skill_chop_tree", map[string]any{}},
	} {
		res := s.call(c.tool, c.args)
		assert.True(t, res.IsError, c.tool)
		assert.Contains(t, textOf(res), "connection reset by peer", c.tool)
	}
	list := structured[mcpserver.ListSkillsResult](t, s.call("list_skills", nil))
	assert.Equal(t, "steam_age", list.Tier, "the last tier seen")
	assert.True(t, slices.ContainsFunc(list.Skills, func(i mcpserver.CatalogEntry) bool { return i.Name == "chop_tree" }))
}

// TestNoChangeNoNotification: observations and invocations that leave the
// tier as it was do not touch the lists, so clients are not told to list
// them again.
//
// It runs in a synctest bubble (the client and server talk in memory), so
// the SDK's 10 ms debounce and the quiet period are the bubble's time.
func TestNoChangeNoNotification(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSession(t, "testdata/coke_kit.yaml", "")
		// Whatever the start left comes within the debounce.
		for quiet := time.After(50 * time.Millisecond); ; {
			select {
			case <-s.changed:
				continue
			case <-quiet:
			}
			break
		}
		s.drain()
		before := s.tools()
		structured[mcpserver.Observation](t, s.call("observe", nil))
		step := structured[mcpserver.StepResult](t, s.call("skill_chop_tree", map[string]any{"min_logs": 1}))
		require.Equal(t, "success", step.Verdict, step.Error)
		structured[mcpserver.ListSkillsResult](t, s.call("list_skills", nil))
		select {
		case k := <-s.changed:
			t.Fatalf("a %s list-changed notification without a change", k)
		case <-time.After(300 * time.Millisecond):
		}
		assert.Equal(t, before, s.tools())
	})
}

// TestSkillToolArguments: a skill tool's arguments must be one JSON object
// of parameters, within bounds.
func TestSkillToolArguments(t *testing.T) {
	s := newSession(t, "testdata/coke_kit.yaml", "")
	res := s.call("skill_chop_tree", map[string]any{"min_logs": json.Number("12345678901234567890")})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), `parameter "min_logs"`)
	res = s.call("skill_chop_tree", map[string]any{"x": strings.Repeat("a", 70<<10)})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "at most 65536")
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "skill_chop_tree", Arguments: []any{1, 2}})
	require.NoError(t, err, "the SDK passes a raw tool's arguments through")
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "not a JSON object")
}

// TestEnabledPacks: only the enabled packs (and the packs they depend on)
// give skill tools.
func TestEnabledPacks(t *testing.T) {
	// Which tools a pack choice gives is decided once, at the server's
	// start; changing packs while a session runs is the other test's.
	race.SkipCovered(t, "the tool lists of its pack choices", "TestSetPacksFollowsTheToolList")
	sc, err := sim.LoadScenario("testdata/coke_kit.yaml")
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	s := connect(t, ipc.InProcess(w), w, "", "utility")
	var skillTools []string
	for _, n := range s.tools() {
		if strings.HasPrefix(n, mcpserver.ToolPrefix) {
			skillTools = append(skillTools, n)
		}
	}
	slices.Sort(skillTools)
	assert.Equal(t, []string{"skill_report_status", "skill_wait_for"}, skillTools)
	list := structured[mcpserver.ListSkillsResult](t, s.call("list_skills", nil))
	assert.Equal(t, []string{"utility"}, list.Packs)
	res := s.call("invoke_skill", map[string]any{"skill": "chop_tree"})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "not available at tier steam_age with packs utility; chop_tree is in none of the packs active at steam_age (utility)")

	s = connect(t, ipc.InProcess(w), w, "", "steam_age")
	list = structured[mcpserver.ListSkillsResult](t, s.call("list_skills", nil))
	assert.Equal(t, []string{"stone_age", "steam_age"}, list.Packs, "with the pack it depends on")
	assert.NotContains(t, s.tools(), "skill_report_status")
}

// TestCustomSkillFiles: a custom knowledge skill's files with spaces and
// other characters in their names are resources under escaped URIs, and a
// binary file is served as a blob.
func TestCustomSkillFiles(t *testing.T) {
	dir := t.TempDir()
	skill := filepath.Join(dir, "field-notes")
	require.NoError(t, os.MkdirAll(filepath.Join(skill, "notes"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: field-notes\ndescription: Notes taken in the field about trees and ovens, for testing files.\nmetadata:\n  version: 1.0.0\n---\n\n# Field notes\n\nRead {baseDir}/notes/a b%.md first.\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(skill, "notes", "a b%.md"), []byte("# Trees\n\nOaks first.\n"), 0o644))
	blob := []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 0xff}
	require.NoError(t, os.WriteFile(filepath.Join(skill, "map.png"), blob, 0o644))

	cat := shippedCatalog(t)
	_, err := cat.Library.Add(knowledge.Source{Label: knowledge.LabelCustom, Dir: dir})
	require.NoError(t, err)
	sc, err := sim.LoadScenario("testdata/coke_kit.yaml")
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	s := connectCatalog(t, cat, ipc.InProcess(w), w, "")

	uris := s.resources()
	assert.Contains(t, uris, "skill://field-notes")
	assert.Contains(t, uris, "skill://field-notes/notes/a%20b%25.md")
	assert.Contains(t, uris, "skill://field-notes/map.png")
	ctx := context.Background()
	rr, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://field-notes/notes/a%20b%25.md"})
	require.NoError(t, err)
	assert.Equal(t, "# Trees\n\nOaks first.\n", rr.Contents[0].Text)
	assert.Equal(t, "text/markdown", rr.Contents[0].MIMEType)
	rr, err = s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://field-notes/map.png"})
	require.NoError(t, err)
	assert.Equal(t, blob, rr.Contents[0].Blob)
	assert.Empty(t, rr.Contents[0].Text)
	assert.Equal(t, "image/png", rr.Contents[0].MIMEType)
	rr, err = s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://field-notes"})
	require.NoError(t, err)
	assert.Contains(t, rr.Contents[0].Text, "Read "+skill+"/notes/a b%.md first.", "{baseDir} resolved")

	res := s.call("read_skill_resource", map[string]any{"name": "field-notes", "path": "map.png"})
	require.False(t, res.IsError, textOf(res))
	require.Len(t, res.Content, 1)
	emb, ok := res.Content[0].(*mcp.EmbeddedResource)
	require.True(t, ok, "%T", res.Content[0])
	assert.Equal(t, blob, emb.Resource.Blob)
	assert.Equal(t, "skill://field-notes/map.png", emb.Resource.URI)
	res = s.call("read_skill_resource", map[string]any{"name": "field-notes", "path": "./notes/a b%.md"})
	require.False(t, res.IsError, textOf(res))
	assert.Equal(t, "# Trees\n\nOaks first.\n", textOf(res))
}

// TestSetPacksFollowsTheToolList: enabling other packs during a session
// changes the skill tools (with a list-changed notification) and what
// invoke_skill accepts; an unknown pack is refused with a hint.
func TestSetPacksFollowsTheToolList(t *testing.T) {
	sc, err := sim.LoadScenario("testdata/coke_kit.yaml")
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	s := connect(t, ipc.InProcess(w), w, "", "utility")
	assert.NotContains(t, s.tools(), "skill_chop_tree")
	s.drain()

	res := s.call("set_packs", map[string]any{"packs": []string{"stone_age"}})
	require.False(t, res.IsError, textOf(res))
	out := structured[mcpserver.PacksResult](t, res)
	assert.Equal(t, []string{"stone_age"}, out.Enabled)
	s.waitChanged("tools")
	tools := s.tools()
	assert.Contains(t, tools, "skill_chop_tree")
	assert.NotContains(t, tools, "skill_report_status", "utility is no longer enabled")
	res = s.call("invoke_skill", map[string]any{"skill": "report_status"})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "not available at tier steam_age with packs stone_age", "the loop follows the packs too")

	res = s.call("set_packs", map[string]any{"packs": []string{"stone_ag"}})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), `unknown skill pack "stone_ag" (did you mean "stone_age"?)`)
	assert.Contains(t, s.tools(), "skill_chop_tree", "a refused change changes nothing")

	res = s.call("set_packs", map[string]any{"packs": []string{}})
	require.False(t, res.IsError, textOf(res))
	s.waitChanged("tools")
	assert.Contains(t, s.tools(), "skill_report_status", "an empty list enables every pack")
}

// TestArgumentsBound: invoke_skill and the skill tools refuse arguments over
// 64 KiB before decoding them, the same way: a short error naming the size,
// the parameter neither echoed nor traced, nothing run.
func TestArgumentsBound(t *testing.T) {
	// A size checked before decoding, on the tool call's goroutine.
	race.SkipCovered(t, "refusing 64 KiB arguments", "TestInvokeErrors")
	sc, err := sim.LoadScenario("testdata/coke_kit.yaml")
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	var trace syncbuf.Buffer
	s := connectOpts(t, mcpserver.Options{Catalog: shippedCatalog(t), Conn: ipc.InProcess(w), Log: zerolog.Nop(), Version: "test", Trace: &trace}, w)
	before := structured[mcpserver.Observation](t, s.call("observe", nil))
	huge := strings.Repeat("a", 900_000)
	for _, c := range []struct {
		tool string
		args any
	}{
		{"invoke_skill", map[string]any{"skill": "chop_tree", "params": map[string]any{"radius": huge}}},
		{"skill_chop_tree", map[string]any{"radius": huge}},
		{"invoke_skill", map[string]any{"skill": huge}},
		{"load_skill", map[string]any{"name": huge}},
	} {
		res := s.call(c.tool, c.args)
		require.True(t, res.IsError, c.tool)
		msg := textOf(res)
		assert.Contains(t, msg, c.tool+": the arguments are 9000")
		assert.Contains(t, msg, "at most 65536")
		assert.Less(t, len(msg), 200, "the refusal is short: %.200s", msg)
		assert.NotContains(t, msg, "aaaaaaaa", "the argument is not echoed")
		b, err := json.Marshal(res)
		require.NoError(t, err)
		assert.Less(t, len(b), 1000, "the whole reply is small")
	}
	// Arguments of exactly 64 KiB pass the bound and reach the skill's own
	// checks (here: an unknown parameter).
	pad := 65536 - len(`{"skill":"chop_tree","params":{"x":""}}`)
	raw := json.RawMessage(`{"skill":"chop_tree","params":{"x":"` + strings.Repeat("b", pad) + `"}}`)
	require.Len(t, raw, 65536)
	res := s.call("invoke_skill", raw)
	require.True(t, res.IsError)
	assert.Contains(t, textOf(res), `unknown parameter "x"`)
	raw = json.RawMessage(`{"skill":"chop_tree","params":{"x":"` + strings.Repeat("b", pad+1) + `"}}`)
	res = s.call("invoke_skill", raw)
	require.True(t, res.IsError)
	assert.Contains(t, textOf(res), "the arguments are 65537 bytes")

	after := structured[mcpserver.Observation](t, s.call("observe", nil))
	assert.Equal(t, before.Tick, after.Tick, "nothing ran")
	assert.NotContains(t, trace.String(), "aaaaaaaa", "nothing refused by the bound reached the trace")
}

// TestWatchSkillsPicksUpChangesOnDisk: a knowledge skill directory added
// to, edited in or removed from a custom source while the server runs is
// picked up on the next tick, and the client is told the resources changed;
// a tick with nothing changed on disk refreshes nothing.
// TestWatchSkillsSeesASkillAddedBeforeItStarted: a skill written after the
// library was read but before the watcher's first look is new to it (the
// watcher compares with the stamp the skills were read at, not with one of
// its own: agent mcp's watcher could start after a client's first write).
func TestWatchSkillsSeesASkillAddedBeforeItStarted(t *testing.T) {
	dir := t.TempDir()
	cat := shippedCatalog(t)
	_, err := cat.Library.Add(knowledge.Source{Label: knowledge.LabelCustom, Dir: dir, ReadOnly: true})
	require.NoError(t, err)
	sc, err := sim.LoadScenario("testdata/coke_kit.yaml")
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	s := connectOpts(t, mcpserver.Options{Catalog: cat, Conn: ipc.InProcess(w), Log: zerolog.Nop(), Version: "test", SkillPoll: -1}, w)
	s.drain()
	skill := filepath.Join(dir, "field-notes")
	require.NoError(t, os.MkdirAll(skill, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: field-notes\ndescription: Notes taken in the field about trees and ovens, for testing the watch.\nmetadata:\n  version: 1.0.0\n---\n\n# Field notes\n\nOaks first.\n"), 0o644))

	ticks := make(chan time.Time)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.srv.WatchSkills(context.Background(), ticks)
	}()
	ticks <- time.Time{}
	ticks <- time.Time{} // taken once the first is dealt with
	close(ticks)
	<-done
	s.waitChanged("resources")
	assert.Contains(t, s.resources(), "skill://field-notes")
}

func TestWatchSkillsPicksUpChangesOnDisk(t *testing.T) {
	dir := t.TempDir()
	cat := shippedCatalog(t)
	_, err := cat.Library.Add(knowledge.Source{Label: knowledge.LabelCustom, Dir: dir, ReadOnly: true})
	require.NoError(t, err)
	sc, err := sim.LoadScenario("testdata/coke_kit.yaml")
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	var logs syncbuf.Buffer
	s := connectOpts(t, mcpserver.Options{Catalog: cat, Conn: ipc.InProcess(w), Log: zerolog.New(&logs), Version: "test", SkillPoll: -1}, w)
	ticks := make(chan time.Time)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.srv.WatchSkills(ctx, ticks)
	}()
	t.Cleanup(func() { cancel(); <-done })
	// tick hands the watcher a tick and waits until it has dealt with it
	// (the next tick is only taken once the last is done).
	tick := func() {
		ticks <- time.Time{}
		ticks <- time.Time{}
	}
	refreshes := func() int { return strings.Count(logs.String(), "skills changed on disk; refreshed") }
	names := func() []string {
		var out []string
		for _, sk := range structured[mcpserver.ListSkillsResult](t, s.call("list_skills", nil)).Skills {
			out = append(out, sk.Name)
		}
		return out
	}

	tick()
	assert.Zero(t, refreshes(), "nothing changed on disk")
	assert.NotContains(t, s.resources(), "skill://field-notes")
	s.drain()

	skill := filepath.Join(dir, "field-notes")
	require.NoError(t, os.MkdirAll(skill, 0o755))
	md := filepath.Join(skill, "SKILL.md")
	require.NoError(t, os.WriteFile(md, []byte("---\nname: field-notes\ndescription: Notes taken in the field about trees and ovens, for testing the watch.\nmetadata:\n  version: 1.0.0\n---\n\n# Field notes\n\nOaks first.\n"), 0o644))
	tick()
	s.waitChanged("resources")
	assert.Equal(t, 1, refreshes())
	assert.Contains(t, s.resources(), "skill://field-notes")
	assert.Contains(t, names(), "field-notes")
	assert.Contains(t, textOf(s.call("load_skill", map[string]any{"name": "field-notes"})), "Oaks first.")

	// Edited in place: the new text is served, the resource describes it.
	require.NoError(t, os.WriteFile(md, []byte("---\nname: field-notes\ndescription: Notes on birches and oaks, taken in the field, for testing the watch.\nmetadata:\n  version: 1.0.0\n---\n\n# Field notes\n\nBirches first, then oaks.\n"), 0o644))
	tick()
	s.waitChanged("resources")
	assert.Equal(t, 2, refreshes())
	assert.Contains(t, textOf(s.call("load_skill", map[string]any{"name": "field-notes"})), "Birches first")
	for r, err := range s.cs.Resources(context.Background(), nil) {
		require.NoError(t, err)
		if r.URI == "skill://field-notes" {
			assert.Contains(t, r.Description, "birches")
		}
	}
	tick()
	assert.Equal(t, 2, refreshes(), "nothing changed since")

	s.drain()
	require.NoError(t, os.RemoveAll(skill))
	tick()
	s.waitChanged("resources")
	assert.NotContains(t, s.resources(), "skill://field-notes")
	assert.NotContains(t, names(), "field-notes")

	close(ticks)
	<-done
}
