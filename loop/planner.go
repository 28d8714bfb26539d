package loop

import (
	"context"
	"errors"

	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Observation is what a planner sees at one step.
type Observation struct {
	Step     int             `json:"step"`
	Snapshot *world.Snapshot `json:"snapshot"`
	// Progress of the goal in this snapshot.
	Progress Progress `json:"progress"`
	// Last is the previous step's record (nil at the first step).
	Last *StepRecord `json:"last,omitempty"`
	// Blocked lists invocations that failed the same way twice without
	// gaining anything, or had nothing to do (a noop), and will be rejected
	// until their part of the world changes: the player's position, the
	// inventory, the tier, or the contents of a machine of a kind the skill
	// acts on.
	Blocked []Invocation `json:"blocked,omitempty"`
}

// Decision is a planner's answer: one invocation, or done.
type Decision struct {
	Invocation *Invocation `json:"invocation,omitempty"`
	Done       bool        `json:"done,omitempty"`
	Reason     string      `json:"reason,omitempty"`
	// Tree is the plan this decision is a step of, when the planner
	// reasons in sub-goals (the goal planner): the goal, its parts and the
	// chain of sub-goals down to the step chosen. The web view draws it.
	Tree *PlanNode `json:"tree,omitempty"`
	// Awaits is a step the plan wants and waits for the world to allow,
	// when it has one: a hunt for a mob that spawns only in the dark,
	// while the step chosen waits for the night (or does other work
	// meanwhile). A reflex that acts at night (HuntReflex) runs it when
	// the mob comes.
	Awaits *Invocation `json:"awaits,omitempty"`
	// Trace is what the planner did to decide (a model planner: the model,
	// its calls, tokens, latency, the skills it loaded). The loop copies it
	// into the step's record, also when Plan returns an error with it.
	Trace *PlannerTrace `json:"-"`
}

// PlannerTrace records how a planner reached one decision. Every field is
// optional; planners fill what they know.
type PlannerTrace struct {
	// Planner names the planner ("llm").
	Planner string `json:"planner,omitempty"`
	// Model is the model that answered.
	Model string `json:"model,omitempty"`
	// Calls counts the model calls made for this step (retries included).
	Calls int `json:"calls,omitempty"`
	// TokensIn and TokensOut are the prompt and completion tokens the
	// server reported over those calls.
	TokensIn  int64 `json:"tokens_in,omitempty"`
	TokensOut int64 `json:"tokens_out,omitempty"`
	// LatencyMS is the wall time spent waiting for the model, in ms.
	LatencyMS int64 `json:"latency_ms,omitempty"`
	// Loaded lists the skills whose instructions the planner read this
	// step (load_skill), and Resources the skill files it read
	// ("skill/path").
	Loaded    []string `json:"loaded,omitempty"`
	Resources []string `json:"resources,omitempty"`
	// Selected lists the knowledge skills selected for the goal and given
	// to the model in full.
	Selected []string `json:"selected,omitempty"`
	// Events are the notable things on the way, in order: an answer sent
	// back for correction and why, a retry after HTTP 429, a fallback.
	Events []string `json:"events,omitempty"`
}

// ErrStuck is the planner's answer when nothing it may try can bring the
// goal closer in this world (the skill the goal names had nothing to do;
// every way to an item is blocked). A planner wraps it with the reason
// (fmt.Errorf("%w: …", loop.ErrStuck)); the run ends Stuck with that reason
// in Outcome.Why, without a step.
var ErrStuck = errors.New("stuck")

// Planner chooses the next skill invocation. The catalog holds the skills
// available at the observed tier with the enabled packs; planners must pick
// from it (the loop rejects anything else).
type Planner interface {
	Plan(ctx context.Context, goal Goal, obs Observation, catalog []*registry.Description) (Decision, error)
}

// PlannerFunc adapts a function to the Planner interface.
type PlannerFunc func(ctx context.Context, goal Goal, obs Observation, catalog []*registry.Description) (Decision, error)

// Plan implements Planner.
func (f PlannerFunc) Plan(ctx context.Context, goal Goal, obs Observation, catalog []*registry.Description) (Decision, error) {
	return f(ctx, goal, obs, catalog)
}
