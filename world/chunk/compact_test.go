package chunk

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests of stores holding raw sections: ChunkStore.Compact, writes into raw
// sections, State.CompactChunks and Nearest over raw sections. The helpers
// (rawBlocks, rawDists, rawBuild, checkContent) are in section_raw_test.go.

// rawLayout is which distribution fills which section of a test column;
// "palette:" sections are built with NewSection, the others raw.
type rawLayout []struct {
	cy   int
	dist string
}

// rawColumnLayout has dense sections with thousands of states.
var rawColumnLayout = rawLayout{
	{0, "vanilla/few-long-runs"},
	{1, "add/dense"},
	{3, "neid/dense"},
	{5, "palette:vanilla/medium-palette"},
	{7, "vanilla/many-states"},
	{15, "neid/runs-wide"},
}

// rawNearestLayout has fewer states a section, so that queries, which
// evaluate their match once per distinct state, stay fast.
var rawNearestLayout = rawLayout{
	{0, "vanilla/few-long-runs"},
	{1, "add/low-byte-zero"},
	{3, "neid/runs-wide"},
	{5, "palette:vanilla/medium-palette"},
	{7, "vanilla/sparse"},
	{15, "add/few-high-ids"},
}

// rawColumnRaws is how many raw sections a test column has (either layout).
const rawColumnRaws = 5

func rawDistNamed(t *testing.T, name string) rawDist {
	t.Helper()
	for _, d := range rawDists {
		if d.name == name {
			return d
		}
	}
	t.Fatalf("no distribution %q", name)
	return rawDist{}
}

// rawColumn is a test column and the content it must show.
type rawColumn struct {
	cx, cz int
	col    *Column
	want   [ColumnSections]*[SectionVolume]StateID // nil: all air
	raw    map[int]*Section                        // raw sections by cy
	pal    map[int]*Section                        // palette sections by cy
}

func newRawColumn(t *testing.T, seed uint64, cx, cz int) *rawColumn {
	t.Helper()
	return newRawColumnLayout(t, rawColumnLayout, seed, cx, cz)
}

func newRawColumnLayout(t *testing.T, layout rawLayout, seed uint64, cx, cz int) *rawColumn {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 0xAB))
	c := &rawColumn{cx: cx, cz: cz, col: NewColumn(cx, cz), raw: map[int]*Section{}, pal: map[int]*Section{}}
	for _, l := range layout {
		name, palette := strings.CutPrefix(l.dist, "palette:")
		d := rawDistNamed(t, name)
		b := d.gen(r)
		c.want[l.cy] = b.states()
		var sec *Section
		if palette {
			sec = NewSection(b.states())
			c.pal[l.cy] = sec
		} else {
			sec, _ = rawBuild(t, d.format, b, seed+uint64(l.cy))
			require.True(t, sec.IsRaw())
			c.raw[l.cy] = sec
		}
		c.col.SetSection(l.cy, sec)
		require.Same(t, sec, c.col.Section(l.cy))
	}
	return c
}

// paletteTwin returns a column with the same content built from palette
// sections only.
func (c *rawColumn) paletteTwin() *Column {
	col := NewColumn(c.cx, c.cz)
	for cy, w := range c.want {
		if w != nil {
			col.SetSection(cy, NewSection(w))
		}
	}
	return col
}

// copyWant returns a deep copy of the expected content, to keep it before a
// write changes c.want.
func (c *rawColumn) copyWant() [ColumnSections]*[SectionVolume]StateID {
	var out [ColumnSections]*[SectionVolume]StateID
	for cy, w := range c.want {
		if w != nil {
			cp := *w
			out[cy] = &cp
		}
	}
	return out
}

// stateSource is what the content checks read from.
type stateSource interface {
	StateAt(x, y, z int) StateID
}

// checkColumnContent compares every block of a column's area in src with
// want, through world coordinates.
func checkColumnContent(t *testing.T, src stateSource, cx, cz int, want *[ColumnSections]*[SectionVolume]StateID, label string) {
	t.Helper()
	for y := 0; y < WorldHeight; y++ {
		sec := want[y/16]
		for z := 0; z < 16; z++ {
			for x := 0; x < 16; x++ {
				w := AirState
				if sec != nil {
					w = sec[(y%16)*256+z*16+x]
				}
				if got := src.StateAt(cx*16+x, y, cz*16+z); got != w {
					t.Fatalf("%s: StateAt(%d, %d, %d) = %v, want %v", label, cx*16+x, y, cz*16+z, got, w)
				}
			}
		}
	}
}

// columnGetter is a ChunkStore or a view.
type columnGetter interface {
	Column(cx, cz int) *Column
}

// countRawSections counts the raw sections of the given columns in src.
func countRawSections(src columnGetter, cols ...*rawColumn) int {
	n := 0
	for _, c := range cols {
		col := src.Column(c.cx, c.cz)
		if col == nil {
			continue
		}
		for cy := 0; cy < ColumnSections; cy++ {
			if s := col.Section(cy); s != nil && s.IsRaw() {
				n++
			}
		}
	}
	return n
}

func TestChunkStoreCompact(t *testing.T) {
	a := newRawColumn(t, 1, 0, 0)
	b := newRawColumn(t, 2, -1, 9) // another region
	store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	assert.False(t, store.RawSections(), "an empty store has no raw sections")
	assert.Zero(t, store.Compact(100))
	store.LoadColumn(a.col)
	store.LoadColumn(b.col)
	require.True(t, store.RawSections())
	require.Equal(t, 2*rawColumnRaws, countRawSections(store, a, b))

	v1 := store.View()
	assert.Zero(t, store.Compact(0))
	assert.Zero(t, store.Compact(-3))
	assert.Same(t, v1, store.View(), "a Compact that packs nothing is no write")

	assert.Panics(t, func() { a.raw[0].Set(0, 0, 0, MakeState(1, 0)) }, "the store owns the raw sections")

	assert.Equal(t, 1, store.Compact(1))
	assert.True(t, store.RawSections())
	assert.Equal(t, 2*rawColumnRaws-1, countRawSections(store, a, b), "Compact(1) packs one section")
	assert.Equal(t, 2*rawColumnRaws, countRawSections(v1, a, b), "views never change")

	assert.Equal(t, 3, store.Compact(3))
	assert.True(t, store.RawSections())
	assert.Equal(t, 2*rawColumnRaws-4, countRawSections(store, a, b))

	assert.Equal(t, 2*rawColumnRaws-4, store.Compact(100), "Compact packs the rest")
	assert.False(t, store.RawSections())
	assert.Zero(t, countRawSections(store, a, b))
	assert.Zero(t, store.Compact(100))
	assert.Zero(t, store.Compact(1))

	v2 := store.View()
	assert.NotSame(t, v1, v2)
	assert.Equal(t, 2, v1.Columns())
	assert.Equal(t, 2, v2.Columns())
	for _, c := range []*rawColumn{a, b} {
		label := fmt.Sprintf("column (%d, %d)", c.cx, c.cz)
		checkColumnContent(t, v1, c.cx, c.cz, &c.want, label+" v1")
		checkColumnContent(t, v2, c.cx, c.cz, &c.want, label+" v2")
		checkColumnContent(t, store, c.cx, c.cz, &c.want, label+" store")
		for cy, rs := range c.raw {
			old := v1.Column(c.cx, c.cz).Section(cy)
			assert.Same(t, rs, old, "%s: v1 keeps raw section %d", label, cy)
			assert.True(t, old.IsRaw(), "%s: v1 section %d still raw", label, cy)
			now := v2.Column(c.cx, c.cz).Section(cy)
			assert.False(t, now.IsRaw(), "%s: section %d packed", label, cy)
			assert.Same(t, rs.packed(), now, "%s: the store holds the raw section's cached palette form", label)
			checkContent(t, now, c.want[cy], fmt.Sprintf("%s packed section %d", label, cy))
			assert.Panics(t, func() { now.Set(0, 0, 0, MakeState(1, 0)) }, "%s: the store owns packed section %d", label, cy)
		}
		for cy, ps := range c.pal {
			assert.Same(t, ps, v2.Column(c.cx, c.cz).Section(cy), "%s: palette section %d untouched", label, cy)
		}
	}
}

func TestChunkStoreCompactUsesCachedForm(t *testing.T) {
	a := newRawColumn(t, 3, 5, 5)
	// Queries before compaction build the palette forms; Compact reuses them.
	cached := map[int]*Section{}
	for cy, rs := range a.raw {
		rs.NonAir()
		cached[cy] = rs.raw.packed.Load()
		require.NotNil(t, cached[cy])
	}
	store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	store.LoadColumn(a.col)
	require.Equal(t, rawColumnRaws, store.Compact(100))
	for cy, p := range cached {
		assert.Same(t, p, store.Column(5, 5).Section(cy), "section %d", cy)
	}
	checkColumnContent(t, store, 5, 5, &a.want, "store")
}

func TestChunkStoreSetStateAfterCompact(t *testing.T) {
	for _, mode := range []string{"no view", "view before compaction", "view after compaction"} {
		t.Run(mode, func(t *testing.T) {
			a := newRawColumn(t, 4, -3, 2)
			orig := a.copyWant()
			store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
			store.LoadColumn(a.col)
			var before, after *Chunks
			if mode == "view before compaction" {
				before = store.View()
			}
			require.Equal(t, rawColumnRaws, store.Compact(100))
			if mode == "view after compaction" {
				after = store.View()
			}
			packedForms := map[int]*Section{}
			for cy, rs := range a.raw {
				packedForms[cy] = rs.packed()
				require.Same(t, packedForms[cy], store.Column(a.cx, a.cz).Section(cy))
			}

			r := rand.New(rand.NewPCG(4, 4))
			for cy, rs := range a.raw {
				for n := 0; n < 3; n++ { // the second write finds the store's own copy
					x, y, z := r.IntN(16), cy*16+r.IntN(16), r.IntN(16)
					i := (y%16)*256 + z*16 + x
					old := a.want[cy][i]
					st := MakeState(4000+cy, 7+n)
					require.NotEqual(t, old, st)
					wx, wz := a.cx*16+x, a.cz*16+z
					assert.Equal(t, old, store.SetState(wx, y, wz, st), "section %d", cy)
					assert.Equal(t, st, store.StateAt(wx, y, wz))
					a.want[cy][i] = st
				}
				// The palette form cached in the raw section is unchanged.
				assert.True(t, rs.IsRaw())
				assert.Same(t, packedForms[cy], rs.packed())
				checkContent(t, packedForms[cy], orig[cy], fmt.Sprintf("cached palette form of section %d", cy))
				checkContent(t, rs, orig[cy], fmt.Sprintf("raw section %d", cy))
				assert.NotSame(t, packedForms[cy], store.Column(a.cx, a.cz).Section(cy), "the store copies the shared palette form")
			}
			checkColumnContent(t, store, a.cx, a.cz, &a.want, "store")
			checkColumnContent(t, store.View(), a.cx, a.cz, &a.want, "new view")
			if before != nil {
				checkColumnContent(t, before, a.cx, a.cz, &orig, "view before compaction")
				assert.Equal(t, rawColumnRaws, countRawSections(before, a))
			}
			if after != nil {
				checkColumnContent(t, after, a.cx, a.cz, &orig, "view after compaction")
				for cy := range a.raw {
					assert.Same(t, packedForms[cy], after.Column(a.cx, a.cz).Section(cy))
				}
			}
		})
	}
}

func TestChunkStoreSetStateOnRawSection(t *testing.T) {
	t.Run("no view since load: materialized in place", func(t *testing.T) {
		a := newRawColumn(t, 5, 1, -1)
		store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
		store.LoadColumn(a.col)
		rs := a.raw[3]
		x, y, z := 4, 3*16+9, 11
		i := 9*256 + 11*16 + 4
		old := a.want[3][i]
		st := MakeState(7, 0)
		require.NotEqual(t, old, st)
		assert.Equal(t, old, store.SetState(16+x, y, -16+z, st))
		a.want[3][i] = st
		assert.Same(t, rs, store.Column(1, -1).Section(3), "a section only the store holds is written in place")
		assert.False(t, rs.IsRaw())
		checkContent(t, rs, a.want[3], "materialized section")
		checkColumnContent(t, store, 1, -1, &a.want, "store")
		assert.Equal(t, rawColumnRaws-1, countRawSections(store, a))
		assert.True(t, store.RawSections())
		assert.Equal(t, rawColumnRaws-1, store.Compact(100))
		assert.False(t, store.RawSections())
		checkColumnContent(t, store, 1, -1, &a.want, "store after Compact")
	})

	t.Run("view first: copied", func(t *testing.T) {
		a := newRawColumn(t, 5, 1, -1)
		orig := a.copyWant()
		store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
		store.LoadColumn(a.col)
		v := store.View()
		rs := a.raw[7]
		r := rand.New(rand.NewPCG(5, 5))
		for n := 0; n < 50; n++ {
			x, y, z := r.IntN(16), 7*16+r.IntN(16), r.IntN(16)
			i := (y%16)*256 + z*16 + x
			st := MakeState(r.IntN(3), r.IntN(16)) // air, stone, grass
			assert.Equal(t, a.want[7][i], store.SetState(16+x, y, -16+z, st))
			a.want[7][i] = normState(st)
		}
		now := store.Column(1, -1).Section(7)
		assert.NotSame(t, rs, now)
		assert.False(t, now.IsRaw())
		assert.True(t, rs.IsRaw())
		assert.Same(t, rs, v.Column(1, -1).Section(7))
		checkContent(t, rs, orig[7], "raw section in the view")
		checkContent(t, now, a.want[7], "store's copy")
		checkColumnContent(t, v, 1, -1, &orig, "view")
		checkColumnContent(t, store, 1, -1, &a.want, "store")
		assert.Equal(t, rawColumnRaws-1, store.Compact(100))
	})

	t.Run("clearing a raw section through the store", func(t *testing.T) {
		b := &rawBlocks{}
		for i := range b.meta {
			b.meta[i] = (i * 7) % 16
		}
		pos := []int{0, 17, 300, 4095}
		for k, i := range pos {
			b.id[i] = 1 + k
		}
		ids, meta, _ := rawEncodeVanilla(b, false, false)
		rs := NewVanillaSection(ids, meta, nil)
		require.True(t, rs.IsRaw())

		store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
		store.SetSection(2, 9, 3, rs)
		require.True(t, store.RawSections())
		v := store.View()
		for k, i := range pos {
			x, y, z := 32+i&15, 9*16+i>>8, 48+i>>4&15
			assert.Equal(t, MakeState(1+k, b.meta[i]), store.StateAt(x, y, z))
			assert.Equal(t, MakeState(1+k, b.meta[i]), store.SetState(x, y, z, AirState))
		}
		assert.Nil(t, store.Column(2, 3).Section(9), "an all-air section is dropped")
		assert.Same(t, rs, v.Column(2, 3).Section(9))
		assert.Equal(t, len(pos), rs.NonAir())
		assert.Zero(t, store.Compact(100))
		assert.False(t, store.RawSections())
	})
}

// bruteHits scans every position within radius of center in want and
// returns the matches nearest first (ties by BlockPos.Less), up to k.
func bruteHits(res *Resolver, want func(x, y, z int) StateID, center game.BlockPos, radius, k int, match func(game.Block) bool) []game.BlockHit {
	var hits []game.BlockHit
	for y := max(center.Y-radius, 0); y <= min(center.Y+radius, WorldHeight-1); y++ {
		for z := center.Z - radius; z <= center.Z+radius; z++ {
			for x := center.X - radius; x <= center.X+radius; x++ {
				p := game.Pos(x, y, z)
				d := p.DistSq(center)
				if d > radius*radius {
					continue
				}
				st := want(x, y, z)
				if st == AirState {
					continue
				}
				b := res.Block(st)
				if match != nil && !match(b) {
					continue
				}
				hits = append(hits, game.BlockHit{Pos: p, Block: b, DistSq: d})
			}
		}
	}
	game.SortHits(hits)
	if k > 0 && len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

func TestNearestOverRawSections(t *testing.T) {
	rawStore := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	palStore := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	cols := map[ChunkPos]*rawColumn{}
	seed := uint64(20)
	// Nine columns, across region borders on both axes.
	for cx := -1; cx <= 1; cx++ {
		for cz := -1; cz <= 1; cz++ {
			c := newRawColumnLayout(t, rawNearestLayout, seed, cx, cz)
			seed++
			cols[ChunkPos{cx, cz}] = c
			palStore.LoadColumn(c.paletteTwin())
			rawStore.LoadColumn(c.col)
		}
	}
	want := func(x, y, z int) StateID {
		c := cols[ChunkPos{x >> 4, z >> 4}]
		if c == nil || c.want[y>>4] == nil {
			return AirState
		}
		return c.want[y>>4][(y&15)<<8|(z&15)<<4|x&15]
	}
	res := rawStore.Resolver()
	stone, ok := res.State("minecraft:stone", 0)
	require.True(t, ok)
	matches := []struct {
		name string
		fn   func(game.Block) bool
	}{
		{"any", nil},
		{"stone", func(b game.Block) bool { return b.ID == res.Block(stone).ID }},
		{"meta 3", func(b game.Block) bool { return b.Meta == 3 }},
		{"unknown ids", func(b game.Block) bool { return strings.HasPrefix(b.ID, "unknown:") }},
		{"neid wide", func(b game.Block) bool { return b.ID == "unknown:4097" || b.ID == "unknown:65535" }},
	}
	centers := []game.BlockPos{game.Pos(0, 5, 0), game.Pos(-7, 60, 13), game.Pos(20, 250, -3), game.Pos(8, 120, 8), game.Pos(-16, 40, -16)}
	palView := palStore.View()

	found := map[string]int{} // hits a match found, to check the queries are not vacuous
	check := func(t *testing.T, rawView *Chunks, brute bool) {
		for _, c := range centers {
			for _, m := range matches {
				for _, radius := range []int{4, 11, 40} {
					var all []game.BlockHit // brute force, unlimited
					if brute && radius <= 11 {
						all = bruteHits(res, want, c, radius, 0, m.fn)
					}
					for _, k := range []int{1, 7, 0} {
						if k == 0 && radius > 4 {
							continue
						}
						label := fmt.Sprintf("%v %s r%d k%d", c, m.name, radius, k)
						got := rawView.Nearest(c, radius, k, m.fn)
						found[m.name] += len(got)
						if k > 0 {
							require.LessOrEqual(t, len(got), k, label)
						}
						require.Equal(t, palView.Nearest(c, radius, k, m.fn), got, label)
						if all != nil {
							exp := all
							if k > 0 && len(exp) > k {
								exp = exp[:k]
							}
							require.Equal(t, exp, got, label+" brute force")
						}
					}
				}
			}
		}
	}

	v1 := rawStore.View()
	require.Equal(t, 9*rawColumnRaws, countRawSections(v1, rawColumnsOf(cols)...))
	t.Run("raw", func(t *testing.T) { check(t, v1, true) })
	assert.Equal(t, 9*rawColumnRaws, countRawSections(v1, rawColumnsOf(cols)...), "queries leave sections raw")
	assert.Equal(t, 9*rawColumnRaws/2, rawStore.Compact(9*rawColumnRaws/2))
	t.Run("half compacted", func(t *testing.T) { check(t, rawStore.View(), false) })
	assert.Equal(t, 9*rawColumnRaws-9*rawColumnRaws/2, rawStore.Compact(1000))
	t.Run("compacted", func(t *testing.T) { check(t, rawStore.View(), false) })
	t.Run("old view", func(t *testing.T) { check(t, v1, false) })
	for _, m := range matches {
		assert.Positive(t, found[m.name], "queries for %s found nothing", m.name)
	}
}

func rawColumnsOf(m map[ChunkPos]*rawColumn) []*rawColumn {
	out := make([]*rawColumn, 0, len(m))
	for _, c := range m {
		out = append(out, c)
	}
	return out
}

// TestCompactionInSteps: a plan built under the owner's lock, built
// outside it and applied under it again packs what it listed; a raw column
// loaded in between is not lost to it: the store still knows it has raw
// sections, and the next compaction packs them.
func TestCompactionInSteps(t *testing.T) {
	store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	assert.Nil(t, store.PlanCompact(10), "nothing raw, nothing to plan")
	a := newRawColumn(t, 11, 0, 0)
	store.LoadColumn(a.col)
	require.True(t, store.RawSections())
	assert.Nil(t, store.PlanCompact(0), "no budget")

	plan := store.PlanCompact(100)
	require.NotNil(t, plan)
	plan.Build()
	b := newRawColumn(t, 12, 3, 3)
	store.LoadColumn(b.col) // arrives between the plan and its application
	assert.Equal(t, rawColumnRaws, store.ApplyCompact(plan))
	assert.Zero(t, countRawSections(store.View(), a))
	assert.True(t, store.RawSections(), "the column loaded meanwhile still has raw sections")
	assert.Equal(t, rawColumnRaws, countRawSections(store.View(), b))

	plan = store.PlanCompact(100)
	plan.Build()
	assert.Equal(t, rawColumnRaws, store.ApplyCompact(plan))
	assert.False(t, store.RawSections(), "all packed")
	assert.Zero(t, store.ApplyCompact(nil))
	checkColumnContent(t, store.View(), 0, 0, &a.want, "first column")
	checkColumnContent(t, store.View(), 3, 3, &b.want, "second column")
}
