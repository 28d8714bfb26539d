// Package llm is the language-model side of the agent: an OpenAI-compatible
// client (chat completions and embeddings) and the model planner
// (--planner llm) that reads the skill catalog, loads knowledge skills and
// picks executable skills through tool calls.
package llm

import (
	"context"

	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/selection"
)

// Advice is the knowledge skills chosen for a task: Names (best first),
// Fallback (why the offline ranking chose, "" when the model did) and
// Events (for the trace). It is selection.Advice, so that
// selection.Advisor implements Advisor without importing this package.
type Advice = selection.Advice

// Advisor chooses the knowledge skills a run starts with and learns from how
// they did. The planner calls Select at its first step and whenever the goal
// changes, Applied when the model loads a knowledge skill, and StepEnded when
// a step that the knowledge it had loaded or been given informed has a
// verdict. Implementations persist what they learn (the quality store).
type Advisor interface {
	// Select picks knowledge skills for the task (the goal's text) among
	// those usable at the tier with the enabled packs.
	Select(ctx context.Context, task, tier string, packs []string) (Advice, error)
	// Applied records that the model read a knowledge skill's instructions.
	Applied(name string)
	// StepEnded records the verdict of a step informed by these knowledge
	// skills: success completes them, a failure is a fallback.
	StepEnded(informed []string, success bool)
}
