package loop

import (
	"strings"
)

// PlanState is where a node of a plan tree stands at one decision.
type PlanState string

// The states of a plan node.
const (
	// PlanMet: the part or sub-goal already holds.
	PlanMet PlanState = "met"
	// PlanActive: on the way from the goal to the step chosen now.
	PlanActive PlanState = "active"
	// PlanStep: the step chosen now (one per tree, a leaf).
	PlanStep PlanState = "step"
	// PlanPending: a part of the goal the planner did not reach this time
	// (an earlier part came first).
	PlanPending PlanState = "pending"
	// PlanStuck: a part no skill can make progress on; Note says why.
	PlanStuck PlanState = "stuck"
)

// PlanNode is one node of a plan tree: the goal at the root, its parts
// below it, and under the part being worked on the chain of sub-goals the
// planner followed to the step it chose (an item's missing ingredients, a
// tool, a furnace, the fuel), with the sub-goals it found already met.
// A planner that reasons in sub-goals (the goal planner) fills
// Decision.Tree with it.
type PlanNode struct {
	Label string    `json:"label"`
	State PlanState `json:"state,omitempty"`
	// Note says more: what is at hand, which skill makes it, why it is
	// stuck.
	Note     string      `json:"note,omitempty"`
	Children []*PlanNode `json:"children,omitempty"`
}

// Step is the node of the step chosen now, or nil.
func (n *PlanNode) Step() *PlanNode {
	if n == nil {
		return nil
	}
	if n.State == PlanStep {
		return n
	}
	for _, c := range n.Children {
		if s := c.Step(); s != nil {
			return s
		}
	}
	return nil
}

// Len is the number of nodes in the tree.
func (n *PlanNode) Len() int {
	if n == nil {
		return 0
	}
	k := 1
	for _, c := range n.Children {
		k += c.Len()
	}
	return k
}

// String prints the tree one node a line, each child indented under its
// parent, its state in brackets and the step chosen marked with an arrow:
//
//	have 8 minecraft:stick [active]
//	  8 minecraft:stick (have 0; via basic_crafting) [active]
//	    2 minecraft:planks (have 0; via basic_crafting) [active]
//	      → basic_crafting count=2 item_id=minecraft:planks [step]
func (n *PlanNode) String() string {
	var b strings.Builder
	n.write(&b, 0)
	return b.String()
}

func (n *PlanNode) write(b *strings.Builder, depth int) {
	if n == nil {
		return
	}
	b.WriteString(strings.Repeat("  ", depth))
	if n.State == PlanStep {
		b.WriteString("→ ")
	}
	b.WriteString(n.Label)
	if n.Note != "" {
		b.WriteString(" (" + n.Note + ")")
	}
	if n.State != "" {
		b.WriteString(" [" + string(n.State) + "]")
	}
	b.WriteByte('\n')
	for _, c := range n.Children {
		c.write(b, depth+1)
	}
}
