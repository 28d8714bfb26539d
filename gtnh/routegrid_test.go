package gtnh

import (
	"fmt"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// TestSnapGridColumn checks the snapshot grid's whole-column reads against
// its Cell: in loaded columns with blocks, a loaded column the store does
// not hold (air), unloaded columns, negative coordinates and both ends of
// the height range.
func TestSnapGridColumn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := chunk.NewChunkStore(chunk.NewResolver(rules.Default().IDs, rules.Default().Tags))
		res := store.Resolver()
		for _, b := range []struct {
			x, y, z int
			name    string
		}{
			{3, 63, 4, "minecraft:stone"}, {3, 64, 4, "minecraft:water"}, {-5, 0, -7, "minecraft:bedrock"},
			{-5, 255, -7, "minecraft:stone_slab"}, {20, 70, 3, "minecraft:fence"}, {20, 71, 3, "minecraft:carpet"},
			{3, 63, 20, "minecraft:stone"},
		} {
			st, ok := res.State(b.name, 0)
			require.True(t, ok, b.name)
			store.SetState(b.x, b.y, b.z, st)
		}
		loaded := map[[2]int]bool{{0, 0}: true, {-1, -1}: true, {5, 5}: true}
		view := store.View()
		g := snapshotGrid(&world.Snapshot{Blocks: view}, loaded)
		cg, ok := g.(path.ColumnGrid)
		require.True(t, ok, "the snapshot grid reads whole columns")
		// want classifies a block independently of the grid's caches.
		want := func(x, y, z int) path.Cell {
			switch {
			case y < 0:
				return path.Unknown
			case y > 255:
				return path.Passable
			case !loaded[[2]int{x >> 4, z >> 4}]:
				return path.Unknown
			}
			return path.ClassifyByTags(view.BlockAt(world.Pos(x, y, z)))
		}
		out := make([]path.Cell, 260)
		// Columns (0, 0) and (0, 1), (5, 5) and (5, 0) share cx: one of each
		// pair is loaded.
		cols := [][2]int{{3, 4}, {3, 20}, {-5, -7}, {20, 3}, {0, 15}, {85, 90}, {85, 10}, {40, 40}}
		for _, c := range cols {
			cg.Column(c[0], c[1], -2, out)
			for i, got := range out {
				require.Equal(t, want(c[0], i-2, c[1]), got, "column %v at y %d", c, i-2)
			}
		}
		// Cell, hopping between columns at every read.
		for y := -2; y < 258; y++ {
			for _, c := range cols {
				require.Equal(t, want(c[0], y, c[1]), g.Cell(c[0], y, c[1]), "cell %v at y %d", c, y)
			}
		}
		cg.Column(3, 4, 60, out[:6])
		assert.Equal(t, []path.Cell{path.Solid, path.Solid, path.Solid, path.Solid, path.Water, path.Passable}[3:], out[3:6])

		// Views read the same world, each with caches of its own, so the
		// long-route planner's workers can read at once.
		gv, ok := g.(path.GridViews)
		require.True(t, ok, "the snapshot grid gives views")
		var wg sync.WaitGroup
		for range 3 {
			v := gv.View()
			require.NotSame(t, g, v)
			v.(*snapGrid).cache[chunk.StateID(65535)] = path.Solid
			_, shared := g.(*snapGrid).cache[chunk.StateID(65535)]
			assert.False(t, shared, "a view has a cache of its own")
			wg.Add(1)
			go func() {
				defer wg.Done()
				for y := -2; y < 258; y++ {
					for _, c := range cols {
						assert.Equal(t, want(c[0], y, c[1]), v.Cell(c[0], y, c[1]), "view: cell %v at y %d", c, y)
					}
				}
			}()
		}
		wg.Wait()
	})
}

var (
	liveOnce  sync.Once
	liveStore *chunk.ChunkStore
	liveWorld *benchworld.World
)

// benchStore is the benchmark world (256×256 columns of blocks) in a chunk
// store, as the client holds chunks the server sent.
func benchStore() (*chunk.ChunkStore, *benchworld.World) {
	liveOnce.Do(func() {
		w := benchworld.Generate(1337)
		store := chunk.NewChunkStore(chunk.NewResolver(rules.Default().IDs, rules.Default().Tags))
		var states [chunk.SectionVolume]chunk.StateID
		for cz := 0; cz < benchworld.SZ/16; cz++ {
			for cx := 0; cx < benchworld.SX/16; cx++ {
				col := chunk.NewColumn(cx, cz)
				for cy := 0; cy < chunk.ColumnSections; cy++ {
					for i := range states {
						y, z, x := cy<<4|i>>8, cz<<4|(i>>4)&15, cx<<4|i&15
						states[i] = chunk.LegacyState(w.W[benchworld.Index(x, y, z)])
					}
					col.SetSection(cy, chunk.NewSection(&states))
				}
				store.LoadColumn(col)
			}
		}
		liveStore, liveWorld = store, w
	})
	return liveStore, liveWorld
}

// BenchmarkLiveColdRoute times the first route (a new planner each time)
// across the benchmark world read through the client's snapshot grid, as
// move_to plans it: with whole-column reads (column), alone or with a
// worker computing the costs inside regions (workers=1, through the grid's
// views), and with one Cell call per block (cells).
func BenchmarkLiveColdRoute(b *testing.B) {
	store, w := benchStore()
	loaded := map[[2]int]bool{}
	for cx := 0; cx < benchworld.SX/16; cx++ {
		for cz := 0; cz < benchworld.SZ/16; cz++ {
			loaded[[2]int{cx, cz}] = true
		}
	}
	snap := &world.Snapshot{Blocks: store.View()}
	from := world.Pos(20, w.StandY(20, 30), 30)
	to := world.Pos(230, w.StandY(230, 200), 200)
	for _, c := range []struct {
		mode    string
		workers int
	}{{"column", 0}, {"column", 1}, {"cells", 0}} {
		b.Run(fmt.Sprintf("grid=%s/workers=%d", c.mode, c.workers), func(b *testing.B) {
			var rt path.Route
			cpu := cpuTime()
			for b.Loop() {
				g := snapshotGrid(snap, loaded)
				if c.mode == "cells" {
					g = path.GridFunc(g.Cell)
				}
				r, err := path.NewRouter(g, path.RouteOptions{Options: path.Options{MaxNodes: routeMaxNodes}, Workers: c.workers})
				require.NoError(b, err)
				rt, err = r.Find(from, path.At(to))
				require.NoError(b, err)
				require.True(b, rt.Complete, "%s", rt.Reason)
			}
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(rt.RegionsBuilt), "regions")
			b.ReportMetric(float64(rt.BuildTime.Microseconds())/float64(max(rt.RegionsBuilt, 1)), "us/region")
			b.ReportMetric(float64(rt.Elapsed.Microseconds())/1000, "route-ms")
		})
	}
}

// cpuTime is the CPU time the process has used (user and system): on a
// shared machine it varies less with the load than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestSnapGridClassifyMemo: states that share a slot of the grid's memo
// (more states than slots, asked in turns) are each classified as their
// block's tags say, whatever was asked before.
func TestSnapGridClassifyMemo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := chunk.NewChunkStore(chunk.NewResolver(rules.Default().IDs, rules.Default().Tags))
		res := store.Resolver()
		g := snapshotGrid(&world.Snapshot{Blocks: store.View()}, nil).(*snapGrid)
		var states []chunk.StateID
		for _, name := range []string{"minecraft:stone", "minecraft:water", "minecraft:stone_slab", "minecraft:carpet", "minecraft:fence", "minecraft:log", "minecraft:air", "minecraft:snow_layer"} {
			for meta := 0; meta < 16; meta++ {
				st, ok := res.State(name, meta)
				require.True(t, ok, name)
				states = append(states, st)
			}
		}
		for id := 1; id < 400; id++ {
			states = append(states, chunk.MakeState(id, id%16))
		}
		slots := map[uint32]int{}
		for _, st := range states {
			slots[memoSlot(st)]++
		}
		require.Less(t, len(slots), len(states), "the states must share slots")
		for round := range 3 {
			for i := range states {
				st := states[(i*7+round)%len(states)]
				require.Equal(t, path.ClassifyByTags(res.Block(st)), g.classify(st), "state %v, round %d", st, round)
			}
		}
	})
}
