package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
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
	// No pickaxe: the hand digs a dirt wall (dirt drops for a hand), then
	// the wait.
	require.Len(t, acts, 2, "%v", acts)
	dug, ok := acts[0].(action.BreakBlock)
	require.True(t, ok, "%v", acts)
	assert.Equal(t, "minecraft:dirt", w.BlockAt(dug.Pos).ID)
	assert.NotEqual(t, world.Pos(0, 61, 0), dug.Pos, "a wall, not the floor")
	assert.Equal(t, action.Wait{Ticks: 600}, acts[1])
	_, err = Shelter{}.SuggestActions(w, skills.Params{})
	requireFailure(t, err, skills.CodeNoTarget)
}

// stonePit is grass at y 64 over stone down to 56 for |x|, |z| <= 6, the
// player at the bottom of a roofed pit at the origin (feet at 62), holding
// what is given.
func stonePit(held ...world.ItemStack) (*world.Snapshot, *world.SparseBlocks) {
	bs := world.NewSparseBlocks()
	for x := -6; x <= 6; x++ {
		for z := -6; z <= 6; z++ {
			bs.SetID(world.Pos(x, 64, z), "minecraft:grass", 0)
			for y := 56; y < 64; y++ {
				bs.SetID(world.Pos(x, y, z), "minecraft:stone", 0)
			}
		}
	}
	bs.SetID(world.Pos(0, 62, 0), "minecraft:air", 0)
	bs.SetID(world.Pos(0, 63, 0), "minecraft:air", 0)
	return &world.Snapshot{Player: world.Player{Pos: world.Vec3{X: 0.5, Y: 62, Z: 0.5}}, Blocks: bs, Inventory: world.NewInventory(held...)}, bs
}

func TestShelterMinesItsWallsWhileItWaits(t *testing.T) {
	pick := world.NewTool("minecraft:wooden_pickaxe", 0, 59, 59)
	w, bs := stonePit(pick)
	acts, err := Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	require.Len(t, acts, 3, "%v", acts)
	assert.Equal(t, action.Equip{Item: "tool:pickaxe"}, acts[0])
	assert.Equal(t, action.Wait{Ticks: 600}, acts[2])
	first := acts[1].(action.BreakBlock).Pos
	assert.Equal(t, 63, first.Y, "the head's level is nearest the eyes")
	assert.Equal(t, 1, abs(first.X)+abs(first.Z), "a wall of the pit")

	// Mined, the room stays closed, the bot stays walled in and mines on.
	bs.SetID(first, "minecraft:air", 0)
	acts, err = Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	require.Len(t, acts, 3, "%v", acts)
	next := acts[1].(action.BreakBlock).Pos
	assert.NotEqual(t, first, next)

	// Coal ore and stone both need the pickaxe: the nearer goes first; a
	// block beside water would open the room and is left.
	w, bs = stonePit(pick)
	for _, p := range []world.BlockPos{world.Pos(1, 63, 0), world.Pos(-1, 63, 0), world.Pos(0, 63, 1), world.Pos(0, 63, -1)} {
		bs.SetID(p.Add(p.X, 0, p.Z), "minecraft:water", 0) // behind each head-level wall
	}
	acts, err = Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	require.Len(t, acts, 3, "%v", acts)
	assert.Equal(t, 62, acts[1].(action.BreakBlock).Pos.Y, "the head-level walls hold back water; a feet-level one is mined")

	// Dirt needs no pickaxe: stone comes first, even when farther.
	for _, stoneAt := range []world.BlockPos{world.Pos(0, 63, 1), world.Pos(1, 62, 0)} {
		w, bs = stonePit(pick)
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			for y := 62; y <= 63; y++ {
				if p := world.Pos(d[0], y, d[1]); p != stoneAt {
					bs.SetID(p, "minecraft:dirt", 0)
				}
			}
		}
		acts, err = Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
		require.NoError(t, err)
		assert.Equal(t, stoneAt, acts[1].(action.BreakBlock).Pos, "the only stone wall")
	}

	// Under thick ground the roof's level stays: nothing above the head's
	// level is mined, though it would be nearer than the feet's.
	w, bs = stonePit(pick)
	for x := -6; x <= 6; x++ {
		for z := -6; z <= 6; z++ {
			for y := 64; y <= 66; y++ {
				bs.SetID(world.Pos(x, y, z), "minecraft:stone", 0)
			}
		}
	}
	for _, p := range []world.BlockPos{world.Pos(1, 63, 0), world.Pos(-1, 63, 0), world.Pos(0, 63, 1), world.Pos(0, 63, -1)} {
		bs.SetID(p, "minecraft:air", 0)
	}
	acts, err = Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.LessOrEqual(t, acts[1].(action.BreakBlock).Pos.Y, 63)

	// Gravel over a wall would fall in: that wall is left.
	w, bs = stonePit(pick)
	for _, p := range []world.BlockPos{world.Pos(1, 64, 0), world.Pos(-1, 64, 0), world.Pos(0, 64, 1), world.Pos(0, 64, -1)} {
		bs.SetID(p, "minecraft:gravel", 0)
	}
	acts, err = Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.Equal(t, 62, acts[1].(action.BreakBlock).Pos.Y, "not under the gravel")

	// Blocks out of the room's bounds are never mined, and the floor under
	// the feet only when no wall can be: a room already at its bounds
	// mines its floor.
	w, bs = stonePit(pick)
	for x := -roomSide; x <= roomSide; x++ {
		for z := -roomSide; z <= roomSide; z++ {
			for y := 62 - roomBelow; y <= 63; y++ {
				if !(x == 0 && z == 0 && y < 62) {
					bs.SetID(world.Pos(x, y, z), "minecraft:air", 0)
				}
			}
		}
	}
	bs.SetID(world.Pos(0, 61, 0), "minecraft:stone", 0)
	acts, err = Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.Equip{Item: "tool:pickaxe"}, action.BreakBlock{Pos: world.Pos(0, 61, 0)}, action.Wait{Ticks: 600}}, acts)

	// Without a pickaxe (or a worn-out one) it only waits: stone by hand
	// drops nothing.
	for _, held := range [][]world.ItemStack{nil, {world.NewTool("minecraft:wooden_pickaxe", 0, 0, 59)}} {
		w, _ = stonePit(held...)
		acts, err = Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
		require.NoError(t, err)
		assert.Equal(t, []action.Action{action.Wait{Ticks: 600}}, acts)
	}
}

// TestShelterDigsItsFloorWhenNoWallCanBeMined: a pit dug beside the bot's
// own tunnels (every wall opens into one) has no wall to mine while it
// waits: it mines the floor under its feet instead, where the room stays
// closed with the bot a block lower, down to four blocks under the room's
// top; not over lava, nor without a pickaxe.
func TestShelterDigsItsFloorWhenNoWallCanBeMined(t *testing.T) {
	pick := world.NewStack("minecraft:wooden_pickaxe", 0, 1)
	pick.MaxDamage = 59
	// Stone from y 50 to 62 out to 4 blocks each way; the room from the
	// feet up to y 61, the roof at 62; tunnels from two blocks off on
	// every side out into the open, at the room's levels.
	tunnels := func(bs *world.SparseBlocks, y int) {
		for n := 2; n <= 4; n++ {
			for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				bs.SetID(world.Pos(n*d[0], y, n*d[1]), "minecraft:air", 0)
			}
		}
	}
	pit := func(feetY int) *world.Snapshot {
		bs := world.NewSparseBlocks()
		for x := -4; x <= 4; x++ {
			for z := -4; z <= 4; z++ {
				for y := 50; y <= 62; y++ {
					bs.SetID(world.Pos(x, y, z), "minecraft:stone", 0)
				}
			}
		}
		for y := feetY; y <= 61; y++ {
			bs.SetID(world.Pos(0, y, 0), "minecraft:air", 0)
		}
		for y := 60; y <= 61; y++ {
			tunnels(bs, y)
		}
		return snap(at(0, feetY, 0), bs, world.NewInventory(pick))
	}
	dig := func(y int) []action.Action {
		return []action.Action{action.Equip{Item: "tool:pickaxe"}, action.BreakBlock{Pos: world.Pos(0, y, 0)}, action.Wait{Ticks: 600}}
	}
	wait := []action.Action{action.Wait{Ticks: 600}}
	run := func(w *world.Snapshot) []action.Action {
		t.Helper()
		acts, err := Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
		require.NoError(t, err)
		return acts
	}
	assert.Equal(t, dig(59), run(pit(60)), "the floor of a pit with no wall to mine")
	low := pit(59)
	acts := run(low)
	require.Len(t, acts, 3)
	assert.NotEqual(t, world.Pos(0, 58, 0), acts[1].(action.BreakBlock).Pos, "a level lower, a wall away from the tunnels comes first")
	// Tunnels at every level of the room: the floor only, four under
	// the top and no deeper.
	deep := pit(58)
	for y := 58; y <= 59; y++ {
		tunnels(deep.Blocks.(*world.SparseBlocks), y)
	}
	assert.Equal(t, dig(57), run(deep), "four under the room's top")
	deeper := pit(57)
	for y := 57; y <= 59; y++ {
		tunnels(deeper.Blocks.(*world.SparseBlocks), y)
	}
	assert.Equal(t, wait, run(deeper), "five under the room's top: no deeper")

	hollow := pit(60)
	hollow.Blocks.(*world.SparseBlocks).SetID(world.Pos(0, 58, 0), "minecraft:air", 0)
	assert.Equal(t, wait, run(hollow), "a hollow under the floor: the bot would fall in")
	hot := pit(60)
	hot.Blocks.(*world.SparseBlocks).SetID(world.Pos(0, 58, 0), "minecraft:lava", 0)
	assert.Equal(t, wait, run(hot), "lava under the floor")
	beside := pit(60)
	beside.Blocks.(*world.SparseBlocks).SetID(world.Pos(1, 59, 0), "minecraft:lava", 0)
	assert.Equal(t, wait, run(beside), "lava beside it")
	bare := pit(60)
	bare.Inventory = world.NewInventory()
	assert.Equal(t, wait, run(bare), "no pickaxe")

	// A closed pocket beside the floor: mined, the room joins it; not
	// while a zombie is shut in it.
	pocket := pit(60)
	pocket.Blocks.(*world.SparseBlocks).SetID(world.Pos(1, 59, 0), "minecraft:air", 0)
	pocket.Blocks.(*world.SparseBlocks).SetID(world.Pos(1, 58, 0), "minecraft:air", 0)
	assert.Equal(t, dig(59), run(pocket), "an empty pocket beside the floor")
	pocket.Entities = []world.Entity{{ID: 5, Kind: world.EntityMob, Name: "zombie", Pos: world.Vec3{X: 1.5, Y: 58, Z: 0.5}}}
	assert.Equal(t, wait, run(pocket), "a zombie in the pocket beside the floor")
}

// TestShelterDrivesATunnelWhenTheRoomIsMinedOut: a room mined out to its
// bounds (5 × 5, two high) over bedrock has no wall and no floor left to
// mine; the bot steps to the room's edge, mines the two blocks ahead,
// steps in and walls off the room behind it (the room with the tunnel
// would reach 5 blocks back, no closed room): the new room is the
// tunnel's two cells. From a room of the tunnel's two cells in stone it
// mines straight on and needs no wall. Without blocks to wall off with,
// or where the way ahead opens into a cave, it only waits.
func TestShelterDrivesATunnelWhenTheRoomIsMinedOut(t *testing.T) {
	pick := world.NewTool("minecraft:wooden_pickaxe", 0, 59, 59)
	cobble := world.NewStack("minecraft:cobblestone", 0, 10)
	minedOut := func(inv ...world.ItemStack) (*world.Snapshot, *world.SparseBlocks) {
		w, bs := stonePit(inv...)
		for x := -6; x <= 6; x++ {
			for z := -6; z <= 6; z++ {
				bs.SetID(world.Pos(x, 61, z), "minecraft:bedrock", 0)
			}
		}
		for x := -roomSide; x <= roomSide; x++ {
			for z := -roomSide; z <= roomSide; z++ {
				for y := 62; y <= 63; y++ {
					bs.SetID(world.Pos(x, y, z), "minecraft:air", 0)
				}
			}
		}
		return w, bs
	}
	w, _ := minedOut(pick, cobble)
	acts, err := Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	require.Len(t, acts, 8, "%v", acts)
	assert.Equal(t, action.Equip{Item: "tool:pickaxe"}, acts[0])
	stand := acts[1].(action.MoveTo).Pos
	assert.Equal(t, 2, abs(stand.X)+abs(stand.Z), "to the room's edge: %v", stand)
	assert.Equal(t, 62, stand.Y)
	ahead := acts[2].(action.BreakBlock).Pos
	assert.Equal(t, 3, abs(ahead.X)+abs(ahead.Z), "the block beyond the edge, straight on: %v", ahead)
	assert.Equal(t, []action.Action{
		action.BreakBlock{Pos: ahead.Up()}, action.MoveTo{Pos: ahead},
		action.PlaceBlock{Pos: stand, Item: "minecraft:cobblestone", Face: "auto"},
		action.PlaceBlock{Pos: stand.Up(), Item: "minecraft:cobblestone", Face: "auto"},
		action.Wait{Ticks: 600},
	}, acts[3:])

	// A hole under that cell: no standing there; another edge.
	holed, bs := minedOut(pick, cobble)
	bs.SetID(stand.Down(), "minecraft:air", 0)
	acts, err = Shelter{}.SuggestActions(holed, skills.Params{"wait": 600})
	require.NoError(t, err)
	require.Len(t, acts, 8, "%v", acts)
	other := acts[1].(action.MoveTo).Pos
	assert.NotEqual(t, stand, other)
	assert.Equal(t, 2, abs(other.X)+abs(other.Z), "%v", other)

	none, _ := minedOut(pick)
	acts, err = Shelter{}.SuggestActions(none, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.Wait{Ticks: 600}}, acts, "no blocks to wall off the room with")

	caves, bs := minedOut(pick, cobble)
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		for x := -6; x <= 6; x++ {
			// A cave beyond every side of the room, a block past its edge.
			bs.SetID(world.Pos(4*d[0]+x*abs(d[1]), 62, 4*d[1]+x*abs(d[0])), "minecraft:air", 0)
		}
	}
	acts, err = Shelter{}.SuggestActions(caves, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{
		action.Equip{Item: "tool:pickaxe"}, action.MoveTo{Pos: world.Pos(0, 62, -2)},
		action.BreakBlock{Pos: world.Pos(0, 62, -3)}, action.BreakBlock{Pos: world.Pos(0, 63, -3)}, action.MoveTo{Pos: world.Pos(0, 62, -3)},
		action.PlaceBlock{Pos: world.Pos(0, 62, -4), Item: "minecraft:cobblestone", Face: "auto"},
		action.PlaceBlock{Pos: world.Pos(0, 62, -2), Item: "minecraft:cobblestone", Face: "auto"},
		action.PlaceBlock{Pos: world.Pos(0, 63, -2), Item: "minecraft:cobblestone", Face: "auto"},
		action.Wait{Ticks: 600},
	}, acts, "every way on opens into a cave: it tunnels in and closes the cave's cell ahead with the way back")
	closedIn := map[world.BlockPos]world.Block{world.Pos(0, 62, -3): world.Air, world.Pos(0, 63, -3): world.Air}
	for _, p := range []world.BlockPos{world.Pos(0, 62, -4), world.Pos(0, 62, -2), world.Pos(0, 63, -2)} {
		closedIn[p] = world.NewBlock("minecraft:cobblestone", 0)
	}
	assert.True(t, path.Enclosed(withBlocks(caves, closedIn), world.Pos(0, 62, -3)), "walled in where it stepped")
	caves.Inventory = world.NewInventory(pick, world.NewStack("minecraft:cobblestone", 0, 2))
	acts, err = Shelter{}.SuggestActions(caves, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.Wait{Ticks: 600}}, acts, "two blocks, three to place")

	// Walled in with placed blocks on a cave's floor (wall_in in a hall
	// mined out): the way through the wall with the fewest blocks to
	// place, the one against the rock.
	hall, bs := stonePit(pick, cobble)
	for x := -6; x <= 6; x++ {
		for z := -6; z <= 6; z++ {
			bs.SetID(world.Pos(x, 61, z), "minecraft:bedrock", 0)
			for y := 62; y <= 63; y++ {
				bs.SetID(world.Pos(x, y, z), "minecraft:air", 0)
			}
		}
	}
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		for y := 62; y <= 63; y++ {
			bs.SetID(world.Pos(d[0], y, d[1]), "minecraft:cobblestone", 0) // the walls it built
		}
	}
	for z := -6; z <= 6; z++ {
		for y := 62; y <= 63; y++ {
			bs.SetID(world.Pos(2, y, z), "minecraft:stone", 0) // rock to the east
		}
	}
	acts, err = Shelter{}.SuggestActions(hall, skills.Params{"wait": 600})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(acts), 4, "%v", acts)
	assert.Equal(t, action.BreakBlock{Pos: world.Pos(1, 62, 0)}, acts[1], "east, towards the rock: %v", acts)
	placed := 0
	for _, a := range acts {
		if _, ok := a.(action.PlaceBlock); ok {
			placed++
		}
	}
	assert.Equal(t, 6, placed, "the two cells' open sides and the way back: %v", acts)

	// A tunnel three long in bedrock with stone ahead, the feet at its
	// far end: the block ahead is beyond the walls the shelter mines from
	// where it stands; it steps to the tunnel's end and drives on, and
	// the tunnel with its new block is still a closed room: no wall.
	tun, bs := stonePit(pick)
	for x := -6; x <= 6; x++ {
		for z := -6; z <= 6; z++ {
			for y := 61; y <= 64; y++ {
				bs.SetID(world.Pos(x, y, z), "minecraft:bedrock", 0)
			}
		}
	}
	for x := 0; x <= 6; x++ {
		for y := 62; y <= 63; y++ {
			id := "minecraft:stone"
			if x <= 2 {
				id = "minecraft:air"
			}
			bs.SetID(world.Pos(x, y, 0), id, 0)
		}
	}
	acts, err = Shelter{}.SuggestActions(tun, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{
		action.Equip{Item: "tool:pickaxe"}, action.MoveTo{Pos: world.Pos(2, 62, 0)},
		action.BreakBlock{Pos: world.Pos(3, 62, 0)}, action.BreakBlock{Pos: world.Pos(3, 63, 0)}, action.MoveTo{Pos: world.Pos(3, 62, 0)},
		action.Wait{Ticks: 600},
	}, acts)

	// Beyond the block ahead a closed pocket: the tunnel joins it, and
	// is still a closed room; not with a skeleton shut in the pocket,
	// walled off behind or not.
	bs.SetID(world.Pos(4, 62, 0), "minecraft:air", 0)
	tun.Inventory = world.NewInventory(pick, cobble)
	acts, err = Shelter{}.SuggestActions(tun, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.Contains(t, acts, action.BreakBlock{Pos: world.Pos(3, 62, 0)}, "an empty pocket")
	tun.Entities = []world.Entity{{ID: 757, Kind: world.EntityMob, Name: "skeleton", Pos: world.Vec3{X: 4.5, Y: 62, Z: 0.5}}}
	acts, err = Shelter{}.SuggestActions(tun, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.Wait{Ticks: 600}}, acts, "a skeleton in the pocket")
}

// TestShelterBuildsWallsWhereNoGroundHolds: on a floor one block thick
// over a cave no pit can be dug; with blocks held the bot builds its walls
// where it stands (every open cell beside the feet and the head, and the
// roof with a block to hold it), and ends walled in. Too few blocks of
// one kind: no_target.
func TestShelterBuildsWallsWhereNoGroundHolds(t *testing.T) {
	bs := world.NewSparseBlocks()
	for x := -6; x <= 6; x++ {
		for z := -6; z <= 6; z++ {
			bs.SetID(world.Pos(x, 64, z), "minecraft:stone", 0)
			for y := 58; y < 64; y++ {
				bs.SetID(world.Pos(x, y, z), "minecraft:air", 0)
			}
			for y := 65; y < 70; y++ {
				bs.SetID(world.Pos(x, y, z), "minecraft:air", 0)
			}
		}
	}
	w := &world.Snapshot{Player: world.Player{Pos: world.Vec3{X: 0.5, Y: 65, Z: 0.5}}, Blocks: bs,
		Inventory: world.NewInventory(world.NewStack("minecraft:cobblestone", 0, 10), world.NewStack("minecraft:dirt", 0, 9))}
	acts, err := Shelter{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	require.Len(t, acts, 10, "%v", acts)
	walled := map[world.BlockPos]world.Block{}
	for _, a := range acts {
		pl, ok := a.(action.PlaceBlock)
		require.True(t, ok, "%v", a)
		assert.Equal(t, "minecraft:cobblestone", pl.Item, "ten of one kind: the cobblestone")
		walled[pl.Pos] = world.Block{ID: "minecraft:cobblestone"}
	}
	assert.True(t, path.Enclosed(withBlocks(w, walled), w.Feet()), "walled in")

	w.Inventory = world.NewInventory(world.NewStack("minecraft:cobblestone", 0, 9), world.NewStack("minecraft:dirt", 0, 9))
	_, err = Shelter{}.SuggestActions(w, skills.Params{})
	requireFailure(t, err, skills.CodeNoTarget)
}

// TestShelterKeepsTheLastUsesOfItsPickaxe: walled in, the bot mines its
// walls only with a pickaxe that has more than shelterKeepUses uses left;
// a worn Tinkers' iron pickaxe (harvest level 2, what the iron ores need)
// is kept and a wooden one with uses to spare mines (equipped by its id,
// since a hand asked for any pickaxe takes the iron one, of a higher
// level); with only worn pickaxes it waits.
func TestShelterKeepsTheLastUsesOfItsPickaxe(t *testing.T) {
	run := func(held ...world.ItemStack) []action.Action {
		t.Helper()
		w, _ := stonePit(held...)
		acts, err := Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
		require.NoError(t, err)
		return acts
	}
	wait := []action.Action{action.Wait{Ticks: 600}}
	assert.Equal(t, wait, run(world.NewTool("minecraft:wooden_pickaxe", 0, shelterKeepUses, 59)), "a pickaxe at its last uses")
	acts := run(world.NewTool("minecraft:wooden_pickaxe", 0, shelterKeepUses+1, 59))
	require.Len(t, acts, 3, "%v", acts)
	assert.Equal(t, action.Equip{Item: "tool:pickaxe"}, acts[0], "one use to spare")

	tinkers := func(left int) world.ItemStack {
		st := world.NewTool("TConstruct:pickaxe", 0, left, 188)
		st.Tinker = &world.TinkerTool{Head: 2, HarvestLevel: 2} // an iron head
		return st
	}
	worn := tinkers(3)
	acts = run(worn, world.NewTool("minecraft:wooden_pickaxe", 0, 40, 59))
	require.Len(t, acts, 3, "%v", acts)
	assert.Equal(t, action.Equip{Item: "minecraft:wooden_pickaxe"}, acts[0], "the wooden one, not the worn iron one")
	assert.Equal(t, wait, run(worn, world.NewTool("minecraft:wooden_pickaxe", 0, 2, 59)), "both worn")
	acts = run(tinkers(100), world.NewTool("minecraft:wooden_pickaxe", 0, 40, 59))
	assert.Equal(t, action.Equip{Item: "tool:pickaxe"}, acts[0], "the iron one with uses to spare")

	// In dirt a hand digs, but the hand may hold the worn pickaxe, which
	// the dirt would wear: it waits. Without a pickaxe the hand digs.
	w, bs := grassland()
	w.Player.Pos = world.Vec3{X: 0.5, Y: 62, Z: 0.5}
	bs.Set(world.Pos(0, 62, 0), world.Air).Set(world.Pos(0, 63, 0), world.Air)
	w.Inventory = world.NewInventory(world.NewTool("minecraft:wooden_pickaxe", 0, 2, 59))
	acts, err := Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	assert.Equal(t, wait, acts, "a worn pickaxe, walls of dirt")
	w.Inventory = world.NewInventory()
	acts, err = Shelter{}.SuggestActions(w, skills.Params{"wait": 600})
	require.NoError(t, err)
	require.Len(t, acts, 2, "%v", acts)
	assert.IsType(t, action.BreakBlock{}, acts[0], "no pickaxe: the hand digs the dirt")
}
