package chunk

import (
	"sort"
	"sync"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

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

// benchColumn converts column (bx, bz) of the benchmark world into a Column
// placed at chunk position (cx, cz).
func benchColumn(w *benchworld.World, bx, bz, cx, cz int) *Column {
	col := NewColumn(cx, cz)
	var states [SectionVolume]StateID
	for cy := 0; cy < ColumnSections; cy++ {
		any := false
		for y := 0; y < SectionSize; y++ {
			for z := 0; z < SectionSize; z++ {
				row := benchworld.Index(bx<<4, cy<<4|y, bz<<4|z)
				for x := 0; x < SectionSize; x++ {
					st := LegacyState(w.W[row+x])
					states[y<<8|z<<4|x] = st
					any = any || st != AirState
				}
			}
		}
		if any {
			col.SetSection(cy, NewSection(&states))
		}
	}
	return col
}

// loadBenchWorld loads the 16×16 columns of the benchmark world.
func loadBenchWorld(w *benchworld.World) *ChunkStore {
	store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	for bz := 0; bz < benchworld.SZ/16; bz++ {
		for bx := 0; bx < benchworld.SX/16; bx++ {
			store.LoadColumn(benchColumn(w, bx, bz, bx, bz))
		}
	}
	return store
}

var (
	benchChunksOnce sync.Once
	benchChunks     *Chunks
)

// sharedChunks is the benchmark world loaded into chunk storage, once.
func sharedChunks() *Chunks {
	benchChunksOnce.Do(func() { benchChunks = loadBenchWorld(sharedWorld()).View() })
	return benchChunks
}

// bruteNearest scans every block of the benchmark world's array within the
// radius: the reference the chunk search must agree with.
func bruteNearest(w *benchworld.World, c game.BlockPos, radius, k int, match func(legacy uint16) bool) []game.BlockHit {
	r2 := radius * radius
	var hits []game.BlockHit
	for y := max(c.Y-radius, 0); y <= min(c.Y+radius, benchworld.SY-1); y++ {
		for z := max(c.Z-radius, 0); z <= min(c.Z+radius, benchworld.SZ-1); z++ {
			for x := max(c.X-radius, 0); x <= min(c.X+radius, benchworld.SX-1); x++ {
				v := w.W[benchworld.Index(x, y, z)]
				if v>>4 == 0 {
					continue
				}
				p := game.Pos(x, y, z)
				d := p.DistSq(c)
				if d > r2 || !match(v) {
					continue
				}
				st := LegacyState(v)
				hits = append(hits, game.BlockHit{Pos: p, DistSq: d, Block: game.Block{ID: legacyName(st), Meta: st.Meta()}})
			}
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].DistSq != hits[j].DistSq {
			return hits[i].DistSq < hits[j].DistSq
		}
		return hits[i].Pos.Less(hits[j].Pos)
	})
	if k > 0 && len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

func legacyName(st StateID) string {
	name, _ := rules.Default().IDs.BlockName(st.ID())
	return name
}

// stripTags keeps position, distance, id and metadata: what the brute-force
// reference knows.
func stripTags(hits []game.BlockHit) []game.BlockHit {
	out := make([]game.BlockHit, len(hits))
	for i, h := range hits {
		out[i] = game.BlockHit{Pos: h.Pos, DistSq: h.DistSq, Block: game.Block{ID: h.Block.ID, Meta: h.Block.Meta}}
	}
	return out
}

func requireHits(t *testing.T, want, got []game.BlockHit, msgAndArgs ...any) {
	t.Helper()
	if len(want) == 0 && len(got) == 0 {
		return
	}
	if len(want) != len(got) {
		t.Fatalf("%v: %d hits, want %d", msgAndArgs, len(got), len(want))
	}
	for i := range want {
		if want[i].Pos != got[i].Pos || want[i].DistSq != got[i].DistSq || want[i].Block.ID != got[i].Block.ID || want[i].Block.Meta != got[i].Block.Meta {
			t.Fatalf("%v: hit %d is %v d²=%d %s:%d, want %v d²=%d %s:%d", msgAndArgs, i,
				got[i].Pos, got[i].DistSq, got[i].Block.ID, got[i].Block.Meta,
				want[i].Pos, want[i].DistSq, want[i].Block.ID, want[i].Block.Meta)
		}
	}
}
