package loop

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math"

	"github.com/gtnh-agent/gtnh-agent/action"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Reflex is a survival response that preempts the plan. Before Run asks
// the planner for a step, it asks each configured reflex in order; the
// first that fires gives the invocation the loop runs instead, as a step
// of its own: traced like any other step, with the reflex's name and
// reason in StepRecord.Reflex, checked against the skill's effects and
// counted in the skill's statistics. The planner is asked again on the
// next step, so the plan resumes where it was.
//
// A reflex fires only when its skill is offered at the current tier and
// packs and the invocation is not blocked; a reflex whose step failed
// does not fire again until a planned step has run (a failing reflex must
// not take the run over).
type Reflex interface {
	// Name identifies the reflex in the trace and the configuration.
	Name() string
	// Fire looks at the world before a step and returns the invocation to
	// run now and why, or ok false to let the plan go on.
	Fire(w *world.Snapshot) (inv Invocation, reason string, ok bool)
}

// GuardExempt is implemented by a reflex whose steps face the mobs
// themselves (the defend reflex's fight, flee and wall_in). GuardFacing
// says, for one of its invocations, which mobs the step faces and whether
// it runs guarded at all: a guarded step runs under Config.Guard with
// those mobs left out (ipc.Guard.Facing), so another mob coming near ends
// it (a fight's walk up to a skeleton meets a zombie on the way); an
// unguarded one (a flight, a wall put up) runs without the guard, which
// would end it for the very mob it deals with.
type GuardExempt interface {
	Reflex
	GuardFacing(inv Invocation) (facing []int, guarded bool)
}

// ReflexTrace is a reflex step's part of the trace: which reflex fired and
// why.
type ReflexTrace struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// DefaultEatThreshold is the eat reflex's default: at a food level of 6
// or less a 1.7.10 player cannot sprint (EntityPlayerSP.onLivingUpdate
// needs foodLevel > 6 to sprint; config/food.yaml, sprint_min_food).
const DefaultEatThreshold = 6

// DefaultEatHealBelow: hurt below 14 health (three zombie hits from
// full), the bot eats to heal when its food level is under the 8 a GTNH
// player needs to heal at all (Hunger Overhaul's minHungerToHeal = 8;
// config/food.yaml, regen_min_food).
const DefaultEatHealBelow = 14

// EatReflex eats when the food bar is at or below Threshold, or when the
// bot is hurt (health under HealBelow) and the food level is under the
// one healing needs, and the inventory holds a food of the food table: it
// invokes the eat skill, which picks the food.
type EatReflex struct {
	// Threshold: the reflex fires at this food level or below (0..19).
	Threshold int
	// HealBelow: under this health the reflex also fires while the food
	// level is under regen_min_food (8 in GTNH), where a player stops healing
	// (0 = never for healing).
	HealBelow float64
	// Food is the food table (nil = the shipped one).
	Food *rules.Food
}

var _ Reflex = EatReflex{}

// Name implements Reflex.
func (EatReflex) Name() string { return "eat" }

// Fire implements Reflex.
func (r EatReflex) Fire(w *world.Snapshot) (Invocation, string, bool) {
	food := r.Food
	if food == nil {
		food = rules.Default().Food
	}
	level := int(w.Player.Food)
	hurt := w.Player.Health > 0 && w.Player.Health < r.HealBelow && level < food.Stats.RegenMinFood
	if level > r.Threshold && !hurt || level >= food.Stats.MaxFood {
		return Invocation{}, "", false
	}
	why := fmt.Sprintf("food %d is at or below %d and the inventory holds food", level, r.Threshold)
	if level > r.Threshold {
		why = fmt.Sprintf("health %g is under %g and food %d is under the %d healing needs: eating to heal", w.Player.Health, r.HealBelow, level, food.Stats.RegenMinFood)
	}
	for _, st := range w.Inventory.Slots {
		if st.Count <= 0 {
			continue
		}
		if _, ok := food.Of(st); ok {
			return Invocation{Skill: "eat"}, why, true
		}
	}
	return Invocation{}, "", false
}

// DefaultUnstuckSeconds is the unstuck reflex's default: more than 30
// seconds of game time (600 ticks) without progress. wait_for's default
// wait is 30 s, so one deliberate wait never looks stuck, while the
// unattended benchmark's bound of 60 s without progress leaves room for a
// recovery to finish.
const DefaultUnstuckSeconds = 30

// DefaultUnstuckDistance is how far (in blocks) the unstuck recovery goes
// by default: far enough to leave a pit, a pocket or a corner behind, near
// enough that the way there is short to dig.
const DefaultUnstuckDistance = 5

// unstuckMoved is how far (in blocks) the feet must have moved from where
// they were at the last progress to count as progress: a bot shuffling in
// place is not getting anywhere. mindcraft's unstuck mode counts a bot
// that moved less than 2 blocks as stuck.
const unstuckMoved = 2

// UnstuckReflex recovers a bot that makes no progress: when more than
// Seconds of game time (ticks, never the wall clock) passed since the
// world last changed the way work changes it — the feet moved more than 2
// blocks, the inventory, the tier or the dimension changed, or a nearby
// machine's contents moved — it runs the unstuck skill, which walks a few
// blocks away, digging or pillaring where no walking path leads (move_to's
// fallback). The recovery moves the bot, so the invocations the loop
// blocked until the world changes are tried again: the plan resumes
// re-planned from the new place. Each attempt goes in the next compass
// direction.
//
// An UnstuckReflex remembers the last progress between steps: use one per
// run, by pointer.
type UnstuckReflex struct {
	// Seconds: the reflex fires once more than this much game time passed
	// without progress (1..3600).
	Seconds int
	// Distance is how far the recovery goes, in blocks (0 =
	// DefaultUnstuckDistance).
	Distance int

	mark     progressMark
	since    int64
	started  bool
	attempts int
	// waiting: the planner's last decision waits on purpose for a step
	// the world does not allow yet (Decision.Awaits: the night's hunt).
	waiting bool
}

var (
	_ Reflex      = (*UnstuckReflex)(nil)
	_ PlanWatcher = (*UnstuckReflex)(nil)
)

// Planned implements PlanWatcher: a plan that waits on purpose for a step
// it names (walled in, or with wait_for) is not stuck while it waits.
func (r *UnstuckReflex) Planned(_ *world.Snapshot, dec Decision) {
	inv := dec.Invocation
	r.waiting = dec.Awaits != nil && inv != nil && (inv.Skill == "wait_for" || waitsWalledIn(inv))
}

// Name implements Reflex.
func (*UnstuckReflex) Name() string { return "unstuck" }

// Fire implements Reflex.
func (r *UnstuckReflex) Fire(w *world.Snapshot) (Invocation, string, bool) {
	m := markOf(w)
	if !r.started || r.waiting || m.progressed(r.mark) {
		r.mark, r.since, r.started = m, w.Tick, true
		return Invocation{}, "", false
	}
	idle := w.Tick - r.since
	if idle <= int64(r.Seconds)*action.TicksPerSecond {
		return Invocation{}, "", false
	}
	dist := r.Distance
	if dist <= 0 {
		dist = DefaultUnstuckDistance
	}
	attempt := r.attempts
	r.attempts++
	// The recovery is a fresh start: the clock runs again from now, so a
	// recovery that does not help is retried only after another stretch.
	r.mark, r.since = m, w.Tick
	why := fmt.Sprintf("no progress for %.1f s of game time (%d ticks since tick %d; more than %d s): the feet within %d blocks of %v, the inventory, tier and machines unchanged",
		float64(idle)/action.TicksPerSecond, idle, w.Tick-idle, r.Seconds, unstuckMoved, r.mark.pos)
	return Invocation{Skill: "unstuck", Params: map[string]any{"attempt": attempt, "distance": dist}}, why, true
}

// progressMark is what the unstuck reflex compares between steps.
type progressMark struct {
	pos       world.BlockPos
	dimension string
	tier      string
	inventory map[string]int
	machines  uint64
}

func markOf(w *world.Snapshot) progressMark {
	s := Summarize(w)
	h := fnv.New64a()
	for _, m := range w.Machines {
		b, _ := json.Marshal(printMachine(m))
		h.Write(b)
	}
	return progressMark{pos: s.Pos, dimension: s.Dimension, tier: s.TechState, inventory: s.Inventory, machines: h.Sum64()}
}

// progressed reports whether the world moved on from old.
func (m progressMark) progressed(old progressMark) bool {
	return m.pos.DistSq(old.pos) > unstuckMoved*unstuckMoved || m.dimension != old.dimension ||
		m.tier != old.tier || !maps.Equal(m.inventory, old.inventory) || m.machines != old.machines
}

// StepWatcher is a Reflex that learns from every finished step, planned or
// a reflex's: what the body reported (a death, where). Run calls Stepped
// after each step, before the next Fire.
type StepWatcher interface {
	Stepped(rec StepRecord)
}

// walkTicksPerBlock is how long the bot takes a block on foot: a 1.7.10
// player walks 4.317 blocks a second (0.2159 a tick).
const walkTicksPerBlock = 1 / 0.2159

// RecoverReflex goes back for what the bot dropped when it died, while the
// items last: a step whose result says the player died (the body's
// "died" and "died_at" details) leaves the items the bot held before that
// step lying where it died, and Forge's EntityItem removes them when their
// age reaches item_lifespan (6000 ticks, config/mobs.yaml). The reflex
// runs recover_drops to walk there as long as the walk, at the player's
// walking speed with half again for the way, ends before they are gone;
// on arriving (within 1.5 blocks), once they are gone, or when the world
// shows lava where they fell (they burned), it lets the death go. It
// counts from the tick the fatal step started, the earliest the items can
// have fallen.
//
// It does not walk into what killed the bot: while a hostile mob is
// within GuardRange of the way from the bot to the items (its follow
// range: it would see the bot and chase it), the reflex holds back and
// the plan goes on; it goes once the way is clear, if the items still
// last.
//
// A RecoverReflex remembers the last death between steps: use one per
// run, by pointer.
type RecoverReflex struct {
	// Lifespan is how long dropped items last, in ticks (0: the shipped
	// rules' item_lifespan).
	Lifespan int64
	// Mobs is the mob table (nil = the shipped one): which mobs are
	// hostile, and how far they see.
	Mobs *rules.Mobs
	// Remembered is a death from before the run (the memory file's last):
	// at the first look it is a death to go back to when the server's
	// world age tells how long ago it was (both known) and the items may
	// still lie there.
	Remembered *RememberedDeath

	death *lostItems
}

// RememberedDeath is a death a RecoverReflex learns of from memory.
type RememberedDeath struct {
	At       world.Vec3
	Items    int
	WorldAge int64
}

// lostItems is a death the reflex may still go back to.
type lostItems struct {
	tick  int64
	at    world.Vec3
	items int
}

var (
	_ Reflex      = (*RecoverReflex)(nil)
	_ StepWatcher = (*RecoverReflex)(nil)
)

// Name implements Reflex.
func (*RecoverReflex) Name() string { return "recover" }

// Stepped implements StepWatcher: a result that says the player died,
// with where, after a step that started holding items, is a death to go
// back to.
func (r *RecoverReflex) Stepped(rec StepRecord) {
	for _, res := range rec.Results {
		if died, _ := res.Details["died"].(bool); !died {
			continue
		}
		at, ok := vecOf(res.Details["died_at"])
		held := 0
		for _, n := range rec.Before.Inventory {
			held += n
		}
		if !ok || held == 0 {
			r.death = nil // nothing to go back for, or no place to go
			return
		}
		r.death = &lostItems{tick: rec.Before.Tick, at: at, items: held}
		return
	}
}

// vecOf reads a position from a result's details: a world.Vec3 in the
// process, an object with x, y and z through a remote body.
func vecOf(v any) (world.Vec3, bool) {
	switch p := v.(type) {
	case world.Vec3:
		return p, true
	case map[string]any:
		x, ok1 := p["x"].(float64)
		y, ok2 := p["y"].(float64)
		z, ok3 := p["z"].(float64)
		return world.Vec3{X: x, Y: y, Z: z}, ok1 && ok2 && ok3
	}
	return world.Vec3{}, false
}

// Fire implements Reflex.
func (r *RecoverReflex) Fire(w *world.Snapshot) (Invocation, string, bool) {
	if m := r.Remembered; m != nil {
		r.Remembered = nil
		age := w.WorldAge - m.WorldAge
		if r.death == nil && m.Items > 0 && m.WorldAge > 0 && w.WorldAge > 0 && age >= 0 {
			r.death = &lostItems{tick: w.Tick - age, at: m.At, items: m.Items}
		}
	}
	d := r.death
	if d == nil {
		return Invocation{}, "", false
	}
	life := r.Lifespan
	if life <= 0 {
		life = int64(rules.Default().Mobs.Player.ItemLifespan)
	}
	age := w.Tick - d.tick
	dist := math.Sqrt(w.Player.Pos.DistSq(d.at))
	walk := int64(math.Ceil(dist * walkTicksPerBlock * 1.5))
	switch {
	case dist <= 1.5:
		r.death = nil // there: what lay here is picked up, or was gone
		return Invocation{}, "", false
	case age+walk >= life:
		r.death = nil // gone, or gone before the bot could get there
		return Invocation{}, "", false
	case inLava(w, d.at):
		r.death = nil // burned where they fell
		return Invocation{}, "", false
	}
	mobs := r.Mobs
	if mobs == nil {
		mobs = rules.Default().Mobs
	}
	for _, e := range w.EntitiesOfKind(world.EntityMob) {
		if k, ok := mobs.Kind(e.Name); ok && !k.Passive() && FromWay(e.Pos, w.Player.Pos, d.at) <= GuardRange(k) {
			return Invocation{}, "", false // it would meet the bot on the way, or by the items
		}
	}
	at := d.at.Block()
	why := fmt.Sprintf("died at %v %d ticks ago holding %d items; they lie there until tick %d (item_lifespan %d), %.0f blocks away, no hostile mob near the way",
		at, age, d.items, d.tick+life, life, dist)
	return Invocation{Skill: "recover_drops", Params: map[string]any{"x": at.X, "y": at.Y, "z": at.Z}}, why, true
}

// inLava reports whether the world shows lava where items fell at p (the
// block of p or the one above, where a body in lava touches it): dropped
// items burn there within two ticks (EntityItem's 5 health against lava's
// 4 a tick, config/mobs.yaml's item_health), so nothing is left to go
// back for.
func inLava(w *world.Snapshot, p world.Vec3) bool {
	at := p.Block()
	for _, b := range []world.BlockPos{at, at.Up()} {
		if w.Known(b) {
			if id := w.BlockAt(b).ID; id == "minecraft:lava" || id == "minecraft:flowing_lava" || w.BlockAt(b).HasTag("lava") {
				return true
			}
		}
	}
	return false
}

// cookRadius is how near a furnace must be for the cook reflex: smelt's
// own search radius.
const cookRadius = 16

// CookReflex cooks raw food before the bot eats it: when the food level is
// at or below Threshold (the eat reflex's), every food held is raw meat or
// fish that a furnace cooks into a better food (config/smelting.yaml,
// config/food.yaml: a raw beef restores 3, a cooked one 8), a furnace is
// in sight within 16 blocks or in the inventory, and the inventory holds
// fuel, it runs smelt for the cooked food. The eat reflex eats it on the
// next step. When the cooking fails the loop holds the reflex back until
// a planned step has run, so the eat reflex eats the food raw meanwhile.
type CookReflex struct {
	// Threshold: the reflex acts at this food level or below (0..19).
	Threshold int
	// Rules are the food and furnace tables (nil = the shipped ones).
	Rules *rules.Set
}

var _ Reflex = CookReflex{}

// Name implements Reflex.
func (CookReflex) Name() string { return "cook" }

// Fire implements Reflex.
func (r CookReflex) Fire(w *world.Snapshot) (Invocation, string, bool) {
	set := r.Rules
	if set == nil {
		set = rules.Default()
	}
	food, sm := set.Food, set.Smelt
	level := int(w.Player.Food)
	if level > r.Threshold || level >= food.Stats.MaxFood {
		return Invocation{}, "", false
	}
	raw := map[string]int{} // the cooked food → how many raw ones make it
	var first, rawName string
	var gain int
	fuel, furnace := false, false
	for _, st := range w.Inventory.Slots {
		if st.Count <= 0 {
			continue
		}
		fuel = fuel || sm.BurnTicks(st) > 0
		furnace = furnace || st.ID == "minecraft:furnace"
		f, ok := food.Of(st)
		if !ok {
			continue
		}
		rec, cooks := sm.Recipe(st)
		id, meta, err := world.SplitID(rec.Output)
		if err != nil {
			id, meta = rec.Output, 0
		}
		cooked, better := food.Of(world.NewStack(id, meta, 1))
		if !cooks || !better || cooked.Hunger <= f.Hunger {
			return Invocation{}, "", false // food that needs no cooking: the eat reflex eats it
		}
		if first == "" {
			first, rawName, gain = rec.Output, st.ID, cooked.Hunger-f.Hunger
		}
		raw[rec.Output] += st.Count
	}
	if first == "" || !fuel {
		return Invocation{}, "", false
	}
	for _, m := range w.Machines {
		if m.Kind == world.MachineFurnace && m.Pos.Center().DistSq(w.Player.Pos) <= cookRadius*cookRadius {
			furnace = true
		}
	}
	if !furnace {
		return Invocation{}, "", false
	}
	n := min(raw[first], 64)
	return Invocation{Skill: "smelt", Params: map[string]any{"item": first, "count": n}},
		fmt.Sprintf("food %d is at or below %d and the food held is raw: cooking %d %s into %s (%d more a piece)", level, r.Threshold, n, rawName, first, gain), true
}
