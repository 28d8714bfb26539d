package fakeserver

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Drowning and lava on the test server, as 1.7.10's Entity and
// EntityLivingBase play them (config/mobs.yaml's player section): with the
// eyes (1.62 above the feet) in water the air supply drops a tick a tick,
// and at drown_at it is set to 0 and the player takes drown_damage; out of
// water it is full at once. Lava touching the body (the feet's block or
// the one above) hurts lava_damage through the hurt resistance and sets
// the player burning for lava_burn_ticks; a burning player takes
// fire_damage when the fire left is a multiple of fire_period; water puts
// it out. The air supply reaches the client as the player's own entity
// metadata (DataWatcher object 1, a short), sent when it changes, as
// EntityTrackerEntry sends a player its own watched data; the hits as
// Update Health.

// playerEyeHeight is EntityPlayer.getEyeHeight.
const playerEyeHeight = 1.62

// liquidAtLocked is the liquid at p: "water", "lava" or "".
func (s *Server) liquidAtLocked(p world.BlockPos) string {
	switch s.blockName(s.stateAt(p)) {
	case "minecraft:water", "minecraft:flowing_water":
		return "water"
	case "minecraft:lava", "minecraft:flowing_lava":
		return "lava"
	}
	return ""
}

// liquidTickLocked runs one tick of water, fire and lava on a living
// player, in Entity.onEntityUpdate's order.
func (s *Server) liquidTickLocked(out *outbox, c *conn, t int) {
	r := rules.Default().Mobs.Player
	x, z := int(math.Floor(c.pos.X)), int(math.Floor(c.pos.Z))
	fy := int(math.Floor(c.pos.Y + 1e-9))
	feet, upper := s.liquidAtLocked(world.Pos(x, fy, z)), s.liquidAtLocked(world.Pos(x, fy+1, z))
	eyes := s.liquidAtLocked(world.Pos(x, int(math.Floor(c.pos.Y+playerEyeHeight)), z))
	if feet == "water" || upper == "water" {
		c.fire = 0
	}
	if c.fire > 0 {
		if c.fire%r.FirePeriod == 0 {
			s.hurtPlayerLocked(out, c, r.FireDamage, damageSource{typ: "onFire", by: "fire"}, t)
		}
		c.fire--
	}
	if feet == "lava" || upper == "lava" {
		s.hurtPlayerLocked(out, c, r.LavaDamage, damageSource{typ: "lava", by: "lava"}, t)
		c.fire = max(c.fire, r.LavaBurnTicks)
	}
	if c.dead {
		c.fire = 0
		return
	}
	air := r.MaxAir
	if eyes == "water" {
		air = c.air - 1
	}
	drown := air <= r.DrownAt
	if drown {
		air = 0
	}
	if air != c.air {
		c.air = air
		out.to(c, StageNone, &proto17.EntityMetadata{EntityID: c.eid, Metadata: proto17.Metadata{{Key: 1, Type: proto17.MetaShort, Int: int32(air)}}})
	}
	if drown {
		s.hurtPlayerLocked(out, c, r.DrownDamage, damageSource{typ: "drown", by: "drowning"}, t)
	}
}
