package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// shelters is a memory that remembers shelters (nearest first, as given)
// and no blocks.
type shelters struct {
	pos     []world.BlockPos
	maxDist int
}

func (shelters) RecallBlocks(string, int, world.BlockPos, int, int) []world.BlockPos { return nil }

func (s *shelters) RecallShelters(_ world.BlockPos, maxDist, _ int) []world.BlockPos {
	s.maxDist = maxDist
	return s.pos
}

// TestShelterGoesBackToARememberedOne: the pit the bot climbed out of in
// the morning (open at the top) is walked back to and roofed over; a pit
// mined wider is closed on every open side; a remembered shelter with
// lava beside it, filled in, or with too few blocks to close is passed
// over for a new pit here.
func TestShelterGoesBackToARememberedOne(t *testing.T) {
	w, bs := grassland()
	old := world.Pos(5, 62, 0) // feet in a pit two deep, dug on an earlier night
	bs.Set(old, world.Air).Set(old.Up(), world.Air).Set(old.Up().Up(), world.Air)
	w.Inventory = world.NewInventory(world.NewStack("minecraft:cobblestone", 0, 10))
	mem := &shelters{pos: []world.BlockPos{old}}
	w.Recall = mem

	acts, err := Shelter{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.MoveTo{Pos: old}, action.PlaceBlock{Pos: world.Pos(5, 64, 0), Item: "minecraft:cobblestone", Face: "auto"}}, acts,
		"back in and the roof on")
	assert.Equal(t, shelterReuse, mem.maxDist)

	// Mined wider at the feet's level (east): that side is closed too,
	// before the roof.
	bs.Set(world.Pos(6, 62, 0), world.Air)
	acts, err = Shelter{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.MoveTo{Pos: old},
		action.PlaceBlock{Pos: world.Pos(6, 62, 0), Item: "minecraft:cobblestone", Face: "auto"},
		action.PlaceBlock{Pos: world.Pos(5, 64, 0), Item: "minecraft:cobblestone", Face: "auto"}}, acts)

	// One block of cover for two cells: a new pit here instead.
	w.Inventory = world.NewInventory(world.NewStack("minecraft:cobblestone", 0, 1))
	acts, err = Shelter{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	assert.NotEqual(t, action.MoveTo{Pos: old}, acts[0], "%v", acts)
	w.Inventory = world.NewInventory(world.NewStack("minecraft:cobblestone", 0, 10))

	// With a pickaxe, only a shelter with walls left to mine while the
	// bot waits: this one, closed, has its dirt.
	pick := world.NewTool("minecraft:wooden_pickaxe", 0, 64, 64)
	w.Inventory = world.NewInventory(world.NewStack("minecraft:cobblestone", 0, 10), pick)
	acts, err = Shelter{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	assert.Equal(t, action.MoveTo{Pos: old}, acts[0], "%v", acts)
	// Walls of bedrock, and the room mined east on the earlier night open
	// to the sky (the way out in the morning): closed again, nothing to
	// mine there all night, so a new pit here.
	for x := 3; x <= 7; x++ {
		for z := -2; z <= 2; z++ {
			for y := 61; y <= 63; y++ {
				if p := world.Pos(x, y, z); p != old && p != old.Up() && p != world.Pos(6, 62, 0) {
					bs.SetID(p, "minecraft:bedrock", 0)
				}
			}
		}
	}
	bs.Set(world.Pos(7, 62, 0), world.Air).Set(world.Pos(7, 63, 0), world.Air).Set(world.Pos(7, 64, 0), world.Air)
	acts, err = Shelter{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	assert.NotEqual(t, action.MoveTo{Pos: old}, acts[0], "%v", acts)
	// With only a worn pickaxe, which the night's mining leaves alone,
	// nothing would be mined anywhere: the remembered shelter serves.
	w.Inventory = world.NewInventory(world.NewStack("minecraft:cobblestone", 0, 10), world.NewTool("minecraft:wooden_pickaxe", 0, shelterKeepUses, 64))
	acts, err = Shelter{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	assert.Equal(t, action.MoveTo{Pos: old}, acts[0], "%v", acts)
	w, bs = grassland()
	bs.Set(old, world.Air).Set(old.Up(), world.Air).Set(old.Up().Up(), world.Air)
	w.Inventory = world.NewInventory(world.NewStack("minecraft:cobblestone", 0, 10))
	w.Recall = mem

	// Lava beside it: not safe, a new pit here.
	bs.SetID(world.Pos(5, 63, 1), "minecraft:lava", 0)
	acts, err = Shelter{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	require.NotEmpty(t, acts)
	assert.NotEqual(t, action.MoveTo{Pos: old}, acts[0], "%v", acts)
	assert.Contains(t, acts, action.BreakBlock{Pos: world.Pos(0, 64, 0)}, "the pit under the feet")
	bs.SetID(world.Pos(5, 63, 1), "minecraft:dirt", 0)

	// Gravel over the roof's cell would fall into it: a new pit.
	bs.SetID(world.Pos(5, 65, 0), "minecraft:gravel", 0)
	acts, err = Shelter{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	assert.NotEqual(t, action.MoveTo{Pos: old}, acts[0], "%v", acts)
	bs.Set(world.Pos(5, 65, 0), world.Air)

	// Filled in since: a new pit.
	bs.SetID(old, "minecraft:dirt", 0)
	acts, err = Shelter{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	assert.NotEqual(t, action.MoveTo{Pos: old}, acts[0], "%v", acts)

	// No memory: a new pit, as before.
	bs.Set(old, world.Air)
	w.Recall = nil
	acts, err = Shelter{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	assert.Contains(t, acts, action.BreakBlock{Pos: world.Pos(0, 64, 0)})
}

// TestShelterMinesIntoAClosedPocket: walled in again in a remembered
// shelter, a block placed to close it with an earlier night's room (a
// closed pocket) behind may be mined while the bot waits: the room with
// the pocket stays closed. A pocket open to the outside is not mined into.
func TestShelterMinesIntoAClosedPocket(t *testing.T) {
	w, bs := grassland()
	feet := world.Pos(0, 62, 0)
	w.Player.Pos = world.Vec3{X: 0.5, Y: 62, Z: 0.5}
	bs.Set(feet, world.Air).Set(feet.Up(), world.Air)
	bs.SetID(world.Pos(1, 62, 0), "minecraft:cobblestone", 0) // placed to close it
	bs.Set(world.Pos(2, 62, 0), world.Air)                    // the pocket behind
	w.Inventory = world.NewInventory(world.NewTool("minecraft:wooden_pickaxe", 0, 64, 64))
	acts, err := Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.Equip{Item: "tool:pickaxe"}, action.BreakBlock{Pos: world.Pos(1, 62, 0)}, action.Wait{Ticks: 600}}, acts)

	// The pocket opens to the sky: the cobblestone stays.
	bs.Set(world.Pos(2, 63, 0), world.Air).Set(world.Pos(2, 64, 0), world.Air)
	acts, err = Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.NotContains(t, acts, action.BreakBlock{Pos: world.Pos(1, 62, 0)})
}

// TestShelterLeavesAPocketWithAMobShut: a closed pocket behind the wall
// with a skeleton in it (one that fell into an old shaft) is not mined
// into: the skeleton would shoot the bot in its own room.
func TestShelterLeavesAPocketWithAMobShut(t *testing.T) {
	w, bs := grassland()
	feet := world.Pos(0, 62, 0)
	w.Player.Pos = world.Vec3{X: 0.5, Y: 62, Z: 0.5}
	bs.Set(feet, world.Air).Set(feet.Up(), world.Air)
	bs.SetID(world.Pos(1, 62, 0), "minecraft:cobblestone", 0)
	bs.Set(world.Pos(2, 62, 0), world.Air).Set(world.Pos(2, 63, 0), world.Air)
	w.Inventory = world.NewInventory(world.NewTool("minecraft:wooden_pickaxe", 0, 64, 64))
	w.Entities = []world.Entity{{ID: 757, Kind: world.EntityMob, Name: "skeleton", Pos: world.Vec3{X: 2.7, Y: 62, Z: 0.3}}}
	acts, err := Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.NotContains(t, acts, action.BreakBlock{Pos: world.Pos(1, 62, 0)})

	// The skeleton gone (shot, despawned), the pocket is mined into.
	w.Entities = nil
	acts, err = Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.Contains(t, acts, action.BreakBlock{Pos: world.Pos(1, 62, 0)})
}
