package remote_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"

	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// BenchmarkRoundTrip measures one request and its reply over a Unix socket
// (block_at on a small world: the transport dominates). It reports the
// median and the 99th percentile.
func BenchmarkRoundTrip(b *testing.B) {
	addr, _ := serve(b, remote.ServerOptions{Body: newSmall(), Poll: -1}, "unix")
	c := dial(b, addr, remote.ClientOptions{})
	ctx := context.Background()
	req := wire.BlockAtRequest{Pos: world.Pos(5, 4, 5)}
	var rep wire.BlockReply
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if err := c.Call(ctx, wire.TypeBlockAt, req, &rep); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkObserveDelta is an observe with an (empty) block delta on the
// small world over a Unix socket: the snapshot's JSON both ways.
func BenchmarkObserveDelta(b *testing.B) {
	addr, _ := serve(b, remote.ServerOptions{Body: newSmall(), Poll: -1}, "unix")
	c := dial(b, addr, remote.ClientOptions{})
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		if _, err := c.Observe(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRun is a whole run of the default scenario's goal (about forty
// steps) in process and against a server on a Unix socket: the
// difference is the protocol's overhead on a run. World generation is not
// timed.
func BenchmarkRun(b *testing.B) {
	const goal = "have 8 minecraft:stick and collect 8 minecraft:log"
	for _, mode := range []string{"in-process", "unix"} {
		b.Run(mode, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				w := newSim(b, 0)
				var conn ipc.Conn = ipc.InProcess(w)
				var srv *remote.Server
				if mode == "unix" {
					var addr string
					addr, srv = serve(b, remote.ServerOptions{Body: w, Poll: -1}, "unix")
					conn = dial(b, addr, remote.ClientOptions{})
				}
				b.StartTimer()
				_, out := runTrace(b, conn, goal, 60)
				b.StopTimer()
				if !out.GoalMet {
					b.Fatal("the goal was not met")
				}
				if srv != nil {
					conn.Close()
					srv.Close()
				}
				b.StartTimer()
			}
		})
	}
}

// BenchmarkEvents is how many events a body pushes to one observer that
// reads them all: each action replaces 200 entities (400 events).
func BenchmarkEvents(b *testing.B) {
	body := &churn{}
	addr, _ := serve(b, remote.ServerOptions{Body: body, Poll: -1, EventQueue: 1 << 16}, "unix")
	var got, lastAt, sentinel atomic.Int64
	sentinel.Store(-1)
	seen := make(chan struct{})
	var stopped atomic.Bool
	dial(b, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventEntity, wire.EventEntityGone, wire.EventTime},
		OnEvent: func(kind string, p json.RawMessage) {
			if stopped.Load() {
				return
			}
			if kind == wire.EventTime {
				var te wire.TimeEvent
				if json.Unmarshal(p, &te) == nil && te.Tick == sentinel.Load() {
					stopped.Store(true)
					close(seen)
				}
				return
			}
			got.Add(1)
			lastAt.Store(time.Now().UnixNano())
		}})
	agent := dial(b, addr, remote.ClientOptions{})
	ctx := context.Background()
	start := time.Now()
	b.ResetTimer()
	for range b.N {
		if _, err := agent.Execute(ctx, action.Wait{Ticks: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	// One more action, uncounted: its pass reports the time first, so when
	// its tick arrives every event of the actions before it has (events
	// keep their order on a connection).
	sentinel.Store(int64(b.N) + 1)
	if _, err := agent.Execute(ctx, action.Wait{Ticks: 1}); err != nil {
		b.Fatal(err)
	}
	select {
	case <-seen:
	case <-time.After(30 * time.Second):
		b.Fatal("the observer never heard of the last action")
	}
	b.ReportMetric(float64(got.Load())/time.Duration(lastAt.Load()-start.UnixNano()).Seconds(), "events/s")
}
