package web_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/view/web"
)

// benchGoal is agent run's default goal.
const benchGoal = "have 8 minecraft:stick and collect 8 minecraft:log"

// Views of a benchmarked run.
const (
	noView    = iota // no view
	unwatched        // the view served, nobody watching
	watched          // the view served, one page open: the event stream read, the map fetched
)

// benchRun plays benchGoal in a fresh simulated world (built outside the
// timer) as agent run --ui does, and returns the process's CPU time it
// took: with the view, the hooks on the loop, the planner and the body,
// the server on a loopback listener and, watched, a page's requests.
func benchRun(b *testing.B, reg *registry.Registry, mode int) time.Duration {
	return benchPlay(b, reg, mode, "", benchGoal)
}

// stoneAgeGoal is the Stone Age milestone of the fresh_start scenario
// (about 320 steps).
const stoneAgeGoal = "build coke_oven and collect 8 minecraft:coal:1"

// benchPlay plays goal in a fresh world of the scenario ("" the default)
// with the view as mode says.
func benchPlay(b *testing.B, reg *registry.Registry, mode int, scenario, goalText string) time.Duration {
	b.StopTimer()
	w := newSim(b)
	if scenario != "" {
		sc, err := sim.Resolve(scenario)
		require.NoError(b, err)
		w, err = sim.New(sc, sim.Options{})
		require.NoError(b, err)
	}
	goal, err := loop.GoalParser{Tiers: reg.Tiers()}.Parse(goalText)
	require.NoError(b, err)
	ctx := context.Background()
	b.StartTimer()
	start := processCPU(b)
	cfg := loop.Config{Registry: reg, Conn: ipc.InProcess(w), Planner: chain.Planner{}, Goal: goal, MaxSteps: 1000}
	stop := func() {}
	if mode != noView {
		v := web.New(web.Options{Title: "bench", Goal: goalText, World: w})
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(b, err)
		base := "http://" + ln.Addr().String()
		sctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- v.Serve(sctx, ln, web.ServeOptions{}) }()
		read := make(chan struct{})
		if mode == watched {
			resp, err := http.Get(base + "/api/events")
			require.NoError(b, err)
			updates := readUpdates(resp.Body)
			<-updates // the page has the state
			m, err := http.Get(base + "/api/map")
			require.NoError(b, err)
			_, _ = io.Copy(io.Discard, m.Body)
			m.Body.Close()
			go func() {
				// As the page does: the map again when the world changed,
				// at most once a second.
				defer close(read)
				last := time.Now()
				var rev uint64
				for u := range updates {
					if u.Status.MapRev == rev || time.Since(last) < time.Second {
						continue
					}
					rev, last = u.Status.MapRev, time.Now()
					if m, err := http.Get(base + "/api/map"); err == nil {
						_, _ = io.Copy(io.Discard, m.Body)
						m.Body.Close()
					}
				}
			}()
			defer resp.Body.Close()
		} else {
			close(read)
		}
		stop = func() {
			v.Ended(loop.Outcome{})
			cancel()
			require.NoError(b, <-done)
			<-read
		}
		cfg.Conn, cfg.Planner, cfg.OnStep = v.Conn(cfg.Conn), v.Planner(cfg.Planner), v.OnStep
	}
	l, err := loop.New(ctx, cfg)
	require.NoError(b, err)
	out, err := l.Run(ctx)
	require.NoError(b, err)
	require.True(b, out.GoalMet)
	stop()
	return processCPU(b) - start
}

// BenchmarkRunViewOverhead alternates the same simulated run (agent run's
// default goal) without the view, with the view served and nobody
// watching, and with one page open, so that the machine's changing load
// falls on all alike, and reports the process CPU of each (the world's
// building left out) and the share the view adds. docs/view.md quotes it.
func BenchmarkRunViewOverhead(b *testing.B) {
	reg := loadRegistry(b)
	var without, unwatchedCPU, watchedCPU time.Duration
	for b.Loop() {
		without += benchRun(b, reg, noView)
		unwatchedCPU += benchRun(b, reg, unwatched)
		watchedCPU += benchRun(b, reg, watched)
	}
	n := float64(b.N)
	b.ReportMetric(float64(without)/n, "cpu-ns/run-without")
	b.ReportMetric(float64(unwatchedCPU)/n, "cpu-ns/run-unwatched")
	b.ReportMetric(float64(watchedCPU)/n, "cpu-ns/run-watched")
	b.ReportMetric(100*float64(unwatchedCPU-without)/float64(without), "%-more-cpu-unwatched")
	b.ReportMetric(100*float64(watchedCPU-without)/float64(without), "%-more-cpu-watched")
}

func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStoneAgeViewOverhead is BenchmarkRunViewOverhead for a whole
// Stone Age milestone in the fresh_start scenario (about 320 steps, some
// seconds of CPU each run): the cost of watching a real run, the fixed
// costs spread. Run it with -benchtime 2x or more.
func BenchmarkStoneAgeViewOverhead(b *testing.B) {
	reg := loadRegistry(b)
	var without, unwatchedCPU, watchedCPU time.Duration
	for b.Loop() {
		without += benchPlay(b, reg, noView, "fresh_start", stoneAgeGoal)
		unwatchedCPU += benchPlay(b, reg, unwatched, "fresh_start", stoneAgeGoal)
		watchedCPU += benchPlay(b, reg, watched, "fresh_start", stoneAgeGoal)
	}
	n := float64(b.N)
	b.ReportMetric(float64(without)/n, "cpu-ns/run-without")
	b.ReportMetric(float64(unwatchedCPU)/n, "cpu-ns/run-unwatched")
	b.ReportMetric(float64(watchedCPU)/n, "cpu-ns/run-watched")
	b.ReportMetric(100*float64(unwatchedCPU-without)/float64(without), "%-more-cpu-unwatched")
	b.ReportMetric(100*float64(watchedCPU-without)/float64(without), "%-more-cpu-watched")
}

// BenchmarkStepHooks is what the view adds to the agent's path for one
// step: the step logged and one action recorded before and after it.
func BenchmarkStepHooks(b *testing.B) {
	v := web.New(web.Options{})
	rec := step(1)
	for b.Loop() {
		v.OnStep(rec)
	}
}

// BenchmarkMap is one map request's work: mapview's extraction of the
// default radius around the bot in the simulated world, in the page's form.
func BenchmarkMap(b *testing.B) {
	w := newSim(b)
	s := w.State().Snapshot()
	f := s.Feet()
	for b.Loop() {
		web.ColumnGrid(s, f.X, f.Z, web.DefaultRadius, 255)
	}
}
