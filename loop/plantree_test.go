package loop_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/loop"
)

func TestPlanNodeStepLenString(t *testing.T) {
	step := &loop.PlanNode{Label: "chop_tree", State: loop.PlanStep}
	tree := &loop.PlanNode{Label: "have 4 minecraft:log", State: loop.PlanActive, Children: []*loop.PlanNode{
		{Label: "1 minecraft:planks", State: loop.PlanMet, Note: "have 3"},
		{Label: "4 minecraft:log", State: loop.PlanActive, Children: []*loop.PlanNode{step}},
	}}
	assert.Same(t, step, tree.Step())
	assert.Equal(t, 4, tree.Len())
	assert.Equal(t, "have 4 minecraft:log [active]\n  1 minecraft:planks (have 3) [met]\n  4 minecraft:log [active]\n    → chop_tree [step]\n", tree.String())
	var none *loop.PlanNode
	assert.Nil(t, none.Step())
	assert.Zero(t, none.Len())
	assert.Equal(t, "", none.String())
	assert.Nil(t, (&loop.PlanNode{Label: "x", State: loop.PlanPending}).Step())
}
