package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/llm"
	"github.com/gtnh-agent/gtnh-agent/planner/llm/llmtest"
	"github.com/gtnh-agent/gtnh-agent/sim"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base" // the Go skills
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// testKey is a recognisable API key: no output may contain it.
const testKey = "sk-test-KEY-7c1f3e9a5b2d4f60-never-print"

const defaultGoal = "have 8 minecraft:stick and collect 8 minecraft:log"

// shippedCatalog is the shipped registry and knowledge library, as agent run
// has them.
func shippedCatalog(t testing.TB) *catalog.Catalog {
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

// shared is the catalog and first observation most tests read; building
// them (the registry, the knowledge library's safety scan, the world) is
// the slow part of a test. A test whose run changes the registry's metrics
// builds its own catalog.
var shared struct {
	once sync.Once
	cat  *catalog.Catalog
	snap *world.Snapshot
	err  error
}

func sharedFixture(t testing.TB) (*catalog.Catalog, *world.Snapshot) {
	t.Helper()
	shared.once.Do(func() {
		shared.cat = shippedCatalog(t)
		sc, err := sim.DefaultScenario()
		if err != nil {
			shared.err = err
			return
		}
		w, err := sim.New(sc, sim.Options{})
		if err != nil {
			shared.err = err
			return
		}
		shared.snap, shared.err = ipc.InProcess(w).Observe(context.Background())
	})
	require.NoError(t, shared.err)
	return shared.cat, shared.snap
}

// sleeps records the waits between retries instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// fixture is a client and planner against a fake server, with the logs
// captured.
type fixture struct {
	srv     *llmtest.Server
	client  *llm.Client
	planner *llm.Planner
	cat     *catalog.Catalog
	logs    *bytes.Buffer
	sleeps  *sleeps
}

func newFixture(t *testing.T, cfg llm.Config, opts llm.PlannerOptions, replies ...llmtest.Reply) *fixture {
	t.Helper()
	return buildFixture(t, false, cfg, opts, replies...)
}

// newBubbleFixture is a fixture whose client reaches the fake server in
// process, for a test that runs the planner inside a testing/synctest
// bubble (build it outside the bubble). Its waits between retries are real
// waits, on the bubble's clock.
func newBubbleFixture(t *testing.T, cfg llm.Config, opts llm.PlannerOptions, replies ...llmtest.Reply) *fixture {
	t.Helper()
	return buildFixture(t, true, cfg, opts, replies...)
}

func buildFixture(t *testing.T, inProcess bool, cfg llm.Config, opts llm.PlannerOptions, replies ...llmtest.Reply) *fixture {
	t.Helper()
	srv := llmtest.New(t, replies...)
	cfg.URL = srv.URL
	if cfg.Model == "" {
		cfg.Model = "qwen3"
	}
	var logs bytes.Buffer
	log := zerolog.New(&logs)
	sl := &sleeps{}
	env := map[string]string{llm.DefaultKeyEnv: testKey}
	copts := llm.Options{Sleep: sl.sleep, Log: log, Getenv: func(k string) string { return env[k] }}
	if inProcess {
		copts.Sleep = nil
		copts.HTTPClient = &http.Client{Transport: srv.Transport()}
	}
	c, err := llm.NewClient(cfg, copts)
	require.NoError(t, err)
	if opts.Catalog == nil {
		opts.Catalog, _ = sharedFixture(t)
	}
	opts.Log = log
	p, err := llm.NewPlanner(c, opts)
	require.NoError(t, err)
	return &fixture{srv: srv, client: c, planner: p, cat: opts.Catalog, logs: &logs, sleeps: sl}
}

// observation is the first observation of the default scenario.
func (f *fixture) observation(t *testing.T) (loop.Goal, loop.Observation, []*registry.Description) {
	t.Helper()
	_, snap := sharedFixture(t)
	reg := f.cat.Registry
	g, err := loop.ParseGoal(defaultGoal, reg.Tiers())
	require.NoError(t, err)
	g = g.Anchor(snap)
	descs, err := reg.DescribeForTechState(snap.TechState, reg.Packs().Names())
	require.NoError(t, err)
	return g, loop.Observation{Step: 1, Snapshot: snap, Progress: g.Check(snap, reg.Tiers(), false)}, descs
}

// plan asks the planner for one step of the default scenario.
func (f *fixture) plan(t *testing.T) (loop.Decision, error) {
	t.Helper()
	g, obs, descs := f.observation(t)
	return f.planner.Plan(context.Background(), g, obs, descs)
}

// requestMessages returns the messages of the n-th chat request.
func (f *fixture) requestMessages(t *testing.T, n int) []map[string]any {
	t.Helper()
	reqs := f.srv.Requests()
	require.Greater(t, len(reqs), n)
	var body struct {
		Messages []map[string]any `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(reqs[n].Body, &body))
	return body.Messages
}

// lastContent is the content of the last message of the n-th request.
func (f *fixture) lastContent(t *testing.T, n int) string {
	t.Helper()
	msgs := f.requestMessages(t, n)
	c, _ := msgs[len(msgs)-1]["content"].(string)
	return c
}

// noKey fails when any text holds the key.
func noKey(t *testing.T, what string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		require.NotContains(t, s, testKey, what)
		require.NotContains(t, s, testKey[8:24], what+" (part of the key)")
	}
}

func traceText(t *testing.T, tr *loop.PlannerTrace) string {
	t.Helper()
	b, err := json.Marshal(tr)
	require.NoError(t, err)
	return string(b)
}

func joined(ss []string) string { return strings.Join(ss, "\n") }

// fakeClock is a clock that moves only when a wait between retries passes:
// a call's attempts take no time, its waits exactly what they ask.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	c.now = c.now.Add(d)
	return ctx.Err()
}

func (c *fakeClock) all() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}
