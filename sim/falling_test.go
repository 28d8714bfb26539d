package sim_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func blockAt(s *sim.Sim, x, y, z int) string {
	b := s.State().Snapshot().BlockAt(world.Pos(x, y, z))
	if b.IsAir() {
		return "minecraft:air"
	}
	return b.ID
}

// TestGravelFallsIntoTheHoleBelow: breaking the bottom of a gravel pillar
// lets the gravel above fall one block: the pillar is one shorter and its
// top is air (BlockFalling: air below, it falls and lands on the grass).
func TestGravelFallsIntoTheHoleBelow(t *testing.T) {
	s := flatPlain(t, `[]`, `
  - {block: "minecraft:gravel", pos: [10, 64, 8]}
  - {block: "minecraft:gravel", pos: [10, 65, 8]}
  - {block: "minecraft:sand", pos: [10, 66, 8]}
  - {block: "minecraft:dirt", pos: [10, 68, 8]}`)
	r := s.Execute(context.Background(), action.BreakBlock{Pos: world.Pos(10, 64, 8)})
	require.Equal(t, ipc.OK, r.Code, r.Error)
	assert.Equal(t, "minecraft:gravel", blockAt(s, 10, 64, 8), "the gravel above fell into the hole")
	assert.Equal(t, "minecraft:sand", blockAt(s, 10, 65, 8), "and the sand after it")
	assert.Equal(t, "minecraft:air", blockAt(s, 10, 66, 8))
	assert.Equal(t, "minecraft:dirt", blockAt(s, 10, 68, 8), "dirt does not fall")
	assert.Equal(t, 1, s.State().Snapshot().Inventory.CountID("minecraft:gravel"), "the broken one dropped")
}

// TestSandFallsThroughWater: sand placed over a water-filled hole falls
// through the water to the hole's floor (water is no support), replacing
// the water it lands in; placed on the grass it stays.
func TestSandFallsThroughWater(t *testing.T) {
	s := flatPlain(t, `[{item: "minecraft:sand", count: 2}]`, `
  - {block: "minecraft:air", pos: [10, 63, 8]}
  - {block: "minecraft:water", pos: [10, 62, 8]}
  - {block: "minecraft:water", pos: [10, 61, 8]}
  - {block: "minecraft:air", pos: [10, 60, 8]}`)
	r := s.Execute(context.Background(), action.PlaceBlock{Pos: world.Pos(10, 63, 8), Item: "minecraft:sand"})
	require.Equal(t, ipc.OK, r.Code, r.Error)
	assert.Equal(t, "minecraft:air", blockAt(s, 10, 63, 8), "it fell")
	assert.Equal(t, "minecraft:sand", blockAt(s, 10, 60, 8), "to the floor under the water")
	r = s.Execute(context.Background(), action.PlaceBlock{Pos: world.Pos(9, 64, 9), Item: "minecraft:sand"})
	require.Equal(t, ipc.OK, r.Code, r.Error)
	assert.Equal(t, "minecraft:sand", blockAt(s, 9, 64, 9), "on the grass it stays")
}

// TestTunnelUnderGravelDigsTheRefill: the only way to a goal beyond a
// bedrock wall is a two-high gap filled with gravel; digging the lower
// block lets the upper one fall into it, and move_to digs that refill out
// too, then walks through.
func TestTunnelUnderGravelDigsTheRefill(t *testing.T) {
	var blocks string
	for y := 64; y <= 66; y++ {
		for z := 0; z < 16; z++ {
			if z == 8 && y <= 65 {
				continue // the gap, two high
			}
			blocks += "\n  - {block: \"minecraft:bedrock\", pos: [10, " + itoa(y) + ", " + itoa(z) + "]}"
		}
	}
	blocks += "\n  - {block: \"minecraft:gravel\", pos: [10, 64, 8]}\n  - {block: \"minecraft:gravel\", pos: [10, 65, 8]}"
	s := flatPlain(t, `[]`, blocks)
	r := s.Execute(context.Background(), action.MoveTo{Pos: world.Pos(12, 64, 8)})
	require.Equal(t, ipc.OK, r.Code, r.Error)
	feet := s.State().Snapshot().Feet()
	assert.Equal(t, world.Pos(12, 64, 8), feet)
	assert.Equal(t, 2, s.State().Snapshot().Inventory.CountID("minecraft:gravel"))
}

func itoa(n int) string {
	const digits = "0123456789"
	if n < 10 {
		return digits[n : n+1]
	}
	return itoa(n/10) + digits[n%10:n%10+1]
}
