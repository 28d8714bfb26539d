package bench

import (
	"fmt"
	"sort"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// PathCase is a walking route across the benchmark world, between two
// columns; the feet positions come from StandPos.
type PathCase struct {
	Name         string
	FromX, FromZ int
	ToX, ToZ     int
}

// PathCases are the routes of the comparison: short, medium, long, and one
// that must find the gap in the wall.
var PathCases = []PathCase{
	{"P1", 20, 20, 70, 60},
	{"P2", 10, 10, 120, 120},
	{"P3", 10, 20, 100, 250},
	{"P4 (wall detour)", 100, 40, 160, 40},
}

// Ends returns the case's start and goal feet positions.
func (c PathCase) Ends(w *benchworld.World) (from, to world.BlockPos) {
	return StandPos(w, c.FromX, c.FromZ), StandPos(w, c.ToX, c.ToZ)
}

// StandPos is the feet position on top of a column's ground; a column
// topped by a tree, leaves or water is shifted +x until the block below the
// feet is grass.
func StandPos(w *benchworld.World, x, z int) world.BlockPos {
	for {
		y := w.StandY(x, z)
		if w.ID(x, y-1, z) == benchworld.Grass {
			return world.Pos(x, y, z)
		}
		x++
	}
}

// NearestCase is a nearest-block query: the k nearest blocks of one id
// within a radius of Center.
type NearestCase struct {
	Block  string // 1.7.10 name without the minecraft: prefix
	ID     int
	Radius int
	K      int
}

// Name is the case's label in the table.
func (c NearestCase) Name() string { return fmt.Sprintf("%s r%d k%d", c.Block, c.Radius, c.K) }

// NearestCenter is where the nearest-block queries start: beside the wall,
// in the middle of the world.
var NearestCenter = world.Pos(133, 69, 128)

// NearestCases are log, coal ore, diamond ore and a block the world does
// not hold (gold block), within 16, 32 and 64 blocks, for the nearest one
// and the nearest hundred.
func NearestCases() []NearestCase {
	var out []NearestCase
	for _, b := range []struct {
		name string
		id   int
	}{{"log", benchworld.Log}, {"coal_ore", benchworld.CoalOre}, {"diamond_ore", benchworld.DiamondOre}, {"gold_block", benchworld.GoldBlock}} {
		for _, r := range []int{16, 32, 64} {
			for _, k := range []int{1, 100} {
				out = append(out, NearestCase{Block: b.name, ID: b.id, Radius: r, K: k})
			}
		}
	}
	return out
}

// BruteNearest scans every block within the radius (Euclidean, between
// block positions) and returns the k nearest with the id, nearest first,
// ties by BlockPos.Less: the reference both sides are checked against.
func BruteNearest(b Blocks, c world.BlockPos, radius, k, id int) []world.BlockPos {
	type hit struct {
		p world.BlockPos
		d int
	}
	var hits []hit
	r2 := radius * radius
	for y := max(c.Y-radius, 0); y <= min(c.Y+radius, 255); y++ {
		for z := c.Z - radius; z <= c.Z+radius; z++ {
			for x := c.X - radius; x <= c.X+radius; x++ {
				p := world.Pos(x, y, z)
				if d := p.DistSq(c); d <= r2 && b.ID(x, y, z) == id {
					hits = append(hits, hit{p, d})
				}
			}
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].d != hits[j].d {
			return hits[i].d < hits[j].d
		}
		return hits[i].p.Less(hits[j].p)
	})
	if k > 0 && len(hits) > k {
		hits = hits[:k]
	}
	var out []world.BlockPos
	for _, h := range hits {
		out = append(out, h.p)
	}
	return out
}

// SameNearest reports whether got is a correct answer given the brute-force
// reference want: as many hits, each holding the block and within the
// radius, at the same distances in the same order. Among blocks at equal
// distance any may be returned.
func SameNearest(b Blocks, c world.BlockPos, radius, id int, want, got []world.BlockPos) (bool, string) {
	if len(got) != len(want) {
		return false, fmt.Sprintf("%d hits, want %d", len(got), len(want))
	}
	seen := map[world.BlockPos]bool{}
	for i := range got {
		p := got[i]
		if b.ID(p.X, p.Y, p.Z) != id {
			return false, fmt.Sprintf("hit %d at %v holds block %d, not %d", i+1, p, b.ID(p.X, p.Y, p.Z), id)
		}
		if seen[p] {
			return false, fmt.Sprintf("hit %d at %v is a duplicate", i+1, p)
		}
		seen[p] = true
		if d := p.DistSq(c); d > radius*radius {
			return false, fmt.Sprintf("hit %d at %v is outside the radius", i+1, p)
		}
		if d, dw := p.DistSq(c), want[i].DistSq(c); d != dw {
			return false, fmt.Sprintf("hit %d at %v is at distance² %d, the true hit %d is at %d (%v)", i+1, p, d, i+1, dw, want[i])
		}
	}
	return true, ""
}
