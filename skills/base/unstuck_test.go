package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// stoneFloor is a stone floor under y 64 for |x|, |z| <= 10, the player at
// the origin on it.
func stoneFloor() (*world.Snapshot, *world.SparseBlocks) {
	bs := world.NewSparseBlocks()
	for x := -10; x <= 10; x++ {
		for z := -10; z <= 10; z++ {
			bs.SetID(world.Pos(x, 63, z), "minecraft:stone", 0)
		}
	}
	return &world.Snapshot{Player: world.Player{Pos: world.Vec3{X: 0.5, Y: 64, Z: 0.5}}, Blocks: bs}, bs
}

func unstuckTo(t *testing.T, w *world.Snapshot, p skills.Params) world.BlockPos {
	t.Helper()
	acts, err := Unstuck{}.SuggestActions(w, p)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	mv, ok := acts[0].(action.MoveTo)
	require.True(t, ok)
	assert.EqualValues(t, 1, mv.Radius)
	return mv.Pos
}

func TestUnstuckGoesByTheCompass(t *testing.T) {
	w, _ := stoneFloor()
	for attempt, want := range []world.BlockPos{
		world.Pos(0, 64, -5), world.Pos(5, 64, 0), world.Pos(0, 64, 5), world.Pos(-5, 64, 0),
		world.Pos(5, 64, -5), world.Pos(5, 64, 5), world.Pos(-5, 64, 5), world.Pos(-5, 64, -5),
		world.Pos(0, 64, -5),
	} {
		assert.Equal(t, want, unstuckTo(t, w, skills.Params{"attempt": attempt, "distance": 5}), "attempt %d", attempt)
	}
	assert.Equal(t, world.Pos(0, 64, -3), unstuckTo(t, w, skills.Params{"distance": 3}), "attempt 0 by default")
}

func TestUnstuckClimbsOutFirst(t *testing.T) {
	w, bs := stoneFloor()
	// The player in a pit: the floor at 63 here, the ground up at 66 to the
	// north (a column of stone 63..65 with air above).
	for y := 64; y <= 65; y++ {
		bs.SetID(world.Pos(0, y, -5), "minecraft:stone", 0)
	}
	// and a cave under it, floored at 60: a place to stand lower down.
	bs.SetID(world.Pos(0, 60, -5), "minecraft:stone", 0)
	assert.Equal(t, world.Pos(0, 66, -5), unstuckTo(t, w, skills.Params{"distance": 5}), "the highest place in the column")
}

func TestUnstuckSkipsWaterLavaAndTheUnknown(t *testing.T) {
	w, bs := stoneFloor()
	bs.SetID(world.Pos(0, 63, -5), "minecraft:water", 0) // north: water to stand on
	bs.SetID(world.Pos(5, 64, 0), "minecraft:lava", 0)   // east: lava where the body goes
	w.Blocks = unknownBeyond{bs, 0}                      // nothing known: no place anywhere
	_, err := Unstuck{}.SuggestActions(w, skills.Params{"distance": 5})
	var f *skills.Failure
	require.ErrorAs(t, err, &f)
	assert.Equal(t, skills.CodeNoTarget, f.Code)
	assert.Contains(t, f.Msg, "no free place to stand 5 blocks from")

	w.Blocks = bs
	assert.Equal(t, world.Pos(0, 64, 5), unstuckTo(t, w, skills.Params{"distance": 5}), "north and east are refused")
}
