package chunk

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// benchCenter is the query centre of the benchmark cases (BENCHMARKS.md).
var benchCenter = game.Pos(133, 69, 128)

// benchTargets are the nearest-block targets of BENCHMARKS.md.
var benchTargets = []struct {
	name   string
	id     string
	legacy int
}{
	{"log", "minecraft:log", benchworld.Log},
	{"coal_ore", "minecraft:coal_ore", benchworld.CoalOre},
	{"diamond_ore", "minecraft:diamond_ore", benchworld.DiamondOre},
	{"gold_block", "minecraft:gold_block", benchworld.GoldBlock},
}

func byID(id string) func(game.Block) bool { return func(b game.Block) bool { return b.ID == id } }

func TestNearestBenchmarkCasesAgreeWithBruteForce(t *testing.T) {
	w, chunks := sharedWorld(), sharedChunks()
	for _, target := range benchTargets {
		for _, radius := range []int{16, 32, 64} {
			for _, k := range []int{1, 100} {
				name := fmt.Sprintf("%s/r%d/k%d", target.name, radius, k)
				t.Run(name, func(t *testing.T) {
					legacy := target.legacy
					want := bruteNearest(w, benchCenter, radius, k, func(v uint16) bool { return int(v>>4) == legacy })
					got := chunks.Nearest(benchCenter, radius, k, byID(target.id))
					requireHits(t, want, stripTags(got), name)
					if target.legacy == benchworld.GoldBlock {
						assert.Empty(t, got, "gold_block is absent from the world")
					}
				})
			}
		}
	}
	// The case mineflayer gets wrong: the nearest coal ore is at 7.07.
	coal := chunks.Nearest(benchCenter, 64, 1, byID("minecraft:coal_ore"))
	require.Len(t, coal, 1)
	assert.LessOrEqual(t, coal[0].DistSq, 50)
	assert.True(t, coal[0].Block.HasTag("coal_ore"), "hits carry tags from the tag table")
}

func TestNearestRandomQueriesAgreeWithBruteForce(t *testing.T) {
	w, chunks := sharedWorld(), sharedChunks()
	type target struct {
		name  string
		block func(game.Block) bool
		state func(uint16) bool
	}
	targets := []target{
		{"log", byID("minecraft:log"), func(v uint16) bool { return v>>4 == benchworld.Log }},
		{"leaves", byID("minecraft:leaves"), func(v uint16) bool { return v>>4 == benchworld.Leaves }},
		{"coal", byID("minecraft:coal_ore"), func(v uint16) bool { return v>>4 == benchworld.CoalOre }},
		{"iron", byID("minecraft:iron_ore"), func(v uint16) bool { return v>>4 == benchworld.IronOre }},
		{"diamond", byID("minecraft:diamond_ore"), func(v uint16) bool { return v>>4 == benchworld.DiamondOre }},
		{"gold", byID("minecraft:gold_block"), func(v uint16) bool { return v>>4 == benchworld.GoldBlock }},
		{"water", func(b game.Block) bool { return b.HasTag("water") }, func(v uint16) bool { return v>>4 == benchworld.Water }},
		{"cobblestone", byID("minecraft:cobblestone"), func(v uint16) bool { return v>>4 == benchworld.Cobblestone }},
		{"tallgrass:1", func(b game.Block) bool { return b.ID == "minecraft:tallgrass" && b.Meta == 1 }, func(v uint16) bool { return v == benchworld.TallGrass<<4|1 }},
		{"soil", func(b game.Block) bool { return b.HasTag("soil") }, func(v uint16) bool { return v>>4 == benchworld.Grass || v>>4 == benchworld.Dirt }},
		{"anything", nil, func(uint16) bool { return true }},
		{"ore-or-log", func(b game.Block) bool { return b.HasTag("ore") || b.HasTag("log") }, func(v uint16) bool {
			return v>>4 == benchworld.CoalOre || v>>4 == benchworld.IronOre || v>>4 == benchworld.Log
		}},
	}
	rng := rand.New(rand.NewPCG(7, 11))
	cases := 300
	if testing.Short() {
		cases = 60
	}
	nonEmpty := 0
	for i := 0; i < cases; i++ {
		tg := targets[rng.IntN(len(targets))]
		c := game.Pos(rng.IntN(300)-22, 55+rng.IntN(25), rng.IntN(300)-22)
		if rng.IntN(5) == 0 { // deep underground, under the world, above it
			c.Y = rng.IntN(120) - 10
		}
		radius := rng.IntN(24)
		if rng.IntN(8) == 0 {
			radius = 24 + rng.IntN(48)
		}
		k := []int{1, 1, 2, 7, 100, 0}[rng.IntN(6)]
		if tg.name == "anything" || tg.name == "soil" {
			radius = min(radius, 12) // keep the unlimited result sets small
		}
		want := bruteNearest(w, c, radius, k, tg.state)
		got := chunks.Nearest(c, radius, k, tg.block)
		requireHits(t, want, stripTags(got), fmt.Sprintf("case %d: %s from %v r=%d k=%d", i, tg.name, c, radius, k))
		if len(want) > 0 {
			nonEmpty++
		}
	}
	assert.Greater(t, nonEmpty, cases/3, "most random queries find something")
}

// syntheticWorld fills columns around the origin (negative coordinates
// included) with random blocks from a pool of states, building the same
// world as chunk storage and as a map of blocks (the reference).
func syntheticWorld(t testing.TB, seed uint64, states int) (*ChunkStore, *sparseBlocks, *Resolver) {
	t.Helper()
	ids := rules.NewIDMap()
	for id := 1; id <= states; id++ {
		require.NoError(t, ids.SetBlock(id, fmt.Sprintf("test:b%d", id)))
	}
	res := NewResolver(ids, rules.Default().Tags)
	store := NewChunkStore(res)
	sparse := &sparseBlocks{m: map[game.BlockPos]game.Block{}}
	rng := rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	put := func(p game.BlockPos, st StateID) {
		store.SetState(p.X, p.Y, p.Z, st)
		sparse.Set(p, res.Block(st))
	}
	pool := make([]StateID, 0, states*3)
	for id := 1; id <= states; id++ {
		for meta := 0; meta < 3; meta++ {
			pool = append(pool, MakeState(id, meta*7000)) // metadata above 4 bits (NotEnoughIds)
		}
	}
	// A dense block of a few states, a sparse scatter of many, one uniform
	// section and one section with more than 256 states.
	for i := 0; i < 6000; i++ {
		p := game.Pos(rng.IntN(48)-24, 40+rng.IntN(48), rng.IntN(48)-24)
		put(p, pool[rng.IntN(min(len(pool), 12))])
	}
	for i := 0; i < 3000; i++ {
		p := game.Pos(rng.IntN(96)-48, rng.IntN(256), rng.IntN(96)-48)
		put(p, pool[rng.IntN(len(pool))])
	}
	var full [SectionVolume]StateID
	for i := range full {
		full[i] = pool[0]
	}
	store.SetSection(-3, 1, 2, NewSection(&full))
	for i := range full {
		sparse.Set(game.Pos(-48+i&15, 16+i>>8, 32+(i>>4)&15), res.Block(pool[0]))
	}
	for i := range full {
		full[i] = pool[i%len(pool)]
		if i%5 == 0 {
			full[i] = AirState
		}
	}
	store.SetSection(1, 8, -2, NewSection(&full))
	for i := range full {
		p := game.Pos(16+i&15, 128+i>>8, -32+(i>>4)&15)
		if full[i] == AirState {
			sparse.Set(p, game.Air)
		} else {
			sparse.Set(p, res.Block(full[i]))
		}
	}
	return store, sparse, res
}

func TestNearestAgreesWithBruteForce(t *testing.T) {
	store, sparse, _ := syntheticWorld(t, 3, 110)
	chunks := store.View()
	bits := map[int]bool{}
	chunks.ForEachColumn(func(c *Column) {
		for cy := 0; cy < ColumnSections; cy++ {
			if s := c.Section(cy); s != nil {
				bits[s.Bits()] = true
			}
		}
	})
	require.True(t, bits[0] && bits[4] && bits[8] && bits[16], "the synthetic world exercises every index width, got %v", bits)

	rng := rand.New(rand.NewPCG(5, 8))
	preds := []struct {
		name string
		fn   func(game.Block) bool
	}{
		{"nil", nil},
		{"b1", byID("test:b1")},
		{"b7 meta 7000", func(b game.Block) bool { return b.ID == "test:b7" && b.Meta == 7000 }},
		{"b100-b110", func(b game.Block) bool {
			var n int
			_, _ = fmt.Sscanf(b.ID, "test:b%d", &n)
			return n >= 100
		}},
		{"odd meta", func(b game.Block) bool { return b.Meta%2 == 1 }},
		{"none", func(game.Block) bool { return false }},
	}
	nonEmpty := 0
	for i := 0; i < 400; i++ {
		p := preds[rng.IntN(len(preds))]
		c := game.Pos(rng.IntN(140)-70, rng.IntN(300)-20, rng.IntN(140)-70)
		radius := rng.IntN(40)
		k := []int{1, 3, 50, 0}[rng.IntN(4)]
		want := sparse.Nearest(c, radius, k, p.fn)
		got := chunks.Nearest(c, radius, k, p.fn)
		requireHits(t, want, got, fmt.Sprintf("case %d: %s from %v r=%d k=%d", i, p.name, c, radius, k))
		if len(want) > 0 {
			nonEmpty++
		}
	}
	assert.Greater(t, nonEmpty, 100, "most random queries find something")
}

func TestNearestTiesAndEdges(t *testing.T) {
	store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	log := MakeState(17, 0)
	center := game.Pos(0, 64, 0)
	// Six logs at distance 2 around a centre on a chunk corner, so the ties
	// span four columns, and one farther log.
	for _, p := range []game.BlockPos{game.Pos(2, 64, 0), game.Pos(-2, 64, 0), game.Pos(0, 66, 0), game.Pos(0, 62, 0), game.Pos(0, 64, 2), game.Pos(0, 64, -2), game.Pos(-3, 64, -3)} {
		store.SetState(p.X, p.Y, p.Z, log)
	}
	store.SetState(0, 64, 0, MakeState(1, 0)) // stone at the centre
	chunks := store.View()
	logs := func(b game.Block) bool { return b.HasTag("log") }

	tests := []struct {
		name   string
		radius int
		k      int
		match  func(game.Block) bool
		want   []game.BlockPos
	}{
		{"ties by Y, Z, X", 2, 0, logs, []game.BlockPos{game.Pos(0, 62, 0), game.Pos(0, 64, -2), game.Pos(-2, 64, 0), game.Pos(2, 64, 0), game.Pos(0, 64, 2), game.Pos(0, 66, 0)}},
		{"k cuts inside a tie", 5, 3, logs, []game.BlockPos{game.Pos(0, 62, 0), game.Pos(0, 64, -2), game.Pos(-2, 64, 0)}},
		{"radius is inclusive", 4, 0, logs, []game.BlockPos{game.Pos(0, 62, 0), game.Pos(0, 64, -2), game.Pos(-2, 64, 0), game.Pos(2, 64, 0), game.Pos(0, 64, 2), game.Pos(0, 66, 0)}},
		{"beyond the far log", 5, 0, logs, []game.BlockPos{game.Pos(0, 62, 0), game.Pos(0, 64, -2), game.Pos(-2, 64, 0), game.Pos(2, 64, 0), game.Pos(0, 64, 2), game.Pos(0, 66, 0), game.Pos(-3, 64, -3)}},
		{"radius 0 finds the centre", 0, 1, nil, []game.BlockPos{game.Pos(0, 64, 0)}},
		{"radius 1 excludes non-matching centre", 1, 0, logs, nil},
		{"negative radius", -1, 0, nil, nil},
		{"no match", 10, 5, func(game.Block) bool { return false }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits := chunks.Nearest(center, tc.radius, tc.k, tc.match)
			var got []game.BlockPos
			for _, h := range hits {
				got = append(got, h.Pos)
				assert.Equal(t, h.Pos.DistSq(center), h.DistSq)
			}
			assert.Equal(t, tc.want, got)
		})
	}

	empty := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags)).View()
	assert.Nil(t, empty.Nearest(center, 64, 1, nil))
	assert.Nil(t, chunks.Nearest(game.Pos(0, 1000, 0), 100, 1, nil), "a centre far above the world reaches nothing")
	assert.Len(t, chunks.Nearest(game.Pos(0, 1000, 0), 935, 0, nil), 1, "…until the radius reaches the top log")
	assert.Len(t, chunks.Nearest(center, 1<<40, 0, logs), 7, "huge radii are clamped, not overflowed")
}

func TestNearestEvaluatesMatchOncePerState(t *testing.T) {
	chunks := sharedChunks()
	calls := map[string]int{}
	match := func(b game.Block) bool {
		calls[fmt.Sprintf("%s:%d", b.ID, b.Meta)]++
		return b.ID == "minecraft:diamond_ore"
	}
	hits := chunks.Nearest(benchCenter, 64, 100, match)
	require.NotEmpty(t, hits)
	require.NotEmpty(t, calls)
	for state, n := range calls {
		assert.Equal(t, 1, n, "match called %d times for %s", n, state)
	}
	// The world holds 12 distinct non-air states.
	assert.LessOrEqual(t, len(calls), 12)
}

func TestNearestSkipsNonMatchingSections(t *testing.T) {
	// Sections whose palette lacks the target are never opened: a world of
	// stone with one log answers a log query after scanning one section.
	store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	stone := NewUniformSection(MakeState(1, 0))
	for cx := -4; cx < 4; cx++ {
		for cz := -4; cz < 4; cz++ {
			col := NewColumn(cx, cz)
			for cy := 0; cy < 8; cy++ {
				col.SetSection(cy, stone)
			}
			store.LoadColumn(col)
		}
	}
	store.SetState(37, 100, -41, MakeState(17, 0))
	chunks := store.View()
	q := &nearestQuery{cache: newStateCache()}
	q.reset(chunks, game.Pos(0, 64, 0), 128, 1, byID("minecraft:log"))
	q.collect(128)
	assert.Len(t, q.cands, 1, "only the section holding the log is a candidate")
	hits := chunks.Nearest(game.Pos(0, 64, 0), 128, 1, byID("minecraft:log"))
	require.Len(t, hits, 1)
	assert.Equal(t, game.Pos(37, 100, -41), hits[0].Pos)
}

func TestStateCache(t *testing.T) {
	c := newStateCache()
	for i := 1; i <= 5000; i++ {
		c.put(MakeState(i, i&3), i%3 == 0)
	}
	for i := 1; i <= 5000; i++ {
		v, ok := c.get(MakeState(i, i&3))
		require.True(t, ok)
		require.Equal(t, i%3 == 0, v)
	}
	_, ok := c.get(MakeState(9999, 0))
	assert.False(t, ok)
	c.reset()
	_, ok = c.get(MakeState(1, 1))
	assert.False(t, ok, "reset forgets")
}

// sparseBlocks is the reference the chunk search is checked against: a map
// of the non-air blocks scanned whole on every query (what world.SparseBlocks
// does for tests above this package).
type sparseBlocks struct{ m map[game.BlockPos]game.Block }

func (s *sparseBlocks) Set(p game.BlockPos, b game.Block) {
	if b.IsAir() {
		delete(s.m, p)
		return
	}
	s.m[p] = b
}

func (s *sparseBlocks) Nearest(center game.BlockPos, radius, k int, match func(game.Block) bool) []game.BlockHit {
	var hits []game.BlockHit
	for p, b := range s.m {
		d := p.DistSq(center)
		if d > radius*radius || (match != nil && !match(b)) {
			continue
		}
		hits = append(hits, game.BlockHit{Pos: p, Block: b, DistSq: d})
	}
	game.SortHits(hits)
	if k > 0 && len(hits) > k {
		hits = hits[:k]
	}
	return hits
}
