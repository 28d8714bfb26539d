package path

import (
	"container/heap"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// checkPath checks a result step by step, independently of the move
// generator where it can: every position has a clear body and is standable
// (except the start), consecutive positions are neighbours, step costs add
// up to the result's cost, and each step is one the move generator offers
// at that cost.
func checkPath(t testing.TB, g Grid, res Result, opt Options) {
	t.Helper()
	require.NotEmpty(t, res.Steps)
	assert.Equal(t, MoveStart, res.Steps[0].Move)
	assert.Zero(t, res.Steps[0].Cost)
	assert.InDelta(t, res.Cost, res.Steps[len(res.Steps)-1].Cost, 1e-9)
	f := moveGen(t, g, opt, At(res.Steps[0].Pos))
	for i := 1; i < len(res.Steps); i++ {
		a, b := res.Steps[i-1], res.Steps[i]
		dx, dy, dz := b.Pos.X-a.Pos.X, b.Pos.Y-a.Pos.Y, b.Pos.Z-a.Pos.Z
		require.True(t, abs(dx) <= 1 && abs(dz) <= 1 && dy >= -f.maxDrop && dy <= 1, "step %d %v→%v", i, a.Pos, b.Pos)
		if !f.dig && !f.place {
			assert.True(t, standableAt(g, b.Pos.X, b.Pos.Y, b.Pos.Z), "step %d %v: not standable (%v, %v over %v)", i, b.Pos,
				g.Cell(b.Pos.X, b.Pos.Y, b.Pos.Z), g.Cell(b.Pos.X, b.Pos.Y+1, b.Pos.Z), g.Cell(b.Pos.X, b.Pos.Y-1, b.Pos.Z))
			if g.Cell(a.Pos.X, a.Pos.Y, a.Pos.Z) == Slab {
				// Half a block up, the body reaches the cells two above
				// every column it passes.
				cols := [][2]int{{b.Pos.X, b.Pos.Z}}
				if dx != 0 && dz != 0 {
					cols = append(cols, [2]int{a.Pos.X + dx, a.Pos.Z}, [2]int{a.Pos.X, a.Pos.Z + dz})
				}
				for _, c := range cols {
					assert.True(t, isClear(g.Cell(c[0], a.Pos.Y+2, c[1])), "step %d %v→%v from a slab hits (%d,%d,%d)", i, a.Pos, b.Pos, c[0], a.Pos.Y+2, c[1])
				}
			}
			if dx != 0 && dz != 0 {
				for _, c := range [][2]int{{a.Pos.X + dx, a.Pos.Z}, {a.Pos.X, a.Pos.Z + dz}} {
					for y := a.Pos.Y; y <= a.Pos.Y+1; y++ {
						cc := g.Cell(c[0], y, c[1])
						assert.True(t, isClear(cc) || (y == a.Pos.Y && cc == Low), "step %d %v→%v cuts the corner (%d,%d,%d)", i, a.Pos, b.Pos, c[0], y, c[1])
					}
				}
			}
		}
		found := false
		feet := g.Cell(a.Pos.X, a.Pos.Y, a.Pos.Z)
		f.onPlaced = a.Move == MovePillar || a.Move == MoveBridge
		for _, m := range f.neighbors(a.Pos.X, a.Pos.Y, a.Pos.Z, feet) {
			if m.x == b.Pos.X && m.y == b.Pos.Y && m.z == b.Pos.Z && m.move == b.Move &&
				math.Abs(float64(m.cost)/milli-(b.Cost-a.Cost)) < 1e-6 {
				found = true
				break
			}
		}
		assert.True(t, found, "step %d %v→%v (%v, %.3f ticks) is not a generated move", i, a.Pos, b.Pos, b.Move, b.Cost-a.Cost)
	}
}

// standableAt is the standing rule, written apart from the move
// generator: the feet cell clear over a solid block or in water, or holding
// its own floor (a Slab also needs the cell two above clear); the head cell
// clear.
func standableAt(g Grid, x, y, z int) bool {
	feet, head, under := g.Cell(x, y, z), g.Cell(x, y+1, z), g.Cell(x, y-1, z)
	if !isClear(head) {
		return false
	}
	switch feet {
	case Passable:
		return under == Solid
	case Water, Low:
		return true
	case Slab:
		return isClear(g.Cell(x, y+2, z))
	}
	return false
}

// moveGen returns a Finder set up as Find sets it up, to call neighbors and
// heuristic directly.
func moveGen(t testing.TB, g Grid, opt Options, goal Target) *Finder {
	t.Helper()
	f := NewFinder()
	opt, err := opt.normalize()
	require.NoError(t, err)
	f.grid, f.maxDrop, f.dig, f.place, f.digTicks = g, opt.MaxDrop, opt.Dig, opt.Place, opt.DigTicks
	f.ct = compileCosts(opt.Costs, opt.MaxDrop, opt.Dig, opt.Place)
	f.goal, f.r2 = goal, goal.Radius*goal.Radius
	return f
}

// dijkstra is an exhaustive uniform-cost search over the move graph: the
// exact cost in milli-ticks from start to every reachable position. It
// shares nothing with Find but the move generator (no heuristic, its own
// priority queue and visited map).
func dijkstra(t testing.TB, g Grid, start world.BlockPos, opt Options) map[world.BlockPos]int64 {
	f := moveGen(t, g, opt, At(start))
	dist := map[world.BlockPos]int64{start: 0}
	moves := map[world.BlockPos]Move{start: MoveStart} // of each best arrival
	done := map[world.BlockPos]bool{}
	q := &pq{{start, 0}}
	for q.Len() > 0 {
		it := heap.Pop(q).(pqItem)
		if done[it.p] {
			continue
		}
		done[it.p] = true
		feet := g.Cell(it.p.X, it.p.Y, it.p.Z)
		f.onPlaced = moves[it.p] == MovePillar || moves[it.p] == MoveBridge
		for _, m := range f.neighbors(it.p.X, it.p.Y, it.p.Z, feet) {
			p := world.Pos(m.x, m.y, m.z)
			d := it.d + m.cost
			if old, ok := dist[p]; !ok || d < old {
				dist[p], moves[p] = d, m.move
				heap.Push(q, pqItem{p, d})
			}
		}
	}
	return dist
}

type pqItem struct {
	p world.BlockPos
	d int64
}

type pq []pqItem

func (q pq) Len() int           { return len(q) }
func (q pq) Less(i, j int) bool { return q[i].d < q[j].d }
func (q pq) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *pq) Push(x any)        { *q = append(*q, x.(pqItem)) }
func (q *pq) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// milliCost is a result's cost back in the search's fixed point.
func milliCost(r Result) int64 { return int64(math.Round(r.Cost * milli)) }
