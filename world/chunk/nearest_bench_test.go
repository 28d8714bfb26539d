package chunk

import (
	"fmt"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
)

// BenchmarkNearest measures the nearest-block cases of BENCHMARKS.md on the
// shared world loaded into chunk storage: from (133, 69, 128), targets log,
// coal_ore, diamond_ore and the absent gold_block, radius 16/32/64, k 1 and
// 100. Target: ≤ 50 µs at radius 64, k = 1.
func BenchmarkNearest(b *testing.B) {
	chunks := sharedChunks()
	for _, target := range benchTargets {
		for _, radius := range []int{16, 32, 64} {
			for _, k := range []int{1, 100} {
				match := byID(target.id)
				b.Run(fmt.Sprintf("%s/r%d/k%d", target.name, radius, k), func(b *testing.B) {
					hits := 0
					for b.Loop() {
						hits = len(chunks.Nearest(benchCenter, radius, k, match))
					}
					b.ReportMetric(float64(hits), "hits")
				})
			}
		}
	}
}

// BenchmarkNearestBruteForce is the reference the ratio is taken against: a
// scan of every block of the world array within the radius (BENCHMARKS.md
// quotes ~1.8 ms for it at radius 64).
func BenchmarkNearestBruteForce(b *testing.B) {
	w := sharedWorld()
	for _, target := range benchTargets {
		for _, radius := range []int{16, 32, 64} {
			legacy := uint16(target.legacy)
			b.Run(fmt.Sprintf("%s/r%d/k1", target.name, radius), func(b *testing.B) {
				for b.Loop() {
					bruteScan(w, benchCenter, radius, legacy)
				}
			})
		}
	}
}

// bruteScan is a tight brute-force nearest scan over the array (no sorting,
// no allocation), the fair "straightforward Go" baseline.
func bruteScan(w *benchworld.World, c game.BlockPos, radius int, id uint16) (game.BlockPos, bool) {
	r2 := radius * radius
	best, bestD, found := game.BlockPos{}, r2+1, false
	for y := max(c.Y-radius, 0); y <= min(c.Y+radius, benchworld.SY-1); y++ {
		dy := y - c.Y
		for z := max(c.Z-radius, 0); z <= min(c.Z+radius, benchworld.SZ-1); z++ {
			dz := z - c.Z
			row := benchworld.Index(0, y, z)
			for x := max(c.X-radius, 0); x <= min(c.X+radius, benchworld.SX-1); x++ {
				if w.W[row+x]>>4 != id {
					continue
				}
				dx := x - c.X
				d := dx*dx + dy*dy + dz*dz
				p := game.Pos(x, y, z)
				if d < bestD || (d == bestD && p.Less(best)) {
					best, bestD, found = p, d, true
				}
			}
		}
	}
	return best, found
}

// BenchmarkStateAt measures the numeric accessor the pathfinder uses, through
// the view and through a cursor.
func BenchmarkStateAt(b *testing.B) {
	chunks := sharedChunks()
	b.Run("view", func(b *testing.B) {
		var sink StateID
		i := 0
		for b.Loop() {
			sink ^= chunks.StateAt(100+i&31, 60+i&7, 100+(i>>5)&31)
			i++
		}
		_ = sink
	})
	b.Run("cursor", func(b *testing.B) {
		cur := chunks.Cursor()
		var sink StateID
		i := 0
		for b.Loop() {
			sink ^= cur.StateAt(100+i&31, 60+i&7, 100+(i>>5)&31)
			i++
		}
		_ = sink
	})
}
