package chunk

import (
	"math/rand/v2"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStateID(t *testing.T) {
	tests := []struct {
		name     string
		st       StateID
		id, meta int
		air      bool
		str      string
	}{
		{"stone", MakeState(1, 0), 1, 0, false, "1:0"},
		{"tallgrass meta 1", MakeState(31, 1), 31, 1, false, "31:1"},
		{"NotEnoughIds id and meta", MakeState(31000, 40000), 31000, 40000, false, "31000:40000"},
		{"widest state", MakeState(0xFFFF, 0xFFFF), 0xFFFF, 0xFFFF, false, "65535:65535"},
		{"air", AirState, 0, 0, true, "0:0"},
		{"air with metadata is air", MakeState(0, 5), 0, 0, true, "0:0"},
		{"truncated to 16 bits", MakeState(0x10001, 0x10002), 1, 2, false, "1:2"},
		{"legacy log", LegacyState(17 << 4), 17, 0, false, "17:0"},
		{"legacy tallgrass", LegacyState(31<<4 | 1), 31, 1, false, "31:1"},
		{"legacy air", LegacyState(0x000F), 0, 0, true, "0:0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.id, tc.st.ID())
			assert.Equal(t, tc.meta, tc.st.Meta())
			assert.Equal(t, tc.air, tc.st.IsAir())
			assert.Equal(t, tc.str, tc.st.String())
		})
	}
	assert.Equal(t, StateID(17<<16|3), MakeState(17, 3), "id in the high half, metadata in the low half")
}

// checkSection compares a section with a reference array and its summaries
// with counts taken from the array.
func checkSection(t *testing.T, s *Section, ref *[SectionVolume]StateID) {
	t.Helper()
	counts := map[StateID]int{}
	nonAir := 0
	for i, st := range ref {
		require.Equal(t, st, s.at(i), "block %d", i)
		counts[st]++
		if st != AirState {
			nonAir++
		}
	}
	assert.Equal(t, nonAir, s.NonAir())
	assert.Equal(t, nonAir == 0, s.IsEmpty())
	assert.Len(t, s.Palette(), len(counts))
	for st, n := range counts {
		assert.Equal(t, n, s.Count(st), "count of %v", st)
		assert.True(t, s.Contains(st))
	}
	total := 0
	for _, c := range s.counts {
		total += int(c)
	}
	assert.Equal(t, SectionVolume, total, "palette counts cover the section")
	var out [SectionVolume]StateID
	s.States(&out)
	assert.Equal(t, *ref, out)
}

func TestSectionSetGrowsPaletteAndWidth(t *testing.T) {
	var ref [SectionVolume]StateID
	s := NewEmptySection()
	assert.Equal(t, 0, s.Bits(), "one state needs no indices")
	steps := []struct {
		states int
		bits   int
	}{{1, 0}, {2, 4}, {16, 4}, {17, 8}, {256, 8}, {257, 16}, {1000, 16}}
	placed := 1 // air
	for _, step := range steps {
		for ; placed < step.states; placed++ {
			i := placed * 4 % SectionVolume
			ref[i] = MakeState(placed, placed&3)
			s.Set(i&15, i>>8, (i>>4)&15, ref[i])
		}
		assert.Equal(t, step.bits, s.Bits(), "%d states", step.states)
		checkSection(t, s, &ref)
	}
	assert.NotNil(t, s.lookup, "long palettes keep a lookup map")
}

func TestSectionRandomOpsMatchReference(t *testing.T) {
	for _, distinct := range []int{3, 20, 300, 5000} {
		rng := rand.New(rand.NewPCG(uint64(distinct), 1))
		var ref [SectionVolume]StateID
		s := NewEmptySection()
		for op := 0; op < 20000; op++ {
			i := rng.IntN(SectionVolume)
			st := AirState
			if rng.IntN(4) != 0 {
				st = MakeState(1+rng.IntN(distinct), rng.IntN(2)*40000)
			}
			prev := s.Set(i&15, i>>8, (i>>4)&15, st)
			require.Equal(t, ref[i], prev, "Set returns the previous state")
			ref[i] = st
			if op%4999 == 0 {
				checkSection(t, s, &ref)
			}
		}
		checkSection(t, s, &ref)
		assert.LessOrEqual(t, len(s.palette), SectionVolume+1, "zero-count entries are reused")

		bulk := NewSection(&ref)
		checkSection(t, bulk, &ref)
		assert.Equal(t, bitsFor(len(bulk.palette)), bulk.bits)
		assert.LessOrEqual(t, bulk.Bits(), s.Bits(), "the bulk path picks the narrowest width")
	}
}

func TestSectionReusesFreedPaletteEntries(t *testing.T) {
	s := NewEmptySection()
	for i := 1; i <= 15; i++ {
		s.Set(i, 0, 0, MakeState(i, 0))
	}
	require.Equal(t, 4, s.Bits())
	s.Set(3, 0, 0, AirState) // state 3 disappears
	assert.False(t, s.Contains(MakeState(3, 0)))
	s.Set(3, 0, 0, MakeState(99, 0)) // takes the freed slot
	s.Set(4, 0, 0, MakeState(4, 0))  // no change
	assert.Equal(t, 16, len(s.palette))
	assert.Equal(t, 4, s.Bits(), "reusing a slot keeps the width")
	assert.Equal(t, MakeState(99, 0), s.Get(3, 0, 0))
	assert.Equal(t, 16, len(s.Palette()))
}

func TestNewSectionUniformAndEmpty(t *testing.T) {
	var ref [SectionVolume]StateID
	for i := range ref {
		ref[i] = MakeState(1, 0)
	}
	s := NewSection(&ref)
	assert.Equal(t, 0, s.Bits())
	assert.Equal(t, SectionVolume, s.NonAir())
	checkSection(t, s, &ref)
	assert.Equal(t, s.Palette(), NewUniformSection(MakeState(1, 0)).Palette())

	var air [SectionVolume]StateID
	air[7] = MakeState(0, 9) // block id 0 is air whatever its metadata
	e := NewSection(&air)
	assert.True(t, e.IsEmpty())
	assert.Equal(t, []StateID{AirState}, e.Palette())
	assert.Equal(t, "section{1 states, 0 bits, 0 non-air}", e.String())
}

func TestSectionCloneIsIndependent(t *testing.T) {
	s := NewEmptySection()
	for i := 0; i < 40; i++ {
		s.Set(i&15, i>>4, 0, MakeState(i+1, 0))
	}
	c := s.Clone()
	c.Set(0, 0, 0, MakeState(500, 0))
	assert.Equal(t, MakeState(1, 0), s.Get(0, 0, 0))
	assert.Equal(t, MakeState(500, 0), c.Get(0, 0, 0))
	assert.Positive(t, s.MemBytes())
}

func TestOwnedSectionsAndColumnsRefuseDirectWrites(t *testing.T) {
	sec := NewUniformSection(MakeState(1, 0))
	col := NewColumn(0, 0)
	col.SetSection(0, sec)
	store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	store.LoadColumn(col)
	assert.Panics(t, func() { sec.Set(0, 0, 0, AirState) })
	assert.Panics(t, func() { col.SetState(0, 0, 0, AirState) })
	assert.Panics(t, func() { col.SetSection(1, nil) })
	assert.NotPanics(t, func() { sec.Clone().Set(0, 0, 0, AirState) })
	assert.NotPanics(t, func() { col.Clone().SetState(0, 0, 0, AirState) })
}

func TestColumn(t *testing.T) {
	c := NewColumn(-2, 5)
	assert.Equal(t, ChunkPos{-2, 5}, c.Pos())
	assert.Equal(t, ChunkPos{-1, 0}, ChunkOf(game.Pos(-1, 64, 15)))
	assert.Equal(t, "chunk(-2, 5)", c.Pos().String())
	assert.Equal(t, AirState, c.SetState(3, 70, 4, MakeState(17, 0)))
	assert.Equal(t, MakeState(17, 0), c.StateAt(-29, 70, 84), "x and z are taken modulo 16")
	assert.NotNil(t, c.Section(4))
	assert.Nil(t, c.Section(5))
	assert.Nil(t, c.Section(-1))
	assert.Nil(t, c.Section(16))
	assert.Equal(t, 1, c.NonAir())
	assert.Equal(t, AirState, c.StateAt(3, 256, 4))
	assert.Equal(t, AirState, c.StateAt(3, -1, 4))
	assert.Equal(t, AirState, c.SetState(3, 300, 4, MakeState(1, 0)), "heights outside the world are ignored")
	assert.Equal(t, AirState, c.SetState(0, 0, 0, AirState), "air into an empty section creates nothing")
	assert.Nil(t, c.Section(0))
	assert.Equal(t, MakeState(17, 0), c.SetState(3, 70, 4, AirState))
	assert.Nil(t, c.Section(4), "a section that becomes all air is dropped")
	c.SetSection(2, NewEmptySection())
	assert.Nil(t, c.Section(2))
	assert.Panics(t, func() { c.SetSection(16, nil) })
	assert.Positive(t, c.MemBytes())
}
