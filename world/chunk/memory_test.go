package chunk

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadTiled loads side×side columns, tiling the 16×16 benchmark world, and
// returns the view.
func loadTiled(side int) *Chunks {
	w := sharedWorld()
	store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	for cz := 0; cz < side; cz++ {
		for cx := 0; cx < side; cx++ {
			store.LoadColumn(benchColumn(w, cx%16, cz%16, cx, cz))
		}
	}
	return store.View()
}

// heapDelta reports the live heap the value built by fn keeps, after GC.
func heapDelta(fn func() any) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := fn()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return after.HeapAlloc - before.HeapAlloc
}

// BenchmarkColumnMemory reports the resident memory per loaded column: the
// heap kept by the 256 columns of the benchmark world, and by a 21×21 view
// (the client's default view distance) tiled from it.
func BenchmarkColumnMemory(b *testing.B) {
	sharedWorld()
	for _, side := range []int{16, 21} {
		cols := side * side
		b.Run(fmt.Sprintf("%dx%d", side, side), func(b *testing.B) {
			var total uint64
			var est int
			for b.Loop() {
				total = heapDelta(func() any {
					v := loadTiled(side)
					est = v.MemBytes()
					return v
				})
			}
			b.ReportMetric(float64(total)/float64(cols), "heapB/column")
			b.ReportMetric(float64(est)/float64(cols), "estB/column")
			b.ReportMetric(float64(total)/(1<<20), "MiB")
		})
	}
}

// BenchmarkLoadColumn measures the bulk path: building a column's sections
// from full state arrays and loading it.
func BenchmarkLoadColumn(b *testing.B) {
	w := sharedWorld()
	store := NewChunkStore(NewResolver(rules.Default().IDs, rules.Default().Tags))
	i := 0
	for b.Loop() {
		store.LoadColumn(benchColumn(w, i&15, (i>>4)&15, i&15, (i>>4)&15))
		i++
	}
}

func TestColumnMemory(t *testing.T) {
	view := sharedChunks()
	require.Equal(t, 256, view.Columns())
	widths := map[int]int{}
	view.ForEachColumn(func(c *Column) {
		for cy := 0; cy < ColumnSections; cy++ {
			if s := c.Section(cy); s != nil {
				widths[s.Bits()]++
			}
		}
	})
	assert.Zero(t, widths[8]+widths[16], "the benchmark terrain needs at most 16 states per section: %v", widths)
	perColumn := view.MemBytes() / view.Columns()
	// Five sections of 4-bit indices (2 KiB each) and small palettes.
	assert.Less(t, perColumn, 12*1024, "estimated bytes per column")
	heap := heapDelta(func() any { return loadTiled(16) })
	t.Logf("benchmark world: %d columns, estimated %d B/column, heap %d B/column; sections by index width %v",
		view.Columns(), perColumn, heap/256, widths)
}
