package llm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/llm"
	"github.com/gtnh-agent/gtnh-agent/planner/llm/llmtest"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

const wordsGoal = "build a coke oven next to the boiler"

// planWords asks for one step of the default world with a goal in words.
func (f *fixture) planWords(t *testing.T, last *loop.StepRecord) (loop.Decision, error) {
	t.Helper()
	_, obs, descs := f.observation(t)
	g, err := loop.WordsGoal(wordsGoal)
	require.NoError(t, err)
	obs.Progress = g.Check(obs.Snapshot, f.cat.Registry.Tiers(), false)
	obs.Last = last
	return f.planner.Plan(context.Background(), g, obs, descs)
}

// TestFinishClaimsAreChecked: for a goal in words, finish must say
// whether the goal is met, and what it claims (items in the inventory,
// formed machines nearby, a last step that did not fail) must hold in the
// world; otherwise it goes back to the model.
func TestFinishClaimsAreChecked(t *testing.T) {
	good := llmtest.ToolCall("finish", `{"reason":"the ovens stand by the boiler","met":true,"machines":["coke_oven","steam_boiler"],"items":{"minecraft:coal":24}}`)
	for _, tt := range []struct {
		name, args, want string
		last             *loop.StepRecord
	}{
		{"no met", `{"reason":"done"}`, "finish needs met: true (the goal is met) or false (it cannot be reached)", nil},
		{"machine not there", `{"reason":"done","met":true,"machines":["blast_furnace"]}`, "no formed blast_furnace is nearby", nil},
		{"too few items", `{"reason":"done","met":true,"items":{"minecraft:coal":100}}`, "100 minecraft:coal claimed, the inventory holds 24", nil},
		{"bad item", `{"reason":"done","met":true,"items":{"not an item!":1}}`, `item "not an item!"`, nil},
		{"met after a failed step", `{"reason":"done","met":true}`, "the last step (feed_coke_ovens) ended effects_unmet",
			&loop.StepRecord{Step: 1, Invocation: &loop.Invocation{Skill: "feed_coke_ovens"}, Verdict: loop.EffectsUnmet}},
		{"met is not a bool", `{"reason":"done","met":"yes"}`, `"met" must be true or false`, nil},
		{"items not counts", `{"reason":"done","met":true,"items":{"minecraft:coal":0}}`, "a count of at least 1", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			second := good
			if tt.last != nil {
				// After a failed step only "not met" is taken.
				second = llmtest.ToolCall("finish", `{"reason":"the oven failed","met":false}`)
			}
			f := newFixture(t, llm.Config{}, llm.PlannerOptions{}, llmtest.ToolCall("finish", tt.args), second)
			dec, err := f.planWords(t, tt.last)
			if tt.last != nil {
				require.NoError(t, err)
				assert.Contains(t, f.lastContent(t, 1), tt.want)
				assert.Equal(t, "the model says the goal cannot be reached: the oven failed", dec.Reason)
				return
			}
			require.NoError(t, err)
			assert.Contains(t, f.lastContent(t, 1), tt.want)
			require.True(t, dec.Done)
			assert.Equal(t, "the model says the goal is met (checked: 24 minecraft:coal in the inventory, a formed coke_oven nearby, a formed steam_boiler nearby): the ovens stand by the boiler", dec.Reason)
			fin, ok := f.planner.Finished()
			require.True(t, ok)
			assert.True(t, fin.Met)
			assert.Equal(t, []string{"24 minecraft:coal in the inventory", "a formed coke_oven nearby", "a formed steam_boiler nearby"}, fin.Checked)
		})
	}
}

// TestFinishNotMet: the model may end a goal in words as not reachable.
func TestFinishNotMet(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{}, llmtest.ToolCall("finish", `{"reason":"no bricks","met":false}`))
	dec, err := f.planWords(t, nil)
	require.NoError(t, err)
	assert.Equal(t, "the model says the goal cannot be reached: no bricks", dec.Reason)
	fin, ok := f.planner.Finished()
	require.True(t, ok)
	assert.False(t, fin.Met)
}

// TestWordsGoalPrompt: the model reads the goal in words, how to finish
// it, and finish's claims; a goal of the grammar gets neither.
func TestWordsGoalPrompt(t *testing.T) {
	chop := llmtest.File(t, "testdata/run/02-chop.json")
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{}, chop)
	_, err := f.planWords(t, nil)
	require.NoError(t, err)
	msgs := f.requestMessages(t, 0)
	assert.Contains(t, msgs[0]["content"], "The goal is in words")
	assert.Contains(t, msgs[1]["content"], "Goal: "+wordsGoal)
	assert.Contains(t, msgs[1]["content"], loop.WordsUnmet)
	assert.Contains(t, string(f.srv.Requests()[0].Body), `"machines":{`)
	_, ok := f.planner.Finished()
	assert.False(t, ok, "not finished")

	g := newFixture(t, llm.Config{}, llm.PlannerOptions{}, chop)
	_, err = g.plan(t)
	require.NoError(t, err)
	assert.NotContains(t, g.requestMessages(t, 0)[0]["content"], "The goal is in words")
	assert.NotContains(t, string(g.srv.Requests()[0].Body), `"machines"`)
}

// TestRunWithAGoalInWords: the loop runs a goal in words until the model
// finishes it, and the claims it made are checked on the world after its
// steps.
func TestRunWithAGoalInWords(t *testing.T) {
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{Catalog: shippedCatalog(t)},
		llmtest.File(t, "testdata/run/02-chop.json"),
		llmtest.ToolCall("finish", `{"reason":"logs in hand and the oven stands","met":true,"items":{"minecraft:log":9},"machines":["coke_oven"]}`),
		llmtest.ToolCall("finish", `{"reason":"logs in hand and the oven stands","met":true,"items":{"minecraft:log":4},"machines":["coke_oven"]}`))
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	g, err := loop.WordsGoal(wordsGoal)
	require.NoError(t, err)
	l, err := loop.New(context.Background(), loop.Config{Registry: f.cat.Registry, Conn: ipc.InProcess(w), Planner: f.planner, Goal: g})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	assert.Equal(t, loop.PlannerDone, out.Reason)
	assert.Equal(t, 1, out.Steps)
	assert.False(t, out.GoalMet, "the loop itself never meets a goal in words")
	assert.True(t, strings.HasPrefix(out.Why, "the model says the goal is met (checked: 4 minecraft:log in the inventory, a formed coke_oven nearby)"), out.Why)
	fin, ok := f.planner.Finished()
	require.True(t, ok)
	assert.True(t, fin.Met)
	assert.Contains(t, f.lastContent(t, 2), "9 minecraft:log claimed, the inventory holds")
	assert.Zero(t, f.srv.Remaining())
}
