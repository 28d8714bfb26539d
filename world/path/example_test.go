package path_test

import (
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// A stone floor with a one-block step: the path walks and jumps onto it.
func ExampleFind() {
	blocks := world.NewSparseBlocks()
	for x := 0; x < 4; x++ {
		for z := 0; z < 2; z++ {
			blocks.SetID(world.Pos(x, 0, z), "minecraft:stone", 0)
		}
	}
	blocks.SetID(world.Pos(3, 1, 0), "minecraft:stone", 0)
	grid := path.NewBlockGrid(blocks, nil)
	grid.Loaded = func(p world.BlockPos) bool { return p.X >= 0 && p.X < 4 && p.Z >= 0 && p.Z < 2 }

	res, err := path.Find(grid, world.Pos(0, 1, 0), path.At(world.Pos(3, 2, 0)), path.Options{})
	if err != nil {
		panic(err)
	}
	for _, s := range res.Steps {
		fmt.Printf("%v %s at %.2f ticks\n", s.Pos, s.Move, s.Cost)
	}
	fmt.Println(res.Reason, res.Complete)
	// Output:
	// (0, 1, 0) start at 0.00 ticks
	// (1, 1, 0) walk at 4.63 ticks
	// (2, 1, 0) walk at 9.27 ticks
	// (3, 2, 0) jump at 17.37 ticks
	// reached true
}
