package loop

import (
	"fmt"

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
