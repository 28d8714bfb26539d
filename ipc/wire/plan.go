package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// TypePlan is the request an agent sends a planner: choose the next step.
const TypePlan = "plan"

// PlannerRequests lists the request types a planner answers.
var PlannerRequests = []string{TypeHello, TypePlan}

// AgentQueries lists the requests an agent answers for its planner while
// a plan request is open (the world queries and observe).
var AgentQueries = []string{TypeObserve, TypeBlockAt, TypeBlocksIn, TypeNearest, TypePath, TypeCatalog, TypeRecall}

// PlanRequest is the payload of plan: what a Go planner's Plan gets. Each
// part is kept as JSON: the goal and observation in the form of the loop's
// types (loop.Goal, loop.Observation), the catalog as the catalog query
// returns it (registry descriptions).
type PlanRequest struct {
	Goal        json.RawMessage `json:"goal"`
	Observation json.RawMessage `json:"observation"`
	Catalog     json.RawMessage `json:"catalog"`
}

// PlanInvocation is one skill call in a plan answer.
type PlanInvocation struct {
	Skill  string         `json:"skill"`
	Params map[string]any `json:"params,omitempty"`
}

// PlanAnswer is the reply to plan: one invocation, or done.
type PlanAnswer struct {
	Invocation *PlanInvocation `json:"invocation,omitempty"`
	Done       bool            `json:"done,omitempty"`
	// Reason says why, for the trace and the log (optional).
	Reason string `json:"reason,omitempty"`
}

// Limits of a plan answer.
const (
	// MaxSkillName bounds a skill name in an answer.
	MaxSkillName = 128
	// MaxPlanReason bounds the reason kept from an answer.
	MaxPlanReason = 1024
)

// DecodePlanAnswer parses a planner's reply strictly: an object with
// exactly one of an invocation (a skill name, optional parameters) or
// done true, and an optional reason. Unknown fields are errors, so a
// misspelt field is reported instead of read as "no invocation". Whether
// the skill exists and its parameters fit is the loop's to judge (it
// rejects the step and tells the planner in the next observation).
func DecodePlanAnswer(payload []byte) (PlanAnswer, error) {
	var a PlanAnswer
	if len(bytes.TrimSpace(payload)) == 0 {
		return a, Errorf(CodeBadRequest, "plan answer: empty; send {\"invocation\":{…}} or {\"done\":true}")
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(&a); err != nil {
		return PlanAnswer{}, Errorf(CodeBadRequest, "plan answer: %v", err)
	}
	if dec.More() {
		return PlanAnswer{}, Errorf(CodeBadRequest, "plan answer: data after the object")
	}
	switch {
	case a.Invocation != nil && a.Done:
		return PlanAnswer{}, Errorf(CodeBadRequest, "plan answer: both an invocation and done; send one")
	case a.Invocation == nil && !a.Done:
		return PlanAnswer{}, Errorf(CodeBadRequest, "plan answer: neither an invocation nor done")
	}
	if inv := a.Invocation; inv != nil {
		switch {
		case strings.TrimSpace(inv.Skill) == "":
			return PlanAnswer{}, Errorf(CodeBadRequest, "plan answer: the invocation names no skill")
		case len(inv.Skill) > MaxSkillName:
			return PlanAnswer{}, Errorf(CodeBadRequest, "plan answer: a skill name of %d bytes exceeds %d", len(inv.Skill), MaxSkillName)
		}
		inv.Params = plainNumbers(inv.Params).(map[string]any)
	}
	if len(a.Reason) > MaxPlanReason {
		a.Reason = a.Reason[:MaxPlanReason] + "…"
	}
	return a, nil
}

// plainNumbers turns the json.Numbers of a decoded value into int64 when
// they are integers and float64 otherwise, the forms skill parameters
// check against.
func plainNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		for k, e := range x {
			x[k] = plainNumbers(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = plainNumbers(e)
		}
		return x
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	}
	return v
}

// String is the answer for logs: the invocation or done.
func (a PlanAnswer) String() string {
	if a.Done {
		return "done"
	}
	if a.Invocation == nil {
		return "(nothing)"
	}
	return fmt.Sprintf("%s %v", a.Invocation.Skill, a.Invocation.Params)
}
