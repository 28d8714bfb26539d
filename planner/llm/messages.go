package llm

import (
	"fmt"

	openai "github.com/sashabaranov/go-openai"
)

// Bounds on what of the model's own answers goes back to it in the next
// requests of a step. An answer is kept in the conversation so that the
// model sees what it said and why it was sent back; a huge one (a runaway
// text, a refused megabyte of arguments) would otherwise be sent again
// with every later request of the step.
const (
	// maxEchoText bounds the text (content or refusal) of one answer
	// sent back; the rest is cut with a note saying how much.
	maxEchoText = 8 << 10
	// maxEchoArgs bounds one tool call's arguments sent back; longer ones
	// are replaced by a JSON note (a cut JSON text would not parse, and
	// some servers parse the arguments of earlier calls).
	maxEchoArgs = 4 << 10
	// maxEchoID bounds a tool call's id and function name sent back.
	maxEchoID = 128
	// maxFeedbackText bounds the text of a refused call's result (it may
	// quote what the model sent).
	maxFeedbackText = 4 << 10
)

func systemMessage(text string) openai.ChatCompletionMessage {
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: text}
}

func userMessage(text string) openai.ChatCompletionMessage {
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: text}
}

// toolMessage is a tool call's result. id is the call's id as echoed
// (echoID), so that the two stay paired.
func toolMessage(result, id string) openai.ChatCompletionMessage {
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, Content: result, ToolCallID: echoID(id)}
}

// assistantText is a text answer as it goes back to the model, bounded.
func assistantText(text string) openai.ChatCompletionMessage {
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: bound(text, maxEchoText)}
}

// echoAnswer is the model's answer as it goes back to the model: its
// text, refusal and tool calls, each bounded, and nothing else (a
// server's reasoning_content is not sent back).
func echoAnswer(msg openai.ChatCompletionMessage) openai.ChatCompletionMessage {
	out := openai.ChatCompletionMessage{
		Role:    openai.ChatMessageRoleAssistant,
		Content: bound(msg.Content, maxEchoText),
		Refusal: bound(msg.Refusal, maxEchoText),
	}
	for _, tc := range msg.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, openai.ToolCall{
			ID:   echoID(tc.ID),
			Type: openai.ToolType(echoID(string(tc.Type))),
			Function: openai.FunctionCall{
				Name:      echoID(tc.Function.Name),
				Arguments: echoArgs(tc.Function.Arguments),
			},
		})
	}
	return out
}

// echoArgs bounds a tool call's arguments sent back: longer ones become a
// JSON object that says they were cut.
func echoArgs(args string) string {
	if len(args) <= maxEchoArgs {
		return args
	}
	return fmt.Sprintf(`{"cut":"%d bytes of arguments, more than the %d sent back"}`, len(args), maxEchoArgs)
}

// echoID bounds an id or a name at maxEchoID bytes, on a rune boundary.
func echoID(s string) string {
	if len(s) <= maxEchoID {
		return s
	}
	return cutAt(s, maxEchoID)
}

// feedback bounds the result of a refused call.
func feedback(s string) string { return bound(s, maxFeedbackText) }
