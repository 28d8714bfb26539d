package path

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// hasMove reports whether the move generator offers a move from `from` to
// `to` of the given kind.
func hasMove(t *testing.T, g Grid, from, to world.BlockPos, kind Move) bool {
	t.Helper()
	f := moveGen(t, g, Options{}, At(to))
	feet := g.Cell(from.X, from.Y, from.Z)
	for _, m := range f.neighbors(from.X, from.Y, from.Z, feet) {
		if m.x == to.X && m.y == to.Y && m.z == to.Z && m.move == kind {
			return true
		}
	}
	return false
}

// TestDiagonalDropCorners: a diagonal drop passes over both corner columns
// on the way down, so a corner that is lava or unknown below the start's
// feet rejects it; a clear corner (or one with a solid block to pass over)
// allows it.
func TestDiagonalDropCorners(t *testing.T) {
	from, to := world.Pos(0, 3, 0), world.Pos(1, 1, 1)
	for _, c := range []struct {
		name string
		g    *testGrid
		want bool
	}{
		{"clear corners", heightWorld(6, "31", "11"), true},
		{"a corner one block high to pass over", heightWorld(6, "32", "11"), true},
		{"lava in the first corner", heightWorld(6, "3l", "11"), false},
		{"lava in the second corner", heightWorld(6, "31", "l1"), false},
		{"unknown in the first corner", heightWorld(6, "31", "11").set(1, 2, 0, Unknown), false},
		{"unknown in the second corner", heightWorld(6, "31", "11").set(0, 1, 1, Unknown), false},
		{"danger just under the feet level", heightWorld(6, "31", "11").set(0, 2, 1, Danger), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, hasMove(t, c.g, from, to, MoveDrop))
		})
	}
}

// TestDiagonalJumpHeadRoom: a diagonal jump lifts the head through both
// corner columns at y+2, so a block there in either corner (or above the
// start, or above the landing) rejects it.
func TestDiagonalJumpHeadRoom(t *testing.T) {
	from, to := world.Pos(0, 1, 0), world.Pos(1, 2, 1)
	base := func() *testGrid { return heightWorld(6, "11", "12") }
	for _, c := range []struct {
		name string
		g    *testGrid
		want bool
	}{
		{"head room everywhere", base(), true},
		{"a block over the first corner", base().set(1, 3, 0, Solid), false},
		{"a block over the second corner", base().set(0, 3, 1, Solid), false},
		{"unknown over a corner", base().set(1, 3, 0, Unknown), false},
		{"a block over the start", base().set(0, 3, 0, Solid), false},
		{"a block at the landing's head", base().set(1, 3, 1, Solid), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, hasMove(t, c.g, from, to, MoveJump))
		})
	}
}

// TestSlabAndFloorMoveEdges: the head room and corner rules of moves that
// start on a slab or end on a floor.
func TestSlabAndFloorMoveEdges(t *testing.T) {
	// From a slab the body is half a block up: onto a carpet beside it
	// needs that column's cell two above clear.
	assert.True(t, hasMove(t, heightWorld(6, "sc"), world.Pos(0, 1, 0), world.Pos(1, 1, 0), MoveWalk))
	assert.False(t, hasMove(t, heightWorld(6, "sc").set(1, 3, 0, Solid), world.Pos(0, 1, 0), world.Pos(1, 1, 0), MoveWalk))
	// Onto a slab the body rises half a block where it stands too.
	assert.True(t, hasMove(t, heightWorld(6, "1s"), world.Pos(0, 1, 0), world.Pos(1, 1, 0), MoveWalk))
	assert.False(t, hasMove(t, heightWorld(6, "1s").set(0, 3, 0, Solid), world.Pos(0, 1, 0), world.Pos(1, 1, 0), MoveWalk))
	// A carpet in a corner is stepped over on a diagonal.
	assert.True(t, hasMove(t, heightWorld(6, "1c", "11"), world.Pos(0, 1, 0), world.Pos(1, 1, 1), MoveWalk))
	// From a slab, a block two above the second corner stops a diagonal.
	assert.False(t, hasMove(t, heightWorld(6, "s1", "11").set(0, 3, 1, Solid), world.Pos(0, 1, 0), world.Pos(1, 1, 1), MoveWalk))
	// A diagonal jump lands on a carpet that lies on a block.
	assert.True(t, hasMove(t, heightWorld(6, "11", "1C"), world.Pos(0, 1, 0), world.Pos(1, 2, 1), MoveJump))
	// A corner's block over lava is passed over: what is under it does not
	// matter to a diagonal drop.
	assert.True(t, hasMove(t, heightWorld(6, "43", "11").set(1, 1, 0, Danger), world.Pos(0, 4, 0), world.Pos(1, 1, 1), MoveDrop))
	// Feet on a slab of their own: no digging down from there.
	f := moveGen(t, heightWorld(6, "S"), Options{Dig: true, Place: true}, At(world.Pos(0, 0, 0)))
	for _, m := range f.neighbors(0, 2, 0, Slab) {
		assert.NotEqual(t, MoveDigDown, m.move)
	}
}
