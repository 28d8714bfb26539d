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

// mineflayerCost re-evaluates a path in mineflayer-pathfinder 2.4.5's real
// unit costs (lib/movements.js, walk mode): getMoveForward 1, getMoveJumpUp
// 2, getMoveDropDown 1 whatever the height, getMoveDiagonal √2 with 1 more
// when it climbs a block (its "jump up by 1" branch: a diagonal jump is
// √2 + 1), forward and diagonal moves 1 more (liquidCost) when the feet
// start in water, vertical moves 1. The bench package applies the same
// costs to mineflayer-pathfinder's own paths and checks they give its own
// cost figures.
func mineflayerCost(g Grid, steps []Step) float64 {
	total := 0.0
	for i := 1; i < len(steps); i++ {
		total += mineflayerStep(g, steps[i-1].Pos, steps[i].Pos)
	}
	return total
}

func mineflayerStep(g Grid, a, b world.BlockPos) float64 {
	liquid := 0.0
	if g.Cell(a.X, a.Y, a.Z) == Water {
		liquid = 1
	}
	switch abs(b.X-a.X) + abs(b.Z-a.Z) {
	case 0:
		return 1
	case 1:
		switch {
		case b.Y > a.Y:
			return 2
		case b.Y < a.Y:
			return 1
		}
		return 1 + liquid
	default:
		if b.Y > a.Y {
			return math.Sqrt2 + 1 + liquid
		}
		return math.Sqrt2 + liquid
	}
}

func TestMineflayerStepCosts(t *testing.T) {
	g := flatGrid{}
	o := world.Pos(0, 1, 0)
	assert.Equal(t, 1.0, mineflayerStep(g, o, world.Pos(1, 1, 0)))
	assert.Equal(t, 2.0, mineflayerStep(g, o, world.Pos(1, 2, 0)))
	assert.Equal(t, 1.0, mineflayerStep(g, o, world.Pos(0, 1, -1).Add(0, -3, 0)))
	assert.Equal(t, math.Sqrt2, mineflayerStep(g, o, world.Pos(1, 1, 1)))
	assert.Equal(t, math.Sqrt2+1, mineflayerStep(g, o, world.Pos(1, 2, -1)), "a diagonal jump costs √2 + 1")
	assert.Equal(t, 2.0, mineflayerStep(flatGrid{water: true}, o, world.Pos(1, 1, 0)), "liquidCost")
}

// flatGrid is solid below y 1 and passable (or water) above.
type flatGrid struct{ water bool }

func (f flatGrid) Cell(x, y, z int) Cell {
	switch {
	case y < 1:
		return Solid
	case f.water:
		return Water
	}
	return Passable
}

// mineflayerOptimum is the cheapest path in mineflayer units over this
// package's move graph (Dijkstra): how close any path this pathfinder can
// return may come to mineflayer-pathfinder's cost.
func mineflayerOptimum(t testing.TB, g Grid, start, goal world.BlockPos) float64 {
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
			d := it.d + int64(mineflayerStep(g, it.p, p)*scale)
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
// valid step by step, and, in mineflayer-pathfinder's own units (its real
// costs), within 2 % of its listed cost. Ours optimises game ticks, not its
// units, and its cheaper paths are cheaper only by cutting corners, which
// no walking player can (go run ./bench/cmd/compare counts them).
func TestBenchmarkCases(t *testing.T) {
	g := NewBenchGrid(sharedWorld())
	f := NewFinder()
	for _, c := range pathCases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			res := runCase(t, f, g, c, Options{})
			el := time.Since(start)
			mf := mineflayerCost(g, res.Steps)
			from, to := res.Steps[0].Pos, res.Steps[len(res.Steps)-1].Pos
			t.Logf("%s %v→%v: expanded %d, generated %d, %d steps, %.1f ticks, %v; mineflayer units %.2f (listed %.1f; optimum over walkable moves %.2f)",
				c.name, from, to, res.Expanded, res.Generated, len(res.Steps), res.Cost, el,
				mf, c.mfCost, mineflayerOptimum(t, g, from, to))
			assert.LessOrEqual(t, mf, c.mfCost*1.02, "path more than 2 %% longer than mineflayer-pathfinder's in its own units")
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
			b.ReportMetric(mineflayerCost(g, res.Steps), "mf-units")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
