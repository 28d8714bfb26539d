package llm

import (
	"encoding/json"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEchoAnswer: what goes back of an answer is its text, refusal and
// tool calls, each within its bound; a long id is cut the same way in the
// call and in its result, and a server's reasoning is not sent back.
func TestEchoAnswer(t *testing.T) {
	id := strings.Repeat("é", 200) // 400 bytes: the cut moves back to a rune start
	msg := openai.ChatCompletionMessage{
		Role:             openai.ChatMessageRoleAssistant,
		Content:          strings.Repeat("a", maxEchoText+1),
		Refusal:          strings.Repeat("r", maxEchoText+100),
		ReasoningContent: "thinking about trees",
		ToolCalls: []openai.ToolCall{
			{ID: id, Type: "function", Function: openai.FunctionCall{Name: strings.Repeat("n", 500), Arguments: strings.Repeat(" ", maxEchoArgs+1)}},
			{ID: "c2", Type: "function", Function: openai.FunctionCall{Name: "load_skill", Arguments: strings.Repeat(" ", maxEchoArgs-12) + `{"name":"x"}`}},
		},
	}
	out := echoAnswer(msg)
	assert.Equal(t, openai.ChatMessageRoleAssistant, out.Role)
	assert.Equal(t, strings.Repeat("a", maxEchoText)+"\n\n[cut: 1 more bytes]", out.Content)
	assert.Equal(t, strings.Repeat("r", maxEchoText)+"\n\n[cut: 100 more bytes]", out.Refusal)
	assert.Empty(t, out.ReasoningContent)
	require.Len(t, out.ToolCalls, 2)
	first := out.ToolCalls[0]
	assert.Len(t, first.ID, maxEchoID)
	assert.Equal(t, first.ID, toolMessage("result", id).ToolCallID, "a call and its result stay paired")
	assert.Len(t, first.Function.Name, maxEchoID)
	assert.JSONEq(t, `{"cut":"4097 bytes of arguments, more than the 4096 sent back"}`, first.Function.Arguments)
	assert.Equal(t, msg.ToolCalls[1].Function.Arguments, out.ToolCalls[1].Function.Arguments, "arguments within the bound go back as they came")
	b, err := json.Marshal(out)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "reasoning")
	assert.Less(t, len(b), 3*maxEchoText)
}

func TestInformationalField(t *testing.T) {
	for field, want := range map[string]bool{"model": true, "usage": true, "usage.prompt_tokens": true, "id": true,
		"choices": false, "choices.message": false, "modelx": false, "": false} {
		assert.Equal(t, want, informationalField(field), field)
	}
}
