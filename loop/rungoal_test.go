package loop_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestRunGoalNeedsObservedEffects: "run chop_tree" where every action
// succeeds but the logs never reach the inventory is not met: the body's
// "ok" is not the skill's success. The same run with drops meets the goal.
func TestRunGoalNeedsObservedEffects(t *testing.T) {
	inv := loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 4}}
	for _, drops := range []int{0, 1} {
		reg := shipped(t, registry.Options{})
		body := newToy(world.Pos(3, 64, 2), world.Pos(-4, 64, 5))
		body.breakDrops = drops
		r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(inv),
			Goal: goal(t, reg, "run chop_tree min_logs=4")})
		require.NoError(t, r.err)
		require.Len(t, r.trace, 1, r.raw)
		for _, res := range r.trace[0].Results {
			require.True(t, res.OK(), "the body reports every action as done")
		}
		if drops == 0 {
			assert.Equal(t, loop.EffectsUnmet, r.trace[0].Verdict)
			assert.False(t, r.out.GoalMet, "a success the world does not show does not meet a run goal")
			assert.Equal(t, loop.PlannerDone, r.out.Reason)
			assert.Equal(t, []string{"run chop_tree"}, r.out.Progress.Unmet)
		} else {
			assert.Equal(t, loop.Success, r.trace[0].Verdict, r.trace[0].Error)
			assert.True(t, r.out.GoalMet)
			assert.Equal(t, loop.GoalMet, r.out.Reason)
		}
	}
}

// TestActionFailureIsNotASuccess: a failed action makes the step a failure
// in the run's statistics and in the registry's metrics, and does not meet
// a run goal.
func TestActionFailureIsNotASuccess(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	body.hook = func(a action.Action) *ipc.Result {
		if a.Kind() == action.KindBreakBlock {
			r := ipc.Failf(ipc.Rejected, 3, "the block did not break")
			return &r
		}
		return nil
	}
	inv := loop.Invocation{Skill: "chop_tree"}
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(inv), Goal: goal(t, reg, "run chop_tree")})
	require.NoError(t, r.err)
	require.Len(t, r.trace, 1)
	assert.Equal(t, loop.ActionFailed, r.trace[0].Verdict)
	assert.False(t, r.out.GoalMet)
	assert.Equal(t, loop.Stats{Attempts: 1, Successes: 0}, r.out.Skills["chop_tree"])
	d, err := reg.Describe("chop_tree")
	require.NoError(t, err)
	require.NotNil(t, d.Metrics.SuccessRate, "the failure reached the metrics")
	assert.Equal(t, 0.0, *d.Metrics.SuccessRate)
	assert.Equal(t, 1, d.Metrics.Samples)
}

// TestRunGoalOfASkillWithoutWorldEffects: a skill that declares nothing the
// verifier can check (report_status only talks) meets its run goal when its
// actions succeed.
func TestRunGoalOfASkillWithoutWorldEffects(t *testing.T) {
	reg := shipped(t, registry.Options{})
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy()), Planner: script.New(loop.Invocation{Skill: "report_status"}),
		Goal: goal(t, reg, "run report_status")})
	require.NoError(t, r.err)
	assert.True(t, r.out.GoalMet, r.raw)
	assert.Empty(t, r.trace[0].Effects)
}

// TestRunGoalOfAFailedChatIsNotMet: report_status declares no checkable
// effect, so its verdict alone decides: a refused chat does not meet "run
// report_status".
func TestRunGoalOfAFailedChatIsNotMet(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy()
	body.hook = func(a action.Action) *ipc.Result {
		r := ipc.Failf(ipc.Rejected, 0, "chat is disabled")
		return &r
	}
	r := runLoop(t, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: script.New(loop.Invocation{Skill: "report_status"}),
		Goal: goal(t, reg, "run report_status")})
	require.NoError(t, r.err)
	require.Len(t, r.trace, 1)
	assert.Equal(t, loop.ActionFailed, r.trace[0].Verdict)
	assert.False(t, r.out.GoalMet)
}
