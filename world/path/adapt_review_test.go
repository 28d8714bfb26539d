package path

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestFeetCellEdges: feet a hair below a cell's bottom (the server's
// doubles after physics) are in that cell, and feet resting inside a Fence
// cell — two blocks high to the pathfinder — count from the cell above, as
// on a Solid one.
func TestFeetCellEdges(t *testing.T) {
	g := heightWorld(6, "1f")
	assert.Equal(t, world.Pos(0, 2, 0), FeetCell(g, 0, 1.9995, 0), "a hair below y 2 over open air")
	assert.Equal(t, world.Pos(0, 1, 0), FeetCell(g, 0, 1.998, 0), "two thousandths below y 2 is still in cell 1")
	assert.Equal(t, world.Pos(1, 2, 0), FeetCell(g, 1, 1, 0), "feet inside a fence cell")
}

// TestBlockGridBuildHeight: the top layer of the build height (MaxY) is
// read from the source; only above it is open sky.
func TestBlockGridBuildHeight(t *testing.T) {
	src := world.NewSparseBlocks()
	src.SetID(world.Pos(0, 255, 0), "minecraft:stone", 0)
	src.SetID(world.Pos(0, 0, 0), "minecraft:stone", 0)
	g := NewBlockGrid(src, nil)
	assert.Equal(t, Solid, g.Cell(0, 255, 0))
	assert.Equal(t, Passable, g.Cell(0, 256, 0))
	assert.Equal(t, Solid, g.Cell(0, 0, 0))
	assert.Equal(t, Unknown, g.Cell(0, -1, 0))
}
