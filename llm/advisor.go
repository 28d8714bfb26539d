// Package llm is the language-model side of the agent: an OpenAI-compatible
// client (chat completions and embeddings) and the model planner
// (--planner llm) that reads the skill catalog, loads knowledge skills and
// picks executable skills through tool calls.
package llm

import "context"

// Advice is the knowledge skills chosen for a task.
type Advice struct {
	// Names are the knowledge skills to give the model in full, best first.
	Names []string
	// Fallback says why the offline ranking chose them instead of the model
	// ("" when the model chose).
	Fallback string
	// Events are what happened on the way (pre-filter, quality filter,
	// re-rank), for the trace.
	Events []string
}

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
