package metrics_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

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
func benchRun(b *testing.B, reg *registry.Registry, withMetrics, scrape bool) {
	b.StopTimer()
	w := newSim(b)
	goal, err := loop.GoalParser{Tiers: reg.Tiers()}.Parse(benchGoal)
	require.NoError(b, err)
	ctx := context.Background()
	b.StartTimer()
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
}

// BenchmarkRunWithoutMetrics and BenchmarkRunWithMetrics time the same
// simulated run (agent run's default goal, the world built outside the
// timer) without and with metrics; the "scraped" variant scrapes once per
// run, far more often than a Prometheus server scrapes a run this short.
// Compare with -count 10 and benchstat; docs/metrics.md quotes the figures.
func BenchmarkRunWithoutMetrics(b *testing.B) {
	reg := loadRegistry(b)
	for b.Loop() {
		benchRun(b, reg, false, false)
	}
}

func BenchmarkRunWithMetrics(b *testing.B) {
	reg := loadRegistry(b)
	b.Run("served", func(b *testing.B) {
		for b.Loop() {
			benchRun(b, reg, true, false)
		}
	})
	b.Run("scraped", func(b *testing.B) {
		for b.Loop() {
			benchRun(b, reg, true, true)
		}
	})
}
