package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestSeesPastACorner: a line of sight that clips a block's corner for
// a twentieth of a block is stopped by it (rayTraceBlocks visits every
// cell on the line; points a quarter block apart would miss that one),
// and the same line a little lower, passing under the corner, is not.
func TestSeesPastACorner(t *testing.T) {
	sc, err := ParseScenario("los.yaml", []byte(`name: los
seed: 1
size: {x: 32, z: 32}
generator: flat
ground_y: 64
player:
  pos: [2, 65, 2]
blocks:
  - {block: "minecraft:stone", pos: [11, 71, 10]}
`))
	require.NoError(t, err)
	s, err := New(sc, Options{})
	require.NoError(t, err)
	s.state.Update(func(tx *world.Tx) {
		s.danger.los = map[[2]world.BlockPos]bool{}
		from := world.Vec3{X: 10.5, Y: 70.4, Z: 10.5}
		// Crosses y = 71 at x = 11.94, leaves the stone's cell at x = 12.
		assert.False(t, s.sees(tx, from, world.Vec3{X: 13.5, Y: 71.65, Z: 10.5}), "the corner stops it")
		// y = 70.98 at x = 12: under the corner all the way (the same
		// pair of cells: forget the first answer).
		s.danger.los = map[[2]world.BlockPos]bool{}
		assert.True(t, s.sees(tx, from, world.Vec3{X: 13.5, Y: 70.0 + 1.55, Z: 10.5}), "under the corner")
		assert.True(t, s.sees(tx, from, world.Vec3{X: 10.5, Y: 70.4, Z: 20.5}), "a clear line")
		assert.False(t, s.sees(tx, world.Vec3{X: 11.5, Y: 71.5, Z: 5.5}, world.Vec3{X: 11.5, Y: 71.5, Z: 15.5}), "straight through it")
		assert.False(t, s.sees(tx, world.Vec3{X: 11.5, Y: 80.5, Z: 10.5}, world.Vec3{X: 11.5, Y: 66.5, Z: 10.5}), "straight down through it")
	})
}

// TestMeleeReachesByTheAI: a zombie (AI tasks) hits within its reach of
// 1.43 blocks, unseen too (EntityAIAttackOnCollide looks for no line of
// sight at the hit), and not beyond; a spider (legacy AI) hits within 2.0
// blocks only when it sees the player (EntityCreature's
// canEntityBeSeen) and when the two boxes overlap in height.
func TestMeleeReachesByTheAI(t *testing.T) {
	sc, err := ParseScenario("reach.yaml", []byte(`name: reach
seed: 1
size: {x: 16, z: 16}
generator: flat
ground_y: 64
player:
  pos: [2, 65, 2]
`))
	require.NoError(t, err)
	s, err := New(sc, Options{})
	require.NoError(t, err)
	zombie, _ := s.rules.Mobs.Kind("zombie")
	spider, _ := s.rules.Mobs.Kind("spider")
	p := world.Player{Pos: world.Vec3{X: 2.5, Y: 65, Z: 2.5}}
	at := func(k world.Vec3) world.Vec3 { return world.Vec3{X: p.Pos.X + k.X, Y: p.Pos.Y + k.Y, Z: p.Pos.Z + k.Z} }
	z := &mob{kind: zombie, pos: at(world.Vec3{X: 1.4})}
	assert.True(t, s.meleeReaches(z, p, true))
	assert.True(t, s.meleeReaches(z, p, false), "a zombie's hit needs no sight")
	z.pos = at(world.Vec3{X: 1.5})
	assert.False(t, s.meleeReaches(z, p, true), "beyond 1.43")
	z.pos = at(world.Vec3{X: 0.8, Y: 1.2})
	assert.False(t, s.meleeReaches(z, p, true), "1.44 blocks, in three dimensions")

	sp := &mob{kind: spider, pos: at(world.Vec3{X: 1.9})}
	assert.True(t, s.meleeReaches(sp, p, true))
	assert.False(t, s.meleeReaches(sp, p, false), "a spider hits only what it sees")
	sp.pos = at(world.Vec3{X: 2.0})
	assert.False(t, s.meleeReaches(sp, p, true), "f < 2.0")
	sp.pos = at(world.Vec3{X: 0.5, Y: -0.95})
	assert.False(t, s.meleeReaches(sp, p, true), "its box (0.9 high) ends below the player's feet")
	sp.pos = at(world.Vec3{X: 0.5, Y: -0.85})
	assert.True(t, s.meleeReaches(sp, p, true))
	sp.pos = at(world.Vec3{X: 0.5, Y: 1.8})
	assert.False(t, s.meleeReaches(sp, p, true), "it stands above the player's head")
	sp.pos = at(world.Vec3{X: 0.5, Y: 1.7})
	assert.True(t, s.meleeReaches(sp, p, true))
}
