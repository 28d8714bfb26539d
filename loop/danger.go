package loop

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// Defaults of the defend reflex.
const (
	// DefaultDefendRange: a hostile mob within 8 blocks is dealt with. A
	// zombie closes 8 blocks in 3.4 s; a skeleton shoots from 15, so one
	// that near has the bot in its sights.
	DefaultDefendRange = 8
	// DefaultFleeHealth: at 8 health (four hearts) or less the bot runs
	// instead of fighting: a zombie hits for 3 and a creeper's blast at 3
	// blocks for 10, so eight is two hits from death.
	DefaultFleeHealth = 8
	// DefaultMinWeaponDamage: the bot fights only with a weapon that hits
	// for 4 or more (a stone pickaxe, a wooden axe or sword): with the fist's
	// 1 a zombie's 20 health takes 20 hits while it deals 3 every 20 ticks.
	DefaultMinWeaponDamage = 4
)

// Defaults of the shelter reflex, as times of day (config/mobs.yaml: 0 is
// sunrise, 12000 sunset).
const (
	// DefaultShelterFrom: the bot walls in from sunset. Hostile mobs spawn
	// in the open from about 13200 (sky light 7); the pit takes a few
	// seconds to dig, and a planned step may run long, so sunset leaves
	// more than a minute.
	DefaultShelterFrom = 12000
	// DefaultShelterUntil: it stays in until 23500, when the sky is bright
	// enough (darkness below 4) that zombies and skeletons burn.
	DefaultShelterUntil = 23500
	// shelterWaitMax bounds one wait in the shelter, so the loop looks
	// (and the defend and eat reflexes may act) every 30 seconds, and the
	// shelter skill mines a block of its walls (where it can) at each: a
	// block of progress every half minute of the night.
	shelterWaitMax = 600
)

// DefaultFleeDistance is how far the defend reflex runs: 16 blocks, more
// than twice a creeper's 7 (beyond which its fuse stops, 1.7.10
// EntityAICreeperSwell.updateTask: getDistanceSqToEntity > 49), and a
// zombie (2.3 blocks a second) is 7 s behind a player walking 4.3.
const DefaultFleeDistance = 16

// DefendReflex deals with a hostile mob (a kind of config/mobs.yaml)
// within Range blocks. It fights (the fight skill, one hit a step) when
// the bot is healthy and armed; otherwise — a creeper always, any mob at
// FleeHealth health or less or with no weapon of MinWeaponDamage — it
// runs DefaultFleeDistance blocks farther from it (the flee skill) when a
// walk leads that far (path.RunFrom); cornered (a tunnel the mob blocks, a
// pit), it walls itself in (the wall_in skill, path.Seal), out of the
// mob's reach and sight, or, where it cannot (no blocks, a mob in the
// way), fights back with whatever it holds. A bot walled in with no mob
// inside the walls (path.Sheltered) is left alone: nothing reaches it
// there; a mob shut in a pocket of the room is fought like one outside. By day a spider in the open is left
// alone (it attacks only in the dark); one under a roof is not.
type DefendReflex struct {
	Range           float64
	FleeHealth      float64
	MinWeaponDamage float64
	// Mobs are the mob and weapon tables (nil = the shipped ones).
	Mobs *rules.Mobs
}

var (
	_ Reflex      = DefendReflex{}
	_ GuardExempt = DefendReflex{}
)

// Name implements Reflex.
func (DefendReflex) Name() string { return "defend" }

// GuardFacing implements GuardExempt: a fight runs guarded with its mob
// left out, so a second mob coming near (a zombie met on the walk up to
// a skeleton) ends it and the reflex looks again; a flight and a wall
// put up run unguarded (a step cut short by the mob it runs from, or
// walls in against, would only start again).
func (DefendReflex) GuardFacing(inv Invocation) ([]int, bool) {
	if inv.Skill != "fight" {
		return nil, false
	}
	switch id := inv.Params["entity"].(type) {
	case int:
		return []int{id}, true
	case float64:
		return []int{int(id)}, true
	}
	return nil, true
}

// Fire implements Reflex.
func (r DefendReflex) Fire(w *world.Snapshot) (Invocation, string, bool) {
	mobs := r.Mobs
	if mobs == nil {
		mobs = rules.Default().Mobs
	}
	if path.Sheltered(w, w.Feet(), mobs) {
		return Invocation{}, "", false
	}
	var near world.Entity
	best := math.Inf(1)
	var foes []foe // the mobs that would join a fight here
	for _, e := range w.Entities {
		k, ok := mobs.Kind(e.Name)
		if e.Kind != world.EntityMob || !ok || k.Passive() {
			continue
		}
		if Neutral(mobs, w, e) {
			continue // a spider by day in the open (Neutral)
		}
		reach := r.Range
		if k.Attack.Kind == rules.AttackRanged {
			// A skeleton shoots from its attack range (15 blocks,
			// EntitySkeleton's EntityAIArrowAttack): beyond the
			// defend range it still hits.
			reach = max(reach, k.Attack.Range)
		}
		d := math.Sqrt(e.Pos.DistSq(w.Player.Pos))
		if d > reach {
			continue
		}
		foes = append(foes, foe{e: e, k: k, d: d})
		if d < best {
			near, best = e, d
		}
	}
	if math.IsInf(best, 1) {
		return Invocation{}, "", false
	}
	params := map[string]any{"entity": near.ID}
	k, _ := mobs.Kind(near.Name)
	// A mob that comes to the bot is met where the bot stands: a walk
	// towards one farther than fightNear is a walk nothing guards, so the
	// bot lets it come (a step under way is interrupted when it does).
	// One that shoots is gone after.
	comes := k.Attack.Kind != rules.AttackRanged
	weapon := mobs.Combat.FistDamage
	for _, st := range w.Inventory.Slots {
		if st.Count > 0 {
			weapon = max(weapon, mobs.WeaponDamage(st))
		}
	}
	what := fmt.Sprintf("a %s (entity %d) is %.1f blocks away", near.Name, near.ID, best)
	var why string
	switch {
	case k.Attack.Kind == rules.AttackExplode:
		why = fmt.Sprintf("%s: out of its fuse range (it swells within %g blocks and stops beyond %g)", what, k.Attack.SwellDistance, k.Attack.CancelDistance)
	case w.Player.Health <= r.FleeHealth:
		why = fmt.Sprintf("%s and health %g is at or below %g", what, w.Player.Health, r.FleeHealth)
	case weapon < r.MinWeaponDamage:
		why = fmt.Sprintf("%s and the best weapon hits for %g, under %g", what, weapon, r.MinWeaponDamage)
	case len(foes) > 1 && w.Player.Health-fightCost(mobs, foes, weapon) <= r.FleeHealth:
		cost := fightCost(mobs, foes, weapon)
		why = fmt.Sprintf("%s with %d more mobs near: a fight with all of them would cost about %g health (health %g would fall to %g, at or below %g), so it breaks off", what, len(foes)-1, cost, w.Player.Health, w.Player.Health-cost, r.FleeHealth)
	default:
		if comes && best > fightNear {
			return Invocation{}, "", false
		}
		return Invocation{Skill: "fight", Params: params}, fmt.Sprintf("%s; health %g and a weapon that hits for %g", what, w.Player.Health, weapon), true
	}
	if _, ok := path.RunFrom(w, w.Feet(), near.Pos, best+DefaultFleeDistance); ok {
		params["distance"] = DefaultFleeDistance
		return Invocation{Skill: "flee", Params: params}, why, true
	}
	// Cornered: no walk leads away without passing the mob.
	if seal, ok := path.Seal(w, w.Feet()); ok {
		if cover, ok := path.SealWith(w.Inventory, len(seal)); ok {
			return Invocation{Skill: "wall_in"}, fmt.Sprintf("%s; cornered (no walk leads %d blocks farther from it): walling in with %d %s", why, DefaultFleeDistance, len(seal), cover), true
		}
	}
	if k.Attack.Kind == rules.AttackExplode {
		// No room for the full run and no wall: back off at least out of
		// its cancel distance (beyond 7 blocks its fuse stops,
		// EntityAICreeperSwell.updateTask), as far as the tunnel goes.
		back := max(minFleeDistance, math.Ceil(k.Attack.CancelDistance+1-best))
		if _, ok := path.RunFrom(w, w.Feet(), near.Pos, best+back); ok {
			params["distance"] = int(back)
			return Invocation{Skill: "flee", Params: params}, fmt.Sprintf("%s; cornered (no walk leads %d blocks farther from it) and no wall to put up: backing off %g blocks", why, DefaultFleeDistance, back), true
		}
	}
	if comes && best > fightNear {
		return Invocation{}, "", false // cornered: it is met when it comes
	}
	return Invocation{Skill: "fight", Params: params},
		fmt.Sprintf("%s; cornered (no walk leads %d blocks farther from it) and no wall to put up: fighting back with a weapon that hits for %g", why, DefaultFleeDistance, weapon), true
}

// foe is a mob that would join a fight where the bot stands, and how far
// it is.
type foe struct {
	e world.Entity
	k rules.MobKind
	d float64
}

// fightCost is the health a fight against several mobs would cost the bot
// with a weapon that hits for weapon: it kills them one after another,
// nearest first (the one it faces is the nearest); each takes its health
// over the weapon's damage in hits (rounded up), one full hit every
// hurt_cooldown ticks (a hurt mob ignores weaker hits for 10 ticks,
// EntityLivingBase.attackEntityFrom); meanwhile each mob still alive
// hurts the bot as config/mobs.yaml says — a zombie or spider for its
// damage every attack interval (EntityAIAttackOnCollide's attackTick 20,
// EntityMob.attackEntity's attackTime 20), a skeleton an arrow every shot
// interval (EntityAIArrowAttack) — from the start of the fight until it
// dies, its first hit at once; a creeper that walks to its swell distance
// and burns its fuse (EntityAICreeperSwell, fuse 30 ticks) before its
// turn comes explodes there (Explosion.doExplosionA: 10 at 3 blocks). The
// knockback of each hit, which keeps a zombie off for a few ticks, is
// left out: the cost is the most the fight takes.
func fightCost(mobs *rules.Mobs, foes []foe, weapon float64) float64 {
	order := slices.Clone(foes)
	slices.SortStableFunc(order, func(a, b foe) int { return cmp.Compare(a.d, b.d) })
	cooldown := float64(max(mobs.Combat.HurtCooldown, 1))
	hits, cost := 0.0, 0.0
	for _, f := range order {
		health := f.e.Health
		if health <= 0 {
			health = f.k.Health
		}
		hits += math.Ceil(health / max(weapon, 0.5))
		dies := (hits - 1) * cooldown // ticks from the first hit to its death
		a := f.k.Attack
		switch a.Kind {
		case rules.AttackExplode:
			walk := max(f.d-a.SwellDistance, 0) / max(f.k.WalkSpeed(), 0.01)
			if dies >= walk+float64(a.Fuse) {
				cost += rules.ExplosionDamage(a.ExplosionPower, a.SwellDistance)
			}
		case rules.AttackRanged:
			cost += a.ArrowDamage(f.d) * (math.Floor(dies/max(float64(a.ShotInterval(f.d)), 1)) + 1)
		default:
			cost += a.Damage * (math.Floor(dies/max(float64(a.Interval), 1)) + 1)
		}
	}
	return cost
}

// fightNear is how near a mob that walks to the bot must be for the
// defend reflex to fight it: 4 blocks, a step or two beyond the 3 of a
// player's reach (config/mobs.yaml combat.reach), inside the guard's
// second line (3 blocks), so a zombie coming is hit where it arrives.
const fightNear = 4

// minFleeDistance is the flee skill's least distance (config/skills/flee.yaml).
const minFleeDistance = 4

// shelterPeek is how near (in blocks) a hostile mob keeps the bot in its
// shelter by day: four times the defend reflex's default range (a zombie
// walks it in 14 s; the sun burns one in about 20).
const shelterPeek = 4 * DefaultDefendRange

// shelterLinger bounds how long after the night's end a mob near the pit
// keeps the bot in (a minute: the sun has burnt the zombies and skeletons
// in the open by then; a creeper or one in the shade is the defend
// reflex's).
const shelterLinger = 1200

// nearestHostile is the nearest mob of the mob table within shelterPeek
// blocks that is hostile by day (a spider is not), and how far it is.
func (r ShelterReflex) nearestHostile(w *world.Snapshot) (world.Entity, float64, bool) {
	mobs := r.mobs()
	var near world.Entity
	best := math.Inf(1)
	for _, e := range w.Entities {
		k, ok := mobs.Kind(e.Name)
		if e.Kind != world.EntityMob || !ok || k.HostileLightMax < mobs.Light.Max {
			continue
		}
		if d := math.Sqrt(e.Pos.DistSq(w.Player.Pos)); d <= shelterPeek && d < best {
			near, best = e, d
		}
	}
	return near, best, !math.IsInf(best, 1)
}

// ShelterReflex walls the bot in for the night: from the time of day From
// until Until (wrapping past midnight when From > Until), a bot in the
// open runs the shelter skill (a pit with a roof); a bot walled in waits
// there, half a minute at a time (mining a block of its walls each time
// where it can), until Until. By day, a bot still walled in climbs out
// (the unstuck skill, first attempt); in the first minute after Until, a
// mob hostile by day within 32 blocks keeps it in (mining and waiting)
// while the sun burns the zombies and skeletons, and so does one in the
// last minute before From. Where the time of day is
// not known (a snapshot's time 0 is sunrise) it never fires.
//
// Used by pointer, it follows the plan (PlanWatcher): when the planner's
// last step was to wait walled in (the shelter skill with a wait: the
// plan waits for the night's spiders), a bot walled in by day stays, and
// the planner says when it goes out.
type ShelterReflex struct {
	From, Until int64
	// Mobs is the mob table (nil = the shipped one): a mob hostile by day
	// within 32 blocks keeps the bot in its shelter a minute longer.
	Mobs *rules.Mobs

	// planWaits: the planner's last decision waits walled in.
	planWaits bool
}

var (
	_ Reflex      = ShelterReflex{}
	_ PlanWatcher = (*ShelterReflex)(nil)
)

// Planned implements PlanWatcher.
func (r *ShelterReflex) Planned(_ *world.Snapshot, dec Decision) {
	r.planWaits = waitsWalledIn(dec.Invocation)
}

// waitsWalledIn reports whether an invocation is the shelter skill asked
// to wait walled in.
func waitsWalledIn(inv *Invocation) bool {
	if inv == nil || inv.Skill != "shelter" {
		return false
	}
	switch n := inv.Params["wait"].(type) {
	case int:
		return n > 0
	case float64:
		return n > 0
	}
	return false
}

// Name implements Reflex.
func (ShelterReflex) Name() string { return "shelter" }

func (r ShelterReflex) mobs() *rules.Mobs {
	if r.Mobs == nil {
		return rules.Default().Mobs
	}
	return r.Mobs
}

// Fire implements Reflex.
func (r ShelterReflex) Fire(w *world.Snapshot) (Invocation, string, bool) {
	t := w.TimeOfDay
	var night bool
	var left int64
	if r.From <= r.Until {
		night, left = t >= r.From && t < r.Until, r.Until-t
	} else {
		night = t >= r.From || t < r.Until
		left = (r.Until - t + 24000) % 24000
	}
	if !night {
		if r.planWaits || !path.Enclosed(w, w.Feet()) {
			return Invocation{}, "", false
		}
		// The night is over and the bot is still in its shelter: it
		// climbs out, as a player does in the morning, rather than
		// leaving it to the first walk (a plan that builds or looks
		// around from the bottom of a pit finds no room there) — once no
		// hostile mob is near the pit (zombies and skeletons burn in the
		// morning sun; a creeper does not).
		if e, d, ok := r.nearestHostile(w); ok && (t-r.Until+24000)%24000 < shelterLinger {
			return Invocation{Skill: "shelter", Params: map[string]any{"wait": shelterWaitMax}},
				fmt.Sprintf("day (time of day %d), but a %s (entity %d) is %.1f blocks away: staying walled in, mining its walls where it can and waiting %d ticks", t, e.Name, e.ID, d, shelterWaitMax), true
		}
		// The last minute before the night, walled in (the defend reflex
		// walled it in against a mob) with a mob hostile by day near: it
		// stays, as the night's shelter would put it back behind walls a
		// minute later; climbing out, it met the mob and walled in again,
		// over and over until dusk.
		if e, d, ok := r.nearestHostile(w); ok && (r.From-t+24000)%24000 <= shelterLinger {
			return Invocation{Skill: "shelter", Params: map[string]any{"wait": shelterWaitMax}},
				fmt.Sprintf("day (time of day %d), the night %d ticks off and a %s (entity %d) %.1f blocks away: staying walled in, mining its walls where it can and waiting %d ticks", t, (r.From-t+24000)%24000, e.Name, e.ID, d, shelterWaitMax), true
		}
		// Walled in by day with a mob near (the defend reflex walled it in
		// a tunnel), hurt under DefaultEatHealBelow and healing (food at
		// regen_min_food, 8, or more: a point every 86 to 218 ticks by the
		// health missing, config/food.yaml; the eat reflex sees to the food): it heals behind its wall first rather
		// than dig out to the mob half dead. Not healing, it would wait
		// for nothing.
		if e, d, ok := r.nearestHostile(w); ok && w.Player.Health < DefaultEatHealBelow && int(w.Player.Food) >= rules.Default().Food.Stats.RegenMinFood {
			return Invocation{Skill: "shelter", Params: map[string]any{"wait": shelterWaitMax}},
				fmt.Sprintf("day (time of day %d), walled in with health %g and a %s (entity %d) %.1f blocks away: healing behind the walls, mining them where it can and waiting %d ticks", t, w.Player.Health, e.Name, e.ID, d, shelterWaitMax), true
		}
		return Invocation{Skill: "unstuck", Params: map[string]any{"attempt": 0, "distance": DefaultUnstuckDistance}},
			fmt.Sprintf("day (time of day %d, night from %d to %d) and the bot is walled in: climbing out", t, r.From, r.Until), true
	}
	if path.Enclosed(w, w.Feet()) {
		wait := min(left, shelterWaitMax)
		return Invocation{Skill: "shelter", Params: map[string]any{"wait": int(wait)}},
			fmt.Sprintf("night (time of day %d, until %d): walled in, mining its walls where it can and waiting %d ticks", t, r.Until, wait), true
	}
	return Invocation{Skill: "shelter"}, fmt.Sprintf("night falls (time of day %d, from %d to %d) and the bot is in the open", t, r.From, r.Until), true
}

// DefaultEscapeAir is the escape reflex's default: under water, the bot
// leaves at 150 ticks of air or less, half of a full supply (300, 15 s).
// The way out has 7.5 s before the first drowning hit and 10 s more
// before a bot at full health drowns; a bot that dives on purpose (for
// clay, a bucket) has 7.5 s to work.
const DefaultEscapeAir = 150

// EscapeReflex leaves water and lava that would kill the bot: at once
// when its body touches lava (4 damage every 10 ticks: 20 health lasts
// 2.5 s), and when its eyes are under water with Air ticks of air or
// fewer left (world.Player.Air; the supply drops a tick a tick under
// water). It runs the escape skill, a walk to the nearest place to stand
// on dry ground.
type EscapeReflex struct {
	// Air: under water the reflex fires at this air supply or less
	// (0..300; 300 leaves at once).
	Air int
}

var _ Reflex = EscapeReflex{}

// Name implements Reflex.
func (EscapeReflex) Name() string { return "escape" }

// Fire implements Reflex.
func (r EscapeReflex) Fire(w *world.Snapshot) (Invocation, string, bool) {
	switch {
	case path.InLava(w):
		return Invocation{Skill: "escape"}, fmt.Sprintf("in lava at %v, health %g", w.Feet(), w.Player.Health), true
	case path.EyesInWater(w) && w.Player.Air <= r.Air:
		return Invocation{Skill: "escape"}, fmt.Sprintf("under water at %v with %d ticks of air left, at or below %d", w.Feet(), w.Player.Air, r.Air), true
	}
	return Invocation{}, "", false
}
