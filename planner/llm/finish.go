package llm

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Finish is what the model said when it ended the run, after the planner
// checked its claims against the world.
type Finish struct {
	// Met: the model says the goal is met, and every claim it made holds.
	Met bool
	// Reason is the model's account.
	Reason string
	// Checked lists the claims that were checked and held, in words
	// ("4 minecraft:coal in the inventory", "a formed coke_oven nearby").
	Checked []string
}

// Finished returns how the model ended the run, if it did (finish
// accepted). A run whose goal is in words (loop.Goal.Words) is met when
// this says Met.
func (p *Planner) Finished() (Finish, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished == nil {
		return Finish{}, false
	}
	f := *p.finished
	f.Checked = slices.Clone(f.Checked)
	return f, true
}

// wordsNote is the system prompt's word on a goal in words.
const wordsNote = `

The goal is in words: the agent cannot check it by itself. When it is met, call finish with met: true and claim what shows it: items (inventory counts, e.g. {"minecraft:coal": 4}) and machines (kinds standing formed nearby, e.g. ["coke_oven"]). The claims are checked against the world and sent back when they do not hold. When the goal cannot be reached, call finish with met: false.`

// finish checks a finish call's claims against the observation the step
// started from. It returns the decision, or why the call is sent back.
func (s *stepRun) finish(a ToolArgs) toolOutcome {
	reason := oneLine(s.p.client.key.redact(a.Reason), maxErrorText)
	if reason == "" {
		reason = "the model finished the run"
	}
	met := a.Met != nil && *a.Met
	if s.goal.Words && a.Met == nil {
		why := "finish needs met: true (the goal is met) or false (it cannot be reached) for a goal in words"
		return toolOutcome{result: feedback("rejected: " + why + "."), problem: why}
	}
	var checked, failed []string
	snap := s.obs.Snapshot
	items := make([]string, 0, len(a.Items))
	for k := range a.Items {
		items = append(items, k)
	}
	sort.Strings(items)
	for _, id := range items {
		n := a.Items[id]
		m, err := world.ParseItemMatcher(id)
		if err != nil {
			failed = append(failed, fmt.Sprintf("item %q: %v", oneLine(id, maxEchoID), err))
			continue
		}
		have := 0
		if snap != nil {
			have = snap.Inventory.Count(m)
		}
		if have < n {
			failed = append(failed, fmt.Sprintf("%d %s claimed, the inventory holds %d", n, id, have))
			continue
		}
		checked = append(checked, fmt.Sprintf("%d %s in the inventory", n, id))
	}
	for _, kind := range a.Machines {
		found := false
		if snap != nil {
			found = slices.ContainsFunc(snap.Machines, func(m world.Machine) bool { return m.Kind == kind && m.Formed })
		}
		if !found {
			failed = append(failed, fmt.Sprintf("no formed %s is nearby", oneLine(kind, maxEchoID)))
			continue
		}
		checked = append(checked, fmt.Sprintf("a formed %s nearby", kind))
	}
	if met {
		if l := s.obs.Last; l != nil && (l.Verdict == loop.EffectsUnmet || l.Verdict == loop.ActionFailed || l.Verdict == loop.SkillFailed) {
			failed = append(failed, fmt.Sprintf("the last step (%s) ended %s", lastInvocation(l), l.Verdict))
		}
	}
	if len(failed) > 0 {
		why := "finish claims that do not hold: " + strings.Join(failed, "; ")
		s.event("finish sent back: %s", why)
		return toolOutcome{result: feedback("rejected: " + why + ". Go on, or finish with what holds."), problem: why}
	}
	text := reason
	if s.goal.Words {
		if met {
			text = "the model says the goal is met"
			if len(checked) > 0 {
				text += " (checked: " + strings.Join(checked, ", ") + ")"
			}
		} else {
			text = "the model says the goal cannot be reached"
		}
		text += ": " + reason
	}
	s.p.finished = &Finish{Met: met, Reason: reason, Checked: checked}
	return toolOutcome{decision: &loop.Decision{Done: true, Reason: oneLine(text, maxErrorText)}}
}

func lastInvocation(l *loop.StepRecord) string {
	if l.Invocation == nil {
		return "no invocation"
	}
	return l.Invocation.String()
}
