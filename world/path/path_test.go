package path

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// handWorlds are the small worlds the optimality tests search exhaustively.
func handWorlds() []struct {
	name string
	g    *testGrid
} {
	overhang := heightWorld(7,
		"111111",
		"111111",
		"111111",
		"111111")
	for x := 1; x < 5; x++ { // a head-height beam with one opening, and a low ceiling over a step
		if x != 3 {
			overhang.set(x, 2, 1, Solid)
		}
	}
	overhang.column(4, 3, 2).set(3, 3, 3, Solid)

	return []struct {
		name string
		g    *testGrid
	}{
		{"steps", heightWorld(8,
			"123456",
			"111156",
			"113111",
			"511111",
			"111141")},
		{"wall with a gap", heightWorld(7,
			"1111111",
			"1111111",
			"5551555",
			"1111111",
			"1111111")},
		{"pit", heightWorld(6,
			"333333",
			"313303",
			"332333",
			"333333")},
		{"water", heightWorld(6,
			"2222222",
			"2wwww22",
			"2wwww32",
			"22ww222",
			"2222222")},
		{"diagonal corners", heightWorld(6,
			"11111",
			"13131",
			"11111",
			"31113",
			"11311")},
		{"danger", heightWorld(6,
			"11111",
			"1lll1",
			"11l11",
			"11111")},
		{"overhang", overhang},
		{"slabs, carpets and fences", heightWorld(6,
			"1s2S3",
			"1cCf1",
			"sF1c2",
			"12sf1")},
		{"carpet room", roomWithCarpet()},
	}
}

// roomWithCarpet is a carpeted floor under a ceiling two blocks above it,
// with a slab at the door that the ceiling leaves no room to stand on.
func roomWithCarpet() *testGrid {
	g := heightWorld(5,
		"1111",
		"cccc",
		"ccs1")
	for x := 0; x < 4; x++ {
		for z := 1; z < 3; z++ {
			g.set(x, 3, z, Solid)
		}
	}
	return g
}

// optionSets are the move graphs the optimality tests cover.
var optionSets = []struct {
	name string
	opt  Options
}{
	{"walk", Options{}},
	{"max drop 1", Options{MaxDrop: 1}},
	{"max drop 4", Options{MaxDrop: 4}},
	{"dig", Options{Dig: true}},
	{"dig by height", Options{Dig: true, DigTicks: func(x, y, z int) float64 {
		if y == 0 {
			return -1 // bedrock
		}
		return float64(3 + 7*y + x%3)
	}}},
	{"place", Options{Place: true}},
	{"dig and place", Options{Dig: true, Place: true, Costs: Costs{Place: 5, Dig: 9}}},
	{"odd costs", Options{Costs: Costs{Swim: 2, Jump: 1, WalkOff: 0.3}}},
}

// TestOptimalAgainstDijkstra compares A*'s cost with an exhaustive
// uniform-cost search over the same move graph for every pair of
// standable positions (every third start in the random worlds): equal
// costs, to the milli-tick, and unreachable exactly when Dijkstra never
// reaches the goal. Radius goals are checked against the cheapest
// position inside the radius.
func TestOptimalAgainstDijkstra(t *testing.T) {
	type namedGrid = struct {
		name string
		g    *testGrid
	}
	worlds := handWorlds()
	for seed := uint64(1); seed <= 6; seed++ {
		worlds = append(worlds, namedGrid{fmt.Sprintf("random %d", seed), randomWorld(seed, 9+int(seed%3), 8)})
	}
	pairs, unreachable := 0, 0
	used := map[Move]int{}
	for _, w := range worlds {
		for _, o := range optionSets {
			t.Run(w.name+"/"+o.name, func(t *testing.T) {
				f := NewFinder()
				spots := w.g.standable()
				require.NotEmpty(t, spots)
				stride := 1
				if len(spots) > 60 {
					stride = 3
				}
				for si := 0; si < len(spots); si += stride {
					start := spots[si]
					dist := dijkstra(t, w.g, start, o.opt)
					for gi, goal := range spots {
						res, err := f.Find(w.g, start, At(goal), o.opt)
						require.NoError(t, err)
						pairs++
						want, ok := dist[goal]
						if !ok {
							unreachable++
							require.False(t, res.Complete, "%v→%v: Dijkstra never reaches the goal", start, goal)
							require.Equal(t, Unreachable, res.Reason)
							require.Equal(t, len(dist), res.Expanded, "an unreachable goal expands every reachable position once")
							continue
						}
						require.True(t, res.Complete, "%v→%v: %s, Dijkstra %d", start, goal, res.Reason, want)
						require.Equal(t, want, milliCost(res), "%v→%v: A* %.3f ticks, Dijkstra %.3f", start, goal, res.Cost, float64(want)/milli)
						require.Equal(t, goal, res.Steps[len(res.Steps)-1].Pos)
						for _, s := range res.Steps {
							used[s.Move]++
						}
						if (si+gi)%7 == 0 {
							checkPath(t, w.g, res, o.opt)
						}
						if gi%5 == 0 {
							for _, r := range []float64{1, 1.5, 2.9} {
								best := int64(-1)
								for p, d := range dist {
									if float64(p.DistSq(goal)) <= r*r && (best < 0 || d < best) {
										best = d
									}
								}
								nr, err := f.Find(w.g, start, Near(goal, r), o.opt)
								require.NoError(t, err)
								require.True(t, nr.Complete)
								require.Equal(t, best, milliCost(nr), "%v→near(%v, %v)", start, goal, r)
								assert.True(t, Near(goal, r).Reached(nr.Steps[len(nr.Steps)-1].Pos))
							}
						}
					}
				}
			})
		}
	}
	t.Logf("%d start/goal pairs (%d unreachable) over %d worlds × %d move graphs; steps by move: %v", pairs, unreachable, len(worlds), len(optionSets), used)
	for m := MoveStart; m <= MoveDigDown; m++ {
		assert.Positive(t, used[m], "no optimal path used %v: the worlds do not exercise it", m)
	}
}

// TestHeuristicConsistent checks h(a) ≤ cost(a→b) + h(b) on every edge of
// the test worlds, for exact and radius goals, and h = 0 at an exact goal.
func TestHeuristicConsistent(t *testing.T) {
	worlds := handWorlds()
	for _, w := range worlds {
		for _, o := range optionSets {
			spots := w.g.standable()
			for gi, goal := range spots {
				if gi%4 != 0 {
					continue
				}
				for _, gl := range []Target{At(goal), Near(goal, 1.5), Near(goal, 4)} {
					f := moveGen(t, w.g, o.opt, gl)
					if gl.Radius == 0 {
						require.Zero(t, f.heuristic(goal.X, goal.Y, goal.Z))
					}
					for _, a := range spots {
						ha := f.heuristic(a.X, a.Y, a.Z)
						require.GreaterOrEqual(t, ha, int64(0))
						for _, m := range f.neighbors(a.X, a.Y, a.Z, w.g.Cell(a.X, a.Y, a.Z)) {
							hb := f.heuristic(m.x, m.y, m.z)
							require.LessOrEqual(t, ha, m.cost+hb, "%s/%s: %v→(%d,%d,%d) %v, goal %v", w.name, o.name, a, m.x, m.y, m.z, m.move, gl)
						}
					}
				}
			}
		}
	}
}

func walkCost() (card, diag int64) {
	ct := compileCosts(DefaultCosts(), DefaultMaxDrop, false, false)
	return ct.walk[0], ct.walk[1]
}

func TestCornerCutting(t *testing.T) {
	card, diag := walkCost()
	open := heightWorld(5, "11", "11")
	pillar := heightWorld(5, "13", "11")
	head := heightWorld(5, "11", "11").set(1, 2, 0, Solid) // a block at head height only
	feet := heightWorld(5, "11", "11").set(1, 1, 0, Solid) // a block at feet height only
	ring := heightWorld(5, "111", "131", "111")
	for _, c := range []struct {
		name     string
		g        *testGrid
		from, to world.BlockPos
		want     int64
	}{
		{"open diagonal", open, world.Pos(0, 1, 0), world.Pos(1, 1, 1), diag},
		{"pillar on one corner", pillar, world.Pos(0, 1, 0), world.Pos(1, 1, 1), 2 * card},
		{"head-height block on one corner", head, world.Pos(0, 1, 0), world.Pos(1, 1, 1), 2 * card},
		{"feet-height block on one corner", feet, world.Pos(0, 1, 0), world.Pos(1, 1, 1), 2 * card},
		{"around a pillar", ring, world.Pos(0, 1, 0), world.Pos(2, 1, 2), 4 * card},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Find(c.g, c.from, At(c.to), Options{})
			require.NoError(t, err)
			require.True(t, res.Complete)
			assert.Equal(t, c.want, milliCost(res))
			checkPath(t, c.g, res, Options{})
		})
	}
}

func TestMoves(t *testing.T) {
	ct := compileCosts(DefaultCosts(), DefaultMaxDrop, false, false)
	card := ct.walk[0]
	for _, c := range []struct {
		name     string
		g        *testGrid
		from, to world.BlockPos
		opt      Options
		want     int64 // -1: unreachable
		moves    []Move
	}{
		{"stairs up", heightWorld(8, "1234"), world.Pos(0, 1, 0), world.Pos(3, 4, 0), Options{},
			3 * ct.jump[0][0], []Move{MoveStart, MoveJump, MoveJump, MoveJump}},
		{"two-block step", heightWorld(8, "13"), world.Pos(0, 1, 0), world.Pos(1, 3, 0), Options{}, -1, nil},
		{"jump blocked by a ceiling", heightWorld(8, "12").set(0, 3, 0, Solid), world.Pos(0, 1, 0), world.Pos(1, 2, 0), Options{}, -1, nil},
		{"drop 3", heightWorld(8, "41"), world.Pos(0, 4, 0), world.Pos(1, 1, 0), Options{},
			ct.drop[0][0][3], []Move{MoveStart, MoveDrop}},
		{"drop 4 refused", heightWorld(8, "51"), world.Pos(0, 5, 0), world.Pos(1, 1, 0), Options{}, -1, nil},
		{"drop 4 allowed", heightWorld(8, "51"), world.Pos(0, 5, 0), world.Pos(1, 1, 0), Options{MaxDrop: 4},
			compileCosts(DefaultCosts(), 4, false, false).drop[0][0][4], []Move{MoveStart, MoveDrop}},
		{"into water", heightWorld(8, "3w"), world.Pos(0, 3, 0), world.Pos(1, 2, 0), Options{},
			ct.drop[0][0][1], []Move{MoveStart, MoveDrop}},
		{"swim across", heightWorld(8, "2ww2"), world.Pos(0, 2, 0), world.Pos(3, 2, 0), Options{},
			3 * ct.swim[0], []Move{MoveStart, MoveSwim, MoveSwim, MoveSwim}},
		{"swim down and up", heightWorld(8, "w"), world.Pos(0, 2, 0), world.Pos(0, 1, 0), Options{},
			ct.swimV, []Move{MoveStart, MoveSwimDown}},
		{"lava is never entered", heightWorld(8, "1l1"), world.Pos(0, 1, 0), world.Pos(2, 1, 0), Options{}, -1, nil},
		{"lava is walked around", heightWorld(8, "1l1", "111"), world.Pos(0, 1, 0), world.Pos(2, 1, 0), Options{},
			4 * card, []Move{MoveStart, MoveWalk, MoveWalk, MoveWalk, MoveWalk}}, // no diagonal past lava
		{"void gap", heightWorld(8, "101"), world.Pos(0, 1, 0), world.Pos(2, 1, 0), Options{}, -1, nil},
		{"bridge the gap", heightWorld(8, "101"), world.Pos(0, 1, 0), world.Pos(2, 1, 0), Options{Place: true},
			card + ct.place + card, []Move{MoveStart, MoveBridge, MoveWalk}},
		{"pillar up a cliff", heightWorld(8, "13"), world.Pos(0, 1, 0), world.Pos(1, 3, 0), Options{Place: true},
			ct.pillar + ct.jump[0][0], []Move{MoveStart, MovePillar, MoveJump}},
		{"pillar a tower: each block stands on the one placed before", heightWorld(8, "15"), world.Pos(0, 1, 0), world.Pos(1, 5, 0), Options{Place: true},
			3*ct.pillar + ct.jump[0][0], []Move{MoveStart, MovePillar, MovePillar, MovePillar, MoveJump}},
		{"no tower into the open sky", heightWorld(8, "11"), world.Pos(0, 1, 0), world.Pos(0, 3, 0), Options{Place: true}, -1, nil},
		{"dig through a wall", heightWorld(8, "141"), world.Pos(0, 1, 0), world.Pos(2, 1, 0), Options{Dig: true},
			2*card + 2*ct.dig, []Move{MoveStart, MoveWalk, MoveWalk}},
		{"dig down", heightWorld(8, "4"), world.Pos(0, 4, 0), world.Pos(0, 2, 0), Options{Dig: true},
			2 * (ct.fall1 + ct.dig), []Move{MoveStart, MoveDigDown, MoveDigDown}},
		{"unbreakable", heightWorld(8, "141"), world.Pos(0, 1, 0), world.Pos(2, 1, 0),
			Options{Dig: true, DigTicks: func(x, y, z int) float64 { return math.Inf(1) }}, -1, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Find(c.g, c.from, At(c.to), c.opt)
			require.NoError(t, err)
			if c.want < 0 {
				assert.False(t, res.Complete)
				assert.Equal(t, Unreachable, res.Reason)
				return
			}
			require.True(t, res.Complete, "%s", res.Reason)
			assert.Equal(t, c.want, milliCost(res))
			var moves []Move
			for _, s := range res.Steps {
				moves = append(moves, s.Move)
			}
			assert.Equal(t, c.moves, moves)
			checkPath(t, c.g, res, c.opt)
		})
	}
}

func TestBreakAndPlaceLists(t *testing.T) {
	res, err := Find(heightWorld(8, "141"), world.Pos(0, 1, 0), At(world.Pos(2, 1, 0)), Options{Dig: true})
	require.NoError(t, err)
	require.True(t, res.Complete)
	assert.Equal(t, []world.BlockPos{world.Pos(1, 1, 0), world.Pos(1, 2, 0)}, res.Steps[1].Break)
	assert.Nil(t, res.Steps[2].Break)

	res, err = Find(heightWorld(8, "101"), world.Pos(0, 1, 0), At(world.Pos(2, 1, 0)), Options{Place: true})
	require.NoError(t, err)
	assert.Equal(t, []world.BlockPos{world.Pos(1, 0, 0)}, res.Steps[1].Place)

	res, err = Find(heightWorld(8, "13"), world.Pos(0, 1, 0), At(world.Pos(1, 3, 0)), Options{Place: true})
	require.NoError(t, err)
	assert.Equal(t, []world.BlockPos{world.Pos(0, 1, 0)}, res.Steps[1].Place)

	res, err = Find(heightWorld(8, "4"), world.Pos(0, 4, 0), At(world.Pos(0, 3, 0)), Options{Dig: true})
	require.NoError(t, err)
	assert.Equal(t, []world.BlockPos{world.Pos(0, 3, 0)}, res.Steps[1].Break)
}

func TestStartIsGoal(t *testing.T) {
	g := heightWorld(5, "11")
	res, err := Find(g, world.Pos(0, 1, 0), At(world.Pos(0, 1, 0)), Options{})
	require.NoError(t, err)
	assert.True(t, res.Complete)
	assert.Equal(t, Reached, res.Reason)
	assert.Equal(t, 1, res.Expanded)
	assert.Equal(t, []world.BlockPos{world.Pos(0, 1, 0)}, res.Path())
	assert.Zero(t, res.Cost)
}

func flatWorld(n int) *testGrid {
	g := newTestGrid(n, 4, n)
	for x := 0; x < n; x++ {
		for z := 0; z < n; z++ {
			g.set(x, 0, z, Solid)
		}
	}
	return g
}

func TestBudgets(t *testing.T) {
	g := flatWorld(64)
	start, goal := world.Pos(0, 1, 0), world.Pos(63, 1, 40)
	f := NewFinder()
	full, err := f.Find(g, start, At(goal), Options{})
	require.NoError(t, err)
	require.True(t, full.Complete)

	for _, budget := range []int{1, 2, 10, 30} {
		res, err := f.Find(g, start, At(goal), Options{MaxNodes: budget})
		require.NoError(t, err)
		assert.False(t, res.Complete)
		assert.Equal(t, NodeBudget, res.Reason)
		assert.Equal(t, budget, res.Expanded)
		checkPath(t, g, res, Options{})
		end := res.Steps[len(res.Steps)-1].Pos
		if budget > 1 {
			assert.Less(t, end.DistSq(goal), start.DistSq(goal), "the partial path makes progress")
		}
		// The end is the expanded node closest to the goal: on open flat
		// ground A* walks straight at it, so its cost is optimal too.
		exact, err := f.Find(g, start, At(end), Options{})
		require.NoError(t, err)
		assert.Equal(t, milliCost(exact), milliCost(res))
	}

	// A budget exactly large enough completes.
	res, err := f.Find(g, start, At(goal), Options{MaxNodes: full.Expanded})
	require.NoError(t, err)
	assert.True(t, res.Complete)

	// The time budget is checked every 256 expansions.
	big := NewBenchGrid(sharedWorld())
	w := sharedWorld()
	res, err = f.Find(big, standPos(w, 100, 40), At(standPos(w, 160, 40)), Options{MaxTime: time.Nanosecond})
	require.NoError(t, err)
	assert.False(t, res.Complete)
	assert.Equal(t, TimeBudget, res.Reason)
	assert.Equal(t, 256, res.Expanded)
	checkPath(t, big, res, Options{})
}

func TestUnreachable(t *testing.T) {
	g := heightWorld(7,
		"11111",
		"14441",
		"14141",
		"14441",
		"11111")
	res, err := Find(g, world.Pos(0, 1, 0), At(world.Pos(2, 1, 2)), Options{})
	require.NoError(t, err)
	assert.False(t, res.Complete)
	assert.Equal(t, Unreachable, res.Reason)
	assert.Equal(t, 16, res.Expanded, "every ring position")
	end := res.Steps[len(res.Steps)-1].Pos
	assert.Equal(t, 1, end.Y)
	assert.Equal(t, 4, end.DistSq(world.Pos(2, 1, 2)), "the partial path ends beside the enclosure, in the middle of a side")
	checkPath(t, g, res, Options{})

	// From inside, out: unreachable too; with digging, reachable.
	res, err = Find(g, world.Pos(2, 1, 2), At(world.Pos(0, 1, 0)), Options{})
	require.NoError(t, err)
	assert.Equal(t, Unreachable, res.Reason)
	assert.Equal(t, 1, res.Expanded)
	res, err = Find(g, world.Pos(2, 1, 2), At(world.Pos(0, 1, 0)), Options{Dig: true})
	require.NoError(t, err)
	assert.True(t, res.Complete)

	// Unknown terrain (outside the box) is never entered.
	res, err = Find(g, world.Pos(0, 1, 0), At(world.Pos(-3, 1, 0)), Options{})
	require.NoError(t, err)
	assert.Equal(t, Unreachable, res.Reason)
}

func TestDeterministic(t *testing.T) {
	w := sharedWorld()
	g := NewBenchGrid(w)
	from, to := standPos(w, 10, 20), standPos(w, 100, 250)
	first, err := Find(g, from, At(to), Options{})
	require.NoError(t, err)
	f := NewFinder()
	for i := 0; i < 3; i++ {
		// Dirty the reused finder with another search in between.
		_, err := f.Find(g, standPos(w, 100, 40), At(standPos(w, 160, 40)), Options{MaxNodes: 5000})
		require.NoError(t, err)
		again, err := f.Find(g, from, At(to), Options{})
		require.NoError(t, err)
		assert.Equal(t, first.Steps, again.Steps)
		assert.Equal(t, first.Expanded, again.Expanded)
		assert.Equal(t, first.Generated, again.Generated)
	}
}

func TestRadiusGoal(t *testing.T) {
	w := sharedWorld()
	g := NewBenchGrid(w)
	from, to := standPos(w, 10, 10), standPos(w, 120, 120)
	exact, err := Find(g, from, At(to), Options{})
	require.NoError(t, err)
	for _, r := range []float64{1, 3, 10.5} {
		near, err := Find(g, from, Near(to, r), Options{})
		require.NoError(t, err)
		require.True(t, near.Complete)
		end := near.Steps[len(near.Steps)-1].Pos
		assert.LessOrEqual(t, float64(end.DistSq(to)), r*r)
		assert.Less(t, near.Cost, exact.Cost)
		checkPath(t, g, near, Options{})
	}
	assert.True(t, Near(to, 0).Reached(to))
	assert.False(t, Near(to, 0).Reached(to.Up()))
}

func TestInvalidInput(t *testing.T) {
	g := flatWorld(4)
	ok := world.Pos(0, 1, 0)
	for name, c := range map[string]struct {
		start world.BlockPos
		goal  Target
		opt   Options
	}{
		"negative budget":   {ok, At(ok), Options{MaxNodes: -1}},
		"negative time":     {ok, At(ok), Options{MaxTime: -time.Second}},
		"drop too high":     {ok, At(ok), Options{MaxDrop: 17}},
		"negative drop":     {ok, At(ok), Options{MaxDrop: -1}},
		"negative walk":     {ok, At(ok), Options{Costs: Costs{Walk: -1}}},
		"NaN jump":          {ok, At(ok), Options{Costs: Costs{Jump: math.NaN()}}},
		"walk-off over one": {ok, At(ok), Options{Costs: Costs{WalkOff: 1.5}}},
		"start far away":    {world.Pos(1<<26, 1, 0), At(ok), Options{}},
		"goal too high":     {ok, At(world.Pos(0, 5000, 0)), Options{}},
		"NaN radius":        {ok, Near(ok, math.NaN()), Options{}},
		"negative radius":   {ok, Near(ok, -1), Options{}},
		"weight under one":  {ok, At(ok), Options{Weight: 0.5}},
		"weight too large":  {ok, At(ok), Options{Weight: 101}},
		"NaN weight":        {ok, At(ok), Options{Weight: math.NaN()}},
		"infinite weight":   {ok, At(ok), Options{Weight: math.Inf(1)}},
	} {
		_, err := Find(g, c.start, c.goal, c.opt)
		assert.Error(t, err, name)
	}
}

// TestWeightedWithinBound: a weighted search (Options.Weight) reaches
// every goal plain A* reaches, at a cost within the weight times the
// cheapest, and over all the pairs expands fewer nodes; weight 1 is plain
// A* to the node.
func TestWeightedWithinBound(t *testing.T) {
	f := NewFinder()
	var plainNodes, weightedNodes int
	dearer := 0
	for seed := uint64(1); seed <= 4; seed++ {
		g := randomWorld(seed, 10, 8)
		spots := g.standable()
		for _, o := range optionSets {
			for si := 0; si < len(spots); si += 5 {
				for gi := 1; gi < len(spots); gi += 7 {
					start, goal := spots[si], spots[(si+gi)%len(spots)]
					best, err := f.Find(g, start, At(goal), o.opt)
					require.NoError(t, err)
					one := o.opt
					one.Weight = 1
					same, err := f.Find(g, start, At(goal), one)
					require.NoError(t, err)
					require.Equal(t, best.Expanded, same.Expanded, "weight 1 is plain A*")
					w := o.opt
					w.Weight = 3
					res, err := f.Find(g, start, At(goal), w)
					require.NoError(t, err)
					require.Equal(t, best.Complete, res.Complete, "%s %v→%v", o.name, start, goal)
					if !best.Complete {
						continue
					}
					require.LessOrEqual(t, milliCost(res), 3*milliCost(best), "%s %v→%v", o.name, start, goal)
					if milliCost(res) > milliCost(best) {
						dearer++
					}
					plainNodes += best.Expanded
					weightedNodes += res.Expanded
				}
			}
		}
	}
	t.Logf("expanded: plain %d, weighted %d; %d routes dearer than the cheapest", plainNodes, weightedNodes, dearer)
	assert.Less(t, weightedNodes, plainNodes)
}

func TestPhysics(t *testing.T) {
	assert.InDelta(t, 8.107, JumpTicks(), 0.001)
	assert.InDelta(t, 4.615, FallTicks(1), 0.001)
	assert.InDelta(t, 6.788, FallTicks(2), 0.001)
	assert.InDelta(t, 8.469, FallTicks(3), 0.001)
	assert.Zero(t, FallTicks(0))
	assert.Equal(t, 23.0, BreakTicks(1.5, 2, true), "stone, wooden pickaxe")
	assert.Equal(t, 150.0, BreakTicks(1.5, 1, false), "stone by hand")
	assert.Equal(t, 15.0, BreakTicks(0.5, 1, true), "dirt by hand")
	assert.Equal(t, 1.0, BreakTicks(0, 1, true), "instant")
	assert.True(t, math.IsInf(BreakTicks(-1, 8, true), 1), "bedrock")

	d := DefaultCosts()
	assert.InDelta(t, 4.633, d.Walk, 0.001)
	assert.InDelta(t, 9.091, d.Swim, 0.001)
	ct := compileCosts(d, DefaultMaxDrop, false, false)
	assert.Equal(t, int64(4633), ct.walk[0])
	assert.Equal(t, int64(6552), ct.walk[1])
	assert.Equal(t, int64(8107), ct.jump[0][0], "a jump takes its air time, longer than the walk")
	assert.Equal(t, int64(8107), ct.jump[0][1])
	assert.Equal(t, int64(3706+4615), ct.drop[0][0][1], "walk to the edge, then fall")
	// The heuristic's vertical rates are below every move's.
	assert.Equal(t, ct.jump[0][1]-ct.walk[1], ct.up)
	assert.LessOrEqual(t, ct.down*3, ct.drop[0][1][3]-ct.walk[1])
}
