package skills

import (
	"fmt"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Validate checks a spec built or changed in code (the loader checks files
// itself, with positions). It returns every problem found, joined.
func (s *Spec) Validate(tiers *rules.Tiers) error {
	if tiers == nil {
		tiers = rules.Default().Tiers
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if !nameRE.MatchString(s.Name) {
		bad("name %q must be lowercase letters, digits and underscores", s.Name)
	}
	if s.Version < 1 {
		bad("version must be at least 1, got %d", s.Version)
	}
	switch s.Status {
	case StatusActive, StatusCandidate, StatusDeprecated:
	default:
		bad("status must be active, candidate or deprecated, got %q", s.Status)
	}
	switch s.Origin {
	case OriginManual, OriginSynthesized:
	default:
		bad("origin must be manual or synthesized, got %q", s.Origin)
	}
	if strings.TrimSpace(s.Description) == "" {
		bad("description must not be empty")
	}
	for _, name := range s.ParamNames() {
		ps := s.Params[name]
		if !ps.Type.Valid() {
			bad("params.%s: unknown type %q", name, ps.Type)
			continue
		}
		if !ps.Required {
			if _, err := ps.Check(ps.Default); err != nil {
				bad("params.%s.default: %v", name, err)
			}
		}
	}
	for _, expr := range s.Preconditions.TechStatesAnyOf {
		if _, err := tiers.ParseRange(expr); err != nil {
			bad("preconditions.tech_states_any_of: %v", err)
		}
	}
	for _, t := range s.Preconditions.RequiredTools {
		if _, err := world.ParseItemMatcher(t.ItemID); err != nil {
			bad("preconditions.required_tools: %v", err)
		}
	}
	e := s.Effects
	validateSet(EffectSet{e.InventoryDelta, e.Blocks, e.Machines}, s, "effects.", bad)
	if e.AnyOf != nil && len(e.AnyOf) < 2 {
		bad("effects.any_of: list at least two alternatives (a single one belongs at the top level of effects)")
	}
	for i, alt := range e.AnyOf {
		if alt.Empty() {
			bad("effects.any_of[%d]: an alternative needs inventory_delta, blocks or machines", i)
		}
		validateSet(alt, s, fmt.Sprintf("effects.any_of[%d].", i), bad)
	}
	if pc := e.Player; pc != nil {
		switch {
		case pc.Food == nil && !pc.Sheltered:
			bad("effects.player: give food.min_increase or sheltered")
		case pc.Food != nil && pc.Food.MinIncrease == nil:
			bad("effects.player: give food.min_increase")
		case pc.Food != nil:
			if err := checkAmount(pc.Food.MinIncrease, s, 1); err != nil {
				bad("effects.player.food.min_increase: %v", err)
			}
		}
	}
	if rt := s.Effects.TechDelta.ReachesTier; rt != "" {
		if _, ok := tiers.Index(rt); !ok {
			bad("effects.tech_delta.reaches_tier: unknown tier %q", rt)
		}
	}
	for _, k := range s.Emits {
		if !k.Valid() {
			bad("emits: unknown action type %q", k)
		}
	}
	switch s.Implementation {
	case ImplGo:
		if len(s.Emits) == 0 {
			bad("emits: a go skill must list the action types it may emit")
		}
		if len(s.ActionSequence) > 0 {
			bad("action_sequence: a go skill must not have one")
		}
	case ImplTemplate:
		if len(s.ActionSequence) == 0 {
			bad("action_sequence: a template skill needs one")
		}
		emits := s.EmitSet()
		for i, t := range s.ActionSequence {
			if !t.Kind.Valid() {
				bad("action_sequence[%d]: unknown action type %q", i, t.Kind)
			} else if !emits.Has(t.Kind) {
				bad("action_sequence[%d]: %s is not listed in emits", i, t.Kind)
			}
		}
	default:
		bad("implementation must be go or template, got %q", s.Implementation)
	}
	if len(problems) > 0 {
		return fmt.Errorf("skill %s: %s", s.Key(), strings.Join(problems, "; "))
	}
	return nil
}
