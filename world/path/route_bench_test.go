package path

import (
	"fmt"
	"math"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// tiledGrid is the benchmark world mirrored every 256 blocks along x and
// z: an endless world without seams (each copy meets its mirror image).
type tiledGrid struct{ g *BenchGrid }

func mirror(v int) int {
	m := v & 511
	if m >= benchworld.SX {
		m = 511 - m
	}
	return m
}

func (t tiledGrid) Cell(x, y, z int) Cell { return t.g.Cell(mirror(x), y, mirror(z)) }

func (t tiledGrid) Column(x, z, y0 int, out []Cell) { t.g.Column(mirror(x), mirror(z), y0, out) }

func (t tiledGrid) View() Grid { return t }

var sharedTiled tiledGrid

func tiled() tiledGrid {
	if sharedTiled.g == nil {
		sharedTiled = tiledGrid{NewBenchGrid(sharedWorld())}
	}
	return sharedTiled
}

// tiledStand is a feet position on the ground of the tiled world at (x, z),
// shifted +x until the block below is grass (as the benchmark cases are).
func tiledStand(x, z int) world.BlockPos {
	w := sharedWorld()
	for {
		mx, mz := mirror(x), mirror(z)
		y := w.StandY(mx, mz)
		if w.ID(mx, y-1, mz) == benchworld.Grass {
			return world.Pos(x, y, z)
		}
		x++
	}
}

// longRoute is a route of about dist blocks (XZ, Euclidean) from (20, 30)
// at a bearing that crosses the walls of the tiled world and its hills.
func longRoute(dist int) (world.BlockPos, world.BlockPos) {
	const bearing = 0.35 // radians from +x
	x := 20 + int(math.Round(float64(dist)*math.Cos(bearing)))
	z := 30 + int(math.Round(float64(dist)*math.Sin(bearing)))
	return tiledStand(20, 30), tiledStand(x, z)
}

var scaleDistances = []int{50, 100, 200, 500, 1000, 2000, 5000}

// BenchmarkLongRoute times the Router on the tiled world with its
// abstraction cached: a first route builds the regions it needs (cold-ms,
// of which build-ms building regions), the timed ones reuse them. Compare
// ticks with BenchmarkExactRoute's, the optimum.
func BenchmarkLongRoute(b *testing.B) {
	g := tiled()
	for _, d := range scaleDistances {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			from, to := longRoute(d)
			r, err := NewRouter(g, RouteOptions{})
			require.NoError(b, err)
			first, err := r.Find(from, At(to))
			require.NoError(b, err)
			require.True(b, first.Complete, "%v", first.Reason)
			var rt Route
			for b.Loop() {
				rt, err = r.Find(from, At(to))
				require.NoError(b, err)
			}
			b.ReportMetric(float64(rt.Expanded), "expanded")
			b.ReportMetric(float64(rt.AbstractExpanded), "portals")
			b.ReportMetric(rt.Cost, "ticks")
			b.ReportMetric(float64(first.BuildTime.Microseconds())/1000, "build-ms")
			b.ReportMetric(float64(first.Elapsed.Microseconds())/1000, "cold-ms")
			b.ReportMetric(float64(first.RegionsBuilt), "regions")
			b.ReportMetric(float64(first.RowsBuilt), "rows")
		})
	}
}

// BenchmarkExactRoute is the exact A* on the same routes: the before
// figures and the optimum the Router's cost is measured against.
func BenchmarkExactRoute(b *testing.B) {
	g := tiled()
	for _, d := range scaleDistances {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			from, to := longRoute(d)
			f := NewFinder()
			var res Result
			for b.Loop() {
				var err error
				res, err = f.Find(g, from, At(to), Options{MaxNodes: 200_000_000})
				require.NoError(b, err)
				require.True(b, res.Complete)
			}
			b.ReportMetric(float64(res.Expanded), "expanded")
			b.ReportMetric(res.Cost, "ticks")
		})
	}
}

// BenchmarkFrontierRoute plans one segment toward a goal far outside the
// loaded terrain: the columns within 10 chunks of the start (a view
// distance of 10) are loaded, the route ends on their edge.
func BenchmarkFrontierRoute(b *testing.B) {
	g := tiled()
	for _, d := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			from, to := longRoute(d)
			c := regionOf(from.X, from.Z)
			loaded := func(cx, cz int) bool { return abs(cx-c.cx) <= 10 && abs(cz-c.cz) <= 10 }
			r, err := NewRouter(g, RouteOptions{Loaded: loaded})
			require.NoError(b, err)
			first, err := r.Find(from, At(to))
			require.NoError(b, err)
			require.Equal(b, ReachedFrontier, first.Reason)
			var rt Route
			for b.Loop() {
				rt, err = r.Find(from, At(to))
				require.NoError(b, err)
			}
			end := rt.Steps[len(rt.Steps)-1].Pos
			b.ReportMetric(float64(rt.Expanded), "expanded")
			b.ReportMetric(float64(rt.AbstractExpanded), "portals")
			b.ReportMetric(float64(first.Elapsed.Microseconds())/1000, "cold-ms")
			b.ReportMetric(float64(first.RegionsBuilt), "regions")
			b.ReportMetric(float64(max(abs(end.X-from.X), abs(end.Z-from.Z))), "reach-blocks")
		})
	}
}

// cpuTime is the CPU time the process has used (user and system): on a
// shared machine it varies less with the load than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkColdRoute times the first route through new terrain: each
// iteration plans with a new Router, so every region the route reaches is
// built (its portals, the borders they come from and the costs between
// them), by the search alone (workers=0) or with a worker computing the
// costs between portals alongside it (workers=1). build-ms is the time
// spent building, summed over the goroutines; us/region that per region
// built.
func BenchmarkColdRoute(b *testing.B) {
	g := tiled()
	for _, d := range []int{1000, 5000} {
		for _, workers := range []int{0, 1} {
			b.Run(fmt.Sprintf("d=%d/workers=%d", d, workers), func(b *testing.B) {
				from, to := longRoute(d)
				var rt Route
				cpu := cpuTime()
				for b.Loop() {
					r, err := NewRouter(g, RouteOptions{Workers: workers})
					require.NoError(b, err)
					rt, err = r.Find(from, At(to))
					require.NoError(b, err)
					require.True(b, rt.Complete, "%v", rt.Reason)
				}
				b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
				b.ReportMetric(float64(rt.BuildTime.Microseconds())/1000, "build-ms")
				b.ReportMetric(float64(rt.RegionsBuilt), "regions")
				b.ReportMetric(float64(rt.RowsBuilt), "rows")
				b.ReportMetric(float64(rt.BuildTime.Microseconds())/float64(max(rt.RegionsBuilt, 1)), "us/region")
				b.ReportMetric(rt.Cost, "ticks")
			})
		}
	}
}
