package remote_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pb33f/jsonschema/v6"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/memory"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/planner/peer"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

const schemaDir = "../../docs/ipc/schema"

// schemas compiles every schema file; the map is keyed by file name
// without .json.
func schemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(schemaDir, "*.json"))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	urls := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		require.NoError(t, err, f)
		id := doc.(map[string]any)["$id"].(string)
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		require.Equal(t, name+".json", id[strings.LastIndex(id, "/")+1:], "%s: $id names the file", f)
		require.NoError(t, c.AddResource(id, doc))
		urls[name] = id
	}
	out := map[string]*jsonschema.Schema{}
	for name, id := range urls {
		s, err := c.Compile(id)
		require.NoError(t, err, name)
		out[name] = s
	}
	return out
}

func validate(t *testing.T, s map[string]*jsonschema.Schema, name string, data []byte, what string) {
	t.Helper()
	sch, ok := s[name]
	if !assert.True(t, ok, "no schema %s.json for %s", name, what) {
		return
	}
	if len(data) == 0 {
		data = []byte("{}")
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	require.NoError(t, err, what)
	assert.NoError(t, sch.Validate(v), "%s against %s.json: %s", what, name, data)
}

// TestEveryMessageHasASchema: a schema file for each request and its
// reply, each event and the envelope, error and cancel; no others.
func TestEveryMessageHasASchema(t *testing.T) {
	s := schemas(t)
	want := []string{"defs", "envelope", "error", "cancel"}
	for _, r := range wire.Requests {
		want = append(want, r, r+".reply")
	}
	for _, r := range wire.PlannerRequests {
		if !slices.Contains(wire.Requests, r) {
			want = append(want, r, r+".reply")
		}
	}
	want = append(want, wire.Events...)
	var got []string
	for name := range s {
		got = append(got, name)
	}
	slices.Sort(want)
	slices.Sort(got)
	assert.Equal(t, want, got)
	// Every action kind, in the form execute carries.
	p := world.Pos(1, 2, 3)
	e := 4
	for _, a := range []action.Action{action.MoveTo{Pos: p, Radius: 1.5}, action.MoveTo{Pos: p, Keep: []world.BlockPos{p, p.Up()}}, action.BreakBlock{Pos: p}, action.PlaceBlock{Pos: p, Item: "minecraft:dirt", Face: "up"},
		action.UseItem{Item: "minecraft:bucket", Target: &p}, action.Interact{Entity: &e}, action.Interact{Pos: &p}, action.Equip{Item: "minecraft:stone_axe"},
		action.OpenContainer{Pos: p}, action.CloseContainer{}, action.TransferItems{Pos: p, Item: "minecraft:coal", Count: 3, Direction: "deposit", Slot: "fuel"},
		action.Craft{Item: "minecraft:stick", Count: 2, Table: &p}, action.Wait{Ticks: 20}, action.Chat{Message: "hi"}, action.Attack{Entity: 7}, action.DropItem{Item: "minecraft:dirt", Count: 3}} {
		b, err := action.Marshal(a)
		require.NoError(t, err)
		validate(t, s, "execute", b, string(a.Kind()))
	}
	require.Len(t, action.Kinds(), 14, "a new action kind needs its place in execute.json")
}

// docLines returns the JSON lines of the ```json blocks of docs/ipc.md, by
// block.
func docLines(t *testing.T) [][]string {
	t.Helper()
	data, err := os.ReadFile("../../docs/ipc.md")
	require.NoError(t, err)
	var blocks [][]string
	var cur []string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		l := sc.Text()
		switch {
		case l == "```json":
			in, cur = true, nil
		case in && l == "```":
			in = false
			blocks = append(blocks, cur)
		case in && strings.TrimSpace(l) != "":
			cur = append(cur, l)
		}
	}
	return blocks
}

// TestDocExamples: every example message in docs/ipc.md is valid against
// its schemas; the requests among them, sent to a server over the
// simulated world, get replies and events that are valid too.
func TestDocExamples(t *testing.T) {
	s := schemas(t)
	blocks := docLines(t)
	require.NotEmpty(t, blocks)
	reg := shipped(t)
	// A body that remembers, so that recall is answered too.
	st, err := memory.Open(filepath.Join(t.TempDir(), "memory.db"), memory.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	body := memory.WrapBody(newSim(t, 0), st, "sim/doc", zerolog.Nop())
	addr, _ := serve(t, remote.ServerOptions{Body: body, Poll: -1, Catalog: func(tech string, packs []string) (json.RawMessage, error) {
		d, err := reg.DescribeForTechState(tech, packs)
		if err != nil {
			return nil, err
		}
		return json.Marshal(d)
	}}, "unix")
	kinds := map[string]bool{}
	requestType := map[string]string{}
	check := func(line []byte, what string) {
		t.Helper()
		validate(t, s, "envelope", line, what)
		var m wire.Message
		require.NoError(t, json.Unmarshal(line, &m), what)
		switch {
		case m.Type == wire.TypeError:
			validate(t, s, "error", m.Payload, what)
			kinds["error"] = true
		case m.Type == wire.TypeReply:
			rt, ok := requestType[string(m.ID)]
			require.True(t, ok, "%s: a reply to no request", what)
			validate(t, s, rt+".reply", m.Payload, what)
			kinds[rt+".reply"] = true
		default:
			validate(t, s, m.Type, m.Payload, what)
			kinds[m.Type] = true
			if len(m.ID) > 0 {
				requestType[string(m.ID)] = m.Type
			}
		}
	}
	hello := ""
	for _, b := range blocks {
		for _, l := range b {
			check([]byte(l), "docs/ipc.md: "+l)
			if hello == "" && strings.Contains(l, `"type":"hello"`) {
				hello = l
			}
		}
	}
	for _, k := range []string{"hello", "hello.reply", "execute", "execute.reply", "observe", "observe.reply", "block_at", "block_at.reply",
		"blocks_in", "blocks_in.reply", "nearest", "nearest.reply", "path", "path.reply", "catalog", "catalog.reply", "recall", "recall.reply", "error", "time", "position", "lagged", "block_change", "chat",
		"plan", "plan.reply"} {
		assert.True(t, kinds[k], "docs/ipc.md shows no %s", k)
	}

	// The requests, for real; events too (the hello subscribes).
	require.NotEmpty(t, hello)
	r := rawDial(t, addr)
	r.send(hello)
	sent := 1
	for _, b := range blocks {
		for _, l := range b {
			var m wire.Message
			require.NoError(t, json.Unmarshal([]byte(l), &m))
			if m.IsRequest() && m.Type != wire.TypeHello && !slices.Contains(wire.PlannerRequests, m.Type) {
				r.send(l)
				sent++
			}
		}
	}
	r.c.SetReadDeadline(testdeadline.At(t))
	replies := 0
	for replies < sent && r.sc.Scan() {
		line := append([]byte(nil), r.sc.Bytes()...)
		var m wire.Message
		require.NoError(t, json.Unmarshal(line, &m))
		assert.NotEqual(t, wire.TypeError, m.Type, "the doc's request got %s", line)
		check(line, "server: "+string(line))
		if m.Type == wire.TypeReply || m.Type == wire.TypeError {
			replies++
		}
	}
	assert.Equal(t, sent, replies, "every request answered: %v", r.sc.Err())
}

// TestPlanMessagesMatchSchemas: the plan requests of a real run (a
// rejected step among them, so the last step record is there) and the
// answers a planner gives are valid against plan.json and plan.reply.json;
// answers the decoder refuses are refused by the schema too.
func TestPlanMessagesMatchSchemas(t *testing.T) {
	s := schemas(t)
	reg := shipped(t)
	g, err := loop.ParseGoal("have 8 minecraft:stick and collect 8 minecraft:log", reg.Tiers())
	require.NoError(t, err)
	requests := 0
	p := loop.PlannerFunc(func(ctx context.Context, g loop.Goal, obs loop.Observation, cat []*registry.Description) (loop.Decision, error) {
		req, err := peer.NewPlanRequest(g, obs, cat)
		require.NoError(t, err)
		validate(t, s, "plan", mustJSON(t, req), "plan request")
		requests++
		dec := loop.Decision{Invocation: &loop.Invocation{Skill: "no_such_skill"}}
		if obs.Step > 1 {
			if dec, err = (chain.Planner{}).Plan(ctx, g, obs, cat); err != nil {
				return dec, err
			}
		}
		a := wire.PlanAnswer{Done: dec.Done, Reason: dec.Reason}
		if dec.Invocation != nil {
			a.Invocation = &wire.PlanInvocation{Skill: dec.Invocation.Skill, Params: dec.Invocation.Params}
		}
		validate(t, s, "plan.reply", mustJSON(t, a), "plan answer")
		return dec, nil
	})
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(newSim(t, 0)), Planner: p, Goal: g, MaxSteps: 20})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	require.True(t, out.GoalMet)
	assert.Greater(t, requests, 2)
	for _, bad := range []string{`{}`, `{"done":false}`, `{"done":true,"invocation":{"skill":"chop_tree"}}`,
		`{"invocation":{"skill":""}}`, `{"invocaton":{"skill":"chop_tree"}}`} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		require.NoError(t, err)
		assert.Error(t, s["plan.reply"].Validate(v), "the schema accepts %s", bad)
		_, err = wire.DecodePlanAnswer([]byte(bad))
		assert.Error(t, err, "the decoder accepts %s", bad)
	}
}
