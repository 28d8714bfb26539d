package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestLight: the sky's light in the open, beside a roof and in a sealed
// room; a torch's light falling off by the block; the night taking the
// sky's part but not the torch's.
func TestLight(t *testing.T) {
	sc, err := ParseScenario("light.yaml", []byte(`name: light
seed: 1
size: {x: 32, z: 32}
generator: flat
ground_y: 64
player:
  pos: [2, 65, 2]
blocks:
  - {block: "minecraft:stone", from: [10, 65, 10], to: [14, 69, 14]}
  - {block: "minecraft:air", from: [11, 66, 11], to: [13, 68, 13]}
  - {block: "minecraft:planks", from: [20, 67, 20], to: [24, 67, 24]}
  - {block: "minecraft:torch", pos: [28, 65, 5]}
`))
	require.NoError(t, err)
	s, err := New(sc, Options{})
	require.NoError(t, err)
	s.state.Update(func(tx *world.Tx) {
		assert.Equal(t, 15, s.skyLight(tx, world.Pos(5, 65, 5)), "the open sky")
		assert.Equal(t, 0, s.skyLight(tx, world.Pos(12, 66, 12)), "a sealed room")
		assert.Equal(t, 15, s.skyLight(tx, world.Pos(12, 70, 12)), "on its roof")
		assert.Equal(t, 13, s.skyLight(tx, world.Pos(22, 65, 21)), "under a roof, 2 blocks from its edge")
		assert.Equal(t, 12, s.skyLight(tx, world.Pos(22, 65, 22)), "3 blocks in")
		assert.Equal(t, 14, s.blockLight(tx, world.Pos(28, 65, 5)), "the torch's own block")
		assert.Equal(t, 11, s.blockLight(tx, world.Pos(25, 65, 5)), "3 blocks from the torch")
		assert.Equal(t, 8, s.blockLight(tx, world.Pos(27, 66, 9)), "6 steps from it")
		assert.Equal(t, 0, s.blockLight(tx, world.Pos(5, 65, 5)), "far from it")
		assert.Equal(t, 4, s.lightAt(tx, world.Pos(5, 65, 5), 11), "midnight in the open")
		assert.Equal(t, 11, s.lightAt(tx, world.Pos(25, 65, 5), 11), "midnight beside the torch")
		assert.Equal(t, 15, s.lightAt(tx, world.Pos(25, 65, 5), 0), "noon beside it")
	})
}
