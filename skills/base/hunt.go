package base

import (
	"cmp"
	"math"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(Hunt{}) }

// Hunt kills mobs of one kind for what they drop (config/mobs.yaml: a
// sheep drops 1 wool, a spider 0 to 2 string): the nearest ones in the
// world model within the radius, as many as the count of items asks for
// (count ÷ the least a kill drops, or count kills when a kill may drop
// nothing), with the best weapon held. Every two hits it walks to within
// 1 block of where the mob will be (each hit knocks it back, config
// mobs.yaml's knockback); after a kill it walks to the drop and waits for
// it to be picked up.
type Hunt struct {
	// Rules holds the mob table (nil = the shipped set).
	Rules *rules.Set
}

var _ skills.RuleUser = Hunt{}

// Name implements skills.Implementation.
func (Hunt) Name() string { return "hunt" }

// WithRules implements skills.RuleUser.
func (Hunt) WithRules(set *rules.Set) skills.Implementation { return Hunt{Rules: set} }

// hitsPerApproach: from within huntReach, two hits' knockback (2 × 0.88
// blocks) keeps the mob within the 3 blocks a client reaches.
const hitsPerApproach = 2

// huntReach is how close the bot walks to a mob before a hit: within the
// 3 blocks a survival client reaches (measured from the eyes), with room
// for the knockback and a slope.
const huntReach = 1

// SuggestActions implements skills.Implementation.
func (sk Hunt) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	set := sk.Rules
	if set == nil {
		set = rules.Default()
	}
	mobs := set.Mobs
	name := p.String("target")
	kind, ok := mobs.Kind(name)
	if !ok {
		var names []string
		for _, k := range mobs.Kinds() {
			names = append(names, k.Name)
		}
		return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"target\": no mob %q (the mobs are %v)", name, names)
	}
	want, wantText, err := itemParam(p, "item", "")
	if err != nil {
		return nil, err
	}
	drop, ok := DropOf(set, kind, want)
	if !ok {
		return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"item\": a %s does not drop %s", kind.Name, wantText)
	}
	count := intParam(p, "count", 1)
	radius := float64(intParam(p, "radius", 32))
	kills := count
	if drop.Min > 0 {
		kills = (count + drop.Min - 1) / drop.Min
	}
	// The nearest mobs of the kind within the radius (then by id, so a
	// plan is the same for the same world).
	var prey []world.Entity
	for _, e := range w.EntitiesOfKind(world.EntityMob) {
		if e.Name == kind.Name && flatDist(e.Pos, w.Player.Pos) <= radius {
			prey = append(prey, e)
		}
	}
	if len(prey) == 0 {
		return nil, skills.Failf(skills.CodeNoTarget, "no %s within %g blocks", kind.Name, radius)
	}
	var out []action.Action
	held := w.Inventory.HeldStack()
	if best, ok := bestWeapon(mobs, w.Inventory); ok && mobs.WeaponDamage(best) > mobs.WeaponDamage(held) {
		out = append(out, action.Equip{Item: itemRef(w.Inventory, best)})
		held = best
	}
	damage := mobs.WeaponDamage(held)
	push := rules.Slide(mobs.Combat.Knockback)
	at := w.Player.Pos
	for n := 0; n < kills && len(prey) > 0; n++ {
		slices.SortStableFunc(prey, func(a, b world.Entity) int {
			return cmp.Or(cmp.Compare(flatDist(a.Pos, at), flatDist(b.Pos, at)), cmp.Compare(a.ID, b.ID))
		})
		e := prey[0]
		prey = prey[1:]
		health := e.Health
		if health <= 0 {
			health = kind.Health
		}
		hits := int(math.Ceil(health / damage))
		pos := e.Pos
		for h := 0; h < hits; h++ {
			if h%hitsPerApproach == 0 {
				out = append(out, action.MoveTo{Pos: pos.Block(), Radius: huntReach})
			}
			out = append(out, action.Attack{Entity: e.ID})
			dx, dz := pos.X-at.X, pos.Z-at.Z
			d := math.Hypot(dx, dz)
			if d > huntReach {
				at = world.Vec3{X: pos.X - dx/d*huntReach, Y: pos.Y, Z: pos.Z - dz/d*huntReach}
			}
			if h < hits-1 && d > 0 {
				pos = world.Vec3{X: pos.X + dx/d*push, Y: pos.Y, Z: pos.Z + dz/d*push}
			}
		}
		// The drop lies where the mob died; standing by it picks it up
		// once its pickup delay is over.
		out = append(out, action.MoveTo{Pos: pos.Block(), Radius: huntReach}, action.Wait{Ticks: dropPickupWait})
		at = pos
	}
	return out, nil
}

// dropPickupWait covers a mob drop's pickup delay (EntityItem's 10 ticks).
const dropPickupWait = 10

// DropOf returns the drop of a mob kind that gives an item matching want.
func DropOf(set *rules.Set, kind rules.MobKind, want world.ItemMatcher) (rules.MobDrop, bool) {
	for _, d := range kind.Drops {
		if d.Max <= 0 {
			continue
		}
		id, meta := d.Item.ID()
		if want.Matches(set.Tags.Stack(id, max(meta, 0), 1)) {
			return d, true
		}
	}
	return rules.MobDrop{}, false
}

// bestWeapon is the held item that hits hardest, if any hits harder than
// a fist.
func bestWeapon(mobs *rules.Mobs, inv world.Inventory) (world.ItemStack, bool) {
	var best world.ItemStack
	bestDamage := mobs.Combat.FistDamage
	for _, st := range inv.Slots {
		if st.Count <= 0 {
			continue
		}
		if d := mobs.WeaponDamage(st); d > bestDamage {
			best, bestDamage = st, d
		}
	}
	return best, !best.Empty()
}

// flatDist is the horizontal distance between two points.
func flatDist(a, b world.Vec3) float64 { return math.Hypot(a.X-b.X, a.Z-b.Z) }
