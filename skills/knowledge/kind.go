package knowledge

import "strings"

// Kind says what a skill is: knowledge only, executable (Go or template),
// or a knowledge skill directory carrying an executable spec.
type Kind string

const (
	// KindKnowledge is a SKILL.md skill: instructions only.
	KindKnowledge Kind = "knowledge"
	// KindGo is an executable skill implemented in Go.
	KindGo Kind = "go"
	// KindTemplate is an executable template skill (action_sequence).
	KindTemplate Kind = "template"
	// KindKnowledgeGo is a skill directory with instructions and a Go
	// executable spec.
	KindKnowledgeGo Kind = "knowledge+go"
	// KindKnowledgeTemplate is a skill directory with instructions and a
	// template executable spec.
	KindKnowledgeTemplate Kind = "knowledge+template"
)

// Knowledge reports whether the kind has instructions to load.
func (k Kind) Knowledge() bool { return strings.HasPrefix(string(k), "knowledge") }

// Executable reports whether the kind can be invoked.
func (k Kind) Executable() bool { return k != KindKnowledge }
