package remote_test

import (
	"context"
	"slices"
	"testing"
	"time"

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
