package sim_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// dropWorld: a flat plain with the player at (48, 65, 48) holding a
// pickaxe, 128 dirt and 40 saplings, and the extra scenario lines.
func dropWorld(t *testing.T, extra string) *sim.Sim {
	t.Helper()
	sc, err := sim.ParseScenario("drop.yaml", []byte(`name: drop
seed: 1
size: {x: 96, z: 96}
generator: flat
ground_y: 64
player:
  pos: [48, 65, 48]
  inventory:
    - {item: "minecraft:stone_pickaxe", count: 1}
    - {item: "minecraft:dirt", count: 64}
    - {item: "minecraft:dirt", count: 64}
    - {item: "minecraft:sapling", count: 40}
`+extra))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

// TestDropItemThrowsAhead: the items leave the inventory and lie as item
// entities a few blocks ahead, out of the thrower's reach: waiting beside
// them past the pickup delay does not take them back.
func TestDropItemThrowsAhead(t *testing.T) {
	s := dropWorld(t, "")
	ctx := context.Background()
	r := s.Execute(ctx, action.DropItem{Item: "minecraft:dirt", Count: 100})
	require.Equal(t, ipc.OK, r.Code, r.Error)
	assert.Equal(t, 100, r.Details["dropped"])
	assert.Equal(t, int64(2), r.Ticks, "two stacks thrown")
	snap := look(t, s)
	assert.Equal(t, 28, snap.Inventory.CountID("minecraft:dirt"))
	assert.Equal(t, 40, snap.Inventory.CountID("minecraft:sapling"))
	items := snap.EntitiesOfKind(world.EntityItem)
	require.Len(t, items, 2)
	n := 0
	for _, it := range items {
		require.NotNil(t, it.Item)
		assert.Equal(t, "minecraft:dirt", it.Item.ID)
		n += it.Item.Count
		d := math.Hypot(it.Pos.X-48.5, it.Pos.Z-48.5)
		assert.Greater(t, d, 3.0, "thrown a few blocks ahead")
		assert.InDelta(t, 65.0, it.Pos.Y, 1e-9, "on the ground")
	}
	assert.Equal(t, 100, n)

	wait(t, s, 200)
	snap = look(t, s)
	assert.Equal(t, 28, snap.Inventory.CountID("minecraft:dirt"), "not picked up where the bot stands")
	assert.Len(t, snap.EntitiesOfKind(world.EntityItem), 2)
}

// TestDroppedItemIsPickedUpAgain: walking to a thrown stack after the
// pickup delay takes it back.
func TestDroppedItemIsPickedUpAgain(t *testing.T) {
	s := dropWorld(t, "")
	ctx := context.Background()
	r := s.Execute(ctx, action.DropItem{Item: "minecraft:sapling", Count: 8})
	require.Equal(t, ipc.OK, r.Code, r.Error)
	items := look(t, s).EntitiesOfKind(world.EntityItem)
	require.Len(t, items, 1)
	assert.Equal(t, 32, look(t, s).Inventory.CountID("minecraft:sapling"))
	wait(t, s, 40)
	run(t, s, action.MoveTo{Pos: items[0].Pos.Block()})
	wait(t, s, 1)
	snap := look(t, s)
	assert.Equal(t, 40, snap.Inventory.CountID("minecraft:sapling"), "picked up again")
	assert.Empty(t, snap.EntitiesOfKind(world.EntityItem))
}

// TestThrownItemsDespawn: a thrown stack is gone at 6000 ticks.
func TestThrownItemsDespawn(t *testing.T) {
	s := dropWorld(t, "")
	r := s.Execute(context.Background(), action.DropItem{Item: "minecraft:dirt", Count: 1})
	require.Equal(t, ipc.OK, r.Code, r.Error)
	wait(t, s, 5998)
	require.Len(t, look(t, s).EntitiesOfKind(world.EntityItem), 1, "still there before 6000 ticks")
	wait(t, s, 1)
	assert.Empty(t, look(t, s).EntitiesOfKind(world.EntityItem), "gone at 6000 ticks")
}

// TestDropItemThrowsTheOpenWay: in a corridor the items fly along it,
// the open way, not into the wall beside the bot.
func TestDropItemThrowsTheOpenWay(t *testing.T) {
	s := dropWorld(t, `blocks:
  - {block: "minecraft:stone", from: [40, 65, 47], to: [56, 67, 47]}
  - {block: "minecraft:stone", from: [40, 65, 49], to: [56, 67, 49]}
  - {block: "minecraft:stone", from: [50, 65, 48], to: [50, 67, 48]}
`)
	r := s.Execute(context.Background(), action.DropItem{Item: "minecraft:dirt", Count: 64})
	require.Equal(t, ipc.OK, r.Code, r.Error)
	items := look(t, s).EntitiesOfKind(world.EntityItem)
	require.Len(t, items, 1)
	assert.Less(t, items[0].Pos.X, 45.5, "westwards, along the corridor")
	assert.InDelta(t, 48.5, items[0].Pos.Z, 1e-9)
}

func TestDropItemRefusals(t *testing.T) {
	s := dropWorld(t, "")
	ctx := context.Background()
	r := s.Execute(ctx, action.DropItem{Item: "minecraft:dirt", Count: 129})
	assert.Equal(t, ipc.InvalidParams, r.Code)
	assert.Contains(t, r.Error, "only 128 minecraft:dirt in the inventory, 129 asked")
	r = s.Execute(ctx, action.DropItem{Item: "minecraft:cobblestone", Count: 1})
	assert.Equal(t, ipc.InvalidParams, r.Code)
	assert.Equal(t, 128, look(t, s).Inventory.CountID("minecraft:dirt"), "nothing thrown")
	assert.Empty(t, look(t, s).EntitiesOfKind(world.EntityItem))
}

// TestThrownInAHoleComesBackAfterTheDelay: walled in on every side, the
// items fall at the feet and come back only once the pickup delay (40
// ticks) has passed.
func TestThrownInAHoleComesBackAfterTheDelay(t *testing.T) {
	s := dropWorld(t, `blocks:
  - {block: "minecraft:stone", from: [47, 65, 47], to: [49, 67, 47]}
  - {block: "minecraft:stone", from: [47, 65, 49], to: [49, 67, 49]}
  - {block: "minecraft:stone", from: [47, 65, 48], to: [47, 67, 48]}
  - {block: "minecraft:stone", from: [49, 65, 48], to: [49, 67, 48]}
`)
	r := s.Execute(context.Background(), action.DropItem{Item: "minecraft:dirt", Count: 5})
	require.Equal(t, ipc.OK, r.Code, r.Error)
	assert.Equal(t, 123, look(t, s).Inventory.CountID("minecraft:dirt"))
	wait(t, s, 38)
	assert.Equal(t, 123, look(t, s).Inventory.CountID("minecraft:dirt"), "not before the delay")
	require.Len(t, look(t, s).EntitiesOfKind(world.EntityItem), 1)
	wait(t, s, 2)
	assert.Equal(t, 128, look(t, s).Inventory.CountID("minecraft:dirt"), "back at the feet after 40 ticks")
}
