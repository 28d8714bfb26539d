package registry

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Executable is one version of a skill bound to what runs it: a Go implementation
// or the template executor. It holds a copy of the spec taken when it was
// fetched, so later registry changes do not alter an invocation in flight.
type Executable struct {
	spec  *skills.Spec
	impl  skills.Implementation
	tiers *rules.Tiers
}

// Name is the skill name.
func (s *Executable) Name() string { return s.spec.Name }

// Version is the spec version.
func (s *Executable) Version() int { return s.spec.Version }

// Spec returns a copy of the spec.
func (s *Executable) Spec() *skills.Spec { return s.spec.Clone() }

// Describe returns the planner-facing description.
func (s *Executable) Describe() Description { return describe(s.spec) }

// Suggestion is what a skill proposes for one invocation.
type Suggestion struct {
	// Params are the validated parameters with defaults applied; the loop
	// needs them to check effects that reference parameters.
	Params  skills.Params
	Actions []action.Action
}

// Suggest turns an invocation into actions: it validates and defaults the
// parameters against the spec, checks the spec's preconditions on the
// snapshot, runs the implementation (a panic becomes a *skills.Failure with
// CodePanic, never a crash), and checks that every action is of a kind the
// spec declares in emits and passes its own validation. Failures are
// *skills.Failure values naming the skill.
func (s *Executable) Suggest(w *world.Snapshot, raw map[string]any) (sug Suggestion, err error) {
	if w == nil {
		return Suggestion{}, s.fail(skills.Failf(skills.CodeInternal, "no world snapshot"))
	}
	params, err := s.spec.ResolveParams(raw)
	if err != nil {
		return Suggestion{}, s.fail(err)
	}
	if err := skills.CheckPreconditions(s.spec, w, s.tiers); err != nil {
		return Suggestion{}, s.fail(err)
	}
	acts, err := s.run(w, params)
	if err != nil {
		return Suggestion{Params: params}, s.fail(err)
	}
	emits := s.spec.EmitSet()
	for i, a := range acts {
		if a == nil {
			return Suggestion{Params: params}, s.fail(skills.Failf(skills.CodeInternal, "action %d is nil", i))
		}
		if !emits.Has(a.Kind()) {
			return Suggestion{Params: params}, s.fail(skills.Failf(skills.CodeUndeclared,
				"emitted %s (action %d), which the spec does not list in emits %v", a.Kind(), i, s.spec.Emits))
		}
		if err := a.Validate(); err != nil {
			return Suggestion{Params: params}, s.fail(skills.Failf(skills.CodeInternal, "action %d (%s) is invalid: %v", i, a.Kind(), err))
		}
	}
	return Suggestion{Params: params, Actions: acts}, nil
}

func (s *Executable) run(w *world.Snapshot, p skills.Params) (acts []action.Action, err error) {
	defer func() {
		if v := recover(); v != nil {
			acts = nil
			err = skills.Failf(skills.CodePanic, "implementation panicked: %v\n%s", v, debug.Stack())
		}
	}()
	return s.impl.SuggestActions(w, p)
}

// fail makes err a *skills.Failure naming this skill.
func (s *Executable) fail(err error) error {
	var f *skills.Failure
	if errors.As(err, &f) {
		c := *f
		c.Skill = s.spec.Key()
		return &c
	}
	return &skills.Failure{Skill: s.spec.Key(), Code: skills.CodeInternal, Msg: fmt.Sprint(err)}
}
