package path

import (
	"container/heap"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// pathCase is one of the BENCHMARKS.md path cases with mineflayer-pathfinder
// 2.4.5's figures in walk mode.
type pathCase struct {
	name           string
	fromX, fromZ   int
	toX, toZ       int
	mfNodes        int
	mfCost, mfWarm float64 // mineflayer units, milliseconds
}

var pathCases = []pathCase{
	{"P1", 20, 20, 70, 60, 92, 67.2, 48},
	{"P2", 10, 10, 120, 120, 1644, 167.9, 418},
	{"P3", 10, 20, 100, 250, 5929, 272.3, 1441},
	{"P4", 100, 40, 160, 40, 28171, 393.4, 6918},
}

var (
	benchOnce  sync.Once
	benchWorld *benchworld.World
)

func sharedWorld() *benchworld.World {
	benchOnce.Do(func() { benchWorld = benchworld.Generate(1337) })
	return benchWorld
}

// standPos is a case's feet position: on top of the column's ground; a
// column topped by a tree, leaves or water is shifted +x until the block
// below the feet is grass (BENCHMARKS.md).
func standPos(w *benchworld.World, x, z int) world.BlockPos {
	for {
		y := w.StandY(x, z)
		if w.ID(x, y-1, z) == benchworld.Grass {
			return world.Pos(x, y, z)
		}
		x++
	}
}

// mineflayerCost re-evaluates a path in mineflayer-pathfinder 2.4.5's unit
// costs (lib/movements.js): a cardinal walk or drop (any height) 1, a
// cardinal jump up 2, any diagonal move √2 (getMoveDiagonal charges √2 for
// its level, jump-up and drop variants alike), a vertical move 1. With
// diagJump set, a diagonal jump up costs √2+1 instead: the stricter reading
// of "jump up 2" that BENCHMARKS.md's summary suggests.
func mineflayerCost(steps []Step, diagJump bool) float64 {
	total := 0.0
	for i := 1; i < len(steps); i++ {
		total += mineflayerStep(steps[i-1].Pos, steps[i].Pos, diagJump)
	}
	return total
}

func mineflayerStep(a, b world.BlockPos, diagJump bool) float64 {
	switch abs(b.X-a.X) + abs(b.Z-a.Z) {
	case 0:
		return 1
	case 1:
		if b.Y > a.Y {
			return 2
		}
		return 1
	default:
		if diagJump && b.Y > a.Y {
			return math.Sqrt2 + 1
		}
		return math.Sqrt2
	}
}

// mineflayerOptimum is the cheapest path in mineflayer units over this
// package's move graph (Dijkstra): how close any path this pathfinder can
// return may come to mineflayer-pathfinder's cost.
func mineflayerOptimum(t testing.TB, g Grid, start, goal world.BlockPos, diagJump bool) float64 {
	const scale = 1e9
	f := moveGen(t, g, Options{}, At(goal))
	dist := map[world.BlockPos]int64{start: 0}
	q := &pq{{start, 0}}
	for q.Len() > 0 {
		it := heap.Pop(q).(pqItem)
		if it.d > dist[it.p] {
			continue
		}
		if it.p == goal {
			return float64(it.d) / scale
		}
		feet := g.Cell(it.p.X, it.p.Y, it.p.Z)
		for _, m := range f.neighbors(it.p.X, it.p.Y, it.p.Z, feet) {
			p := world.Pos(m.x, m.y, m.z)
			d := it.d + int64(mineflayerStep(it.p, p, diagJump)*scale)
			if old, ok := dist[p]; !ok || d < old {
				dist[p] = d
				heap.Push(q, pqItem{p, d})
			}
		}
	}
	return math.Inf(1)
}

func runCase(t testing.TB, f *Finder, g Grid, c pathCase, opt Options) Result {
	w := sharedWorld()
	from, to := standPos(w, c.fromX, c.fromZ), standPos(w, c.toX, c.toZ)
	res, err := f.Find(g, from, At(to), opt)
	require.NoError(t, err)
	require.True(t, res.Complete, "%s: %s after %d nodes", c.name, res.Reason, res.Expanded)
	return res
}

// TestBenchmarkCases checks the walking paths on the shared world: complete,
// valid step by step, and no longer than mineflayer-pathfinder's in its own
// units (its listed costs have one decimal, so ours are compared rounded).
func TestBenchmarkCases(t *testing.T) {
	g := NewBenchGrid(sharedWorld())
	f := NewFinder()
	for _, c := range pathCases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			res := runCase(t, f, g, c, Options{})
			el := time.Since(start)
			mf, strict := mineflayerCost(res.Steps, false), mineflayerCost(res.Steps, true)
			from, to := res.Steps[0].Pos, res.Steps[len(res.Steps)-1].Pos
			t.Logf("%s %v→%v: expanded %d, generated %d, %d steps, %.1f ticks, %v; mineflayer units %.2f (listed %.1f; graph optimum %.2f), "+
				"with diagonal jumps at √2+1 %.2f (graph optimum %.2f)",
				c.name, from, to, res.Expanded, res.Generated, len(res.Steps), res.Cost, el,
				mf, c.mfCost, mineflayerOptimum(t, g, from, to, false), strict, mineflayerOptimum(t, g, from, to, true))
			assert.LessOrEqual(t, math.Round(mf*10)/10, c.mfCost, "path longer than mineflayer-pathfinder's in its own units")
			checkPath(t, g, res, Options{})
		})
	}
}

func BenchmarkPath(b *testing.B) {
	g := NewBenchGrid(sharedWorld())
	for _, c := range pathCases {
		b.Run(c.name, func(b *testing.B) {
			f := NewFinder()
			var res Result
			nodes := 0
			for b.Loop() {
				res = runCase(b, f, g, c, Options{})
				nodes += res.Expanded
			}
			b.ReportMetric(float64(res.Expanded), "expanded")
			b.ReportMetric(res.Cost, "ticks")
			b.ReportMetric(mineflayerCost(res.Steps, false), "mf-units")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
