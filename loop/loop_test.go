package loop_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base"
	"github.com/gtnh-agent/gtnh-agent/skills/packs"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// toyBody is a tiny deterministic world for loop tests: walking teleports,
// breaking a log yields a log, crafting follows the recipe book.
type toyBody struct {
	mu       sync.Mutex
	blocks   *world.SparseBlocks
	inv      world.Inventory
	pos      world.Vec3
	tick     int64
	tier     string
	supports []action.Kind
	// hook, when set, decides a result before the normal rules.
	hook func(a action.Action) *ipc.Result
	// breakDrops: what a broken log gives (default one log).
	breakDrops int
	// machines are shown as they are; actions do not touch them.
	machines []world.Machine
	// onObserve, when set, runs under the lock before each observation.
	onObserve func(b *toyBody)
}

func newToy(trees ...world.BlockPos) *toyBody {
	b := &toyBody{blocks: world.NewSparseBlocks(), inv: world.NewInventory(), pos: world.Vec3{X: 0.5, Y: 64, Z: 0.5}, tier: "stone_age", supports: action.Kinds(), breakDrops: 1}
	for x := -10; x <= 10; x++ {
		for z := -10; z <= 10; z++ {
			b.blocks.SetID(world.Pos(x, 63, z), "minecraft:grass", 0)
		}
	}
	for _, t := range trees {
		for y := 0; y < 4; y++ {
			b.blocks.SetID(t.Add(0, y, 0), "minecraft:log", 0)
		}
	}
	return b
}

func (b *toyBody) Info() ipc.Info { return ipc.Info{Name: "toy", Supports: b.supports} }

func (b *toyBody) Observe(context.Context) (*world.Snapshot, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.onObserve != nil {
		b.onObserve(b)
	}
	blocks := world.NewSparseBlocks()
	for _, h := range b.blocks.Nearest(world.Pos(0, 64, 0), 1000, 0, nil) {
		blocks.Set(h.Pos, h.Block)
	}
	inv := world.Inventory{Slots: append([]world.ItemStack(nil), b.inv.Slots...), Held: b.inv.Held}
	return &world.Snapshot{Tick: b.tick, Player: world.Player{Name: "Bot", Pos: b.pos, Dimension: world.Overworld, Health: 20, Food: 20},
		Inventory: inv, Blocks: blocks, TechState: b.tier, Machines: append([]world.Machine(nil), b.machines...)}, nil
}

func (b *toyBody) add(id string, n int) {
	for i, s := range b.inv.Slots {
		if s.ID == id && s.Count > 0 {
			b.inv.Slots[i].Count += n
			return
		}
	}
	for i, s := range b.inv.Slots {
		if s.Empty() {
			b.inv.Slots[i] = world.NewStack(id, 0, n)
			return
		}
	}
}

func (b *toyBody) take(m world.ItemMatcher, n int) bool {
	if b.inv.Count(m) < n {
		return false
	}
	for i := range b.inv.Slots {
		if n == 0 {
			break
		}
		if m.Matches(b.inv.Slots[i]) {
			k := min(n, b.inv.Slots[i].Count)
			b.inv.Slots[i].Count -= k
			n -= k
		}
	}
	return true
}

func (b *toyBody) Execute(_ context.Context, a action.Action) ipc.Result {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.hook != nil {
		if r := b.hook(a); r != nil {
			b.tick += r.Ticks
			return *r
		}
	}
	res := ipc.Result{Code: ipc.OK, Ticks: 5}
	switch x := a.(type) {
	case action.MoveTo:
		b.pos = world.Vec3{X: float64(x.Pos.X) + 0.5, Y: float64(x.Pos.Y), Z: float64(x.Pos.Z) + 0.5}
		res.Ticks = 20
	case action.BreakBlock:
		blk := b.blocks.BlockAt(x.Pos)
		if blk.IsAir() {
			res = ipc.Failf(ipc.Rejected, 1, "nothing to break at %v", x.Pos)
			break
		}
		b.blocks.Set(x.Pos, world.Air)
		if blk.HasTag("log") {
			b.add("minecraft:log", b.breakDrops)
		}
		res.Ticks = 30
	case action.Craft:
		rs := rules.Default().Recipes.For(x.Item)
		if len(rs) == 0 {
			res = ipc.Failf(ipc.InvalidParams, 0, "no recipe for %s", x.Item)
			break
		}
		r := rs[0]
		for i := 0; i < x.Count; i++ {
			for _, in := range r.Ingredients {
				if !b.take(in.Item, in.Count) {
					return ipc.Failf(ipc.Rejected, 0, "missing %s", in.Item)
				}
			}
			b.add(r.Output, r.Count)
		}
	}
	b.tick += res.Ticks
	return res
}

func shipped(t testing.TB, opts registry.Options) *registry.Registry {
	t.Helper()
	reg, err := registry.LoadConfig(config.FS, opts)
	require.NoError(t, err)
	require.NoError(t, reg.RegisterProvided())
	require.NoError(t, reg.Finalize())
	return reg
}

func goal(t *testing.T, reg *registry.Registry, text string) loop.Goal {
	t.Helper()
	g, err := loop.ParseGoal(text, reg.Tiers())
	require.NoError(t, err)
	return g
}

type run struct {
	out   loop.Outcome
	err   error
	trace []loop.StepRecord
	raw   string
}

func runLoop(t *testing.T, cfg loop.Config) run {
	t.Helper()
	var buf bytes.Buffer
	cfg.Trace = &buf
	l, err := loop.New(context.Background(), cfg)
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	r := run{out: out, err: err, raw: buf.String()}
	sc := bufio.NewScanner(&buf)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var rec loop.StepRecord
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec), sc.Text())
		r.trace = append(r.trace, rec)
	}
	return r
}

func TestGoalPlannerCollectsLogs(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2), world.Pos(-4, 64, 5))
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: chain.Planner{}, Goal: goal(t, reg, "have 4 minecraft:planks")})
	require.NoError(t, r.err)
	assert.Equal(t, loop.GoalMet, r.out.Reason)
	assert.True(t, r.out.GoalMet)
	require.Len(t, r.trace, 2)
	assert.Equal(t, "chop_tree", r.trace[0].Invocation.Skill)
	assert.Equal(t, loop.Success, r.trace[0].Verdict)
	assert.Equal(t, "basic_crafting", r.trace[1].Invocation.Skill)
	assert.Equal(t, loop.Success, r.trace[1].Verdict)
	assert.Equal(t, 4, r.trace[1].After.Inventory["minecraft:planks"])
	assert.NotEmpty(t, r.trace[0].Effects)
	assert.Greater(t, r.out.Ticks, int64(0))
	assert.Equal(t, loop.Stats{Attempts: 1, Successes: 1}, r.out.Skills["chop_tree"])
	d, err := reg.Describe("chop_tree")
	require.NoError(t, err)
	require.NotNil(t, d.Metrics.SuccessRate, "outcomes reach the registry's metrics")
	assert.Equal(t, 1.0, *d.Metrics.SuccessRate)
}

func TestDeterministicTrace(t *testing.T) {
	traces := make([]string, 3)
	for i := range traces {
		reg := shipped(t, registry.Options{})
		body := newToy(world.Pos(3, 64, 2), world.Pos(-4, 64, 5))
		r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: chain.Planner{}, Goal: goal(t, reg, "have 8 minecraft:stick")})
		require.NoError(t, r.err)
		require.True(t, r.out.GoalMet, r.raw)
		traces[i] = r.raw
	}
	assert.Equal(t, traces[0], traces[1])
	assert.Equal(t, traces[0], traces[2])
}

func TestStepVerdicts(t *testing.T) {
	reg := shipped(t, registry.Options{})
	trees := []world.BlockPos{world.Pos(3, 64, 2)}
	tests := []struct {
		name    string
		script  []loop.Invocation
		tune    func(b *toyBody)
		verdict []loop.Verdict
		code    string
		errPart string
	}{
		{"invalid params are rejected", []loop.Invocation{{Skill: "chop_tree", Params: map[string]any{"radius": "far"}}}, nil,
			[]loop.Verdict{loop.Rejected}, "invalid_params", `parameter "radius"`},
		{"unknown skill is rejected", []loop.Invocation{{Skill: "fly_to_moon"}}, nil,
			[]loop.Verdict{loop.Rejected}, "", "not available"},
		{"tier-gated skill is rejected", []loop.Invocation{{Skill: "feed_steam_boiler"}}, nil,
			[]loop.Verdict{loop.Rejected}, "", "not available at tier stone_age"},
		{"no target is a skill failure", []loop.Invocation{{Skill: "mine_block", Params: map[string]any{"target": "minecraft:gravel"}}}, nil,
			[]loop.Verdict{loop.SkillFailed}, "no_target", "minecraft:gravel"},
		{"an action failure stops the step", []loop.Invocation{{Skill: "chop_tree"}}, func(b *toyBody) {
			b.hook = func(a action.Action) *ipc.Result {
				if a.Kind() == action.KindMoveTo {
					r := ipc.Failf(ipc.Unreachable, 7, "no path")
					return &r
				}
				return nil
			}
		}, []loop.Verdict{loop.ActionFailed}, "unreachable", "move_to: no path"},
		{"effects are checked, not trusted", []loop.Invocation{{Skill: "chop_tree", Params: map[string]any{"min_logs": 4}}}, func(b *toyBody) { b.breakDrops = 0 },
			[]loop.Verdict{loop.EffectsUnmet}, "", "ore:logWood increases by >= 4"},
		{"a template skill runs", []loop.Invocation{{Skill: "report_status"}}, nil, []loop.Verdict{loop.Success}, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := newToy(trees...)
			if tc.tune != nil {
				tc.tune(body)
			}
			r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(tc.script...), Goal: goal(t, reg, "have 99 minecraft:diamond")})
			require.NoError(t, r.err)
			assert.Equal(t, loop.PlannerDone, r.out.Reason, "the loop keeps going after a bad step")
			require.Len(t, r.trace, len(tc.verdict))
			for i, v := range tc.verdict {
				assert.Equal(t, v, r.trace[i].Verdict, r.trace[i].Error)
			}
			assert.Equal(t, tc.code, r.trace[0].Code)
			assert.Contains(t, r.trace[0].Error, tc.errPart)
		})
	}
}

// panicky is a Go skill that panics, registered in a private registry.
type panicky struct{}

func (panicky) Name() string { return "panicky" }
func (panicky) SuggestActions(*world.Snapshot, skills.Params) ([]action.Action, error) {
	panic("boom")
}

func TestPanickingSkillIsAFailedStep(t *testing.T) {
	spec, err := skills.ParseSpec("", []byte("name: panicky\nversion: 1\ndescription: panics\nemits: [wait]\n"))
	require.NoError(t, err)
	pk, err := packs.ParsePack("p.yaml", []byte("name: p\nrequires_tech_state: any\nskills: [panicky]\n"), nil)
	require.NoError(t, err)
	set, err := packs.NewSet(nil, pk)
	require.NoError(t, err)
	reg, err := registry.New([]*skills.Spec{spec}, registry.Options{Packs: set})
	require.NoError(t, err)
	require.NoError(t, reg.Register(panicky{}))
	require.NoError(t, reg.Finalize())
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy()), Planner: script.New(loop.Invocation{Skill: "panicky"}, loop.Invocation{Skill: "panicky"}), Goal: loop.Goal{Items: []loop.ItemGoal{{Item: "minecraft:diamond", Count: 1}}}})
	require.NoError(t, r.err)
	require.Len(t, r.trace, 2)
	assert.Equal(t, loop.SkillFailed, r.trace[0].Verdict)
	assert.Equal(t, "panic", r.trace[0].Code)
	assert.Equal(t, loop.SkillFailed, r.trace[1].Verdict, "the loop survived the panic")
	d, _ := reg.Describe("panicky")
	require.NotNil(t, d.Metrics.SuccessRate)
	assert.Equal(t, 0.0, *d.Metrics.SuccessRate)
}

func TestRepeatedFailureIsBlockedUntilTheWorldChanges(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	fail := true
	body.hook = func(a action.Action) *ipc.Result {
		if fail && a.Kind() == action.KindBreakBlock {
			r := ipc.Failf(ipc.Rejected, 3, "protected area")
			return &r
		}
		return nil
	}
	inv := loop.Invocation{Skill: "chop_tree"}
	invs := []loop.Invocation{inv, inv, inv, {Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:planks"}}, inv}
	var steps []loop.StepRecord
	cfg := loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(invs...),
		Goal: goal(t, reg, "have 99 minecraft:diamond"), OnStep: func(r loop.StepRecord) {
			steps = append(steps, r)
			if r.Step == 3 {
				// The world changes: a log appears in the inventory.
				body.mu.Lock()
				body.add("minecraft:log", 1)
				body.mu.Unlock()
				fail = false
			}
		}}
	r := runLoop(t, cfg)
	require.NoError(t, r.err)
	require.Len(t, steps, 5)
	assert.Equal(t, loop.ActionFailed, steps[0].Verdict)
	assert.Equal(t, loop.ActionFailed, steps[1].Verdict)
	assert.Equal(t, loop.Rejected, steps[2].Verdict)
	assert.Contains(t, steps[2].Error, "blocked until the world changes")
	assert.Equal(t, loop.Success, steps[3].Verdict)
	assert.Equal(t, loop.Success, steps[4].Verdict, "after the world changed chop_tree is tried again")
}

// TestLostConnectionsDoNotBlock: failures because the connection to the
// body was lost (io_error) are not the invocation's: after any number of
// them it is tried again.
func TestLostConnectionsDoNotBlock(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	lost := 3
	body.hook = func(a action.Action) *ipc.Result {
		if lost > 0 && a.Kind() == action.KindBreakBlock {
			lost--
			r := ipc.Failf(ipc.IOError, 3, "gtnh: not connected: connection lost")
			return &r
		}
		return nil
	}
	inv := loop.Invocation{Skill: "chop_tree"}
	cfg := loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(inv, inv, inv, inv),
		Goal: goal(t, reg, "have 99 minecraft:diamond")}
	r := runLoop(t, cfg)
	require.NoError(t, r.err)
	require.Len(t, r.trace, 4)
	for i := range 3 {
		assert.Equal(t, loop.ActionFailed, r.trace[i].Verdict)
		assert.Equal(t, string(ipc.IOError), r.trace[i].Code)
	}
	assert.Equal(t, loop.Success, r.trace[3].Verdict, "not blocked by lost connections")
}

func TestBudgetsAndStuck(t *testing.T) {
	reg := shipped(t, registry.Options{})
	repeat := func(n int, inv loop.Invocation) []loop.Invocation {
		out := make([]loop.Invocation, n)
		for i := range out {
			out[i] = inv
		}
		return out
	}
	status := loop.Invocation{Skill: "report_status"}
	cases := []struct {
		name string
		cfg  loop.Config
		want loop.StopReason
	}{
		{"max steps", loop.Config{Planner: script.New(repeat(10, status)...), MaxSteps: 3}, loop.MaxSteps},
		{"max ticks", loop.Config{Planner: script.New(repeat(10, status)...), MaxTicks: 12}, loop.MaxTicks},
		{"stuck", loop.Config{Planner: script.New(repeat(20, loop.Invocation{Skill: "nope"})...), MaxConsecutiveFailures: 4}, loop.Stuck},
		{"wall time", loop.Config{Planner: script.New(repeat(10, status)...), MaxWall: time.Second, Now: fakeClock(400 * time.Millisecond)}, loop.WallTime},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.Registry, cfg.Conn, cfg.Goal = reg, ipc.InProcess(newToy()), goal(t, reg, "have 1 minecraft:diamond")
			r := runLoop(t, cfg)
			require.NoError(t, r.err)
			assert.Equal(t, tc.want, r.out.Reason)
			assert.False(t, r.out.GoalMet)
		})
	}
}

func fakeClock(step time.Duration) func() time.Time {
	var mu sync.Mutex
	now := time.Unix(0, 0)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(step)
		return now
	}
}

func TestStartupCheckNamesSkillAndAction(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy()
	body.supports = []action.Kind{action.KindMoveTo, action.KindBreakBlock, action.KindChat, action.KindWait}
	_, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: chain.Planner{}, Goal: goal(t, reg, "have 1 minecraft:log")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "skill chop_tree (pack ")
	assert.Contains(t, err.Error(), "emits equip")
	assert.Contains(t, err.Error(), "skill basic_crafting")

	_, err = loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: chain.Planner{}, Packs: []string{"utility"}})
	assert.NoError(t, err, "only the enabled packs' skills must be supported")
	_, err = loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: chain.Planner{}, Packs: []string{"nope"}})
	assert.Error(t, err)
}

func TestCancelStopsCleanly(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy()
	ctx, cancel := context.WithCancel(context.Background())
	var buf bytes.Buffer
	steps := 0
	l, err := loop.New(ctx, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Trace: &buf,
		Planner: loop.PlannerFunc(func(ctx context.Context, _ loop.Goal, obs loop.Observation, _ []*registry.Description) (loop.Decision, error) {
			if obs.Step == 3 {
				go cancel() // as SIGINT would, from another goroutine
				<-ctx.Done()
				return loop.Decision{}, ctx.Err()
			}
			return loop.Decision{Invocation: &loop.Invocation{Skill: "report_status"}}, nil
		}),
		OnStep: func(loop.StepRecord) { steps++ },
		Goal:   goal(t, reg, "have 1 minecraft:diamond")})
	require.NoError(t, err)
	out, err := l.Run(ctx)
	require.NoError(t, err)
	assert.Equal(t, loop.Interrupted, out.Reason)
	assert.Equal(t, 2, out.Steps)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	assert.Len(t, lines, 2, "every finished step is in the trace")
	for _, l := range lines {
		assert.True(t, json.Valid([]byte(l)))
	}
}

func TestGoalParsing(t *testing.T) {
	reg := shipped(t, registry.Options{})
	g, err := loop.ParseGoal("collect 16 minecraft:log and reach steam_age and run mine_block target=minecraft:gravel radius=24", reg.Tiers())
	require.NoError(t, err)
	assert.Equal(t, []loop.ItemGoal{{Item: "minecraft:log", Count: 16, Gain: true}}, g.Items)
	assert.Equal(t, "steam_age", g.Tier)
	assert.Equal(t, &loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:gravel", "radius": 24}}, g.Skill)
	g, err = loop.ParseGoal("have 4 ore:plankWood", reg.Tiers())
	require.NoError(t, err)
	assert.Equal(t, []loop.ItemGoal{{Item: "ore:plankWood", Count: 4}}, g.Items)
	for _, bad := range []string{"", "collect minecraft:log", "collect 0 minecraft:log", "collect 2 log", "reach bronze_age", "run", "run x y", "dance", "reach lv and reach mv"} {
		_, err := loop.ParseGoal(bad, reg.Tiers())
		assert.Error(t, err, bad)
	}
	g, err = loop.ParseGoalYAML("goal.yaml", []byte("items:\n  - {item: minecraft:log, count: 16}\n  - {item: minecraft:stick, collect: 3}\ntier: steam_age\nskill: {name: fill_bucket}\n"), reg.Tiers())
	require.NoError(t, err)
	assert.Equal(t, []loop.ItemGoal{{Item: "minecraft:log", Count: 16}, {Item: "minecraft:stick", Count: 3, Gain: true}}, g.Items)
	for _, bad := range []string{"items:\n  - {item: minecraft:log}\n", "items:\n  - {item: minecraft:log, count: 1, collect: 1}\n", "items:\n  - {item: minecraft:log, collect: 0}\n"} {
		_, err = loop.ParseGoalYAML("goal.yaml", []byte(bad), reg.Tiers())
		assert.Error(t, err, bad)
	}
	_, err = loop.ParseGoalYAML("goal.yaml", []byte("itmes: []\n"), reg.Tiers())
	require.Error(t, err)
	assert.Contains(t, err.Error(), `goal.yaml:1:1: itmes: unknown field "itmes" (did you mean "items"?)`)
	_, err = loop.ParseGoalYAML("goal.yaml", []byte("items:\n  - {item: minecraft:log, count: 0}\n"), reg.Tiers())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "goal.yaml:2:34: items[0].count: must be at least 1")
}

func TestSummarizeKeysMetadata(t *testing.T) {
	w := &world.Snapshot{Inventory: world.NewInventory(world.NewStack("minecraft:coal", 0, 3), world.NewStack("minecraft:coal", 1, 2), world.NewStack("minecraft:coal", 0, 1))}
	s := loop.Summarize(w)
	assert.Equal(t, map[string]int{"minecraft:coal": 4, "minecraft:coal:1": 2}, s.Inventory)
	_ = fmt.Sprint(s)
}

// idler has nothing to do until the inventory holds a log; then it waits.
type idler struct{}

func (idler) Name() string { return "idler" }
func (idler) SuggestActions(w *world.Snapshot, _ skills.Params) ([]action.Action, error) {
	if w.Inventory.CountID("minecraft:log") == 0 {
		return nil, nil
	}
	return []action.Action{action.Wait{Ticks: 1}}, nil
}

func idlerRegistry(t *testing.T) *registry.Registry {
	t.Helper()
	spec, err := skills.ParseSpec("", []byte("name: idler\nversion: 1\ndescription: idles\nemits: [wait]\n"))
	require.NoError(t, err)
	pk, err := packs.ParsePack("p.yaml", []byte("name: p\nrequires_tech_state: any\nskills: [idler]\n"), nil)
	require.NoError(t, err)
	set, err := packs.NewSet(nil, pk)
	require.NoError(t, err)
	reg, err := registry.New([]*skills.Spec{spec}, registry.Options{Packs: set})
	require.NoError(t, err)
	require.NoError(t, reg.Register(idler{}))
	require.NoError(t, reg.Finalize())
	return reg
}

// TestNoopIsAnAnswer: an invocation that had nothing to do is not asked
// again until the world changes; then it runs.
func TestNoopIsAnAnswer(t *testing.T) {
	reg := idlerRegistry(t)
	body := newToy()
	inv := loop.Invocation{Skill: "idler"}
	var steps []loop.StepRecord
	cfg := loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(inv, inv, inv, inv),
		Goal: loop.Goal{Items: []loop.ItemGoal{{Item: "minecraft:diamond", Count: 1}}}, OnStep: func(r loop.StepRecord) {
			steps = append(steps, r)
			if r.Step == 2 {
				body.mu.Lock()
				body.add("minecraft:log", 1)
				body.mu.Unlock()
			}
		}}
	r := runLoop(t, cfg)
	require.NoError(t, r.err)
	require.Len(t, steps, 4)
	assert.Equal(t, loop.Noop, steps[0].Verdict)
	assert.Equal(t, loop.Rejected, steps[1].Verdict)
	assert.Contains(t, steps[1].Error, "had nothing to do and is blocked until the world changes")
	assert.Equal(t, loop.Success, steps[2].Verdict, "the world changed: asked again")
}

// TestRunGoalOfAnIdleSkillIsStuck: "run idler" where idler has nothing to
// do ends at once, stuck, with the planner's reason, instead of a noop per
// step until max_steps.
func TestRunGoalOfAnIdleSkillIsStuck(t *testing.T) {
	reg := idlerRegistry(t)
	g, err := loop.ParseGoal("run idler", reg.Tiers())
	require.NoError(t, err)
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy()), Planner: chain.Planner{}, Goal: g, MaxSteps: 100})
	require.NoError(t, r.err)
	assert.Equal(t, loop.Stuck, r.out.Reason)
	assert.Equal(t, 1, r.out.Steps)
	require.Len(t, r.trace, 1)
	assert.Equal(t, loop.Noop, r.trace[0].Verdict)
	assert.Contains(t, r.out.Why, "the goal runs idler, which had nothing to do here")
}

// TestCollectCountsFromTheStart: "collect N" asks for N more than the
// inventory held when the run started, "have N" for at least N.
func TestCollectCountsFromTheStart(t *testing.T) {
	reg := shipped(t, registry.Options{})
	w := &world.Snapshot{Inventory: world.NewInventory(world.NewStack("minecraft:log", 0, 5))}
	collect, err := loop.ParseGoal("collect 3 minecraft:log", reg.Tiers())
	require.NoError(t, err)
	have, err := loop.ParseGoal("have 3 minecraft:log", reg.Tiers())
	require.NoError(t, err)
	assert.True(t, have.Anchor(w).Check(w, reg.Tiers(), false).Met, "have 3 with 5 held")
	anchored := collect.Anchor(w)
	assert.Equal(t, 5, anchored.Items[0].Start)
	assert.Equal(t, 8, anchored.Items[0].Target())
	p := anchored.Check(w, reg.Tiers(), false)
	assert.False(t, p.Met, "collect 3 with 5 held at the start and still 5")
	assert.Equal(t, []string{"collected 0/3 minecraft:log"}, p.Unmet)
	more := &world.Snapshot{Inventory: world.NewInventory(world.NewStack("minecraft:log", 0, 7))}
	assert.Equal(t, []string{"collected 2/3 minecraft:log"}, anchored.Check(more, reg.Tiers(), false).Unmet)
	enough := &world.Snapshot{Inventory: world.NewInventory(world.NewStack("minecraft:log", 0, 8))}
	assert.True(t, anchored.Check(enough, reg.Tiers(), false).Met)
	assert.Equal(t, 0, collect.Items[0].Start, "Anchor does not change the goal it is called on")

	// In a run: the toy starts with 2 logs; collect 4 needs 6 at the end.
	body := newToy(world.Pos(3, 64, 2), world.Pos(-3, 64, 2))
	body.add("minecraft:log", 2)
	g, err := loop.ParseGoal("collect 4 minecraft:log", reg.Tiers())
	require.NoError(t, err)
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: chain.Planner{}, Goal: g})
	require.NoError(t, r.err)
	require.True(t, r.out.GoalMet)
	last := r.trace[len(r.trace)-1]
	assert.GreaterOrEqual(t, last.After.Inventory["minecraft:log"], 6)
}

// TestCtrlCInterruptsTheStep: a run cancelled while an action runs records
// the step as interrupted, ends Interrupted, and leaves the skill's metrics
// alone.
func TestCtrlCInterruptsTheStep(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body.hook = func(a action.Action) *ipc.Result {
		if a.Kind() == action.KindBreakBlock {
			cancel() // Ctrl-C while digging
			r := ipc.Failf(ipc.Interrupted, 2, "cancelled")
			return &r
		}
		return nil
	}
	var buf bytes.Buffer
	var printed []loop.StepRecord
	l, err := loop.New(ctx, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: chain.Planner{},
		Goal: goal(t, reg, "have 4 minecraft:log"), Trace: &buf, OnStep: func(r loop.StepRecord) { printed = append(printed, r) }})
	require.NoError(t, err)
	out, err := l.Run(ctx)
	require.NoError(t, err)
	assert.Equal(t, loop.Interrupted, out.Reason)
	require.Len(t, printed, 1)
	assert.Equal(t, loop.StepInterrupted, printed[0].Verdict)
	assert.Equal(t, string(ipc.Interrupted), printed[0].Code)
	var rec loop.StepRecord
	require.NoError(t, json.Unmarshal(bytes.TrimSpace(buf.Bytes()), &rec), "the interrupted step is in the trace")
	assert.Equal(t, loop.StepInterrupted, rec.Verdict)
	d, err := reg.Describe("chop_tree")
	require.NoError(t, err)
	assert.Nil(t, d.Metrics.SuccessRate, "an interruption is not a failure of the skill")
	assert.Zero(t, out.Skills["chop_tree"].Attempts)
}

// TestBlocksLiftOnlyOnRelevantChanges: a blocked invocation is tried again
// when its part of the world changes, not when anything at all does. A coke
// oven working through its input (progress) lifts nothing; coke appearing
// in its output lifts the noop'd maintain_coke_ovens, but not the failed
// chop_tree, which no oven can help.
func TestBlocksLiftOnlyOnRelevantChanges(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	body.tier = "steam_age"
	oven := world.Machine{Kind: world.MachineCokeOven, Pos: world.Pos(-3, 64, -3), Formed: true,
		Slots:  map[string]world.ItemStack{"input": world.NewStack("minecraft:coal", 0, 8)},
		Fluids: map[string]world.FluidTank{"creosote": {Fluid: "creosote", Capacity: 64000}}}
	body.machines = []world.Machine{oven}
	body.hook = func(a action.Action) *ipc.Result {
		if a.Kind() == action.KindBreakBlock {
			r := ipc.Failf(ipc.Rejected, 3, "protected area")
			return &r
		}
		return nil
	}
	chop := loop.Invocation{Skill: "chop_tree"}
	maintain := loop.Invocation{Skill: "maintain_coke_ovens"}
	invs := []loop.Invocation{chop, chop, chop, maintain, maintain, chop, maintain}
	var steps []loop.StepRecord
	cfg := loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(invs...),
		Goal: goal(t, reg, "have 99 minecraft:diamond"), OnStep: func(r loop.StepRecord) {
			steps = append(steps, r)
			body.mu.Lock()
			defer body.mu.Unlock()
			m := &body.machines[0]
			switch r.Step {
			case 4: // the oven works: progress and activity change, nothing moves
				m.Progress, m.Active = 0.5, true
				body.tick += 900
			case 5: // a coal is coked: coke in the output, creosote in the tank
				m.Slots = map[string]world.ItemStack{"input": world.NewStack("minecraft:coal", 0, 7), "output": world.NewStack("Railcraft:fuel.coke", 0, 1)}
				m.Fluids = map[string]world.FluidTank{"creosote": {Fluid: "creosote", Amount: 500, Capacity: 64000}}
				m.Progress = 0
			}
		}}
	r := runLoop(t, cfg)
	require.NoError(t, r.err)
	require.Len(t, steps, len(invs))
	want := []loop.Verdict{loop.ActionFailed, loop.ActionFailed, loop.Rejected, loop.Noop, loop.Rejected, loop.Rejected}
	for i, v := range want {
		assert.Equal(t, v, steps[i].Verdict, "step %d: %s", i+1, steps[i].Error)
	}
	assert.Contains(t, steps[4].Error, "had nothing to do", "the oven's progress is not a change maintain_coke_ovens can act on")
	assert.Contains(t, steps[5].Error, "failed the same way twice", "an oven filling up does not help chop_tree")
	assert.NotEqual(t, loop.Rejected, steps[6].Verdict, "coke in the output: maintain_coke_ovens is asked again")
	require.NotEmpty(t, steps[6].Actions)
}

// TestProgressIsNotAFailureToBlock: a step that falls short of its promise
// but gains what the skill gathers is not held against the invocation: it
// runs again, however often it falls short, as long as it gains.
func TestProgressIsNotAFailureToBlock(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	inv := loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 100}}
	trees := []world.BlockPos{world.Pos(-3, 64, 4), world.Pos(2, 64, -5)}
	var steps []loop.StepRecord
	cfg := loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(inv, inv, inv, inv, inv, inv),
		Goal: goal(t, reg, "have 99 minecraft:diamond"), MaxConsecutiveFailures: 3, OnStep: func(r loop.StepRecord) {
			steps = append(steps, r)
			if r.Step <= len(trees) { // another tree comes in reach
				body.mu.Lock()
				for y := 0; y < 4; y++ {
					body.blocks.SetID(trees[r.Step-1].Add(0, y, 0), "minecraft:log", 0)
				}
				body.mu.Unlock()
			}
		}}
	r := runLoop(t, cfg)
	require.NoError(t, r.err)
	require.Len(t, steps, 6)
	for i := range 3 {
		assert.Equal(t, loop.EffectsUnmet, steps[i].Verdict, "step %d", i+1)
		assert.True(t, steps[i].Progressed, "step %d gained 4 logs", i+1)
		assert.Equal(t, 4*(i+1), steps[i].After.Inventory["minecraft:log"])
	}
	assert.Equal(t, loop.SkillFailed, steps[3].Verdict, "no log left: a real failure")
	assert.False(t, steps[3].Progressed)
	assert.Equal(t, loop.SkillFailed, steps[4].Verdict, "failed once: tried once more")
	assert.Equal(t, loop.Stuck, r.out.Reason, "three failures in a row count only the steps without progress")
	assert.Equal(t, loop.Rejected, steps[5].Verdict, "failed the same way twice without progress: blocked")
}

// TestTickBudgetBoundary: the run stops at the first observation whose
// game time since the start reaches MaxTicks, not later. report_status takes
// 5 ticks in the toy world, so a budget of 10 allows exactly 2 steps and a
// budget of 11 exactly 3.
func TestTickBudgetBoundary(t *testing.T) {
	reg := shipped(t, registry.Options{})
	status := loop.Invocation{Skill: "report_status"}
	for _, tc := range []struct {
		budget int64
		steps  int
		ticks  int64
	}{{5, 1, 5}, {10, 2, 10}, {11, 3, 15}, {15, 3, 15}} {
		invs := make([]loop.Invocation, 10)
		for i := range invs {
			invs[i] = status
		}
		r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy()), Planner: script.New(invs...),
			Goal: goal(t, reg, "have 1 minecraft:diamond"), MaxTicks: tc.budget})
		require.NoError(t, r.err)
		assert.Equal(t, loop.MaxTicks, r.out.Reason, "budget %d", tc.budget)
		assert.Equal(t, tc.steps, r.out.Steps, "budget %d", tc.budget)
		assert.Equal(t, tc.ticks, r.out.Ticks, "budget %d", tc.budget)
	}
}

// TestConsecutiveFailuresReset: the stuck rule counts failures in a row; a
// success (or a noop, or a failure that gained) in between starts the count
// again, and exactly MaxConsecutiveFailures failures in a row end the run.
func TestConsecutiveFailuresReset(t *testing.T) {
	reg := shipped(t, registry.Options{})
	bad := loop.Invocation{Skill: "nope"}
	good := loop.Invocation{Skill: "report_status"}
	run := func(invs ...loop.Invocation) loop.Outcome {
		r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy()), Planner: script.New(invs...),
			Goal: goal(t, reg, "have 1 minecraft:diamond"), MaxConsecutiveFailures: 2})
		require.NoError(t, r.err)
		return r.out
	}
	out := run(bad, good, bad, good, bad, good, bad)
	assert.Equal(t, loop.PlannerDone, out.Reason, "never two failures in a row")
	assert.Equal(t, 7, out.Steps)
	// A failure that gained logs also breaks the row.
	gain := loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 100}}
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy(world.Pos(3, 64, 2))), Planner: script.New(bad, gain, bad, good),
		Goal: goal(t, reg, "have 1 minecraft:diamond"), MaxConsecutiveFailures: 2})
	require.NoError(t, r.err)
	require.Len(t, r.trace, 4)
	assert.True(t, r.trace[1].Progressed)
	assert.Equal(t, loop.PlannerDone, r.out.Reason, "the step that gained is not a failure in a row")
	out = run(bad, good, bad, bad, good)
	assert.Equal(t, loop.Stuck, out.Reason)
	assert.Equal(t, 4, out.Steps, "stopped right after the second failure in a row")
	assert.Empty(t, out.Why, "stuck by the failure count, not by the planner")
}

// digger breaks the nearest log and then waits; it declares a diamond.
type digger struct{}

func (digger) Name() string { return "digger" }
func (digger) SuggestActions(w *world.Snapshot, _ skills.Params) ([]action.Action, error) {
	hits := w.NearestBlocks(16, 1, "log")
	if len(hits) == 0 {
		return nil, skills.Failf(skills.CodeNoTarget, "no log")
	}
	return []action.Action{action.BreakBlock{Pos: hits[0].Pos}, action.Wait{Ticks: 1}}, nil
}

// TestProgressTowardsTheGoal: a failed step counts as progress when it
// brought an unmet item goal closer or raised the tier, even though what it
// gained is not what its skill declares; gaining something nobody asked for
// is not progress.
func TestProgressTowardsTheGoal(t *testing.T) {
	spec, err := skills.ParseSpec("", []byte("name: digger\nversion: 1\ndescription: digs\nemits: [break_block, wait]\n"+
		"effects:\n  inventory_delta:\n    \"minecraft:diamond\": {min_increase: 1}\n    \"minecraft:stick\": {min_decrease: 1}\n"))
	require.NoError(t, err)
	pk, err := packs.ParsePack("p.yaml", []byte("name: p\nrequires_tech_state: any\nskills: [digger]\n"), nil)
	require.NoError(t, err)
	set, err := packs.NewSet(nil, pk)
	require.NoError(t, err)
	reg, err := registry.New([]*skills.Spec{spec}, registry.Options{Packs: set})
	require.NoError(t, err)
	require.NoError(t, reg.Register(digger{}))
	require.NoError(t, reg.Finalize())
	for _, tc := range []struct {
		goal       string
		logs       int  // logs held at the start
		raiseTier  bool // the step raises the tier
		useStick   bool // the step uses up a stick, as the skill declares
		progressed bool
	}{
		{"have 10 minecraft:log", 0, false, false, true},
		{"have 1 minecraft:diamond", 0, false, false, false},
		{"have 1 minecraft:log", 0, false, false, true},
		{"have 1 minecraft:log and have 1 minecraft:diamond", 1, false, false, false},
		{"reach steam_age", 0, true, false, true},
		{"reach steam_age", 0, false, false, false},
		{"have 1 minecraft:diamond", 0, false, true, true},
	} {
		body := newToy(world.Pos(3, 64, 2))
		body.add("minecraft:stick", 2)
		if tc.logs > 0 {
			body.add("minecraft:log", tc.logs)
		}
		body.hook = func(a action.Action) *ipc.Result {
			if a.Kind() == action.KindWait {
				if tc.raiseTier {
					body.tier = "steam_age"
				}
				if tc.useStick {
					body.take(world.MustItem("minecraft:stick"), 1)
				}
				r := ipc.Failf(ipc.Rejected, 1, "interrupted by a mob")
				return &r
			}
			return nil
		}
		g, err := loop.ParseGoal(tc.goal, reg.Tiers())
		require.NoError(t, err)
		r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(loop.Invocation{Skill: "digger"}), Goal: g})
		require.NoError(t, r.err)
		require.Len(t, r.trace, 1)
		assert.Equal(t, loop.ActionFailed, r.trace[0].Verdict)
		assert.Equal(t, tc.logs+1, r.trace[0].After.Inventory["minecraft:log"])
		assert.Equal(t, tc.progressed, r.trace[0].Progressed, "%s (tier raised: %v)", tc.goal, tc.raiseTier)
	}
}

// TestDeterministicFailureIsReportedTwice: a goal whose skill fails the same
// way every time ends stuck after two steps, saying so, not after
// MaxConsecutiveFailures (8) identical failures.
func TestDeterministicFailureIsReportedTwice(t *testing.T) {
	reg := shipped(t, registry.Options{})
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy()), Planner: chain.Planner{},
		Goal: goal(t, reg, "run mine_block target=minecraft:gravel"), MaxSteps: 100})
	require.NoError(t, r.err)
	assert.Equal(t, loop.Stuck, r.out.Reason)
	require.Len(t, r.trace, 2)
	for _, st := range r.trace {
		assert.Equal(t, loop.SkillFailed, st.Verdict)
		assert.Equal(t, "no_target", st.Code)
	}
	assert.Equal(t, "stuck: the goal runs mine_block target=minecraft:gravel, which failed the same way twice here (no minecraft:gravel within 16 blocks) and is blocked until the world changes", r.out.Why)
}

// TestPlannerTraceReachesTheRecord: what a planner says about how it decided
// is in the step's trace line, also when it answers with an error.
func TestPlannerTraceReachesTheRecord(t *testing.T) {
	reg := shipped(t, registry.Options{})
	n := 0
	pl := loop.PlannerFunc(func(ctx context.Context, g loop.Goal, obs loop.Observation, cat []*registry.Description) (loop.Decision, error) {
		n++
		tr := &loop.PlannerTrace{Planner: "test", Model: "m", Calls: n, TokensIn: 10, TokensOut: 2, Loaded: []string{"coke-oven-operation"}}
		if n == 1 {
			return loop.Decision{Trace: tr}, fmt.Errorf("the model named no skill")
		}
		return loop.Decision{Invocation: &loop.Invocation{Skill: "report_status"}, Trace: tr}, nil
	})
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy()), Planner: pl, Goal: goal(t, reg, "have 1 minecraft:diamond"), MaxSteps: 2})
	require.NoError(t, r.err)
	require.Len(t, r.trace, 2)
	assert.Equal(t, loop.PlannerError, r.trace[0].Verdict)
	require.NotNil(t, r.trace[0].Planner)
	assert.Equal(t, 1, r.trace[0].Planner.Calls)
	require.NotNil(t, r.trace[1].Planner)
	assert.Equal(t, []string{"coke-oven-operation"}, r.trace[1].Planner.Loaded)
	assert.Contains(t, r.raw, `"planner":{"planner":"test","model":"m","calls":2,"tokens_in":10,"tokens_out":2`)
}

// TestPlannerDoneCarriesTheReason: the reason a planner gives for ending
// the run is the outcome's Why.
func TestPlannerDoneCarriesTheReason(t *testing.T) {
	reg := shipped(t, registry.Options{})
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(newToy()),
		Planner: loop.PlannerFunc(func(context.Context, loop.Goal, loop.Observation, []*registry.Description) (loop.Decision, error) {
			return loop.Decision{Done: true, Reason: "no diamonds in this world"}, nil
		}),
		Goal: goal(t, reg, "have 1 minecraft:diamond")})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	assert.Equal(t, loop.PlannerDone, out.Reason)
	assert.Equal(t, "no diamonds in this world", out.Why)
}
