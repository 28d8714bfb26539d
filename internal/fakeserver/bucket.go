package fakeserver

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Filling a bucket, as 1.7.10 does it: the client sends a use of the held
// item in the air (Block Placement with face -1; a liquid is never the
// block under the cursor, Minecraft.func_147121_ag) and the server's
// ItemBucket.onItemRightClick traces the player's look, liquids included
// (Item.getMovingObjectPositionFromPlayer: from the eyes, 1.62 above the
// feet, up to the reach of 5 blocks). The first block the ray meets counts:
// a water source (meta 0) fills the bucket, anything else does nothing. One
// empty bucket of the stack becomes the filled one (ItemBucket
// .func_150910_a: a stack of one is replaced, otherwise the filled bucket
// goes into the inventory). IguanaTinkerTweaks 2.6.6's fired clay bucket
// fills as the iron one does (claybuckets/ClayBucketHandler, BaseClayBucket
// extends ItemBucket). The source stays: the scenario's water is a lake,
// where 1.7.10's BlockDynamicLiquid makes a taken source a source again
// from its neighbours (two adjacent sources over a solid or liquid block).
var bucketFills = map[string]string{
	"minecraft:bucket":                       "minecraft:water_bucket",
	"IguanaTweaksTConstruct:clayBucketFired": "IguanaTweaksTConstruct:clayBucketWater",
}

// bucketReach is ItemInWorldManager.getBlockReachDistance for a survival
// player (5.0), the length of the bucket's ray.
const bucketReach = 5.0

// lookVec is the unit vector of a yaw and pitch (Entity.getLook: x =
// -sin(yaw)·cos(pitch), y = -sin(pitch), z = cos(yaw)·cos(pitch)).
func lookVec(yaw, pitch float32) world.Vec3 {
	y, p := float64(yaw)*math.Pi/180, float64(pitch)*math.Pi/180
	return world.Vec3{X: -math.Sin(y) * math.Cos(p), Y: -math.Sin(p), Z: math.Cos(y) * math.Cos(p)}
}

// rayFirstBlock walks the ray from the eyes along the look in small steps
// and returns the first block that is not air.
func (c *conn) rayFirstBlock() (world.BlockPos, bool) {
	s := c.s
	eye := world.Vec3{X: c.pos.X, Y: c.pos.Y + 1.62, Z: c.pos.Z}
	d := lookVec(c.yaw, c.pitch)
	const step = 0.02
	for t := 0.0; t <= bucketReach; t += step {
		p := world.Pos(int(math.Floor(eye.X+d.X*t)), int(math.Floor(eye.Y+d.Y*t)), int(math.Floor(eye.Z+d.Z*t)))
		if !s.loaded(p) {
			return world.BlockPos{}, false
		}
		if !s.stateAt(p).IsAir() {
			return p, true
		}
	}
	return world.BlockPos{}, false
}

// fillBucketLocked fills the held bucket from the water source the
// player looks at; it reports whether the held item is a bucket (used up
// by the attempt either way).
func (c *conn) fillBucketLocked(out *outbox) bool {
	s := c.s
	sl, name := c.heldLocked()
	filled, ok := bucketFills[name]
	if !ok {
		return false
	}
	p, hit := c.rayFirstBlock()
	if !hit {
		return true
	}
	st := s.stateAt(p)
	if s.blockName(st) != "minecraft:water" || st.Meta() != 0 {
		s.logf("conn %d: %s used on %s at %v: nothing", c.id, name, s.blockName(st), p)
		return true
	}
	full, ok := s.wireStack(filled, 1)
	if !ok {
		return true
	}
	slot := hotbarFirst + c.held
	if sl.Count <= 1 {
		c.inv[slot] = full
	} else {
		c.inv[slot].Count--
		if i, ok := c.addItemLocked(full); ok {
			out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(i), Item: c.inv[i]})
		} else {
			s.refuseLocked(c.id, "use", "no room for %s", filled)
		}
	}
	out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(slot), Item: c.inv[slot]})
	s.logf("conn %d: filled %s at %v", c.id, filled, p)
	return true
}
