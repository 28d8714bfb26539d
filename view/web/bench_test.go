package web_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"runtime"
	"sync"
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
	hooksOnly        // the view's hooks on the loop, the planner and the body, nothing served
	unwatched        // the view served, nobody watching
	watched          // the view served, one page open: the event stream read, the map fetched
	modes
)

var modeNames = [modes]string{"without", "hooks", "unwatched", "watched"}

// benchCPU is the process's CPU time one benchmarked run took: around the
// run, the view's server started and stopped (and, watched, the page's
// first requests); during it, the loop (and the page's requests while it
// plays). steps counts the run's steps.
type benchCPU struct {
	around, during time.Duration
	steps          int
}

func (c benchCPU) total() time.Duration { return c.around + c.during }

// benchRun plays benchGoal in a fresh simulated world (built outside the
// timer) as agent run --ui does: with the view, the hooks on the loop, the
// planner and the body, the server on a loopback listener and, watched, a
// page's requests.
func benchRun(b *testing.B, reg *registry.Registry, mode int) benchCPU {
	return benchPlay(b, reg, mode, "", benchGoal)
}

// stoneAgeGoal is the Stone Age milestone of the fresh_start scenario
// (about 320 steps).
const stoneAgeGoal = "build coke_oven and collect 8 minecraft:coal:1"

// benchPlay plays goal in a fresh world of the scenario ("" the default)
// with the view as mode says.
func benchPlay(b *testing.B, reg *registry.Registry, mode int, scenario, goalText string) benchCPU {
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
	// The world's building leaves garbage behind: collect it now, or its
	// collection falls into the run measured, more in one run than in
	// another.
	runtime.GC()
	b.StartTimer()
	start := processCPU(b)
	cfg := loop.Config{Registry: reg, Conn: ipc.InProcess(w), Planner: chain.Planner{}, Goal: goal, MaxSteps: 1000}
	stop := func() {}
	if mode == hooksOnly {
		v := web.New(web.Options{Title: "bench", Goal: goalText, World: w})
		cfg.Conn, cfg.Planner, cfg.OnStep = v.Conn(cfg.Conn), v.Planner(cfg.Planner), v.OnStep
		stop = func() { v.Ended(loop.Outcome{}) }
	}
	if mode >= unwatched {
		v := web.New(web.Options{Title: "bench", Goal: goalText, World: w})
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(b, err)
		base := "http://" + ln.Addr().String()
		sctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		accepting := make(chan struct{})
		go func() { done <- v.Serve(sctx, acceptingListener{ln, accepting, &sync.Once{}}, web.ServeOptions{}) }()
		// The server waits for browsers before the run starts: its
		// starting is the listener's fixed cost, not the run's.
		<-accepting
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
	started := processCPU(b)
	l, err := loop.New(ctx, cfg)
	require.NoError(b, err)
	out, err := l.Run(ctx)
	require.NoError(b, err)
	require.True(b, out.GoalMet)
	ran := processCPU(b)
	stop()
	end := processCPU(b)
	return benchCPU{around: started - start + end - ran, during: ran - started, steps: out.Steps}
}

// viewOverhead alternates the same simulated run without the view, with
// the view's hooks alone (nothing served: what the loop pays per step),
// with the view served and nobody watching, and with one page open, in
// turn and each round starting with the next, so that the machine's
// changing load falls on all alike, and reports the
// process CPU of each (the world's building left out): in all, and of the
// run alone (the loop; watched, with the page's requests while it plays),
// the share the view adds in all and to the run alone, and, for the
// hooks, their CPU per step. The listener's own fixed cost, apart from
// any run, is BenchmarkServeIdle's.
func viewOverhead(b *testing.B, play func(mode int) benchCPU) {
	var cpu [modes]benchCPU
	for i := 0; b.Loop(); i++ {
		// Each round starts with another mode: what one run leaves
		// behind (a server's connections closing, garbage) falls on
		// every mode alike.
		for k := range modes {
			mode := (i + k) % modes
			c := play(mode)
			cpu[mode].around += c.around
			cpu[mode].during += c.during
			cpu[mode].steps += c.steps
		}
	}
	n := float64(b.N)
	without := float64(cpu[noView].total())
	b.ReportMetric(without/n, "cpu-ns/run-without")
	for mode := hooksOnly; mode < modes; mode++ {
		c, name := cpu[mode], modeNames[mode]
		b.ReportMetric(float64(c.total())/n, "cpu-ns/run-"+name)
		if mode != hooksOnly {
			b.ReportMetric(float64(c.around)/n, "cpu-ns/serving-"+name)
		}
		b.ReportMetric(100*(float64(c.total())-without)/without, "%-more-cpu-"+name)
		b.ReportMetric(100*float64(c.during-cpu[noView].during)/float64(cpu[noView].during), "%-more-loop-cpu-"+name)
	}
	if steps := cpu[hooksOnly].steps; steps > 0 {
		b.ReportMetric(float64(cpu[hooksOnly].during-cpu[noView].during)/float64(steps), "cpu-ns/step-hooks")
	}
}

// BenchmarkServeIdle is the listener's fixed cost, apart from any run:
// the process CPU of opening a loopback listener, serving the view until
// the server waits for browsers, and closing it, as agent run --ui does
// around a run.
func BenchmarkServeIdle(b *testing.B) {
	v := web.New(web.Options{Title: "bench"})
	var cpu time.Duration
	for b.Loop() {
		start := processCPU(b)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(b, err)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		accepting := make(chan struct{})
		go func() { done <- v.Serve(ctx, acceptingListener{ln, accepting, &sync.Once{}}, web.ServeOptions{}) }()
		<-accepting
		cancel()
		require.NoError(b, <-done)
		cpu += processCPU(b) - start
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/open-serve-close")
}

// acceptingListener closes accepting when the server first waits for a
// connection.
type acceptingListener struct {
	net.Listener
	accepting chan struct{}
	once      *sync.Once
}

func (l acceptingListener) Accept() (net.Conn, error) {
	l.once.Do(func() { close(l.accepting) })
	return l.Listener.Accept()
}

// BenchmarkRunViewOverhead is viewOverhead for agent run's default goal
// (4 steps, a few ms of CPU: the listener's fixed cost shows).
// docs/view.md quotes it.
func BenchmarkRunViewOverhead(b *testing.B) {
	reg := loadRegistry(b)
	viewOverhead(b, func(mode int) benchCPU { return benchRun(b, reg, mode) })
}

func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStoneAgeViewOverhead is viewOverhead for a whole Stone Age
// milestone in the fresh_start scenario (about 320 steps, some seconds of
// CPU each run): the cost of watching a real run, the fixed costs spread.
// Run it with -benchtime 2x or more.
func BenchmarkStoneAgeViewOverhead(b *testing.B) {
	reg := loadRegistry(b)
	viewOverhead(b, func(mode int) benchCPU { return benchPlay(b, reg, mode, "fresh_start", stoneAgeGoal) })
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
