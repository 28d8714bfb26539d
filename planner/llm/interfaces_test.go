package llm_test

import (
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/llm"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/rank"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/selection"
)

// The client is the model of knowledge selection and its embedder; the
// planner is a loop planner.
var (
	_ selection.Model = (*llm.Client)(nil)
	_ rank.Embedder   = (*llm.Client)(nil)
	_ loop.Planner    = (*llm.Planner)(nil)
)
