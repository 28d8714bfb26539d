package base

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

func init() {
	registry.Provide(Fight{})
	registry.Provide(Flee{})
}

// HostileNear returns the nearest hostile mob (a kind of config/mobs.yaml)
// within radius of the player's feet, or false.
func HostileNear(w *world.Snapshot, mobs *rules.Mobs, radius float64) (world.Entity, bool) {
	var best world.Entity
	bestD := radius * radius
	found := false
	for _, e := range w.Entities {
		if e.Kind != world.EntityMob {
			continue
		}
		if k, ok := mobs.Kind(e.Name); !ok || k.Passive() {
			continue // not a mob of the table, or a farm animal
		}
		if d := e.Pos.DistSq(w.Player.Pos); d <= bestD {
			best, bestD, found = e, d, true
		}
	}
	return best, found
}

// BestWeapon returns the inventory slot of the stack that hits hardest
// (config/mobs.yaml combat.weapons) and its damage; -1 and the fist's
// damage when nothing beats the fist.
func BestWeapon(inv world.Inventory, mobs *rules.Mobs) (int, float64) {
	slot, dmg := -1, mobs.Combat.FistDamage
	for i, st := range inv.Slots {
		if st.Count <= 0 {
			continue
		}
		if d := mobs.WeaponDamage(st); d > dmg {
			slot, dmg = i, d
		}
	}
	return slot, dmg
}

func mobsOf(set *rules.Set) *rules.Mobs {
	if set != nil {
		return set.Mobs
	}
	return rules.Default().Mobs
}

// targetMob is the mob an entity parameter names, or the nearest hostile
// within 16 blocks when it is negative.
func targetMob(w *world.Snapshot, mobs *rules.Mobs, id int) (world.Entity, error) {
	if id < 0 {
		if e, ok := HostileNear(w, mobs, 16); ok {
			return e, nil
		}
		return world.Entity{}, skills.Failf(skills.CodeNoTarget, "no hostile mob within 16 blocks")
	}
	for _, e := range w.Entities {
		if e.ID == id {
			if e.Kind != world.EntityMob {
				return world.Entity{}, skills.Failf(skills.CodeInvalidParams, "entity %d is a %s, not a mob", id, e.Kind)
			}
			return e, nil
		}
	}
	return world.Entity{}, skills.Failf(skills.CodeNoTarget, "no entity %d in sight", id)
}

// Fight hits a mob once with the best weapon held: it takes the weapon in
// hand when a better one is in the inventory, walks to within 2 blocks
// when the mob is out of reach (3 blocks), and attacks. One hit a step: a
// hit mob is knocked back and may come again, so the loop looks between
// hits.
type Fight struct {
	// Rules holds the mob and weapon tables (nil = the shipped set).
	Rules *rules.Set
}

var _ skills.RuleUser = Fight{}

// Name implements skills.Implementation.
func (Fight) Name() string { return "fight" }

// WithRules implements skills.RuleUser.
func (Fight) WithRules(set *rules.Set) skills.Implementation { return Fight{Rules: set} }

// SuggestActions implements skills.Implementation.
func (sk Fight) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	mobs := mobsOf(sk.Rules)
	e, err := targetMob(w, mobs, intParam(p, "entity", -1))
	if err != nil {
		return nil, err
	}
	var acts []action.Action
	if slot, _ := BestWeapon(w.Inventory, mobs); slot >= 0 && slot != w.Inventory.Held {
		st := w.Inventory.Slots[slot]
		if mobs.WeaponDamage(st) > mobs.WeaponDamage(w.Inventory.HeldStack()) {
			acts = append(acts, action.Equip{Item: st.ID})
		}
	}
	eye := world.Vec3{X: w.Player.Pos.X, Y: w.Player.Pos.Y + eyeHeight, Z: w.Player.Pos.Z}
	centre := e.Pos
	if k, ok := mobs.Kind(e.Name); ok {
		centre.Y += k.Height / 2
	}
	if math.Sqrt(eye.DistSq(centre)) > mobs.Combat.Reach-0.5 {
		acts = append(acts, action.MoveTo{Pos: e.Pos.Block(), Radius: 2})
	}
	return append(acts, action.Attack{Entity: e.ID}), nil
}

// Flee runs from a mob: to the place to stand nearest by a walk that is
// distance blocks farther from the mob than the bot is now, never passing
// within 3 blocks of it (path.RunFrom: across a field, or back along a
// tunnel); with no such walk, to a place to stand about distance blocks
// from here, straight away from the mob, or turned by 45°, 90° or 135°
// when that way has no place (the body digs only where no walking path
// leads).
type Flee struct {
	Rules *rules.Set
}

var _ skills.RuleUser = Flee{}

// Name implements skills.Implementation.
func (Flee) Name() string { return "flee" }

// WithRules implements skills.RuleUser.
func (Flee) WithRules(set *rules.Set) skills.Implementation { return Flee{Rules: set} }

// SuggestActions implements skills.Implementation.
func (sk Flee) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	mobs := mobsOf(sk.Rules)
	e, err := targetMob(w, mobs, intParam(p, "entity", -1))
	if err != nil {
		return nil, err
	}
	dist := float64(intParam(p, "distance", 16))
	// A walk that leads that much farther from the mob first (a field,
	// the bot's own tunnel back), never past it.
	if at, ok := path.RunFrom(w, w.Feet(), e.Pos, math.Sqrt(e.Pos.DistSq(w.Player.Pos))+dist); ok {
		return []action.Action{action.MoveTo{Pos: at, Radius: 1}}, nil
	}
	away := math.Atan2(w.Player.Pos.Z-e.Pos.Z, w.Player.Pos.X-e.Pos.X)
	feet := w.Feet()
	for _, turn := range []float64{0, 45, -45, 90, -90, 135, -135} {
		a := away + turn*math.Pi/180
		x := int(math.Floor(w.Player.Pos.X + math.Cos(a)*dist))
		z := int(math.Floor(w.Player.Pos.Z + math.Sin(a)*dist))
		if at, ok := standIn(w, x, z, feet.Y+int(dist), feet.Y-int(dist)); ok {
			return []action.Action{action.MoveTo{Pos: at, Radius: 1}}, nil
		}
	}
	return nil, skills.Failf(skills.CodeNoTarget, "no place to stand %g blocks away from the %s in any direction", dist, e.Name)
}
