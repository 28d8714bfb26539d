package quests

import (
	"fmt"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/loop"
)

// Judge turns quests into stages for the goal parser: what the agent can
// check from its world model becomes item goals, the rest a reason to
// skip.
type Judge struct {
	Book *Book
	// Item checks that the agent knows an item matcher ("minecraft:flint",
	// "ore:plankWood"); nil accepts every item.
	Item func(matcher string) error
	// Checkbox: the user allows the agent to tick checkbox tasks
	// (--quests-checkbox); otherwise a quest with one is skipped.
	Checkbox bool
}

var _ loop.QuestSource = Judge{}

// QuestStages implements loop.QuestSource: the quest after every quest it
// needs, in prerequisite order.
func (j Judge) QuestStages(name string) ([]loop.QuestStage, error) {
	q, err := j.Book.FindQuest(name)
	if err != nil {
		return nil, err
	}
	order, _ := j.Book.Order([]ID{q.ID})
	return j.stages(order), nil
}

// LineStages implements loop.QuestSource: the line's quests, each after
// the quests it needs (from other lines too), in prerequisite order.
func (j Judge) LineStages(name string) (string, []loop.QuestStage, error) {
	l, err := j.Book.FindLine(name)
	if err != nil {
		return "", nil, err
	}
	order, _ := j.Book.Order(l.Quests)
	return l.Name, j.stages(order), nil
}

func (j Judge) stages(order []*Quest) []loop.QuestStage {
	out := make([]loop.QuestStage, 0, len(order))
	for _, q := range order {
		out = append(out, j.Stage(q))
	}
	return out
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// Verdict is what the agent can make of one task.
type Verdict struct {
	// Items are the task's item goals (none for a task that holds at once).
	Items []loop.ItemGoal
	// Skip says why the agent cannot do the task ("" when it can).
	Skip string
	// Blockers are the causes, one key each.
	Blockers []string
	// Checkbox: a checkbox the user allowed the agent to tick.
	Checkbox bool
}

// Task judges one task: retrieval (have the items; collect them when the
// task consumes them), crafting and block breaking (collect them from the
// quest's start), a checkbox when allowed;
// every other type cannot be checked from the world model.
func (j Judge) Task(t Task) Verdict {
	switch t.Type {
	case TaskRetrieval, TaskCrafting, TaskBlockBreak:
		var v Verdict
		for _, it := range t.Items {
			m := it.Matcher()
			if j.Item != nil {
				if err := j.Item(m); err != nil {
					// BetterQuesting counts the stack itself as well as its
					// ore-dictionary entry (Item.StackMatcher): an ore name
					// the agent does not know ("woodStick" on a stick) falls
					// back to the stack.
					if it.OreDict == "" || j.Item(it.StackMatcher()) != nil {
						v.Blockers = append(v.Blockers, "unknown item: "+m)
						continue
					}
					m = it.StackMatcher()
				}
			}
			// A retrieval that consumes takes the items away when handed in:
			// the world model keeps them, so the quest asks for as many new
			// ones (collect) rather than counting what an earlier quest
			// gathered and handed in.
			v.Items = append(v.Items, loop.ItemGoal{Item: m, Count: it.Count, Gain: t.Type != TaskRetrieval || t.Consume})
		}
		if len(v.Blockers) > 0 {
			v.Skip = "the agent does not know " + strings.Join(trimPrefixes(v.Blockers, "unknown item: "), ", ")
			v.Items = nil
		}
		return v
	case TaskCheckbox:
		if j.Checkbox {
			return Verdict{Checkbox: true}
		}
		return Verdict{Skip: "a checkbox task: a person ticks it (allow the agent with --quests-checkbox)", Blockers: []string{"checkbox task (needs --quests-checkbox)"}}
	}
	return Verdict{Skip: fmt.Sprintf("task type %s: not checked from the world model", t.Type), Blockers: []string{"task type " + t.Type}}
}

func trimPrefixes(ss []string, p string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.TrimPrefix(s, p)
	}
	return out
}

// Stage judges a quest: its required tasks (optional retrieval does not
// count, as in BetterQuesting); with task logic OR the first task the
// agent can do stands for all.
func (j Judge) Stage(q *Quest) loop.QuestStage {
	st := loop.QuestStage{ID: q.ID.String(), Name: q.Name, AnyPrereq: q.AnyPrereq, Lines: q.Lines}
	for _, p := range q.Prereqs {
		if _, ok := j.Book.Quest(p); ok {
			st.Prereqs = append(st.Prereqs, p.String())
		}
	}
	var skips []string
	var chosen []Verdict
	for _, t := range q.Tasks {
		if t.Optional() {
			continue
		}
		v := j.Task(t)
		if v.Skip != "" {
			skips = append(skips, v.Skip)
			st.Blockers = appendNew(st.Blockers, v.Blockers...)
			continue
		}
		chosen = append(chosen, v)
		if q.AnyTask {
			break
		}
	}
	if q.AnyTask && len(chosen) > 0 {
		skips, st.Blockers = nil, nil
	}
	if len(skips) > 0 {
		st.Skip = strings.Join(skips, "; ")
		return st
	}
	st.Blockers = nil
	for _, v := range chosen {
		if v.Checkbox {
			st.Checkboxes++
		}
		st.Items = mergeItems(st.Items, v.Items)
	}
	return st
}

func appendNew(ss []string, more ...string) []string {
	for _, s := range more {
		if !containsStr(ss, s) {
			ss = append(ss, s)
		}
	}
	return ss
}

// mergeItems adds goals, summing the counts of the same item and kind.
func mergeItems(have, more []loop.ItemGoal) []loop.ItemGoal {
	for _, m := range more {
		merged := false
		for i := range have {
			if have[i].Item == m.Item && have[i].Gain == m.Gain {
				have[i].Count += m.Count
				merged = true
				break
			}
		}
		if !merged {
			have = append(have, m)
		}
	}
	return have
}
