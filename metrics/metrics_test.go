package metrics_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/metrics"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/sim"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base" // the Go skills register themselves
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func loadRegistry(t testing.TB) *registry.Registry {
	t.Helper()
	reg, err := registry.LoadConfig(config.FS, registry.Options{})
	require.NoError(t, err)
	require.NoError(t, reg.RegisterProvided())
	require.NoError(t, reg.Finalize())
	return reg
}

// faultyConn answers the actions numbered in fail (1-based) with the
// given code instead of executing them.
type faultyConn struct {
	ipc.Conn
	n    int
	fail map[int]ipc.Code
}

func (c *faultyConn) Execute(ctx context.Context, a action.Action) (ipc.Result, error) {
	c.n++
	if code, ok := c.fail[c.n]; ok {
		return ipc.Failf(code, 0, "injected"), nil
	}
	return c.Conn.Execute(ctx, a)
}

// simRun plays the default scenario towards goal with rec counting: the
// planner asks first for a skill nobody has (rejected), then chains; the
// body fails the actions numbered in fail. It returns the outcome, the
// step records and the number of Plan calls.
func simRun(t testing.TB, rec *metrics.Recorder, reg *registry.Registry, w *sim.Sim, goalText string, fail map[int]ipc.Code) (loop.Outcome, []loop.StepRecord, int) {
	t.Helper()
	ctx := context.Background()
	goal, err := loop.GoalParser{Tiers: reg.Tiers()}.Parse(goalText)
	require.NoError(t, err)
	calls := 0
	var pl loop.Planner = loop.PlannerFunc(func(ctx context.Context, g loop.Goal, obs loop.Observation, cat []*registry.Description) (loop.Decision, error) {
		calls++
		if calls == 1 {
			return loop.Decision{Invocation: &loop.Invocation{Skill: "fly_to_the_moon"}}, nil
		}
		return chain.Planner{}.Plan(ctx, g, obs, cat)
	})
	var records []loop.StepRecord
	onStep := func(r loop.StepRecord) { records = append(records, r) }
	if rec != nil {
		pl = rec.Planner(pl)
		onStep = func(r loop.StepRecord) {
			records = append(records, r)
			rec.OnStep(r)
		}
	}
	l, err := loop.New(ctx, loop.Config{Registry: reg, Conn: &faultyConn{Conn: ipc.InProcess(w), fail: fail}, Planner: pl, Goal: goal, OnStep: onStep, MaxSteps: 40})
	require.NoError(t, err)
	out, err := l.Run(ctx)
	require.NoError(t, err)
	return out, records, calls
}

func newSim(t testing.TB) *sim.Sim {
	t.Helper()
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return w
}

// serveLoopback serves rec on a real loopback listener until the test ends.
func serveLoopback(t *testing.T, rec *metrics.Recorder, opts metrics.ServeOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rec.Serve(ctx, ln, opts) }()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-done)
	})
	return "http://" + ln.Addr().String() + metrics.Path
}

// scrape GETs url and parses the answer with the library's text parser.
func scrape(t *testing.T, url, token string) map[string]*dto.MetricFamily {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.True(t, strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain"), resp.Header.Get("Content-Type"))
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	return fams
}

// counters sums a family's counter values by the given labels joined by "/".
func counters(t *testing.T, fams map[string]*dto.MetricFamily, name string, labels ...string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	f := fams[name]
	if f == nil {
		return out
	}
	for _, m := range f.GetMetric() {
		var key []string
		for _, l := range labels {
			v := ""
			for _, lp := range m.GetLabel() {
				if lp.GetName() == l {
					v = lp.GetValue()
				}
			}
			key = append(key, v)
		}
		out[strings.Join(key, "/")] += m.GetCounter().GetValue()
	}
	return out
}

func TestRunCounts(t *testing.T) {
	reg := loadRegistry(t)
	w := newSim(t)
	rec := metrics.New(metrics.Options{Skills: reg.Names(), World: w})
	url := serveLoopback(t, rec, metrics.ServeOptions{})

	out, records, calls := simRun(t, rec, reg, w, "have 8 minecraft:stick", map[int]ipc.Code{2: ipc.Unreachable, 3: "made_up"})
	require.True(t, out.GoalMet, "the run recovers from the failed actions: %+v", out)

	fams := scrape(t, url, "")

	steps := counters(t, fams, "gtnh_agent_steps_total", "skill", "verdict")
	total := 0.0
	for _, n := range steps {
		total += n
	}
	assert.Equal(t, float64(out.Steps), total, "steps by skill and verdict sum to the run's steps")
	assert.Equal(t, 1.0, steps["other/rejected"], "the unknown skill counts under other: %v", steps)
	wantSteps := map[string]float64{}
	for _, r := range records {
		skill := metrics.None
		if r.Invocation != nil {
			skill = r.Invocation.Skill
			if _, err := reg.GetSkill(skill); err != nil {
				skill = metrics.Other
			}
		}
		wantSteps[skill+"/"+string(r.Verdict)]++
	}
	assert.Equal(t, wantSteps, steps)
	for name, s := range out.Skills {
		got := 0.0
		for k, n := range steps {
			if strings.HasPrefix(k, name+"/") {
				got += n
			}
		}
		assert.GreaterOrEqual(t, got, float64(s.Attempts+s.Looks), "skill %s", name)
		assert.Equal(t, float64(s.Successes), steps[name+"/success"], "successes of %s", name)
	}

	actions := counters(t, fams, "gtnh_agent_actions_total", "kind", "code")
	wantActions := map[string]float64{}
	for _, r := range records {
		require.Len(t, r.Results, len(r.Actions))
		for i, a := range r.Actions {
			code := string(r.Results[i].Code)
			if !r.Results[i].Code.Valid() {
				code = metrics.Other
			}
			wantActions[string(a.Action.Kind())+"/"+code]++
		}
	}
	assert.Equal(t, wantActions, actions)
	byCode := map[string]float64{}
	for k, n := range actions {
		byCode[k[strings.IndexByte(k, '/')+1:]] += n
	}
	assert.Equal(t, 1.0, byCode["unreachable"], "the failed action: %v", actions)
	assert.Equal(t, 1.0, byCode[metrics.Other], "the code outside the taxonomy: %v", actions)
	assert.Greater(t, byCode["ok"], 2.0)

	lat := fams["gtnh_agent_planner_latency_seconds"]
	require.NotNil(t, lat)
	require.Len(t, lat.GetMetric(), 1)
	assert.Equal(t, uint64(calls), lat.GetMetric()[0].GetHistogram().GetSampleCount(), "every Plan call is timed")

	require.NotNil(t, fams["gtnh_agent_world_memory_bytes"])
	assert.Greater(t, fams["gtnh_agent_world_memory_bytes"].GetMetric()[0].GetGauge().GetValue(), 100_000.0, "the loaded columns hold memory")
	assert.Greater(t, fams["gtnh_agent_world_columns"].GetMetric()[0].GetGauge().GetValue(), 0.0)
	require.NotNil(t, fams["go_goroutines"], "the Go runtime collector")
	assert.Nil(t, fams["gtnh_agent_packets_total"], "no connection: no packet counters")
}

func TestModelTokens(t *testing.T) {
	rec := metrics.New(metrics.Options{Skills: []string{"chop_tree"}})
	rec.OnStep(loop.StepRecord{Step: 1, Invocation: &loop.Invocation{Skill: "chop_tree"}, Verdict: loop.Success,
		Planner: &loop.PlannerTrace{Planner: "llm", Calls: 2, TokensIn: 6400, TokensOut: 83}})
	rec.OnStep(loop.StepRecord{Step: 2, Verdict: loop.PlannerError, Planner: &loop.PlannerTrace{Planner: "llm", Calls: 1, TokensIn: 100}})
	rec.OnStep(loop.StepRecord{Step: 3, Invocation: &loop.Invocation{Skill: "chop_tree"}, Verdict: loop.Success,
		Actions: []action.Envelope{{Action: action.Wait{Ticks: 1}}, {Action: action.Wait{Ticks: 2}}}, Results: []ipc.Result{{Code: ipc.OK}}})
	fams := scrape(t, serveLoopback(t, rec, metrics.ServeOptions{}), "")
	assert.Equal(t, map[string]float64{"wait/ok": 1}, counters(t, fams, "gtnh_agent_actions_total", "kind", "code"), "an action with no result was not executed")
	assert.Equal(t, map[string]float64{"in": 6500, "out": 83}, counters(t, fams, "gtnh_agent_model_tokens_total", "direction"))
	assert.Equal(t, map[string]float64{"": 3}, counters(t, fams, "gtnh_agent_model_calls_total"))
	assert.Equal(t, map[string]float64{"chop_tree/success": 2, "none/planner_error": 1}, counters(t, fams, "gtnh_agent_steps_total", "skill", "verdict"))
}

type fakeStats struct {
	mu sync.Mutex
	st metrics.Connection
}

func (f *fakeStats) stats() metrics.Connection {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.st
}

func TestConnectionCounters(t *testing.T) {
	fs := &fakeStats{st: metrics.Connection{PacketsIn: 1200, PacketsOut: 340, Reconnects: 2,
		Malformed: map[string]int64{"chunk_data": 3, "custom_payload/FML\xff": 1, "custom_payload/FML\xfe": 2}}}
	rec := metrics.New(metrics.Options{Conn: fs.stats})
	url := serveLoopback(t, rec, metrics.ServeOptions{})
	fams := scrape(t, url, "")
	assert.Equal(t, map[string]float64{"in": 1200, "out": 340}, counters(t, fams, "gtnh_agent_packets_total", "direction"))
	assert.Equal(t, map[string]float64{"chunk_data": 3, "custom_payload/FML?": 3}, counters(t, fams, "gtnh_agent_malformed_packets_total", "packet"),
		"names made valid UTF-8 add up")
	assert.Equal(t, map[string]float64{"": 2}, counters(t, fams, "gtnh_agent_reconnects_total"))
	assert.Nil(t, fams["gtnh_agent_world_memory_bytes"], "no world: no memory gauge")

	fs.mu.Lock()
	fs.st.PacketsIn, fs.st.Reconnects = 1500, 3
	fs.mu.Unlock()
	fams = scrape(t, url, "")
	assert.Equal(t, 1500.0, counters(t, fams, "gtnh_agent_packets_total", "direction")["in"], "read at each scrape")
	assert.Equal(t, 3.0, counters(t, fams, "gtnh_agent_reconnects_total")[""])
}

func TestServedBodyCountsActions(t *testing.T) {
	w := newSim(t)
	rec := metrics.New(metrics.Options{World: w})
	body := rec.Body(w)
	_, chat := body.(ipc.ChatSource)
	_, simChat := ipc.Body(w).(ipc.ChatSource)
	assert.Equal(t, simChat, chat, "the counted body keeps the body's chat")
	ctx := context.Background()
	body.Execute(ctx, action.Wait{Ticks: 5})
	body.Execute(ctx, action.Wait{Ticks: 5})
	body.Execute(ctx, action.MoveTo{Pos: world.BlockPos{X: 0, Y: -500, Z: 0}})
	fams := scrape(t, serveLoopback(t, rec, metrics.ServeOptions{}), "")
	got := counters(t, fams, "gtnh_agent_actions_total", "kind", "code")
	assert.Equal(t, 2.0, got["wait/ok"], "%v", got)
	total := 0.0
	for _, n := range got {
		total += n
	}
	assert.Equal(t, 3.0, total, "%v", got)
	assert.Equal(t, 0.0, got["move_to/ok"], "%v", got)
}

func TestRegistryPerRecorder(t *testing.T) {
	a := metrics.New(metrics.Options{})
	b := metrics.New(metrics.Options{})
	a.OnStep(loop.StepRecord{Verdict: loop.Noop})
	fa, err := a.Registry().Gather()
	require.NoError(t, err)
	fb, err := b.Registry().Gather()
	require.NoError(t, err)
	count := func(fams []*dto.MetricFamily) int {
		for _, f := range fams {
			if f.GetName() == "gtnh_agent_steps_total" {
				return len(f.GetMetric())
			}
		}
		return 0
	}
	assert.Equal(t, 1, count(fa))
	assert.Equal(t, 0, count(fb), "two recorders count apart")
}

// scrapingConn scrapes url while each action executes: the scrape is
// started before the action and waited for after it, with nothing
// ordering the two, so the race detector sees every access they share.
type scrapingConn struct {
	ipc.Conn
	t       *testing.T
	url     string
	scrapes int
}

func (c *scrapingConn) Execute(ctx context.Context, a action.Action) (ipc.Result, error) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := http.Get(c.url)
		if !assert.NoError(c.t, err) {
			return
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		assert.NoError(c.t, err)
		assert.Equal(c.t, http.StatusOK, resp.StatusCode)
	}()
	res, err := c.Conn.Execute(ctx, a)
	<-done
	c.scrapes++
	return res, err
}

// TestScrapeDuringRun scrapes while the world changes (run it with
// -race): the world model's memory is read from a snapshot, the counters
// are atomic, and the run's outcome is the one a run without metrics has.
func TestScrapeDuringRun(t *testing.T) {
	reg := loadRegistry(t)
	ctx := context.Background()
	goal, err := loop.GoalParser{Tiers: reg.Tiers()}.Parse(benchGoal)
	require.NoError(t, err)
	play := func(conn ipc.Conn, rec *metrics.Recorder) loop.Outcome {
		cfg := loop.Config{Registry: reg, Conn: conn, Planner: chain.Planner{}, Goal: goal}
		if rec != nil {
			cfg.Planner, cfg.OnStep = rec.Planner(cfg.Planner), rec.OnStep
		}
		l, err := loop.New(ctx, cfg)
		require.NoError(t, err)
		out, err := l.Run(ctx)
		require.NoError(t, err)
		return out
	}
	plain := play(ipc.InProcess(newSim(t)), nil)

	w := newSim(t)
	rec := metrics.New(metrics.Options{Skills: reg.Names(), World: w})
	conn := &scrapingConn{Conn: ipc.InProcess(w), t: t, url: serveLoopback(t, rec, metrics.ServeOptions{})}
	out := play(conn, rec)
	assert.Greater(t, conn.scrapes, 10)
	assert.Equal(t, plain.Steps, out.Steps)
	assert.Equal(t, plain.Ticks, out.Ticks)
	assert.True(t, out.GoalMet)
}
