package metrics

import (
	"context"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Namespace prefixes every metric of the agent (the Go runtime's own
// metrics keep their go_ and process_ names).
const Namespace = "gtnh_agent"

// Label values for what has no name of its own.
const (
	// Other stands for a skill the registry does not know (a model may
	// name one), an action kind or a result code outside the taxonomy (a
	// remote body may answer one): the label's values stay a fixed set.
	Other = "other"
	// None is the skill of a step with no invocation (the planner failed).
	None = "none"
)

// Connection is what a scrape reads of the live connection to a server:
// cumulative counts since the client started.
type Connection struct {
	PacketsIn, PacketsOut int64
	// Malformed counts the packets dropped because they did not decode,
	// by packet name.
	Malformed  map[string]int64
	Reconnects int
}

// WorldSource owns a world model (sim.Sim and gtnh.Client implement it).
type WorldSource interface {
	State() *world.State
}

// Options configure a Recorder.
type Options struct {
	// Skills are the skill names counted under their own label; steps of
	// any other name count under Other.
	Skills []string
	// Conn, when set, is called at each scrape for the packet, malformed
	// packet and reconnect counters; it must be safe to call from another
	// goroutine and return a copy.
	Conn func() Connection
	// World, when set, is read at each scrape for the memory its loaded
	// chunk columns hold.
	World WorldSource
}

// Recorder counts what a run does into its own registry.
type Recorder struct {
	reg     *prometheus.Registry
	skills  map[string]bool
	kinds   map[action.Kind]bool
	steps   *prometheus.CounterVec
	actions *prometheus.CounterVec
	latency prometheus.Histogram
	tokens  *prometheus.CounterVec
	calls   prometheus.Counter
}

// New returns a Recorder with a registry of its own, holding the agent's
// metrics and the Go runtime and process collectors.
func New(opts Options) *Recorder {
	r := &Recorder{
		reg:    prometheus.NewRegistry(),
		skills: map[string]bool{},
		kinds:  map[action.Kind]bool{},
		steps: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "steps_total",
			Help: "Steps of the plan-act loop, by skill and verdict."}, []string{"skill", "verdict"}),
		actions: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "actions_total",
			Help: "Actions the body executed, by kind and result code."}, []string{"kind", "code"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: "planner_latency_seconds",
			Help:    "Time the planner took to decide one step, in seconds.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 10)}),
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "model_tokens_total",
			Help: "Tokens a language model planner's server reported, by direction (in: prompt, out: completion)."}, []string{"direction"}),
		calls: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "model_calls_total",
			Help: "Calls a language model planner made, retries included."}),
	}
	for _, s := range opts.Skills {
		r.skills[s] = true
	}
	for _, k := range action.Kinds() {
		r.kinds[k] = true
	}
	r.reg.MustRegister(r.steps, r.actions, r.latency, r.tokens, r.calls,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if opts.Conn != nil || opts.World != nil {
		r.reg.MustRegister(newLiveCollector(opts.Conn, opts.World))
	}
	return r
}

// Registry is the registry the Recorder counts into.
func (r *Recorder) Registry() *prometheus.Registry { return r.reg }

// OnStep counts one step of the loop and the actions it executed (for
// loop.Config.OnStep).
func (r *Recorder) OnStep(rec loop.StepRecord) {
	skill := None
	if rec.Invocation != nil {
		skill = r.skillLabel(rec.Invocation.Skill)
	}
	r.steps.WithLabelValues(skill, string(rec.Verdict)).Inc()
	for i, env := range rec.Actions {
		if i >= len(rec.Results) {
			break // not executed
		}
		r.countAction(env.Action, rec.Results[i])
	}
	if p := rec.Planner; p != nil {
		if p.TokensIn > 0 {
			r.tokens.WithLabelValues("in").Add(float64(p.TokensIn))
		}
		if p.TokensOut > 0 {
			r.tokens.WithLabelValues("out").Add(float64(p.TokensOut))
		}
		if p.Calls > 0 {
			r.calls.Add(float64(p.Calls))
		}
	}
}

func (r *Recorder) skillLabel(name string) string {
	if r.skills[name] {
		return name
	}
	return Other
}

func (r *Recorder) countAction(a action.Action, res ipc.Result) {
	kind := Other
	if a != nil && r.kinds[a.Kind()] {
		kind = string(a.Kind())
	}
	code := Other
	if res.Code.Valid() {
		code = string(res.Code)
	}
	r.actions.WithLabelValues(kind, code).Inc()
}

// Planner returns p timed: each Plan call is observed in the planner
// latency histogram, whether it decides, finishes or fails.
func (r *Recorder) Planner(p loop.Planner) loop.Planner {
	return loop.PlannerFunc(func(ctx context.Context, goal loop.Goal, obs loop.Observation, catalog []*registry.Description) (loop.Decision, error) {
		start := time.Now()
		d, err := p.Plan(ctx, goal, obs, catalog)
		r.latency.Observe(time.Since(start).Seconds())
		return d, err
	})
}

// Body returns b with every executed action counted, for a served body
// whose steps another process runs. It keeps b's chat (ipc.ChatSource).
func (r *Recorder) Body(b ipc.Body) ipc.Body {
	cb := countedBody{Body: b, r: r}
	if cs, ok := b.(ipc.ChatSource); ok {
		return countedChatBody{countedBody: cb, ChatSource: cs}
	}
	return cb
}

type countedBody struct {
	ipc.Body
	r *Recorder
}

// Execute implements ipc.Body.
func (b countedBody) Execute(ctx context.Context, a action.Action) ipc.Result {
	res := b.Body.Execute(ctx, a)
	b.r.countAction(a, res)
	return res
}

type countedChatBody struct {
	countedBody
	ipc.ChatSource
}

var (
	_ ipc.Body       = countedBody{}
	_ ipc.ChatSource = countedChatBody{}
)

// liveCollector reads the connection's counters and the world model's
// memory when a scrape asks: each is copied under its owner's lock, which
// is released before anything is written to the scraper.
type liveCollector struct {
	conn  func() Connection
	world WorldSource

	packets, malformed, reconnects, memory, columns *prometheus.Desc
}

func newLiveCollector(conn func() Connection, w WorldSource) *liveCollector {
	name := func(n string) string { return prometheus.BuildFQName(Namespace, "", n) }
	return &liveCollector{conn: conn, world: w,
		packets:    prometheus.NewDesc(name("packets_total"), "Packets of the play state, by direction (in: from the server, out: to it).", []string{"direction"}, nil),
		malformed:  prometheus.NewDesc(name("malformed_packets_total"), "Packets that did not decode and were dropped, by packet name (at most 128 names, the rest under other).", []string{"packet"}, nil),
		reconnects: prometheus.NewDesc(name("reconnects_total"), "Successful reconnects to the server.", nil, nil),
		memory:     prometheus.NewDesc(name("world_memory_bytes"), "Estimated memory held by the loaded chunk columns of the world model.", nil, nil),
		columns:    prometheus.NewDesc(name("world_columns"), "Chunk columns loaded in the world model.", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *liveCollector) Describe(ch chan<- *prometheus.Desc) {
	if c.conn != nil {
		ch <- c.packets
		ch <- c.malformed
		ch <- c.reconnects
	}
	if c.world != nil {
		ch <- c.memory
		ch <- c.columns
	}
}

// Collect implements prometheus.Collector.
func (c *liveCollector) Collect(ch chan<- prometheus.Metric) {
	if c.conn != nil {
		st := c.conn()
		ch <- prometheus.MustNewConstMetric(c.packets, prometheus.CounterValue, float64(st.PacketsIn), "in")
		ch <- prometheus.MustNewConstMetric(c.packets, prometheus.CounterValue, float64(st.PacketsOut), "out")
		// The server chooses packet and channel names: a label value must
		// be valid UTF-8, and two names made equal by that add up.
		malformed := map[string]int64{}
		for name, n := range st.Malformed {
			malformed[strings.ToValidUTF8(name, "?")] += n
		}
		for name, n := range malformed {
			ch <- prometheus.MustNewConstMetric(c.malformed, prometheus.CounterValue, float64(n), name)
		}
		ch <- prometheus.MustNewConstMetric(c.reconnects, prometheus.CounterValue, float64(st.Reconnects))
	}
	if c.world != nil {
		if st := c.world.State(); st != nil {
			if chunks, ok := world.ChunksOf(st.Snapshot().Blocks); ok {
				ch <- prometheus.MustNewConstMetric(c.memory, prometheus.GaugeValue, float64(chunks.MemBytes()))
				ch <- prometheus.MustNewConstMetric(c.columns, prometheus.GaugeValue, float64(chunks.Columns()))
			}
		}
	}
}
