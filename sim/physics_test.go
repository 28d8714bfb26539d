package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// pit is a shaft under the player's feet (8, 64, 8) from y bottom to 62,
// with the given block at its bottom (y bottom−1 stays stone).
func pit(t *testing.T, bottom int, floor string) *Sim {
	t.Helper()
	extra := fmt.Sprintf("  inventory:\n    - {item: minecraft:wooden_shovel, max_durability: 64}\n    - {item: minecraft:dirt, count: 5}\n"+
		"blocks:\n  - {block: minecraft:air, from: [8, %d, 8], to: [8, 62, 8]}\n", bottom)
	if floor != "" {
		extra += fmt.Sprintf("  - {block: %s, pos: [8, %d, 8]}\n", floor, bottom)
	}
	return small(t, extra)
}

// TestFallDamage: mining the block under the feet drops the player to the
// first block below; EntityLivingBase.fall deals ceil(distance − 3).
func TestFallDamage(t *testing.T) {
	for _, c := range []struct {
		bottom     int
		wantHealth float64
	}{
		{62, 20}, // a fall of 2 (the grass and the shaft): no damage
		{61, 20}, // 3 blocks: still none
		{60, 19}, // 4 blocks: 1
		{55, 14}, // 9 blocks: 6
	} {
		t.Run(fmt.Sprint(64-c.bottom), func(t *testing.T) {
			s := pit(t, c.bottom, "")
			r := exec(t, s, action.BreakBlock{Pos: world.Pos(8, 63, 8)})
			require.True(t, r.OK(), r.Error)
			w := snap(t, s)
			assert.Equal(t, float64(c.bottom), w.Player.Pos.Y, "landed on the block under the shaft")
			assert.Equal(t, c.wantHealth, w.Player.Health)
			assert.Equal(t, float64(64-c.bottom), r.Details["fell"])
			assert.Greater(t, r.Ticks, int64(9), "the fall takes its air time on top of the dig")
		})
	}
}

// TestFallOntoASlab: a fall of 6.5 blocks (onto a bottom slab) deals
// ceil(3.5) = 4.
func TestFallOntoASlab(t *testing.T) {
	s := pit(t, 57, "minecraft:stone_slab")
	r := exec(t, s, action.BreakBlock{Pos: world.Pos(8, 63, 8)})
	require.True(t, r.OK(), r.Error)
	w := snap(t, s)
	assert.Equal(t, 57.5, w.Player.Pos.Y)
	assert.Equal(t, 16.0, w.Player.Health)
	assert.Equal(t, 4.0, r.Details["fall_damage"])
}

func TestStandingPlayerDoesNotFall(t *testing.T) {
	s := small(t, "blocks:\n  - {block: minecraft:dirt, pos: [9, 64, 8]}\n")
	r := exec(t, s, action.BreakBlock{Pos: world.Pos(9, 64, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Nil(t, r.Details["fell"])
	assert.Equal(t, 64.0, snap(t, s).Player.Pos.Y)
}

func TestFallIntoWaterDoesNoDamage(t *testing.T) {
	s := pit(t, 50, "minecraft:water")
	r := exec(t, s, action.BreakBlock{Pos: world.Pos(8, 63, 8)})
	require.True(t, r.OK(), r.Error)
	w := snap(t, s)
	assert.Equal(t, 50.0, w.Player.Pos.Y, "in the water at the bottom")
	assert.Equal(t, 20.0, w.Player.Health)
}

// TestDeathByFalling: a fall that takes all the health kills; the player
// respawns at the start with full health and nothing in the inventory.
func TestDeathByFalling(t *testing.T) {
	s := pit(t, 30, "")
	r := exec(t, s, action.BreakBlock{Pos: world.Pos(8, 63, 8)})
	assert.Equal(t, ipc.Rejected, r.Code)
	assert.Contains(t, r.Error, "fell 34.0 blocks onto minecraft:stone and took 31 damage and died")
	assert.Equal(t, true, r.Details["died"])
	w := snap(t, s)
	assert.Equal(t, world.Vec3{X: 8.5, Y: 64, Z: 8.5}, w.Player.Pos)
	assert.Equal(t, 20.0, w.Player.Health)
	assert.Zero(t, w.Inventory.CountID("minecraft:dirt"), "the inventory was dropped where the player died")

	lava := pit(t, 55, "minecraft:lava")
	r = exec(t, lava, action.BreakBlock{Pos: world.Pos(8, 63, 8)})
	assert.Equal(t, ipc.Rejected, r.Code)
	assert.Contains(t, r.Error, "into lava")
	died, ok := r.Details["died_at"].(world.Vec3)
	require.True(t, ok)
	assert.Equal(t, "minecraft:lava", snap(t, lava).BlockAt(died.Block()).ID, "died in the lava, where the items burned")
}

// TestStandOnPartialBlocks: the simulated player stands at a block's real
// top (a bottom slab half a block up, a carpet 1/16) and falls onto one.
func TestStandOnPartialBlocks(t *testing.T) {
	s := small(t, "blocks:\n  - {block: minecraft:stone_slab, pos: [10, 64, 8]}\n  - {block: minecraft:carpet, pos: [8, 64, 10]}\n  - {block: minecraft:fence, from: [5, 64, 0], to: [5, 64, 15]}\n")
	r := exec(t, s, action.MoveTo{Pos: world.Pos(10, 64, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, 64.5, snap(t, s).Player.Pos.Y, "on the bottom slab")
	r = exec(t, s, action.MoveTo{Pos: world.Pos(8, 64, 10)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, 64.0625, snap(t, s).Player.Pos.Y, "on the carpet")
	r = exec(t, s, action.MoveTo{Pos: world.Pos(3, 64, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Positive(t, r.Details["dug"], "a fence line cannot be jumped: the way across is dug")
}

// TestWalkOnChests: a chest is 0.875 high; the player stands on it there,
// and from one chest to the next is a walk, not a jump.
func TestWalkOnChests(t *testing.T) {
	s := small(t, "blocks:\n  - {block: minecraft:chest, from: [10, 64, 8], to: [11, 64, 8]}\n")
	r := exec(t, s, action.MoveTo{Pos: world.Pos(10, 65, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, 64.875, snap(t, s).Player.Pos.Y)
	r = exec(t, s, action.MoveTo{Pos: world.Pos(11, 65, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, int64(5), r.Ticks, "one walked block (4.6 ticks), no jump")
	assert.Nil(t, r.Details["fell"])
	assert.Equal(t, 64.875, snap(t, s).Player.Pos.Y)
}

// TestFallEdges: where a falling body stops in less common columns.
func TestFallEdges(t *testing.T) {
	t.Run("a carpet on a fence: the fence's top, 1.5 above its cell", func(t *testing.T) {
		// BlockCarpet.canBlockStay only asks for a non-air block below.
		s := small(t, "blocks:\n  - {block: minecraft:air, from: [8, 55, 8], to: [8, 62, 8]}\n"+
			"  - {block: minecraft:fence, pos: [8, 55, 8]}\n  - {block: minecraft:carpet, pos: [8, 56, 8]}\n")
		r := exec(t, s, action.BreakBlock{Pos: world.Pos(8, 63, 8)})
		require.True(t, r.OK(), r.Error)
		assert.Equal(t, 56.5, snap(t, s).Player.Pos.Y)
		assert.Equal(t, 5.0, r.Details["fall_damage"], "ceil(7.5 − 3)")
	})
	t.Run("a slab over water: on the slab, hurt", func(t *testing.T) {
		s := small(t, "blocks:\n  - {block: minecraft:air, from: [8, 55, 8], to: [8, 62, 8]}\n"+
			"  - {block: minecraft:water, pos: [8, 55, 8]}\n  - {block: minecraft:stone_slab, pos: [8, 56, 8]}\n")
		r := exec(t, s, action.BreakBlock{Pos: world.Pos(8, 63, 8)})
		require.True(t, r.OK(), r.Error)
		assert.Equal(t, 56.5, snap(t, s).Player.Pos.Y)
		assert.Equal(t, 5.0, r.Details["fall_damage"])
	})
	for meta := 4; meta < 8; meta++ {
		t.Run(fmt.Sprintf("an open trapdoor's panel is beside the body (meta %d)", meta), func(t *testing.T) {
			// Open (meta&4) trapdoors are a panel 3/16 thick along the
			// edge meta&3 names (BlockTrapDoor.func_150117_e), outside the
			// body's 0.2–0.8.
			s := small(t, "blocks:\n  - {block: minecraft:air, from: [8, 55, 8], to: [8, 62, 8]}\n"+
				fmt.Sprintf("  - {block: \"minecraft:trapdoor:%d\", pos: [8, 60, 8]}\n", meta))
			r := exec(t, s, action.BreakBlock{Pos: world.Pos(8, 63, 8)})
			require.True(t, r.OK(), r.Error)
			assert.Equal(t, 55.0, snap(t, s).Player.Pos.Y, "past the panel to the shaft's floor")
		})
	}
	t.Run("nothing below: out of the world", func(t *testing.T) {
		s := small(t, "blocks:\n  - {block: minecraft:air, from: [8, 0, 8], to: [8, 62, 8]}\n")
		r := exec(t, s, action.BreakBlock{Pos: world.Pos(8, 63, 8)})
		assert.Equal(t, ipc.Rejected, r.Code)
		assert.Contains(t, r.Error, "out of the world")
		assert.Equal(t, true, r.Details["died"])
	})
}

// TestDeathClosesTheOpenContainer: a player who dies is no longer looking
// into the chest they had open.
func TestDeathClosesTheOpenContainer(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:dirt, count: 5}\n"+
		"blocks:\n  - {block: minecraft:air, from: [8, 30, 8], to: [8, 62, 8]}\n"+
		"machines:\n  - kind: chest\n    pos: [9, 64, 8]\n")
	require.True(t, exec(t, s, action.OpenContainer{Pos: world.Pos(9, 64, 8)}).OK())
	r := exec(t, s, action.BreakBlock{Pos: world.Pos(8, 63, 8)})
	require.Equal(t, true, r.Details["died"], r.Error)
	// Mend the shaft under the respawn point so the next action stands.
	s.state.Update(func(tx *world.Tx) { require.NoError(t, tx.SetBlock(world.Pos(8, 63, 8), "minecraft:stone", 0)) })
	s.state.Update(func(tx *world.Tx) {
		inv := tx.Inventory()
		inv.Slots[0] = world.NewStack("minecraft:dirt", 0, 1)
		tx.SetInventory(inv)
	})
	r = exec(t, s, action.TransferItems{Pos: world.Pos(9, 64, 8), Item: "minecraft:dirt", Count: 1, Direction: action.Deposit, Slot: "0"})
	assert.Equal(t, ipc.Rejected, r.Code)
	assert.Contains(t, r.Error, "not open")
}
