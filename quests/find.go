package quests

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
)

// fold is how names are compared: letters and digits only, lower case, so
// "And So It Begins" finds "And So, It Begins" and "wheres the flint"
// finds "Where's the Flint?".
func fold(s string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// NotFoundError says a name matched no quest or line, with the nearest.
type NotFoundError struct {
	Kind, Name, Suggestion string
}

func (e *NotFoundError) Error() string {
	s := fmt.Sprintf("no %s %q in the quest book", e.Kind, e.Name)
	if e.Suggestion != "" {
		s += fmt.Sprintf("; did you mean %q?", e.Suggestion)
	}
	return s
}

// FindLine returns the line with the name (compared by letters and digits
// only, case ignored) or the id.
func (b *Book) FindLine(name string) (*Line, error) {
	want := fold(name)
	for _, l := range b.Lines {
		if fold(l.Name) == want || l.ID.String() == name {
			return l, nil
		}
	}
	names := make([]string, len(b.Lines))
	for i, l := range b.Lines {
		names[i] = l.Name
	}
	return nil, &NotFoundError{Kind: "quest line", Name: name, Suggestion: closest(name, names)}
}

// FindQuest returns the quest with the name or id. A name several quests
// share is an error listing their ids.
func (b *Book) FindQuest(name string) (*Quest, error) {
	if id, ok := ParseID(name); ok {
		if q, ok := b.quests[id]; ok {
			return q, nil
		}
	}
	want := fold(name)
	var hits []*Quest
	for _, id := range b.order {
		if q := b.quests[id]; fold(q.Name) == want {
			hits = append(hits, q)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		names := make([]string, 0, len(b.order))
		for _, id := range b.order {
			names = append(names, b.quests[id].Name)
		}
		return nil, &NotFoundError{Kind: "quest", Name: name, Suggestion: closest(name, names)}
	}
	ids := make([]string, len(hits))
	for i, q := range hits {
		ids[i] = q.ID.String()
	}
	return nil, fmt.Errorf("%d quests are named %q; name one by its id: %s", len(hits), name, strings.Join(ids, ", "))
}

// closest is suggest.Closest over folded names, answering the real name.
func closest(name string, names []string) string {
	folded := make([]string, len(names))
	back := map[string]string{}
	for i, n := range names {
		folded[i] = fold(n)
		if _, ok := back[folded[i]]; !ok {
			back[folded[i]] = n
		}
	}
	return back[suggest.Closest(fold(name), folded)]
}

// Order returns the quests in ids together with every prerequisite they
// need (directly or through others), each after its prerequisites; among
// quests free to go, the one earlier in ids (then in the book) goes first.
// A cycle of prerequisites is broken where it closes, and reported.
func (b *Book) Order(ids []ID) ([]*Quest, []error) {
	rank := map[ID]int{}
	for i, id := range b.order {
		rank[id] = len(ids) + i
	}
	for i, id := range ids {
		rank[id] = i
	}
	// Collect the closure.
	in := map[ID]bool{}
	var stack []ID
	for _, id := range ids {
		if _, ok := b.quests[id]; ok && !in[id] {
			in[id] = true
			stack = append(stack, id)
		}
	}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range b.quests[id].Prereqs {
			if _, ok := b.quests[p]; ok && !in[p] {
				in[p] = true
				stack = append(stack, p)
			}
		}
	}
	members := make([]ID, 0, len(in))
	for id := range in {
		members = append(members, id)
	}
	sort.Slice(members, func(i, j int) bool { return rank[members[i]] < rank[members[j]] })
	// Depth-first, prerequisites first, in rank order.
	var out []*Quest
	var problems []error
	state := map[ID]int{} // 1 visiting, 2 done
	var visit func(id ID)
	visit = func(id ID) {
		state[id] = 1
		q := b.quests[id]
		pre := make([]ID, 0, len(q.Prereqs))
		for _, p := range q.Prereqs {
			if in[p] {
				pre = append(pre, p)
			}
		}
		sort.Slice(pre, func(i, j int) bool { return rank[pre[i]] < rank[pre[j]] })
		for _, p := range pre {
			switch state[p] {
			case 0:
				visit(p)
			case 1:
				problems = append(problems, fmt.Errorf("quest %q and its prerequisite %q need each other; %q goes first", q.Name, b.quests[p].Name, q.Name))
			}
		}
		state[id] = 2
		out = append(out, q)
	}
	for _, id := range members {
		if state[id] == 0 {
			visit(id)
		}
	}
	return out, problems
}
