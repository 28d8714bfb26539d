package fakeserver

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// lookAt is the yaw and pitch from an eye to a point (the inverse of
// lookVec).
func lookAt(eye, p world.Vec3) (float32, float32) {
	dx, dy, dz := p.X-eye.X, p.Y-eye.Y, p.Z-eye.Z
	yaw := math.Atan2(-dx, dz) * 180 / math.Pi
	pitch := -math.Atan2(dy, math.Hypot(dx, dz)) * 180 / math.Pi
	return float32(yaw), float32(pitch)
}

// bucketConn is a player at the spawn of a flat world holding the item in
// hotbar slot 0, with water at (8, 63, 11) and a stone block on the way to
// (8, 63, 5) (at (8, 64, 6)), and flowing water at (8, 63, 12).
func bucketConn(t *testing.T, held string, count int) (*Server, *conn) {
	t.Helper()
	s, err := New(Options{Addr: MemoryAddr(), Trees: []Tree{}, Blocks: []Block{
		{X: 8, Y: 63, Z: 11, Name: "minecraft:water"}, {X: 8, Y: 63, Z: 5, Name: "minecraft:water"},
		{X: 8, Y: 64, Z: 6, Name: "minecraft:stone"}, {X: 8, Y: 63, Z: 12, Name: "minecraft:water", Meta: 3}}})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	c := &conn{s: s, id: 1, pos: world.Vec3{X: 8.5, Y: 64, Z: 8.5}}
	sl, ok := s.wireStack(held, count)
	require.True(t, ok)
	c.inv[hotbarFirst] = sl
	return s, c
}

// TestBucketFillsAtTheWaterLookedAt: the fired clay bucket used in the air
// fills at the water source the look meets (ItemBucket.onItemRightClick's
// ray, liquids included); a block in the way, flowing water (meta > 0) or
// water out of the 5-block reach fill nothing; a stack of two gives one
// filled bucket into the inventory and keeps the other.
func TestBucketFillsAtTheWaterLookedAt(t *testing.T) {
	eye := world.Vec3{X: 8.5, Y: 64 + 1.62, Z: 8.5}
	for _, tc := range []struct {
		name   string
		target world.Vec3
		fills  bool
	}{
		{"a source in reach", world.Vec3{X: 8.5, Y: 63.9, Z: 11.5}, true},
		{"stone in the way", world.Vec3{X: 8.5, Y: 63.5, Z: 5.5}, false},
		{"flowing water", world.Vec3{X: 8.5, Y: 63.9, Z: 12.5}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, c := bucketConn(t, "IguanaTweaksTConstruct:clayBucketFired", 1)
			c.yaw, c.pitch = lookAt(eye, tc.target)
			var out outbox
			s.mu.Lock()
			assert.True(t, c.fillBucketLocked(&out), "a bucket is used")
			got := s.itemOf(0, c.inv[hotbarFirst]).Name
			s.mu.Unlock()
			if tc.fills {
				assert.Equal(t, "IguanaTweaksTConstruct:clayBucketWater", got)
				require.Len(t, out, 1)
				assert.IsType(t, &proto17.SetSlot{}, out[0].p)
			} else {
				assert.Equal(t, "IguanaTweaksTConstruct:clayBucketFired", got)
				assert.Empty(t, out)
			}
		})
	}
	t.Run("a stack of two", func(t *testing.T) {
		s, c := bucketConn(t, "minecraft:bucket", 2)
		c.yaw, c.pitch = lookAt(eye, world.Vec3{X: 8.5, Y: 63.9, Z: 11.5})
		var out outbox
		s.mu.Lock()
		defer s.mu.Unlock()
		require.True(t, c.fillBucketLocked(&out))
		assert.Equal(t, "minecraft:bucket", s.itemOf(0, c.inv[hotbarFirst]).Name)
		assert.Equal(t, 1, int(c.inv[hotbarFirst].Count), "one empty bucket left in hand")
		filled := 0
		for _, sl := range c.inv {
			if !sl.Empty() && s.itemOf(0, sl).Name == "minecraft:water_bucket" {
				filled += int(sl.Count)
			}
		}
		assert.Equal(t, 1, filled)
	})
	t.Run("not a bucket", func(t *testing.T) {
		s, c := bucketConn(t, "minecraft:stick", 1)
		var out outbox
		s.mu.Lock()
		defer s.mu.Unlock()
		assert.False(t, c.fillBucketLocked(&out))
	})
}
