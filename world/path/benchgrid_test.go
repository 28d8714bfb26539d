package path

import (
	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
)

// The benchmark world's grid lives with the tests: no production code reads
// the benchmark fixture.

// BenchGrid is a Grid over the shared benchmark world: a 256×256×256 block
// array of legacy states. Outside x, z 0..255 and below y 0 is Unknown,
// above the world is Passable.
type BenchGrid struct {
	w   []uint16
	lut [1 << 16]Cell // by legacy state, id<<4 | meta
}

var (
	_ ColumnGrid = (*BenchGrid)(nil)
	_ GridViews  = (*BenchGrid)(nil)
)

// View implements GridViews: a BenchGrid is never written after
// NewBenchGrid, so goroutines may read it at once.
func (g *BenchGrid) View() Grid { return g }

// NewBenchGrid returns a grid over w, classified with LegacyStateCell (for
// the states the world holds; the others are never read).
func NewBenchGrid(w *benchworld.World) *BenchGrid {
	g := &BenchGrid{w: w.W}
	var seen [1 << 16]bool
	for _, st := range w.W {
		if !seen[st] {
			seen[st] = true
			g.lut[st] = LegacyStateCell(int(st>>4), int(st&15))
		}
	}
	return g
}

// Cell implements Grid.
func (g *BenchGrid) Cell(x, y, z int) Cell {
	if uint(x) >= benchworld.SX || uint(z) >= benchworld.SZ || uint(y) >= benchworld.SY {
		if y >= benchworld.SY && uint(x) < benchworld.SX && uint(z) < benchworld.SZ {
			return Passable
		}
		return Unknown
	}
	return g.lut[g.w[(y*benchworld.SZ+z)*benchworld.SX+x]]
}

// Column implements ColumnGrid.
func (g *BenchGrid) Column(x, z, y0 int, out []Cell) {
	if uint(x) >= benchworld.SX || uint(z) >= benchworld.SZ {
		for i := range out {
			out[i] = g.Cell(x, y0+i, z)
		}
		return
	}
	const stride = benchworld.SZ * benchworld.SX
	i := z*benchworld.SX + x
	for j := range out {
		y := y0 + j
		switch {
		case y < 0:
			out[j] = Unknown
		case y >= benchworld.SY:
			out[j] = Passable
		default:
			out[j] = g.lut[g.w[y*stride+i]]
		}
	}
}
