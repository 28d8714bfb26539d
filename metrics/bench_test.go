package metrics_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/metrics"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// benchGoal is agent run's default goal.
const benchGoal = "have 8 minecraft:stick and collect 8 minecraft:log"

// benchRun plays benchGoal in a fresh simulated world, built outside the
// timer. With metrics, as agent run --metrics does: a Recorder with its
// registry, served on a loopback listener for the run, counting every step
// and timing the planner; scrape adds one full scrape at the end of the run.
func benchRun(b *testing.B, reg *registry.Registry, withMetrics, scrape bool) (cpu time.Duration) {
	b.StopTimer()
	w := newSim(b)
	goal, err := loop.GoalParser{Tiers: reg.Tiers()}.Parse(benchGoal)
	require.NoError(b, err)
	ctx := context.Background()
	b.StartTimer()
	start := processCPU(b)
	cfg := loop.Config{Registry: reg, Conn: ipc.InProcess(w), Planner: chain.Planner{}, Goal: goal}
	var url string
	stop := func() {}
	if withMetrics {
		rec := metrics.New(metrics.Options{Skills: reg.Names(), World: w})
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(b, err)
		url = "http://" + ln.Addr().String() + metrics.Path
		sctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- rec.Serve(sctx, ln, metrics.ServeOptions{}) }()
		stop = func() {
			cancel()
			require.NoError(b, <-done)
		}
		cfg.Planner = rec.Planner(cfg.Planner)
		cfg.OnStep = rec.OnStep
	}
	l, err := loop.New(ctx, cfg)
	require.NoError(b, err)
	out, err := l.Run(ctx)
	require.NoError(b, err)
	require.True(b, out.GoalMet)
	if scrape {
		resp, err := http.Get(url)
		require.NoError(b, err)
		_, err = io.Copy(io.Discard, resp.Body)
		require.NoError(b, err)
		resp.Body.Close()
		require.Equal(b, http.StatusOK, resp.StatusCode)
	}
	stop()
	return processCPU(b) - start
}

// BenchmarkRunWithoutMetrics and BenchmarkRunWithMetrics time the same
// simulated run (agent run's default goal, the world built outside the
// timer) without and with metrics; the "scraped" variant scrapes once per
// run, far more often than a Prometheus server scrapes a run this short.
// Compare with -count 10 and benchstat; docs/metrics.md quotes the figures.
func BenchmarkRunWithoutMetrics(b *testing.B) {
	reg := loadRegistry(b)
	cpu := cpuTime(b)
	for b.Loop() {
		benchRun(b, reg, false, false)
	}
	cpu.report(b)
}

func BenchmarkRunWithMetrics(b *testing.B) {
	reg := loadRegistry(b)
	b.Run("served", func(b *testing.B) {
		cpu := cpuTime(b)
		for b.Loop() {
			benchRun(b, reg, true, false)
		}
		cpu.report(b)
	})
	b.Run("scraped", func(b *testing.B) {
		cpu := cpuTime(b)
		for b.Loop() {
			benchRun(b, reg, true, true)
		}
		cpu.report(b)
	})
}

// BenchmarkRunMetricsOverhead alternates the two runs of
// BenchmarkRunWithMetrics/served and BenchmarkRunWithoutMetrics, so that
// the machine's changing load falls on both alike, and reports the
// process CPU of each (the world's building left out) and the share
// metrics add.
func BenchmarkRunMetricsOverhead(b *testing.B) {
	reg := loadRegistry(b)
	var with, without time.Duration
	for b.Loop() {
		without += benchRun(b, reg, false, false)
		with += benchRun(b, reg, true, false)
	}
	b.ReportMetric(float64(without)/float64(b.N), "cpu-ns/run-without")
	b.ReportMetric(float64(with)/float64(b.N), "cpu-ns/run-with")
	b.ReportMetric(100*float64(with-without)/float64(without), "%-more-cpu")
}

// cpuClock measures the process's CPU time (user and system, every
// goroutine: the loop, the metrics server, the garbage collector) over a
// benchmark, the figure the bound is about; wall time on a shared machine
// is mostly other processes' load. The world built outside the timer is
// counted too, equally with and without metrics.
type cpuClock struct{ start time.Duration }

func cpuTime(b *testing.B) cpuClock { return cpuClock{start: processCPU(b)} }

func (c cpuClock) report(b *testing.B) {
	b.ReportMetric(float64(processCPU(b)-c.start)/float64(b.N), "cpu-ns/op")
}

func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkOnStep is the cost metrics add to one step: a step of chop_tree
// with eight actions counted, and the planner's decision timed.
func BenchmarkOnStep(b *testing.B) {
	reg := loadRegistry(b)
	rec := metrics.New(metrics.Options{Skills: reg.Names()})
	r := loop.StepRecord{Step: 1, Invocation: &loop.Invocation{Skill: "chop_tree"}, Verdict: loop.Success}
	for range 8 {
		r.Actions = append(r.Actions, action.Envelope{Action: action.BreakBlock{}})
		r.Results = append(r.Results, ipc.Result{Code: ipc.OK})
	}
	pl := rec.Planner(loop.PlannerFunc(func(context.Context, loop.Goal, loop.Observation, []*registry.Description) (loop.Decision, error) {
		return loop.Decision{}, nil
	}))
	ctx := context.Background()
	for b.Loop() {
		_, _ = pl.Plan(ctx, loop.Goal{}, loop.Observation{}, nil)
		rec.OnStep(r)
	}
}

// BenchmarkScrape is the cost of one scrape of a run's metrics (the
// runtime's and the process's included, the world model's memory walked),
// answered in the text format.
func BenchmarkScrape(b *testing.B) {
	reg := loadRegistry(b)
	w := newSim(b)
	rec := metrics.New(metrics.Options{Skills: reg.Names(), World: w})
	simRun(b, rec, reg, w, benchGoal, nil)
	h := rec.Handler(metrics.ServeOptions{})
	req := httptest.NewRequest(http.MethodGet, metrics.Path, nil)
	for b.Loop() {
		rw := httptest.NewRecorder()
		h.ServeHTTP(rw, req)
		require.Equal(b, http.StatusOK, rw.Code)
	}
}

// BenchmarkNewRecorder is what a run with metrics pays once: the registry
// and its collectors.
func BenchmarkNewRecorder(b *testing.B) {
	reg := loadRegistry(b)
	names := reg.Names()
	for b.Loop() {
		metrics.New(metrics.Options{Skills: names})
	}
}
