package llm_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/planner/llm"
	"github.com/gtnh-agent/gtnh-agent/planner/llm/llmtest"
)

// echoBound is the most an answer of the model adds to the next requests of
// its step: its text (8 KiB) and the note that it was cut, with room for the
// JSON around it.
const echoBound = 8<<10 + 1<<10

// TestHugeTextAnswerIsCutBeforeItGoesBack: a 2 MiB text answer without a
// tool call (over 200 times what goes back) is sent back to the model cut,
// with a note, and the requests of the step do not grow by the answer's
// size each time.
func TestHugeTextAnswerIsCutBeforeItGoesBack(t *testing.T) {
	// Sizes counted on the planner's goroutine; the model server's round
	// trips are a whole run's.
	race.SkipCovered(t, "cutting a 2 MiB answer", "TestRunMeetsDefaultGoalThroughToolCalls")
	huge := llmtest.Text(strings.Repeat("I should chop a tree. ", 2<<20/22))
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{}, huge, huge, llmtest.File(t, "testdata/run/02-chop.json"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree", dec.Invocation.Skill)
	reqs := f.srv.Requests()
	require.Len(t, reqs, 3)
	for n := 1; n < 3; n++ {
		assert.Less(t, len(reqs[n].Body)-len(reqs[n-1].Body), echoBound+1<<10, "request %d grows by a bounded echo and a nudge", n)
		msgs := f.requestMessages(t, n)
		echoed := msgs[len(msgs)-2]
		require.Equal(t, "assistant", echoed["role"])
		text := echoed["content"].(string)
		assert.LessOrEqual(t, len(text), echoBound)
		assert.True(t, strings.HasPrefix(text, "I should chop a tree. "), "the answer's start is kept")
		assert.Contains(t, text, "[cut: ", "the model is told its answer was cut")
	}
}

// TestRefusedHugeArgumentsAreNotSentBack: a tool call whose 2 MB of
// arguments are refused goes back to the model as a call whose arguments
// say they were cut (valid JSON, for servers that parse them), and the
// result says why it was refused.
func TestRefusedHugeArgumentsAreNotSentBack(t *testing.T) {
	bigArgs := `{"skill":"chop_tree","params":{"note":"` + strings.Repeat("x", 2<<20) + `"}}`
	f := newFixture(t, llm.Config{}, llm.PlannerOptions{},
		llmtest.ToolCall("invoke_skill", bigArgs), llmtest.File(t, "testdata/run/02-chop.json"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree", dec.Invocation.Skill)
	reqs := f.srv.Requests()
	require.Len(t, reqs, 2)
	assert.Less(t, len(reqs[1].Body)-len(reqs[0].Body), 2<<10, "the refused arguments are not in the next request")
	msgs := f.requestMessages(t, 1)
	calls := msgs[2]["tool_calls"].([]any)
	require.Len(t, calls, 1)
	fn := calls[0].(map[string]any)["function"].(map[string]any)
	assert.Equal(t, "invoke_skill", fn["name"])
	args := fn["arguments"].(string)
	assert.True(t, json.Valid([]byte(args)), args)
	assert.Contains(t, args, "cut")
	assert.Contains(t, args, fmt.Sprintf("%d bytes", len(bigArgs)))
	assert.Equal(t, calls[0].(map[string]any)["id"], msgs[3]["tool_call_id"], "the result stays paired with its call")
	assert.Contains(t, f.lastContent(t, 1), fmt.Sprintf("invoke_skill arguments are %d bytes, more than 65536", len(bigArgs)))
}

// TestRefusedFeedbackIsBounded: a refusal that quotes what the model sent
// (a skill name of 60 KB) goes back bounded, and so does the step's error.
func TestRefusedFeedbackIsBounded(t *testing.T) {
	// Sizes counted on the planner's goroutine; the model server's round
	// trips are a whole run's.
	race.SkipCovered(t, "bounding a 60 KB refusal", "TestRunMeetsDefaultGoalThroughToolCalls")
	long := strings.Repeat("chop", 15000)
	bad := llmtest.ToolCall("invoke_skill", `{"skill":"`+long+`"}`)
	f := newFixture(t, llm.Config{MaxCorrections: 1}, llm.PlannerOptions{}, bad, bad)
	dec, err := f.plan(t)
	require.Error(t, err)
	res := f.toolResults(t, 1)
	require.Len(t, res, 1)
	assert.True(t, strings.HasPrefix(res[0], `rejected: unknown skill "chopchop`), res[0][:40])
	assert.LessOrEqual(t, len(res[0]), 4<<10+64)
	assert.Contains(t, res[0], "[cut: ")
	assert.Less(t, len(err.Error()), 1<<10)
	assert.Less(t, len(traceText(t, dec.Trace)), 4<<10)
}

// TestJSONModeAnswersAreCutBeforeTheyGoBack: in JSON mode the answer that
// was not one JSON object goes back cut too.
func TestJSONModeAnswersAreCutBeforeTheyGoBack(t *testing.T) {
	huge := llmtest.Text(strings.Repeat("{", 3<<20))
	f := newFixture(t, llm.Config{Mode: llm.ModeJSON}, llm.PlannerOptions{}, huge, llmtest.File(t, "testdata/json/chop.json"))
	dec, err := f.plan(t)
	require.NoError(t, err)
	assert.Equal(t, "chop_tree", dec.Invocation.Skill)
	msgs := f.requestMessages(t, 1)
	echoed := msgs[len(msgs)-2]
	require.Equal(t, "assistant", echoed["role"])
	assert.LessOrEqual(t, len(echoed["content"].(string)), echoBound)
	assert.Contains(t, echoed["content"], "[cut: ")
	assert.Contains(t, f.lastContent(t, 1), "the answer is 3145728 bytes, more than 65536")
}
