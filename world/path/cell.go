package path

import (
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/rules"
)

// Cell is what the pathfinder needs to know about one block position.
type Cell uint8

// Cell classes. The zero Cell is Unknown, so a grid that knows nothing
// blocks the search instead of inviting it into unloaded terrain.
const (
	// Unknown is outside the loaded world; never entered, never stood on.
	Unknown Cell = iota
	// Passable is air and blocks without a collision box (tall grass,
	// flowers, torches, saplings): the body may occupy it.
	Passable
	// Water is a swimmable liquid: the body may occupy it, swimming.
	Water
	// Solid has a collision box: it supports the feet and blocks the body.
	Solid
	// Danger hurts on contact (lava, fire, cactus, cobweb): never entered,
	// never stood on, never broken.
	Danger
	// Low is a floor at most 0.2 high inside its own cell (carpet, a
	// closed bottom trapdoor, thin snow): the feet may be in it, standing
	// on it, and the body still fits in two cells; it blocks a head.
	Low
	// Slab is a floor more than 0.2 and at most 0.5 high inside its own
	// cell (a bottom slab, snow of 2–4 layers): the feet may be in it,
	// standing half a block up, so the body also needs the cell two above
	// clear; the player steps onto it from the cell's level without a jump.
	Slab
	// Fence is 1.5 blocks high (fences, cobblestone walls, closed fence
	// gates): it blocks the body, cannot be stood on or jumped onto, and
	// its top reaches into the cell above, where no feet may be.
	Fence
)

var cellNames = [...]string{"unknown", "passable", "water", "solid", "danger", "low", "slab", "fence"}

// String returns the lower-case name of the cell class.
func (c Cell) String() string {
	if int(c) < len(cellNames) {
		return cellNames[c]
	}
	return fmt.Sprintf("cell(%d)", uint8(c))
}

// isClear reports whether the body may occupy the cell (passable or water).
func isClear(c Cell) bool { return uint8(c-Passable) < 2 }

// isFloor reports whether the cell holds a floor for feet inside it (Low,
// Slab).
func isFloor(c Cell) bool { return uint8(c-Low) < 2 }

// CellOf is the cell class of a collision shape (rules.KnownShape): no box
// or an open door, trapdoor or gate is Passable; a shape above 1 block is
// Fence; a floor covering the whole cell from its bottom is Low up to 0.2
// high and Slab up to 0.5; anything else is Solid (stood on at the top of
// the cell, which is exact for full cubes and a little high for chests,
// soul sand or a top slab).
func CellOf(s rules.Shape) Cell {
	switch top := s.Top(); {
	case s.Empty() || s.Open:
		return Passable
	case top > 1:
		return Fence
	case s.Floor() && top <= lowTop:
		return Low
	case s.Floor() && top <= 0.5:
		return Slab
	}
	return Solid
}

// lowTop is the highest floor a two-block body fits over in its two cells
// (2 − 1.8).
const lowTop = 0.2

// Grid classifies block positions. Implementations must be cheap: a search
// calls Cell a few dozen times per expanded node, millions of times per
// second. A Grid must not change while a search reads it.
type Grid interface {
	// Cell returns the class of the block at (x, y, z).
	Cell(x, y, z int) Cell
}

// ColumnGrid is a Grid that reads a column of cells at once, faster than
// one Cell call per height. Implementing it is optional: the long-route
// planner (Router) reads whole columns to find where a body may stand on
// the borders of its regions, and uses Column when the grid has it.
type ColumnGrid interface {
	Grid
	// Column sets out[i] to Cell(x, y0+i, z) for every i.
	Column(x, z, y0 int, out []Cell)
}

// GridFunc adapts a function to Grid.
type GridFunc func(x, y, z int) Cell

var _ Grid = GridFunc(nil)

// Cell implements Grid.
func (f GridFunc) Cell(x, y, z int) Cell { return f(x, y, z) }
