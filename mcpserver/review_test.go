package mcpserver_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/mcpserver"
)

// TestBlockedInvocationIsAToolError: an invocation that failed the same way
// twice is refused the third time as a tool error naming the block, and
// observe lists it; another invocation still runs.
func TestBlockedInvocationIsAToolError(t *testing.T) {
	s := newSession(t, "testdata/coke_kit.yaml", "")
	args := map[string]any{"skill": "basic_crafting", "params": map[string]any{"item": "minecraft:chest"}}
	for i := range 2 {
		step := structured[mcpserver.StepResult](t, s.call("invoke_skill", args))
		require.NotEqual(t, "success", step.Verdict, "step %d", i+1)
		require.NotEqual(t, "rejected", step.Verdict, "step %d: %s", i+1, step.Error)
	}
	obs := structured[mcpserver.Observation](t, s.call("observe", nil))
	assert.Equal(t, []string{"basic_crafting item=minecraft:chest"}, obs.Blocked)
	res := s.call("invoke_skill", args)
	require.True(t, res.IsError, textOf(res))
	assert.Contains(t, textOf(res), "blocked until the world changes")
	res = s.call("skill_basic_crafting", map[string]any{"item": "minecraft:chest"})
	require.True(t, res.IsError, "the skill's own tool is refused the same way")
	assert.Contains(t, textOf(res), "blocked until the world changes")
	step := structured[mcpserver.StepResult](t, s.call("invoke_skill", map[string]any{"skill": "chop_tree", "params": map[string]any{"min_logs": 1}}))
	assert.Equal(t, "success", step.Verdict, step.Error)
}
