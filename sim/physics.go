package sim

import (
	"fmt"
	"math"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// Player body and fall rules, Minecraft 1.7.10.
const (
	// bodyHalf is half the player's width: the body covers 0.2–0.8 of the
	// column it is centred in.
	bodyHalf = 0.3
	// safeFall is the fall distance that does no damage:
	// EntityLivingBase.fall deals ceil(distance − 3) hearts' halves.
	safeFall = 3
)

// shapeAt is the collision shape of the block at p, doors read with their
// other half (rules.KnownShape).
func shapeAt(tx *world.Tx, p world.BlockPos) rules.Shape {
	return rules.ShapeOf(tx.BlockAt(p), func(dy int) world.Block { return tx.BlockAt(p.Add(0, dy, 0)) })
}

// standHeight is where the feet rest when the player stands in the cell p
// that the pathfinder chose: on the floor inside it (a slab, a carpet), on
// the block below (a little under the cell on a chest or farmland), or in
// the water there — where gravity would leave the player.
func standHeight(tx *world.Tx, p world.BlockPos) float64 {
	if land, ok := findLanding(tx, p.X, p.Z, float64(p.Y)+0.999); ok {
		return land.y
	}
	return float64(p.Y)
}

// landing is where a body falling in the column (x, z) from feet height
// top stops: the highest collision box under the body's footprint at or
// below the feet, or the surface of a liquid it falls into.
type landing struct {
	y      float64
	liquid string // "water", "lava" or "" (solid ground)
	on     world.Block
}

func findLanding(tx *world.Tx, x, z int, top float64) (landing, bool) {
	fx, fz := 0.5-bodyHalf, 0.5+bodyHalf // the footprint in the column's cell
	best, found := landing{}, false
	for cy := int(math.Floor(top + 1e-9)); cy >= 0; cy-- {
		p := world.Pos(x, cy, z)
		b := tx.BlockAt(p)
		switch c := path.ClassifyByTags(b); {
		case found && float64(cy)+1.5 < best.y:
			return best, true // nothing lower reaches above what was found
		case c == path.Water && !found:
			return landing{y: float64(cy), liquid: "water", on: b}, true
		case c == path.Danger && (b.HasTag("lava") || b.ID == "minecraft:lava" || b.ID == "minecraft:flowing_lava") && !found:
			return landing{y: float64(cy), liquid: "lava", on: b}, true
		}
		for _, bx := range shapeAt(tx, p).Boxes {
			if bx.MaxX <= fx || bx.MinX >= fz || bx.MaxZ <= fx || bx.MinZ >= fz {
				continue // beside the body (an open door's panel)
			}
			if h := float64(cy) + bx.MaxY; h <= top+1e-9 && (!found || h > best.y) {
				best, found = landing{y: h, on: b}, true
			}
		}
	}
	return best, found
}

// gravity lets the player fall after an action when nothing holds the feet
// any more (the block under them was mined, or the world changed under
// them): down to the first collision box, the surface of water (no fall
// damage: entering water resets the fall, Entity.handleWaterMovement) or
// lava. A fall deals ceil(distance − 3) damage (EntityLivingBase.fall) and
// takes its air time in ticks. A player whose health reaches 0, who falls
// into lava or out of the world dies: the inventory lies where the fall
// ended as item entities (burnt in lava, lost out of the world; see
// mobs.go for picking them up), and the player respawns at the scenario's start with full health and food; the
// action's result becomes a rejection that says so, with "died" in its
// details.
func (s *Sim) gravity(tx *world.Tx, res *ipc.Result) {
	p := tx.Player()
	x, z := int(math.Floor(p.Pos.X)), int(math.Floor(p.Pos.Z))
	land, ok := findLanding(tx, x, z, p.Pos.Y)
	if ok && p.Pos.Y-land.y < 1e-6 {
		return // standing
	}
	dist := p.Pos.Y
	if ok {
		dist = p.Pos.Y - land.y
	}
	ticks := int64(math.Ceil(path.FallTicks(dist)))
	res.Ticks += ticks
	if res.Details == nil {
		res.Details = map[string]any{}
	}
	res.Details["fell"] = math.Round(dist*1000) / 1000
	var cause string
	switch {
	case !ok:
		cause = fmt.Sprintf("fell %.1f blocks out of the world", dist)
	case land.liquid == "lava":
		cause = fmt.Sprintf("fell %.1f blocks into lava", dist)
	}
	if cause == "" {
		p.Pos.Y = land.y
		if land.liquid == "" {
			if dmg := math.Ceil(dist - safeFall); dmg > 0 {
				p.Health = math.Max(0, p.Health-dmg)
				res.Details["fall_damage"] = dmg
				if p.Health == 0 {
					cause = fmt.Sprintf("fell %.1f blocks onto %s and took %.0f damage", dist, land.on.ID, dmg)
				}
			}
		}
		tx.SetPlayer(p)
	}
	if cause != "" {
		var at *world.Vec3
		if ok && land.liquid != "lava" {
			at = &p.Pos // the items lie where the fall ended
		}
		if land.liquid == "lava" {
			// The player dies in the lava, and its items burn there:
			// the death is where they would lie (died_at), in lava.
			p.Pos.Y = land.y
			tx.SetPlayer(p)
		}
		s.die(tx, res, cause, at)
	}
}

// die respawns the player at the scenario's start with full health and
// food and an empty inventory, and turns the result into a rejection. The
// inventory lies where the player died (dropAt) as item entities, unless
// it burned in lava or fell out of the world (dropAt nil).
func (s *Sim) die(tx *world.Tx, res *ipc.Result, cause string, dropAt *world.Vec3) {
	where := tx.Player().Pos
	if dropAt != nil {
		s.dropInventory(tx, *dropAt)
	}
	s.respawn(tx)
	s.danger.deaths = append(s.danger.deaths, Death{Tick: tx.Tick(), Pos: where, Cause: cause})
	s.syncEntities(tx)
	res.Code = ipc.Rejected
	res.Error = fmt.Sprintf("the player %s and died; respawned at %v with an empty inventory", cause, s.spawnPoint().Block())
	res.Details["died"] = true
	res.Details["died_at"] = where
	// The death's cause in the game's words, as a server's death message
	// gives it on a live body.
	res.Details["death_cause"] = "the player " + cause
}
