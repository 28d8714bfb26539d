package path_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// tunnel digs a 1×2 tunnel along x at feet y 60, z 0, from x from to x to.
func tunnel(from, to int) []world.BlockPos {
	var open []world.BlockPos
	for x := from; x <= to; x++ {
		open = append(open, world.Pos(x, 60, 0), world.Pos(x, 61, 0))
	}
	return open
}

func mobAt(x float64) world.Vec3 { return world.Vec3{X: x, Y: 60, Z: 0.5} }

func TestRunFromAlongATunnel(t *testing.T) {
	w := stoneBox(tunnel(-8, 8)...)
	feet := world.Pos(0, 60, 0)
	// The mob east at 4.5: the way runs west, to the first cell 8 blocks
	// from it.
	at, ok := path.RunFrom(w, feet, mobAt(4.5), 8)
	require.True(t, ok)
	assert.Equal(t, world.Pos(-4, 60, 0), at)
	// The tunnel's last cell (x -8, its centre at -7.5) is 12 blocks from
	// the mob.
	_, ok = path.RunFrom(w, feet, mobAt(4.5), 12.1)
	assert.False(t, ok, "the tunnel ends 12 blocks from the mob")
	at, ok = path.RunFrom(w, feet, mobAt(4.5), 12)
	assert.True(t, ok)
	assert.Equal(t, world.Pos(-8, 60, 0), at)
	// Never past the mob: with the mob west at -2, the way east is open.
	at, ok = path.RunFrom(w, feet, mobAt(-1.5), 6)
	require.True(t, ok)
	assert.Equal(t, world.Pos(4, 60, 0), at)
	// The mob in the tunnel beside the bot, the tunnel's other end shut:
	// cornered.
	short := stoneBox(tunnel(-1, 8)...)
	_, ok = path.RunFrom(short, feet, mobAt(3.5), 8)
	assert.False(t, ok)
	// A cell within 3 blocks of the mob is not passed: a mob in the only
	// way out blocks it even when the far side is open.
	_, ok = path.RunFrom(stoneBox(tunnel(0, 8)...), feet, mobAt(2.2), 9)
	assert.False(t, ok, "the way out passes the mob")
	// A mob in the rock beside the tunnel, 2.5 blocks from its nearest
	// cell: the way past it comes within 3 blocks.
	_, ok = path.RunFrom(stoneBox(tunnel(0, 8)...), feet, world.Vec3{X: 3.5, Y: 60, Z: 3}, 5.5)
	assert.False(t, ok, "the way passes within 3 blocks of the mob")
	at, ok = path.RunFrom(stoneBox(tunnel(0, 8)...), feet, world.Vec3{X: 3.5, Y: 60, Z: 6}, 5.5)
	require.True(t, ok, "5.5 blocks off the tunnel it is passed")
	assert.Equal(t, world.Pos(0, 60, 0), feet)
	assert.NotEqual(t, feet, at)
}

func TestRunFromClimbsAStep(t *testing.T) {
	// The tunnel goes up a block at x = -3 (room over the head to step up).
	open := tunnel(-2, 4)
	open = append(open, world.Pos(-2, 62, 0))
	for x := -8; x <= -3; x++ {
		open = append(open, world.Pos(x, 61, 0), world.Pos(x, 62, 0))
	}
	w := stoneBox(open...)
	at, ok := path.RunFrom(w, world.Pos(0, 60, 0), mobAt(3.5), 8)
	require.True(t, ok)
	assert.Equal(t, world.Pos(-5, 61, 0), at)
	// Without the room over the head where it starts, no step up.
	w = stoneBox(append(tunnel(-2, 4), open[len(tunnel(-2, 4))+1:]...)...)
	_, ok = path.RunFrom(w, world.Pos(0, 60, 0), mobAt(3.5), 8)
	assert.False(t, ok)
}

func TestSeal(t *testing.T) {
	w := stoneBox(tunnel(-3, 3)...)
	feet := world.Pos(0, 60, 0)
	seal, ok := path.Seal(w, feet)
	require.True(t, ok)
	assert.Equal(t, []world.BlockPos{world.Pos(1, 60, 0), world.Pos(-1, 60, 0), world.Pos(1, 61, 0), world.Pos(-1, 61, 0)}, seal, "both ends of the tunnel, feet first")
	// A mob standing in a cell to fill: no wall there.
	w.Entities = []world.Entity{{ID: 1, Kind: world.EntityMob, Name: "zombie", Pos: world.Vec3{X: 1.5, Y: 60, Z: 0.5}}}
	_, ok = path.Seal(w, feet)
	assert.False(t, ok)
	// An item on the floor there is no body.
	w.Entities = []world.Entity{{ID: 1, Kind: world.EntityItem, Pos: world.Vec3{X: 1.5, Y: 60, Z: 0.5}}}
	_, ok = path.Seal(w, feet)
	assert.True(t, ok)
	// Water beside the head: not sealed.
	bs := w.Blocks.(*world.SparseBlocks)
	bs.SetID(world.Pos(-1, 61, 0), "minecraft:water", 0)
	_, ok = path.Seal(w, feet)
	assert.False(t, ok)
	// Gravel over a cell to fill would fall in.
	w = stoneBox(tunnel(-3, 3)...)
	w.Blocks.(*world.SparseBlocks).SetID(world.Pos(1, 62, 0), "minecraft:gravel", 0)
	_, ok = path.Seal(w, feet)
	assert.False(t, ok)
}

func TestSealWith(t *testing.T) {
	inv := world.NewInventory(world.NewStack("minecraft:dirt", 0, 3), world.NewStack("minecraft:cobblestone", 0, 9))
	id, ok := path.SealWith(inv, 3)
	assert.True(t, ok)
	assert.Equal(t, "minecraft:dirt", id, "dirt first")
	id, ok = path.SealWith(inv, 4)
	assert.True(t, ok)
	assert.Equal(t, "minecraft:cobblestone", id, "one kind that suffices")
	_, ok = path.SealWith(inv, 10)
	assert.False(t, ok)
}

// TestSealBuildsUnderACellOverADrop: the bot at a tunnel's mouth over a
// drop (the cell beside the feet has air below and around, the cave):
// the cell under it is filled first, against the ground under the feet,
// and then the cell itself. Above the head with nothing around, a block
// goes beside it (under it is the head).
func TestSealBuildsUnderACellOverADrop(t *testing.T) {
	open := tunnel(-3, 0)
	// East of the feet the tunnel opens into a cave three high, its
	// floor a block under the tunnel's.
	for x := 1; x <= 4; x++ {
		for z := -2; z <= 2; z++ {
			for y := 59; y <= 62; y++ {
				open = append(open, world.Pos(x, y, z))
			}
		}
	}
	open = append(open, world.Pos(0, 62, 0))
	w := stoneBox(open...)
	feet := world.Pos(0, 60, 0)
	seal, ok := path.Seal(w, feet)
	require.True(t, ok)
	assert.Equal(t, []world.BlockPos{world.Pos(1, 59, 0), world.Pos(1, 60, 0), world.Pos(-1, 60, 0), world.Pos(1, 61, 0), world.Pos(-1, 61, 0), world.Pos(0, 62, 0)}, seal)

	// Open all round above the head: the cell there has nothing to be
	// placed against and the cell under it is the head's; a block
	// beside it first, on the one put beside the head.
	w = stoneBox(append(open, world.Pos(-1, 62, 0), world.Pos(0, 62, 1), world.Pos(0, 62, -1), world.Pos(0, 63, 0))...)
	seal, ok = path.Seal(w, feet)
	require.True(t, ok)
	assert.Equal(t, []world.BlockPos{world.Pos(1, 59, 0), world.Pos(1, 60, 0), world.Pos(-1, 60, 0), world.Pos(1, 61, 0), world.Pos(-1, 61, 0), world.Pos(1, 62, 0), world.Pos(0, 62, 0)}, seal)
	// A mob in each cell a block could go beside it (a spider on the
	// wall): none.
	for _, p := range []world.BlockPos{world.Pos(1, 62, 0), world.Pos(-1, 62, 0), world.Pos(0, 62, 1), world.Pos(0, 62, -1)} {
		w.Entities = append(w.Entities, world.Entity{ID: len(w.Entities) + 1, Kind: world.EntityMob, Name: "zombie", Pos: world.Vec3{X: float64(p.X) + 0.5, Y: float64(p.Y), Z: float64(p.Z) + 0.5}})
	}
	_, ok = path.Seal(w, feet)
	assert.False(t, ok)
}

// TestRunFromAMobAtTheElbow: a mob within reach is backed away from, on
// a field and along a tunnel, every step farther from it; a way that
// passes it is still shut.
func TestRunFromAMobAtTheElbow(t *testing.T) {
	feet := world.Pos(0, 60, 0)
	var field []world.BlockPos
	for x := -8; x <= 8; x++ {
		for z := -8; z <= 8; z++ {
			field = append(field, world.Pos(x, 60, z), world.Pos(x, 61, z))
		}
	}
	at, ok := path.RunFrom(stoneBox(field...), feet, mobAt(1.7), 9)
	require.True(t, ok, "a zombie 1.2 blocks away on a field: the bot backs off")
	assert.GreaterOrEqual(t, world.Vec3{X: float64(at.X) + 0.5, Y: 60, Z: float64(at.Z) + 0.5}.DistSq(mobAt(1.7)), 81.0)
	at, ok = path.RunFrom(stoneBox(tunnel(-8, 8)...), feet, mobAt(1.7), 9)
	require.True(t, ok, "and along a tunnel")
	assert.Equal(t, world.Pos(-8, 60, 0), at)
	_, ok = path.RunFrom(stoneBox(tunnel(-1, 8)...), world.Pos(-1, 60, 0), mobAt(0.7), 8)
	assert.False(t, ok, "the only way out passes it")
}
