package quests

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
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
	// Mobs names the mob kinds the agent knows by their EntityList names,
	// which hunt tasks give as their target (nil: hunt tasks are skipped).
	Mobs *rules.Mobs
	// Needs says whether a reward item ("modid:name[:meta]") is one the
	// agent claims a quest for: one its recipes take that nothing it can
	// do makes (an iron pickaxe head); nil claims for any known item.
	Needs func(item string) bool
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
	// Kills are a hunt task's kill goals.
	Kills []loop.KillGoal
	// Skip says why the agent cannot do the task ("" when it can).
	Skip string
	// Blockers are the causes, one key each.
	Blockers []string
	// Checkbox: a checkbox the user allowed the agent to tick.
	Checkbox bool
}

// Task judges one task: retrieval (have the items; collect them when the
// task consumes them), crafting and block breaking (collect them from the
// quest's start), hunting (kill the mobs from the quest's start), a
// checkbox when allowed; every other type cannot be checked from the
// world model.
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
	case TaskHunt:
		return j.hunt(t)
	case TaskCheckbox:
		if j.Checkbox {
			return Verdict{Checkbox: true}
		}
		return Verdict{Skip: "a checkbox task: a person ticks it (allow the agent with --quests-checkbox)", Blockers: []string{"checkbox task (needs --quests-checkbox)"}}
	}
	return Verdict{Skip: fmt.Sprintf("task type %s: not checked from the world model", t.Type), Blockers: []string{"task type " + t.Type}}
}

// hunt judges a hunt task: BetterQuesting counts a mob a player killed
// whose EntityList name is the target (or, with subtypes, whose class is
// the target's or extends it), from the quest's start
// (GTNewHorizons/BetterQuesting, src/main/java/bq_standard/tasks/
// TaskHunt.java: onKilledByPlayer). The agent counts the kills of the
// mob kind of that name that it saw (loop.KillGoal); a subtype of it (a
// mooshroom for a cow) it does not know, so it hunts the kind itself.
func (j Judge) hunt(t Task) Verdict {
	if j.Mobs == nil {
		return Verdict{Skip: "a hunt task: the agent has no mob table to judge it", Blockers: []string{"task type " + t.Type}}
	}
	if t.DamageType != "" {
		return Verdict{Skip: fmt.Sprintf("a hunt task counting only kills by %s damage: not checked from the world model", t.DamageType),
			Blockers: []string{"hunt task by damage type " + t.DamageType}}
	}
	k, ok := j.Mobs.KindOfEntity(t.Target)
	if !ok {
		return Verdict{Skip: fmt.Sprintf("a hunt task for %q: the agent knows no such mob", t.Target), Blockers: []string{"unknown mob: " + t.Target}}
	}
	if t.Count < 1 {
		return Verdict{} // BetterQuesting: progress 0 already meets required 0
	}
	return Verdict{Kills: []loop.KillGoal{{Mob: k.Name, Count: t.Count}}}
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
	var boxes []int
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
		if v.Checkbox && t.Index >= 0 {
			boxes = append(boxes, t.Index)
		}
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
	st.Rewards, st.Choices = j.claims(q)
	st.Checkboxes = boxes
	for _, v := range chosen {
		st.Items = mergeItems(st.Items, v.Items)
		st.Kills = mergeKills(st.Kills, v.Kills)
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

// mergeKills adds kill goals; of two for the same mob the larger count
// stands (every hunt task of a quest counts each kill of its target, so
// one kill moves both: TaskHunt.onKilledByPlayer runs for each task).
func mergeKills(have, more []loop.KillGoal) []loop.KillGoal {
	for _, m := range more {
		i := slices.IndexFunc(have, func(k loop.KillGoal) bool { return k.Mob == m.Mob })
		if i < 0 {
			have = append(have, m)
			continue
		}
		have[i].Count = max(have[i].Count, m.Count)
	}
	return have
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

// claims are the rewards the agent claims for a quest. BetterQuesting
// gives every item of a quest's item rewards and, of each choice, the
// option the player picked (RewardChoice cannot be claimed before one is
// picked). The agent claims a quest when one of its items is one it needs
// (Judge.Needs: an item its recipes take that nothing it can do makes, as
// "Upgrade 2.0"'s iron pickaxe head) and it knows every item it would get
// (Judge.Item), picking the first option it needs, else the first it
// knows, of a choice. Other quests are left unclaimed in the book, as a
// player may leave them: coins, loot bags and what the agent makes itself
// would only fill the inventory. Rewards of other types (experience,
// commands) are not modelled and do not stop a claim. The choices made
// are returned too, by reward id and option, as a server's book takes
// them.
func (j Judge) claims(q *Quest) ([]loop.RewardItem, []loop.RewardChoice) {
	known := func(it Item) bool {
		return it.ID != "" && (j.Item == nil || j.Item(it.StackMatcher()) == nil)
	}
	needed := func(it Item) bool { return known(it) && (j.Needs == nil || j.Needs(it.StackMatcher())) }
	var out []loop.RewardItem
	var picks []loop.RewardChoice
	need := false
	add := func(it Item) {
		need = need || needed(it)
		out = append(out, loop.RewardItem{Item: it.StackMatcher(), Count: it.Count})
	}
	for _, r := range q.Rewards {
		switch {
		case r.Type == RewardItem:
			for _, it := range r.Items {
				if !known(it) {
					return nil, nil
				}
				add(it)
			}
		case r.Choice() && len(r.Items) > 0:
			i := slices.IndexFunc(r.Items, needed)
			if i < 0 {
				i = slices.IndexFunc(r.Items, known)
			}
			if i < 0 || r.Index < 0 {
				return nil, nil
			}
			add(r.Items[i])
			picks = append(picks, loop.RewardChoice{Reward: r.Index, Option: i})
		}
	}
	if !need {
		return nil, nil
	}
	return out, picks
}
