package path

import "fmt"

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
)

var cellNames = [...]string{"unknown", "passable", "water", "solid", "danger"}

// String returns the lower-case name of the cell class.
func (c Cell) String() string {
	if int(c) < len(cellNames) {
		return cellNames[c]
	}
	return fmt.Sprintf("cell(%d)", uint8(c))
}

// isClear reports whether the body may occupy the cell (passable or water).
func isClear(c Cell) bool { return uint8(c-Passable) < 2 }

// Grid classifies block positions. Implementations must be cheap: a search
// calls Cell a few dozen times per expanded node, millions of times per
// second. A Grid must not change while a search reads it.
type Grid interface {
	// Cell returns the class of the block at (x, y, z).
	Cell(x, y, z int) Cell
}

// GridFunc adapts a function to Grid.
type GridFunc func(x, y, z int) Cell

var _ Grid = GridFunc(nil)

// Cell implements Grid.
func (f GridFunc) Cell(x, y, z int) Cell { return f(x, y, z) }
