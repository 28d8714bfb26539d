package world

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// rawColumnRaws is the number of raw sections newRawColumn builds.
const rawColumnRaws = 5

// rawColumn is a column whose first sections are raw, as a chunk packet
// decodes them (the chunk engine's own tests cover every raw layout; the
// state only needs some), with the states every section holds.
type rawColumn struct {
	col  *chunk.Column
	want [chunk.ColumnSections]*[chunk.SectionVolume]chunk.StateID
}

func newRawColumn(t *testing.T, seed uint64, cx, cz int) *rawColumn {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed+1))
	c := &rawColumn{col: chunk.NewColumn(cx, cz)}
	for cy := 0; cy < rawColumnRaws; cy++ {
		ids := make([]byte, chunk.SectionVolume)
		meta := make([]byte, chunk.NibbleBytes)
		for i := range ids {
			if rng.IntN(3) > 0 {
				ids[i] = byte(1 + rng.IntN(5))
			}
		}
		for i := range meta {
			meta[i] = byte(rng.IntN(256))
		}
		sec := chunk.NewVanillaSection(ids, meta, nil)
		require.True(t, sec.IsRaw())
		c.col.SetSection(cy, sec)
		var want [chunk.SectionVolume]chunk.StateID
		sec.States(&want)
		c.want[cy] = &want
	}
	return c
}

func (c *rawColumn) copyWant() [chunk.ColumnSections]*[chunk.SectionVolume]chunk.StateID {
	var out [chunk.ColumnSections]*[chunk.SectionVolume]chunk.StateID
	for i, w := range c.want {
		if w != nil {
			cp := *w
			out[i] = &cp
		}
	}
	return out
}

// checkColumnContent compares every state of column (cx, cz) with want
// (nil sections are air).
func checkColumnContent(t *testing.T, src *chunk.Chunks, cx, cz int, want *[chunk.ColumnSections]*[chunk.SectionVolume]chunk.StateID, label string) {
	t.Helper()
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		for i := 0; i < chunk.SectionVolume; i++ {
			var w chunk.StateID
			if want[cy] != nil {
				w = want[cy][i]
			}
			x, y, z := cx<<4|i&15, cy<<4|i>>8, cz<<4|(i>>4)&15
			if got := src.StateAt(x, y, z); got != w {
				require.Failf(t, "wrong state", "%s: (%d, %d, %d) = %v, want %v", label, x, y, z, got, w)
			}
		}
	}
}

// countRawSections counts the raw sections of the given columns in src.
func countRawSections(src *chunk.Chunks, cols ...*rawColumn) int {
	n := 0
	for _, rc := range cols {
		p := rc.col.Pos()
		col := src.Column(p.X, p.Z)
		if col == nil {
			continue
		}
		for cy := 0; cy < chunk.ColumnSections; cy++ {
			if s := col.Section(cy); s != nil && s.IsRaw() {
				n++
			}
		}
	}
	return n
}

// benchColumn converts column (bx, bz) of the benchmark world into a Column
// placed at chunk position (cx, cz).
func benchColumn(w *benchworld.World, bx, bz, cx, cz int) *chunk.Column {
	col := chunk.NewColumn(cx, cz)
	var states [chunk.SectionVolume]chunk.StateID
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		any := false
		for y := 0; y < chunk.SectionSize; y++ {
			for z := 0; z < chunk.SectionSize; z++ {
				row := benchworld.Index(bx<<4, cy<<4|y, bz<<4|z)
				for x := 0; x < chunk.SectionSize; x++ {
					st := chunk.LegacyState(w.W[row+x])
					states[y<<8|z<<4|x] = st
					any = any || st != chunk.AirState
				}
			}
		}
		if any {
			col.SetSection(cy, chunk.NewSection(&states))
		}
	}
	return col
}

func TestStateCompactChunks(t *testing.T) {
	a := newRawColumn(t, 6, 0, 0)
	s := NewState(StateOptions{Rules: rules.Default()})
	assert.Zero(t, s.CompactChunks(10), "no chunks")
	s.Update(func(tx *Tx) { tx.LoadColumn(a.col) })
	ver := s.Version()
	snap1 := s.Snapshot()
	ch1, ok := snap1.Blocks.(*chunk.Chunks)
	require.True(t, ok)
	checkColumnContent(t, ch1, 0, 0, &a.want, "before")

	assert.Zero(t, s.CompactChunks(0))
	assert.Equal(t, 2, s.CompactChunks(2))
	assert.Equal(t, ver, s.Version(), "compaction is no change")
	snap2 := s.Snapshot()
	ch2 := snap2.Blocks.(*chunk.Chunks)
	assert.Equal(t, rawColumnRaws-2, countRawSections(ch2, a))
	assert.Equal(t, rawColumnRaws, countRawSections(ch1, a), "snapshots never change")
	checkColumnContent(t, ch2, 0, 0, &a.want, "after CompactChunks(2)")
	checkColumnContent(t, ch1, 0, 0, &a.want, "old snapshot after CompactChunks(2)")

	assert.Equal(t, rawColumnRaws-2, s.CompactChunks(100))
	assert.Zero(t, s.CompactChunks(100))
	assert.Equal(t, ver, s.Version())
	snap3 := s.Snapshot()
	ch3 := snap3.Blocks.(*chunk.Chunks)
	assert.Zero(t, countRawSections(ch3, a))
	checkColumnContent(t, ch3, 0, 0, &a.want, "after CompactChunks(100)")
	// Blocks resolve the same way.
	for _, p := range []BlockPos{Pos(3, 2, 4), Pos(15, 20, 0), Pos(1, 50, 1), Pos(9, 250, 9), Pos(0, 120, 7)} {
		assert.Equal(t, snap1.BlockAt(p), snap3.BlockAt(p), "%v", p)
	}

	// Writes go on working, and new raw sections are packed again.
	orig := a.copyWant()
	s.Update(func(tx *Tx) {
		assert.Equal(t, a.want[1][0], tx.SetState(Pos(0, 16, 0), chunk.MakeState(1, 0)))
	})
	assert.Equal(t, ver+1, s.Version())
	a.want[1][0] = chunk.MakeState(1, 0)
	checkColumnContent(t, s.Snapshot().Blocks.(*chunk.Chunks), 0, 0, &a.want, "after a write")
	checkColumnContent(t, ch3, 0, 0, &orig, "old snapshot after a write")

	b := newRawColumn(t, 7, 9, -9)
	s.Update(func(tx *Tx) { tx.LoadColumn(b.col) })
	assert.Equal(t, rawColumnRaws, s.CompactChunks(100))
	assert.Zero(t, s.CompactChunks(100))
	snap := s.Snapshot().Blocks.(*chunk.Chunks)
	checkColumnContent(t, snap, 9, -9, &b.want, "second column")
	checkColumnContent(t, snap, 0, 0, &a.want, "first column")
}

// TestStateCompactChunksTakesNoView: packing outside the lock needs no view,
// so a column written in place before packing is still written in place
// after it (no new store generation forces a copy).
func TestStateCompactChunksTakesNoView(t *testing.T) {
	st := NewState(StateOptions{Rules: rules.Default()})
	rc := newRawColumn(t, 5, 0, 0)
	plain := chunk.NewColumn(4, 4)
	plain.SetState(0, 0, 0, chunk.MakeState(1, 0))
	st.Update(func(tx *Tx) {
		tx.LoadColumn(rc.col)
		tx.LoadColumn(plain)
	})
	before := st.chunks.Column(4, 4)
	require.Positive(t, st.CompactChunks(100))
	st.Update(func(tx *Tx) { tx.SetState(Pos(64, 1, 64), chunk.MakeState(3, 0)) })
	assert.Same(t, before, st.chunks.Column(4, 4), "the column was copied: packing started a new generation")
	assert.Equal(t, chunk.MakeState(3, 0), st.Snapshot().Blocks.(*chunk.Chunks).StateAt(64, 1, 64))
}

// BenchmarkSnapshot measures a State snapshot after one block change in a
// 21×21 view: the cost that copy-on-write keeps independent of the view size.
func BenchmarkSnapshot(b *testing.B) {
	w := sharedWorld()
	s := NewState(StateOptions{Rules: rules.Default()})
	s.Update(func(tx *Tx) {
		for cz := 0; cz < 21; cz++ {
			for cx := 0; cx < 21; cx++ {
				tx.LoadColumn(benchColumn(w, cx%16, cz%16, cx, cz))
			}
		}
	})
	i := 0
	for b.Loop() {
		s.Update(func(tx *Tx) {
			tx.SetState(Pos(i%300, 70, (i/300)%300), chunk.MakeState(17, 0))
			tx.AdvanceTick(1)
		})
		_ = s.Snapshot()
		i++
	}
}

var (
	benchOnce  sync.Once
	benchWorld *benchworld.World
)

// sharedWorld is the shared benchmark world (seed 1337), generated once per
// test binary.
func sharedWorld() *benchworld.World {
	benchOnce.Do(func() { benchWorld = benchworld.Generate(1337) })
	return benchWorld
}
