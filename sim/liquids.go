package sim

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// Drowning and lava in a scenario with liquids: true, by 1.7.10's Entity
// and EntityLivingBase (config/mobs.yaml's player section has the numbers
// and their sources):
//
//   - with the eyes in water the air supply drops a tick a tick; when it
//     reaches drown_at (-20) it is set to 0 and the player takes
//     drown_damage (2); with the eyes out of water it is full again at
//     once (EntityLivingBase.onEntityUpdate);
//   - a body touching lava takes lava_damage (4) every tick, the hurt
//     resistance letting one through every 10 ticks, and is set on fire
//     for lava_burn_ticks (Entity.setOnFireFromLava); a burning player
//     takes fire_damage every fire_period ticks, and water puts the fire
//     out (Entity.handleWaterMovement).
//
// The eyes are at 1.62 above the feet (EntityPlayer.getEyeHeight); the
// body spans the feet's block and the one above.

func isWater(b world.Block) bool {
	return b.HasTag("water") || b.ID == "minecraft:water" || b.ID == "minecraft:flowing_water"
}

func isLava(b world.Block) bool {
	return b.HasTag("lava") || b.ID == "minecraft:lava" || b.ID == "minecraft:flowing_lava"
}

// bodyBlocks are the blocks the player's body is in: the feet's and the
// one above, and the eyes'.
func bodyBlocks(tx *world.Tx) (feet, upper, eyes world.Block) {
	p := tx.Player().Pos
	x, z := int(math.Floor(p.X)), int(math.Floor(p.Z))
	fy := int(math.Floor(p.Y + 1e-9))
	return tx.BlockAt(world.Pos(x, fy, z)), tx.BlockAt(world.Pos(x, fy+1, z)),
		tx.BlockAt(world.Pos(x, int(math.Floor(p.Y+eyeHeight)), z))
}

// inLiquidDanger reports whether time must pass tick by tick for the
// body: in a scenario with liquids, the eyes under water, the body in
// lava, on fire, or the air supply not yet full again.
func (s *Sim) inLiquidDanger(tx *world.Tx) bool {
	if !s.sc.Liquids {
		return false
	}
	feet, upper, eyes := bodyBlocks(tx)
	return isWater(eyes) || isLava(feet) || isLava(upper) || s.danger.fire > 0 ||
		tx.Player().Air != s.rules.Mobs.Player.MaxAir
}

func (s *Sim) setAir(tx *world.Tx, air int) {
	if tx.Player().Air != air {
		tx.SetAir(air)
	}
}

// liquidTick runs one tick of water, fire and lava on the player, in
// Entity.onEntityUpdate's order: water puts the fire out, the fire burns,
// lava hurts and sets it burning; then EntityLivingBase's air supply.
func (s *Sim) liquidTick(tx *world.Tx) {
	if !s.sc.Liquids {
		return
	}
	r := s.rules.Mobs.Player
	feet, upper, eyes := bodyBlocks(tx)
	d := &s.danger
	if isWater(feet) || isWater(upper) {
		d.fire = 0
	}
	if d.fire > 0 {
		if d.fire%r.FirePeriod == 0 {
			s.hurtPlayerAs(tx, r.FireDamage, "fire", "burned to death", true)
		}
		d.fire--
	}
	if isLava(feet) || isLava(upper) {
		s.hurtPlayerAs(tx, r.LavaDamage, "lava", "tried to swim in lava", false)
		d.fire = max(d.fire, r.LavaBurnTicks)
	}
	if d.died != "" {
		return // respawned: a new body with a full air supply
	}
	if !isWater(eyes) {
		s.setAir(tx, r.MaxAir)
		return
	}
	air := tx.Player().Air - 1
	if air <= r.DrownAt {
		air = 0
		s.setAir(tx, air)
		s.hurtPlayerAs(tx, r.DrownDamage, "drowning", "drowned", true)
		return
	}
	s.setAir(tx, air)
}
