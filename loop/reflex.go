package loop

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"

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

// EatReflex eats when the food bar is at or below Threshold and the
// inventory holds a food of the food table: it invokes the eat skill,
// which picks the food.
type EatReflex struct {
	// Threshold: the reflex fires at this food level or below (0..19).
	Threshold int
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
	if level > r.Threshold || level >= food.Stats.MaxFood {
		return Invocation{}, "", false
	}
	for _, st := range w.Inventory.Slots {
		if st.Count <= 0 {
			continue
		}
		if _, ok := food.Of(st); ok {
			return Invocation{Skill: "eat"}, fmt.Sprintf("food %d is at or below %d and the inventory holds food", level, r.Threshold), true
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
}

var _ Reflex = (*UnstuckReflex)(nil)

// Name implements Reflex.
func (*UnstuckReflex) Name() string { return "unstuck" }

// Fire implements Reflex.
func (r *UnstuckReflex) Fire(w *world.Snapshot) (Invocation, string, bool) {
	m := markOf(w)
	if !r.started || m.progressed(r.mark) {
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
