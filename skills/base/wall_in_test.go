package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// tunnelWorld: stone all round, a 1×2 tunnel along x from -3 to the
// unknown past 6, at feet
// y 64, the player at the origin holding inv.
func tunnelWorld(inv ...world.ItemStack) *world.Snapshot {
	bs := world.NewSparseBlocks()
	for x := -6; x <= 6; x++ {
		for y := 62; y <= 67; y++ {
			for z := -3; z <= 3; z++ {
				id := "minecraft:stone"
				if x >= -3 && x <= 6 && z == 0 && (y == 64 || y == 65) {
					id = "minecraft:air"
				}
				bs.SetID(world.Pos(x, y, z), id, 0)
			}
		}
	}
	return &world.Snapshot{Player: world.Player{Pos: world.Vec3{X: 0.5, Y: 64, Z: 0.5}}, Blocks: bs, Inventory: world.NewInventory(inv...)}
}

func TestWallInATunnel(t *testing.T) {
	w := tunnelWorld(world.NewStack("minecraft:cobblestone", 0, 4))
	acts, err := WallIn{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{
		action.PlaceBlock{Pos: world.Pos(1, 64, 0), Item: "minecraft:cobblestone", Face: "auto"},
		action.PlaceBlock{Pos: world.Pos(-1, 64, 0), Item: "minecraft:cobblestone", Face: "auto"},
		action.PlaceBlock{Pos: world.Pos(1, 65, 0), Item: "minecraft:cobblestone", Face: "auto"},
		action.PlaceBlock{Pos: world.Pos(-1, 65, 0), Item: "minecraft:cobblestone", Face: "auto"},
	}, acts)

	_, err = WallIn{}.SuggestActions(tunnelWorld(world.NewStack("minecraft:cobblestone", 0, 3)), skills.Params{})
	requireFailure(t, err, skills.CodeMissingItems)

	// A zombie in the way of the wall.
	z := tunnelWorld(world.NewStack("minecraft:cobblestone", 0, 4))
	z.Entities = []world.Entity{{ID: 3, Kind: world.EntityMob, Name: "zombie", Pos: world.Vec3{X: -0.5, Y: 64, Z: 0.5}}}
	_, err = WallIn{}.SuggestActions(z, skills.Params{})
	requireFailure(t, err, skills.CodeNoTarget)

	// Walled in already: nothing to do.
	closed := tunnelWorld()
	for _, x := range []int{1, -1} {
		for _, y := range []int{64, 65} {
			closed.Blocks.(*world.SparseBlocks).SetID(world.Pos(x, y, 0), "minecraft:stone", 0)
		}
	}
	acts, err = WallIn{}.SuggestActions(closed, skills.Params{})
	require.NoError(t, err)
	assert.Empty(t, acts)
}
