package gtnh

import (
	"testing"
	"testing/synctest"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestCollectIsRecordedBeforeTheItemLeavesTheWorld: break_block's
// collectDrops looks for its drop in the world and then, under c.mu, at
// what was collected. A Collect Item that took the item out of the world
// before recording it under c.mu let a dig that raced the pickup see
// neither: it returned without waiting for the Set Slot, and the loop found
// no log in the inventory (TestServeLiveClient failed so in CI). While a
// reader holds c.mu, the item must stay in the world.
func TestCollectIsRecordedBeforeTheItemLeavesTheWorld(t *testing.T) {
	c := &Client{log: zerolog.Nop(), changed: make(chan struct{}), state: world.NewState(world.StateOptions{Rules: rules.Default()}), rules: rules.Default()}
	s := &session{entityID: 1, entities: map[int32]bool{}}
	log := world.ItemStack{ID: "minecraft:log", Count: 1}
	c.putEntity(s, 7, world.Entity{Kind: world.EntityItem, Pos: world.Vec3{X: 0.5, Y: 64, Z: 0.5}, Item: &log})
	inWorld := func() bool { return len(c.state.Snapshot().EntitiesOfKind(world.EntityItem)) > 0 }
	require.True(t, inWorld())

	c.mu.Lock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.onCollect(s, &proto17.CollectItem{CollectedID: 7, CollectorID: 1})
	}()
	// onCollect has done all it does before c.mu once it waits for c.mu;
	// if it ends without waiting, it never took c.mu at all.
	parked := parkedOnLock("(*Client).onCollect", func() bool { return closed(done) })
	if !inWorld() {
		c.mu.Unlock()
		t.Fatal("the collected item left the world before it was recorded under c.mu")
	}
	c.mu.Unlock()
	assert.True(t, parked, "onCollect records the pickup under c.mu")
	<-done
	assert.False(t, inWorld())
	c.mu.Lock()
	defer c.mu.Unlock()
	require.Len(t, s.collected, 1)
	assert.Equal(t, int32(7), s.collected[0].entity)
	require.NotNil(t, s.collected[0].item)
	assert.Equal(t, "minecraft:log", s.collected[0].item.ID)
	assert.False(t, s.entities[7])
}

// TestCollectedSinceCountsTheWholeSession: a dig marks how many items the
// session had collected and then reads what came after; once more than
// maxCollected were collected, the remembered list is trimmed from the
// front and a mark is not an index into it.
func TestCollectedSinceCountsTheWholeSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Client{log: zerolog.Nop(), changed: make(chan struct{}), state: world.NewState(world.StateOptions{Rules: rules.Default()}), rules: rules.Default()}
		s := &session{entityID: 1, entities: map[int32]bool{}}
		const n = maxCollected + 44
		for id := int32(1); id <= n; id++ {
			c.onCollect(s, &proto17.CollectItem{CollectedID: id + 100, CollectorID: 1})
		}
		c.onCollect(s, &proto17.CollectItem{CollectedID: 99, CollectorID: 2}) // another player's pickup
		assert.Equal(t, n, s.collectedN)
		assert.Len(t, s.collected, maxCollected)
		since := s.collectedSince(n - 10)
		require.Len(t, since, 10)
		assert.Equal(t, int32(n-9+100), since[0].entity)
		assert.Equal(t, int32(n+100), since[9].entity)
		assert.Len(t, s.collectedSince(10), maxCollected, "the forgotten ones are gone, the rest are all there")
		assert.Empty(t, s.collectedSince(n))
	})
}
