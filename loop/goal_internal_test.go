package loop

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSkillRunMet: the run clause needs the goal's invocation, a Success
// verdict, and, for a skill that declares checkable effects, recorded checks
// that all hold.
func TestSkillRunMet(t *testing.T) {
	g := Goal{Skill: &Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:clay"}}}
	inv := &Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:clay", "radius": 8}}
	ok := []EffectCheck{{Effect: "x", OK: true}}
	tests := []struct {
		name      string
		g         Goal
		rec       StepRecord
		checkable bool
		want      bool
	}{
		{"success with its effects observed", g, StepRecord{Invocation: inv, Verdict: Success, Effects: ok}, true, true},
		{"effects unmet", g, StepRecord{Invocation: inv, Verdict: EffectsUnmet, Effects: []EffectCheck{{Effect: "x"}}}, true, false},
		{"action failed", g, StepRecord{Invocation: inv, Verdict: ActionFailed}, true, false},
		{"noop", g, StepRecord{Invocation: inv, Verdict: Noop}, true, false},
		{"success without checks of a skill that declares effects", g, StepRecord{Invocation: inv, Verdict: Success}, true, false},
		{"success with a failed check", g, StepRecord{Invocation: inv, Verdict: Success, Effects: []EffectCheck{{OK: true}, {OK: false}}}, true, false},
		{"success of a skill without checkable effects", g, StepRecord{Invocation: inv, Verdict: Success}, false, true},
		{"action failed of a skill without checkable effects", g, StepRecord{Invocation: inv, Verdict: ActionFailed}, false, false},
		{"skill failed of a skill without checkable effects", g, StepRecord{Invocation: inv, Verdict: SkillFailed}, false, false},
		{"rejected with holding checks", g, StepRecord{Invocation: inv, Verdict: Rejected, Effects: ok}, true, false},
		{"another skill", g, StepRecord{Invocation: &Invocation{Skill: "chop_tree"}, Verdict: Success, Effects: ok}, true, false},
		{"other parameters", g, StepRecord{Invocation: &Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:dirt"}}, Verdict: Success, Effects: ok}, true, false},
		{"no run clause", Goal{}, StepRecord{Invocation: inv, Verdict: Success, Effects: ok}, true, false},
		{"no invocation", g, StepRecord{Verdict: PlannerError}, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.g.skillRunMet(tc.rec, tc.checkable))
		})
	}
}

func TestInventoryChange(t *testing.T) {
	got := InventoryChange(map[string]int{"minecraft:log": 5, "minecraft:stick": 2, "minecraft:dirt": 1},
		map[string]int{"minecraft:log": 1, "minecraft:stick": 2, "minecraft:planks": 8})
	if want := "-1 minecraft:dirt, -4 minecraft:log, +8 minecraft:planks"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := InventoryChange(nil, nil); got != "" {
		t.Fatalf("no change: got %q", got)
	}
}
