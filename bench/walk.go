package bench

import (
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Blocks is the read access the checks need: the block id at a position.
// *benchworld.World implements it.
type Blocks interface {
	ID(x, y, z int) int
}

var _ Blocks = (*benchworld.World)(nil)

// kind is what a block is to a walking player of the benchmark world, whose
// blocks are all full cubes, air, tall grass or water.
type kind uint8

const (
	clear kind = iota // air, tall grass: the body passes
	water             // the body passes, and floats
	solid             // everything else
)

func kindOf(id int) kind {
	switch id {
	case benchworld.Air, benchworld.TallGrass:
		return clear
	case benchworld.Water:
		return water
	}
	return solid
}

// Problem is one step of a path that a walking player cannot make.
type Problem struct {
	Step     int // index of the step's end position in the path
	From, To world.BlockPos
	Reason   string
}

func (p Problem) String() string {
	return fmt.Sprintf("step %d %v→%v: %s", p.Step, p.From, p.To, p.Reason)
}

// Walk is the verdict on a path.
type Walk struct {
	Steps int
	// CornerCuts counts the diagonal steps whose body passes through a
	// solid block in one of the two corner columns.
	CornerCuts int
	// Invalid lists every step that breaks a rule, corner cuts included.
	Invalid []Problem
	// FallDamage counts drops of more than MaxSafeDrop blocks: walkable,
	// at the price of health.
	FallDamage int
}

// Valid reports whether every step can be walked.
func (w Walk) Valid() bool { return len(w.Invalid) == 0 }

// MaxSafeDrop is the highest fall that costs no health (a fall of d blocks
// deals d-3 half-hearts in 1.7.10).
const MaxSafeDrop = 3

// CheckWalk checks a path of feet positions in walking mode (no digging,
// no placing blocks, no jumps over gaps) with the player's rules, written
// apart from any pathfinder's move generator:
//
//   - every position after the start is standable: feet and head cells not
//     solid, and a solid block below or the feet in water — except where a
//     swim straight up leaves the water: a swimmer at the surface has the
//     feet in the air cell above the water (the next step must then find
//     ground or water);
//   - consecutive positions are horizontal neighbours (8 directions) at
//     most one block higher, or the same column one block up or down with
//     water at either end (swimming);
//   - a jump needs the cell above the head at the start clear;
//   - a drop needs the target column free of solid blocks from the start
//     height down to the landing;
//   - a diagonal step needs both corner columns free of solid blocks at
//     every height the body passes (the start's feet and head cells, and
//     the cell above them when jumping): a 0.6-wide body going corner to
//     corner overlaps both corner columns, so a solid block there is a
//     corner cut.
//
// Drops deeper than MaxSafeDrop are counted in FallDamage, not invalid.
func CheckWalk(b Blocks, path []world.BlockPos) Walk {
	k := func(x, y, z int) kind { return kindOf(b.ID(x, y, z)) }
	out := Walk{Steps: max(len(path)-1, 0)}
	bad := func(i int, reason string, args ...any) {
		out.Invalid = append(out.Invalid, Problem{Step: i, From: path[i-1], To: path[i], Reason: fmt.Sprintf(reason, args...)})
	}
	for i := 1; i < len(path); i++ {
		a, p := path[i-1], path[i]
		dx, dy, dz := p.X-a.X, p.Y-a.Y, p.Z-a.Z
		if abs(dx) > 1 || abs(dz) > 1 || dy > 1 || (dx == 0 && dz == 0 && abs(dy) != 1) {
			bad(i, "not a neighbouring position (%+d, %+d, %+d)", dx, dy, dz)
			continue
		}
		if k(p.X, p.Y, p.Z) == solid || k(p.X, p.Y+1, p.Z) == solid {
			bad(i, "the body does not fit (feet %d, head %d)", b.ID(p.X, p.Y, p.Z), b.ID(p.X, p.Y+1, p.Z))
			continue
		}
		if dx == 0 && dz == 0 {
			if k(a.X, a.Y, a.Z) != water && k(p.X, p.Y, p.Z) != water {
				bad(i, "moves straight up or down out of water")
			}
			continue
		}
		if k(p.X, p.Y-1, p.Z) != solid && k(p.X, p.Y, p.Z) != water {
			bad(i, "nothing to stand on (block %d below)", b.ID(p.X, p.Y-1, p.Z))
			continue
		}
		top := a.Y + 1 // highest cell the body passes in the corners
		if dy == 1 {
			top = a.Y + 2
			if k(a.X, a.Y+2, a.Z) == solid {
				bad(i, "jumps with a block above the head")
				continue
			}
		}
		if dy < 0 {
			blocked := false
			for y := a.Y + 1; y >= p.Y; y-- {
				if k(p.X, y, p.Z) == solid {
					blocked = true
				}
			}
			if blocked {
				bad(i, "drops through a solid block")
				continue
			}
			if -dy > MaxSafeDrop {
				out.FallDamage++
			}
		}
		if dx != 0 && dz != 0 {
			cut := false
			for _, c := range [2][2]int{{a.X + dx, a.Z}, {a.X, a.Z + dz}} {
				for y := a.Y; y <= top; y++ {
					if k(c[0], y, c[1]) == solid {
						cut = true
					}
				}
			}
			if cut {
				out.CornerCuts++
				bad(i, "cuts a corner")
			}
		}
	}
	return out
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
