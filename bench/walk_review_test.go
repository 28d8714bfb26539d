package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestCheckWalkEdges pins CheckWalk's rules where a neighbouring rule
// would also pass: swimming needs water at one end only; a drop checks the
// landing column from the start's head height down; a horizontal step
// into water needs nothing below.
func TestCheckWalkEdges(t *testing.T) {
	cob, wat := benchworld.Cobblestone, benchworld.Water
	for _, c := range []struct {
		name    string
		blocks  testBlocks
		path    []world.BlockPos
		invalid int
	}{
		{"swimming up out of the water's top cell", testBlocks{world.Pos(0, 1, 0): wat}, ps([3]int{0, 1, 0}, [3]int{0, 2, 0}), 0},
		{"sinking into water from above it", testBlocks{world.Pos(0, 1, 0): wat}, ps([3]int{0, 2, 0}, [3]int{0, 1, 0}), 0},
		{"a drop whose landing column is blocked at the start's head height",
			testBlocks{world.Pos(0, 1, 0): cob, world.Pos(0, 2, 0): cob, world.Pos(0, 3, 0): cob, world.Pos(1, 5, 0): cob},
			ps([3]int{0, 4, 0}, [3]int{1, 1, 0}), 1},
		{"a drop whose landing column is blocked at the start's feet height",
			testBlocks{world.Pos(0, 1, 0): cob, world.Pos(0, 2, 0): cob, world.Pos(0, 3, 0): cob, world.Pos(1, 4, 0): cob},
			ps([3]int{0, 4, 0}, [3]int{1, 1, 0}), 1},
		{"a drop whose landing column is blocked just above the head",
			testBlocks{world.Pos(0, 1, 0): cob, world.Pos(0, 2, 0): cob, world.Pos(0, 3, 0): cob, world.Pos(1, 3, 0): cob},
			ps([3]int{0, 4, 0}, [3]int{1, 1, 0}), 1},
		{"a step into deep water", testBlocks{world.Pos(1, 0, 0): wat, world.Pos(1, 1, 0): wat, world.Pos(1, -1, 0): wat},
			ps([3]int{0, 1, 0}, [3]int{1, 1, 0}), 0},
		{"a step onto the air over water", testBlocks{world.Pos(1, 0, 0): wat},
			ps([3]int{0, 1, 0}, [3]int{1, 1, 0}), 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := CheckWalk(c.blocks, c.path)
			assert.Len(t, w.Invalid, c.invalid, "%v", w.Invalid)
		})
	}
}
