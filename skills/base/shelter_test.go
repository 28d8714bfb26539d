package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// grassland is grass at y 64 over dirt down to 60 for |x|, |z| <= 6, the
// player standing on it at the origin.
func grassland() (*world.Snapshot, *world.SparseBlocks) {
	bs := world.NewSparseBlocks()
	for x := -6; x <= 6; x++ {
		for z := -6; z <= 6; z++ {
			bs.SetID(world.Pos(x, 64, z), "minecraft:grass", 0)
			for y := 60; y < 64; y++ {
				bs.SetID(world.Pos(x, y, z), "minecraft:dirt", 0)
			}
		}
	}
	return &world.Snapshot{Player: world.Player{Pos: world.Vec3{X: 0.5, Y: 65, Z: 0.5}}, Blocks: bs, Inventory: world.NewInventory()}, bs
}

func TestShelterDigsAPitAndRoofsIt(t *testing.T) {
	w, bs := grassland()
	acts, err := Shelter{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{
		action.BreakBlock{Pos: world.Pos(0, 64, 0)}, action.BreakBlock{Pos: world.Pos(0, 63, 0)}, action.BreakBlock{Pos: world.Pos(0, 62, 0)},
		action.PlaceBlock{Pos: world.Pos(0, 64, 0), Item: "minecraft:dirt", Face: "auto"},
	}, acts, "the grass's dirt is the roof")

	// Water beside the feet of the pit here: the next column is taken.
	bs.SetID(world.Pos(-1, 62, 0), "minecraft:water", 0)
	acts, err = Shelter{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	mv, ok := acts[0].(action.MoveTo)
	require.True(t, ok, "%v", acts)
	assert.NotEqual(t, world.Pos(0, 65, 0), mv.Pos)
	assert.Equal(t, action.BreakBlock{Pos: mv.Pos.Down()}, acts[1])

	// Cobblestone held is the roof; stone ground gives none by hand.
	w2, bs2 := grassland()
	for x := -6; x <= 6; x++ {
		for z := -6; z <= 6; z++ {
			bs2.SetID(world.Pos(x, 64, z), "minecraft:stone", 0)
			bs2.SetID(world.Pos(x, 63, z), "minecraft:stone", 0)
		}
	}
	_, err = Shelter{}.SuggestActions(w2, skills.Params{})
	requireFailure(t, err, skills.CodeNoTarget)
	w2.Inventory = world.NewInventory(world.NewStack("minecraft:cobblestone", 0, 3))
	acts, err = Shelter{}.SuggestActions(w2, skills.Params{})
	require.NoError(t, err)
	assert.Equal(t, action.PlaceBlock{Pos: world.Pos(0, 64, 0), Item: "minecraft:cobblestone", Face: "auto"}, acts[len(acts)-1])
}

func TestShelterWaitsWhenWalledIn(t *testing.T) {
	w, bs := grassland()
	w.Player.Pos.Y = 62 // at the bottom of a pit, roofed
	bs.SetID(world.Pos(0, 62, 0), "minecraft:air", 0)
	bs.SetID(world.Pos(0, 63, 0), "minecraft:air", 0)
	acts, err := Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.Wait{Ticks: 600}}, acts)
	_, err = Shelter{}.SuggestActions(w, skills.Params{})
	requireFailure(t, err, skills.CodeNoTarget)
}
