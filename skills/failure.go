package skills

import "fmt"

// Code classifies why a skill could not produce actions.
type Code string

// Failure codes a skill or the registry reports.
const (
	CodeInvalidParams  Code = "invalid_params"  // the invocation does not match the spec
	CodeTierMismatch   Code = "tier_mismatch"   // the tech state is outside tech_states_any_of
	CodeWrongDimension Code = "wrong_dimension" // not in dimension_allowlist
	CodeMissingTool    Code = "missing_tool"    // a required tool is absent or worn out
	CodeMissingItems   Code = "missing_items"   // ingredients, fuel or seeds are missing
	CodeNoTarget       Code = "no_target"       // nothing to work on within range
	CodeUnsafe         Code = "unsafe"          // acting would endanger the player or base
	CodeUndeclared     Code = "undeclared_action"
	CodePanic          Code = "panic" // the implementation panicked
	CodeInternal       Code = "internal"
)

// Failure is a typed skill failure.
type Failure struct {
	Skill string `json:"skill,omitempty"`
	Code  Code   `json:"code"`
	Msg   string `json:"message"`
}

func (f *Failure) Error() string {
	if f.Skill != "" {
		return fmt.Sprintf("%s: %s: %s", f.Skill, f.Code, f.Msg)
	}
	return fmt.Sprintf("%s: %s", f.Code, f.Msg)
}

// Failf builds a failure.
func Failf(code Code, format string, args ...any) *Failure {
	return &Failure{Code: code, Msg: fmt.Sprintf(format, args...)}
}
