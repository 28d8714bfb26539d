package path

import "math"

// Cardinal directions +x, -x, +z, -z; a diagonal combines an x and a z one,
// whose columns are its corners.
var (
	cdx       = [4]int{1, -1, 0, 0}
	cdz       = [4]int{0, 0, 1, -1}
	diagPairs = [4][2]int{{0, 2}, {0, 3}, {1, 2}, {1, 3}}
)

// unfetched marks a cell not read yet.
const unfetched Cell = 255

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// neighbors generates every move from feet at (x, y, z) into f.nb. The body
// occupies the feet and head cells; a position is standable when both are
// clear and the cell below is solid or the feet are in water, or when the
// feet cell holds its own floor (Low, or Slab with the cell two above clear
// too). A Fence below the feet makes the position unstandable.
//
// Cardinal columns are read first and their feet and head cells reused as
// the corners of the diagonals: a diagonal needs both corners clear at every
// height the body passes (no corner cutting); a Low floor in a corner is
// stepped over.
//
// Moves onto and off floors keep the cost model's cell arithmetic: stepping
// onto a floor in the next column at the same cell height is a walk, a rise
// of one cell is charged as a jump and a fall of k cells as a drop of k,
// even where the player only steps half a block (a slab staircase is
// costed as a block staircase) — which keeps the heuristic's per-block
// vertical rates valid.
func (f *Finder) neighbors(x, y, z int, feet Cell) []nbr {
	out := f.nb[:0]
	g := f.grid
	ct := &f.ct
	inWater := feet == Water
	// On a slab the feet are half a block up and the body reaches into the
	// cells at y+2 of every column it passes.
	half := feet == Slab
	w := b2i(inWater)
	up := g.Cell(x, y+2, z) // head room for a jump
	below := unfetched
	if f.dig || f.place || inWater {
		below = g.Cell(x, y-1, z)
	}
	if f.onPlaced {
		// Standing on the block this path placed: the next pillar jumps
		// from it (a tower of several blocks). Digging it down again
		// leads back to the closed position below, so needs no rule.
		below = Solid
	}

	var cf, ch, cu [4]Cell // neighbour cells at y, y+1, y+2
	for i := 0; i < 4; i++ {
		nx, nz := x+cdx[i], z+cdz[i]
		a, b := g.Cell(nx, y, nz), g.Cell(nx, y+1, nz)
		cf[i], ch[i], cu[i] = a, b, unfetched
		if isClear(b) {
			if half && (isClear(a) || a == Low) {
				cu[i] = g.Cell(nx, y+2, nz)
			}
			switch {
			case isClear(a):
				if !half || isClear(cu[i]) {
					out = f.level(out, x, y, z, nx, nz, a, w, 0, 0, 0, below)
				}
			case a == Solid:
				u := g.Cell(nx, y+2, nz)
				cu[i] = u
				if isClear(up) && isClear(u) {
					out = append(out, nbr{nx, y + 1, nz, ct.jump[w][0], MoveJump, b})
				}
			case a == Low:
				if !half || isClear(cu[i]) {
					out = f.onFloor(out, nx, y, nz, a, w, 0)
				}
			case a == Slab:
				u := g.Cell(nx, y+2, nz)
				cu[i] = u
				if isClear(up) && isClear(u) {
					out = f.onFloor(out, nx, y, nz, a, w, 0)
				}
			}
		} else if b == Low && a == Solid {
			u := g.Cell(nx, y+2, nz)
			cu[i] = u
			if isClear(up) && isClear(u) {
				out = append(out, nbr{nx, y + 1, nz, ct.jump[w][0], MoveJump, b})
			}
		}
		if f.dig && !half { // no digging from a slab

			out = f.digAcross(out, x, y, z, nx, nz, a, b, up, &cu[i], w)
		}
	}

	for _, p := range diagPairs {
		i, j := p[0], p[1]
		if !(isClear(cf[i]) || cf[i] == Low) || !isClear(ch[i]) || !(isClear(cf[j]) || cf[j] == Low) || !isClear(ch[j]) {
			continue
		}
		if half {
			if cu[i] == unfetched {
				cu[i] = g.Cell(x+cdx[i], y+2, z+cdz[i])
			}
			if cu[j] == unfetched {
				cu[j] = g.Cell(x+cdx[j], y+2, z+cdz[j])
			}
			if !isClear(cu[i]) || !isClear(cu[j]) {
				continue
			}
		}
		nx, nz := x+cdx[i], z+cdz[j]
		a, b := g.Cell(nx, y, nz), g.Cell(nx, y+1, nz)
		if (isClear(a) || a == Low) && isClear(b) && half && !isClear(g.Cell(nx, y+2, nz)) {
			continue
		}
		if isClear(a) && isClear(b) {
			out = f.level(out, x, y, z, nx, nz, a, w, 1, i, j, below)
			continue
		}
		if a == Low && isClear(b) {
			out = f.onFloor(out, nx, y, nz, a, w, 1)
			continue
		}
		raised := a == Slab && isClear(b)              // the body rises half a block
		jump := a == Solid && (isClear(b) || b == Low) // onto the top of a, or a floor on it
		if !(raised || jump) || !isClear(up) {
			continue
		}
		if cu[i] == unfetched {
			cu[i] = g.Cell(x+cdx[i], y+2, z+cdz[i])
		}
		if cu[j] == unfetched {
			cu[j] = g.Cell(x+cdx[j], y+2, z+cdz[j])
		}
		if isClear(cu[i]) && isClear(cu[j]) && isClear(g.Cell(nx, y+2, nz)) {
			if raised {
				out = f.onFloor(out, nx, y, nz, a, w, 1)
			} else {
				out = append(out, nbr{nx, y + 1, nz, ct.jump[w][1], MoveJump, b})
			}
		}
	}

	if inWater {
		if isClear(up) && g.Cell(x, y+1, z) == Water {
			out = append(out, nbr{x, y + 1, z, ct.swimV, MoveSwimUp, Water})
		}
		if below == Water {
			out = append(out, nbr{x, y - 1, z, ct.swimV, MoveSwimDown, Water})
		}
		return out
	}
	if below != Solid {
		return out
	}
	here := unfetched
	if f.place || f.dig {
		if here = g.Cell(x, y, z); isFloor(here) {
			// Feet on a floor of their own (a slab, a carpet): nothing
			// to pillar from or dig down through.
			return out
		}
	}
	if f.place && here == Passable && (!f.onPlaced || besideWall(cf, ch)) {
		if isClear(up) {
			out = append(out, nbr{x, y + 1, z, ct.pillar, MovePillar, Passable})
		} else if f.dig && up == Solid {
			if c, ok := f.breakCost(x, y+2, z); ok {
				out = append(out, nbr{x, y + 1, z, ct.pillar + c, MovePillar, Passable})
			}
		}
	}
	if f.dig && g.Cell(x, y-2, z) == Solid {
		if c, ok := f.breakCost(x, y-1, z); ok {
			out = append(out, nbr{x, y - 1, z, ct.fall1 + c, MoveDigDown, Passable})
		}
	}
	return out
}

// besideWall reports whether a cardinal neighbour is solid at the feet or
// the head: a tower of placed blocks goes on rising only along a wall it
// may step onto, so a search never builds into the open sky.
func besideWall(cf, ch [4]Cell) bool {
	for i := 0; i < 4; i++ {
		if cf[i] == Solid || ch[i] == Solid {
			return true
		}
	}
	return false
}

// onFloor emits the horizontal move onto a floor (Low, Slab) in the feet
// cell of column (nx, nz): a walk, or a swim when leaving water.
func (f *Finder) onFloor(out []nbr, nx, y, nz int, floor Cell, w, d int) []nbr {
	if w == 1 {
		return append(out, nbr{nx, y, nz, f.ct.swim[d], MoveSwim, floor})
	}
	return append(out, nbr{nx, y, nz, f.ct.walk[d], MoveWalk, floor})
}

// level emits the moves into column (nx, nz) whose feet and head cells at y
// are clear: a walk or swim when it is standable at y, otherwise a drop to
// the first standable height within MaxDrop (a floor in a lower cell ends
// the drop in that cell), and a bridge when placing.
// d is 1 for a diagonal with corner directions ci, cj.
func (f *Finder) level(out []nbr, x, y, z, nx, nz int, feet Cell, w, d, ci, cj int, below Cell) []nbr {
	g := f.grid
	ct := &f.ct
	bl := g.Cell(nx, y-1, nz)
	if bl == Solid || feet == Water {
		if w == 1 || feet == Water {
			return append(out, nbr{nx, y, nz, ct.swim[d], MoveSwim, feet})
		}
		return append(out, nbr{nx, y, nz, ct.walk[d], MoveWalk, feet})
	}
	if f.place && d == 0 && w == 0 && below == Solid && feet == Passable && (bl == Passable || bl == Water) {
		out = append(out, nbr{nx, y, nz, ct.walk[0] + ct.place, MoveBridge, feet})
	}
	c := bl
	for k := 1; k <= f.maxDrop; k++ {
		floor := isFloor(c)
		if !floor && !isClear(c) {
			break
		}
		if !floor && c != Water {
			next := g.Cell(nx, y-k-1, nz)
			if next != Solid {
				c = next
				continue
			}
		}
		if d == 1 && !(f.cornerFall(x+cdx[ci], y, z+cdz[ci], k) && f.cornerFall(x+cdx[cj], y, z+cdz[cj], k)) {
			break
		}
		return append(out, nbr{nx, y - k, nz, ct.drop[w][d][k], MoveDrop, c})
	}
	return out
}

// cornerFall reports whether a corner column is safe beside a diagonal drop
// of k blocks from y: going down from y-1, the cells are clear until the
// first solid one (which the player may rest on while passing over it), and
// none is dangerous or unknown.
func (f *Finder) cornerFall(cx, y, cz, k int) bool {
	for l := 1; l <= k; l++ {
		switch f.grid.Cell(cx, y-l, cz) {
		case Passable, Water:
		case Solid:
			return true
		default:
			return false
		}
	}
	return true
}

// digAcross emits the cardinal moves that break blocks: walking through
// the feet and head cells of the neighbour (a, b), or jumping onto it
// (a solid) through its head cells and the head room above the start.
func (f *Finder) digAcross(out []nbr, x, y, z, nx, nz int, a, b, up Cell, cu *Cell, w int) []nbr {
	ct := &f.ct
	if (a == Solid || b == Solid) && (isClear(a) || a == Solid) && (isClear(b) || b == Solid) &&
		(a == Water || f.grid.Cell(nx, y-1, nz) == Solid) {
		cost, ok := int64(0), true
		if a == Solid {
			cost, ok = f.addBreak(cost, nx, y, nz)
		}
		if ok && b == Solid {
			cost, ok = f.addBreak(cost, nx, y+1, nz)
		}
		if ok {
			if w == 1 || a == Water {
				out = append(out, nbr{nx, y, nz, cost + ct.swim[0], MoveSwim, broken(a)})
			} else {
				out = append(out, nbr{nx, y, nz, cost + ct.walk[0], MoveWalk, broken(a)})
			}
		}
	}
	if a != Solid {
		return out
	}
	if *cu == unfetched {
		*cu = f.grid.Cell(nx, y+2, nz)
	}
	u := *cu
	if (up != Solid && b != Solid && u != Solid) || !(isClear(up) || up == Solid) ||
		!(isClear(b) || b == Solid) || !(isClear(u) || u == Solid) {
		return out
	}
	cost, ok := int64(0), true
	if up == Solid {
		cost, ok = f.addBreak(cost, x, y+2, z)
	}
	if ok && b == Solid {
		cost, ok = f.addBreak(cost, nx, y+1, nz)
	}
	if ok && u == Solid {
		cost, ok = f.addBreak(cost, nx, y+2, nz)
	}
	if ok {
		out = append(out, nbr{nx, y + 1, nz, cost + ct.jump[w][0], MoveJump, broken(b)})
	}
	return out
}

// broken is the feet cell a dig move leaves: a broken block is air.
func broken(c Cell) Cell {
	if c == Solid {
		return Passable
	}
	return c
}

func (f *Finder) addBreak(cost int64, x, y, z int) (int64, bool) {
	c, ok := f.breakCost(x, y, z)
	return cost + c, ok
}

// breakCost is the time to break the block at (x, y, z) in milli-ticks;
// false when it cannot be broken.
func (f *Finder) breakCost(x, y, z int) (int64, bool) {
	if f.digTicks == nil {
		return f.ct.dig, true
	}
	t := f.digTicks(x, y, z)
	if t < 0 || math.IsNaN(t) || math.IsInf(t, 0) {
		return 0, false
	}
	return toMilli(t), true
}
