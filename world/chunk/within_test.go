package chunk

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

func TestCountWithinAgreesWithNearest(t *testing.T) {
	store, _, _ := syntheticWorld(t, 3, 110)
	chunks := store.View()
	preds := []func(game.Block) bool{
		nil,
		byID("test:b1"),
		func(b game.Block) bool { return b.Meta%2 == 1 },
		func(game.Block) bool { return false },
		func(game.Block) bool { return true },
	}
	rng := rand.New(rand.NewPCG(9, 4))
	nonZero := 0
	for i := 0; i < 200; i++ {
		c := game.Pos(rng.IntN(120)-60, rng.IntN(280)-12, rng.IntN(120)-60)
		radius := rng.IntN(40) - 1
		pred := preds[rng.IntN(len(preds))]
		want := len(chunks.Nearest(c, radius, 0, pred))
		got := chunks.CountWithin(c, radius, pred)
		require.Equal(t, want, got, "case %d: %v r=%d", i, c, radius)
		if want > 0 {
			nonZero++
		}
	}
	assert.Greater(t, nonZero, 50, "most queries count something")
}

// diffBrute lists the positions within radius whose states differ, cell by
// cell over the box the radius covers, clipped to the test's loaded area
// (x and z from -64 to 127; outside, both read air).
func diffBrute(a, b *Chunks, c game.BlockPos, radius int) []game.BlockPos {
	var out []game.BlockPos
	for y := max(c.Y-radius, 0); y <= min(c.Y+radius, WorldHeight-1); y++ {
		for z := max(c.Z-radius, -64); z <= min(c.Z+radius, 127); z++ {
			for x := max(c.X-radius, -64); x <= min(c.X+radius, 127); x++ {
				p := game.Pos(x, y, z)
				if p.DistSq(c) <= radius*radius && a.StateAt(x, y, z) != b.StateAt(x, y, z) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

func sortedPos(ps []game.BlockPos) []game.BlockPos {
	slices.SortFunc(ps, func(a, b game.BlockPos) int {
		if a.Less(b) {
			return -1
		}
		if b.Less(a) {
			return 1
		}
		return 0
	})
	return ps
}

func TestChangedWithinFindsEveryWrite(t *testing.T) {
	store, _, _ := syntheticWorld(t, 5, 40)
	before := store.View()
	rng := rand.New(rand.NewPCG(2, 6))
	// Writes near the origin, a column unloaded, a new column loaded and a
	// section replaced: every kind of change between two views.
	for i := 0; i < 300; i++ {
		p := game.Pos(rng.IntN(64)-32, 30+rng.IntN(70), rng.IntN(64)-32)
		store.SetState(p.X, p.Y, p.Z, MakeState(1+rng.IntN(40), 0))
	}
	store.SetState(5, 60, 5, AirState)
	require.True(t, store.UnloadColumn(-1, -1))
	col := NewColumn(6, 6)
	store.LoadColumn(col)
	store.SetState(6*16+3, 70, 6*16+4, MakeState(3, 0))
	var full [SectionVolume]StateID
	for i := range full {
		full[i] = MakeState(2, 0)
	}
	store.SetSection(0, 4, 0, NewSection(&full))
	after := store.View()

	for i, q := range []struct {
		c      game.BlockPos
		radius int
	}{{game.Pos(0, 64, 0), 40}, {game.Pos(-10, 50, -10), 12}, {game.Pos(100, 70, 100), 10}, {game.Pos(0, 64, 0), 0}, {game.Pos(0, 64, 0), -1}, {game.Pos(20, 40, -20), 300}} {
		var got []game.BlockPos
		require.True(t, before.ChangedWithin(after, q.c, q.radius, func(p game.BlockPos) { got = append(got, p) }))
		want := diffBrute(before, after, q.c, q.radius)
		assert.Equal(t, sortedPos(want), sortedPos(got), "case %d: %v r=%d", i, q.c, q.radius)
		if i == 0 {
			assert.Greater(t, len(want), 300, "the writes, the unloaded column and the new section are all within the first query")
		}
	}

	// Nothing changed: nothing is reported.
	same := store.View()
	n := 0
	require.True(t, after.ChangedWithin(same, game.Pos(0, 64, 0), 64, func(game.BlockPos) { n++ }))
	assert.Zero(t, n)

	// Another resolver: the states cannot be compared.
	other := NewChunkStore(NewResolver(rules.NewIDMap(), rules.Default().Tags))
	called := false
	assert.False(t, after.ChangedWithin(other.View(), game.Pos(0, 64, 0), 8, func(game.BlockPos) { called = true }))
	assert.False(t, called)
}

func BenchmarkCountWithin(b *testing.B) {
	chunks := sharedChunks()
	for _, radius := range []int{16, 32, 64} {
		b.Run(fmt.Sprintf("r%d", radius), func(b *testing.B) {
			for b.Loop() {
				chunks.CountWithin(benchCenter, radius, nil)
			}
		})
	}
}
