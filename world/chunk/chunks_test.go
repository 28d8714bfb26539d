package chunk

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

var (
	stone = MakeState(1, 0)
	logSt = MakeState(17, 0)
	dirt  = MakeState(3, 0)
)

func TestChunkStoreGetSet(t *testing.T) {
	s := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	tests := []struct {
		name string
		pos  game.BlockPos
	}{
		{"origin", game.Pos(0, 0, 0)},
		{"negative x and z", game.Pos(-1, 64, -1)},
		{"far negative", game.Pos(-1000017, 255, -33)},
		{"far positive", game.Pos(29999999, 10, 123456)},
		{"region edge", game.Pos(8*16*3-1, 100, -8*16*5)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.pos
			assert.Equal(t, AirState, s.StateAt(p.X, p.Y, p.Z))
			assert.Equal(t, AirState, s.SetState(p.X, p.Y, p.Z, logSt))
			assert.Equal(t, logSt, s.StateAt(p.X, p.Y, p.Z))
			assert.Equal(t, "minecraft:log", s.BlockAt(p).ID)
			assert.True(t, s.BlockAt(p).HasTag("tree"))
			assert.NotNil(t, s.Column(p.X>>4, p.Z>>4))
			for _, n := range []game.BlockPos{p.Add(1, 0, 0), p.Add(-1, 0, 0), p.Add(0, 0, 1), p.Add(0, 0, -1), p.Add(0, 1, 0)} {
				assert.Equal(t, AirState, s.StateAt(n.X, n.Y, n.Z), "neighbour %v", n)
			}
		})
	}
	assert.Equal(t, len(tests), s.Columns())
	assert.Equal(t, AirState, s.SetState(0, 256, 0, stone), "above the world is ignored")
	assert.Equal(t, AirState, s.SetState(0, -1, 0, stone), "below the world is ignored")
	assert.Equal(t, AirState, s.SetState(5000, 5, 5000, AirState), "air does not load a column")
	assert.Nil(t, s.Column(5000>>4, 5000>>4))
	assert.Equal(t, len(tests), s.Columns())
}

func TestChunkStoreViewsNeverChange(t *testing.T) {
	s := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	s.SetState(1, 64, 1, logSt)
	s.SetState(40, 64, 40, dirt)
	v1 := s.View()
	assert.Same(t, v1, s.View(), "no write, same view")

	s.SetState(1, 64, 1, stone)      // same section as v1's log
	s.SetState(2, 64, 1, logSt)      // same section again, now owned
	s.SetState(-50, 10, 7, dirt)     // new column, new region
	s.UnloadColumn(40>>4, 40>>4)     // drop a column v1 holds
	s.SetState(1, 200, 1, logSt)     // new section in an existing column
	s.SetState(40, 64, 40, AirState) // unloaded: nothing to do
	v2 := s.View()
	require.NotSame(t, v1, v2)

	assert.Equal(t, logSt, v1.StateAt(1, 64, 1))
	assert.Equal(t, AirState, v1.StateAt(2, 64, 1))
	assert.Equal(t, dirt, v1.StateAt(40, 64, 40))
	assert.Equal(t, AirState, v1.StateAt(-50, 10, 7))
	assert.Equal(t, AirState, v1.StateAt(1, 200, 1))
	assert.Equal(t, 2, v1.Columns())

	assert.Equal(t, stone, v2.StateAt(1, 64, 1))
	assert.Equal(t, logSt, v2.StateAt(2, 64, 1))
	assert.Equal(t, AirState, v2.StateAt(40, 64, 40))
	assert.Equal(t, dirt, v2.StateAt(-50, 10, 7))
	assert.Equal(t, logSt, v2.StateAt(1, 200, 1))
	assert.Equal(t, 2, v2.Columns())

	// Unchanged columns are shared, not copied.
	s.SetState(-50, 10, 8, dirt)
	v3 := s.View()
	assert.Same(t, v2.Column(0, 0), v3.Column(0, 0))
	assert.NotSame(t, v2.Column(-4, 0), v3.Column(-4, 0))
	assert.Same(t, v2.Column(0, 0).Section(4), v3.Column(0, 0).Section(4))

	s.Clear()
	assert.Equal(t, 0, s.Columns())
	assert.Equal(t, 0, s.View().Columns())
	assert.Equal(t, logSt, v3.StateAt(2, 64, 1), "clearing the store leaves views intact")
}

func TestChunkStoreRandomWritesAgainstReference(t *testing.T) {
	// Random writes interleaved with views; every view must equal the
	// reference as it was when the view was taken.
	rng := rand.New(rand.NewPCG(42, 42))
	s := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	ref := map[game.BlockPos]StateID{}
	type frozen struct {
		view *Chunks
		ref  map[game.BlockPos]StateID
	}
	var views []frozen
	states := []StateID{AirState, stone, logSt, dirt, MakeState(4000, 30000)}
	for op := 0; op < 20000; op++ {
		p := game.Pos(rng.IntN(80)-40, rng.IntN(40)+50, rng.IntN(80)-40)
		st := states[rng.IntN(len(states))]
		prev := s.SetState(p.X, p.Y, p.Z, st)
		require.Equal(t, ref[p], prev)
		if st == AirState {
			delete(ref, p)
		} else {
			ref[p] = st
		}
		if rng.IntN(500) == 0 {
			cp := make(map[game.BlockPos]StateID, len(ref))
			for k, v := range ref {
				cp[k] = v
			}
			views = append(views, frozen{s.View(), cp})
		}
		if rng.IntN(3000) == 0 {
			cx, cz := rng.IntN(6)-3, rng.IntN(6)-3
			s.UnloadColumn(cx, cz)
			for k := range ref {
				if k.X>>4 == cx && k.Z>>4 == cz {
					delete(ref, k)
				}
			}
		}
	}
	views = append(views, frozen{s.View(), ref})
	require.Greater(t, len(views), 10)
	for i, f := range views {
		for x := -40; x < 40; x++ {
			for z := -40; z < 40; z++ {
				for y := 50; y < 90; y++ {
					if got, want := f.view.StateAt(x, y, z), f.ref[game.Pos(x, y, z)]; got != want {
						t.Fatalf("view %d at %v: %v, want %v", i, game.Pos(x, y, z), got, want)
					}
				}
			}
		}
	}
}

func TestChunkStoreSharedSectionsAreCopiedBeforeWrites(t *testing.T) {
	s := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	shared := NewUniformSection(stone)
	a, b := NewColumn(0, 0), NewColumn(1, 0)
	a.SetSection(0, shared)
	b.SetSection(0, shared)
	s.LoadColumn(a)
	s.LoadColumn(b)
	s.SetState(0, 0, 0, logSt)
	assert.Equal(t, logSt, s.StateAt(0, 0, 0))
	assert.Equal(t, stone, s.StateAt(16, 0, 0), "the other column's copy is untouched")
	assert.Equal(t, stone, shared.Get(0, 0, 0))

	// A column from one store's view loaded into another store stays intact
	// in the first.
	other := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	fromView := s.View().Column(0, 0)
	other.LoadColumn(fromView)
	other.SetState(1, 0, 0, dirt)
	assert.Equal(t, dirt, other.StateAt(1, 0, 0))
	assert.Equal(t, stone, s.StateAt(1, 0, 0))
	assert.Equal(t, stone, s.View().StateAt(1, 0, 0))

	// SetSection replaces and clears.
	s.SetSection(0, 1, 0, NewUniformSection(dirt))
	assert.Equal(t, dirt, s.StateAt(5, 20, 5))
	s.SetSection(0, 1, 0, nil)
	assert.Equal(t, AirState, s.StateAt(5, 20, 5))
	s.SetSection(9, 1, 9, nil)
	assert.Nil(t, s.Column(9, 9), "clearing a section of an unloaded column loads nothing")
	s.SetSection(9, 1, 9, NewUniformSection(dirt))
	assert.Equal(t, dirt, s.StateAt(9*16, 16, 9*16))
	s.SetSection(9, 99, 9, NewUniformSection(dirt))
	assert.False(t, s.UnloadColumn(50, 50))
	assert.True(t, s.UnloadColumn(9, 9))
}

func TestChunkStoreResolver(t *testing.T) {
	ids := rules.NewIDMap()
	require.NoError(t, ids.SetBlock(1, "mod:thing"))
	shipped := NewResolver(rules.Default().IDs, rules.Default().Tags)
	s := NewChunkStore(shipped)
	s.SetState(0, 0, 0, stone)
	v1 := s.View()
	assert.Same(t, shipped, s.Resolver())
	s.SetResolver(NewResolver(ids, rules.Default().Tags))
	v2 := s.View()
	assert.Equal(t, "minecraft:stone", v1.BlockAt(game.Pos(0, 0, 0)).ID)
	assert.Equal(t, "mod:thing", v2.BlockAt(game.Pos(0, 0, 0)).ID)
	assert.Equal(t, "mod:thing", v2.Resolver().Block(stone).ID)
	// The engine has no tables of its own: a missing resolver is a mistake
	// of the caller, not a reason to reach for the shipped ones.
	assert.PanicsWithValue(t, "chunk: SetResolver needs a resolver", func() { s.SetResolver(nil) })
	assert.PanicsWithValue(t, "chunk: NewChunkStore needs a resolver", func() { NewChunkStore(nil) })
	assert.PanicsWithValue(t, "chunk: NewResolver needs an id map and a tagger", func() { NewResolver(nil, rules.Default().Tags) })
	assert.PanicsWithValue(t, "chunk: NewResolver needs an id map and a tagger", func() { NewResolver(ids, nil) })
}

func TestChunksMatchesBenchWorld(t *testing.T) {
	w, chunks := sharedWorld(), sharedChunks()
	require.Equal(t, 256, chunks.Columns())
	cur := chunks.Cursor()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		x, y, z := rng.IntN(260)-2, rng.IntN(262)-3, rng.IntN(260)-2
		want := AirState
		if x >= 0 && x < benchworld.SX && y >= 0 && y < benchworld.SY && z >= 0 && z < benchworld.SZ {
			want = LegacyState(w.W[benchworld.Index(x, y, z)])
		}
		require.Equal(t, want, chunks.StateAt(x, y, z), "at %d %d %d", x, y, z)
		require.Equal(t, want, cur.StateAt(x, y, z), "cursor at %d %d %d", x, y, z)
	}
	n := 0
	chunks.ForEachColumn(func(*Column) { n++ })
	assert.Equal(t, 256, n)
	assert.Equal(t, "minecraft:grass", chunks.BlockAt(game.Pos(10, int(w.Top[10*benchworld.SX+10]), 10)).ID)
}

// TestColumnEdits: every write a store makes into a column counts, in
// place or into the copy it makes when a view shares the column, so a
// reader comparing pointer and count sees each change; a write that
// changes nothing does not count.
func TestColumnEdits(t *testing.T) {
	store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	store.SetState(3, 10, 4, stone)
	c := store.Column(0, 0)
	require.NotNil(t, c)
	assert.Equal(t, uint64(1), c.Edits())

	store.SetState(5, 70, 5, stone) // in place: no view shares the column
	require.Same(t, c, store.Column(0, 0))
	assert.Equal(t, uint64(2), c.Edits())
	store.SetState(5, 70, 5, stone) // the same state again: no change
	assert.Equal(t, uint64(2), c.Edits())

	view := store.View()
	store.SetState(5, 70, 5, AirState) // copied before the write
	now := store.Column(0, 0)
	assert.NotSame(t, c, now)
	assert.Equal(t, uint64(3), now.Edits())
	assert.Equal(t, uint64(2), view.Column(0, 0).Edits(), "the view's column never changes")

	store.SetSection(0, 2, 0, nil) // clears a section in place
	assert.Same(t, now, store.Column(0, 0))
	assert.Equal(t, uint64(4), now.Edits())

	loaded := NewColumn(1, 0)
	store.LoadColumn(loaded)
	assert.Zero(t, store.Column(1, 0).Edits(), "a loaded column is a new pointer with its own count")
}
