package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
)

// The tools the model gets, with exactly these names.
const (
	ToolLoadSkill    = "load_skill"
	ToolReadResource = "read_skill_resource"
	ToolInvokeSkill  = "invoke_skill"
	ToolFinish       = "finish"
)

// ToolNames lists the tools in the order the model sees them.
var ToolNames = []string{ToolLoadSkill, ToolReadResource, ToolInvokeSkill, ToolFinish}

// maxArgsBytes bounds a tool call's arguments and a JSON answer: a decision
// is a few hundred bytes.
const maxArgsBytes = 64 << 10

// ToolArgs holds the arguments of any tool; each tool uses its own fields.
type ToolArgs struct {
	// Name is load_skill's and read_skill_resource's skill.
	Name string `json:"name,omitempty"`
	// Path is read_skill_resource's file, relative to the skill's root.
	Path string `json:"path,omitempty"`
	// Skill and Params are invoke_skill's invocation.
	Skill  string         `json:"skill,omitempty"`
	Params map[string]any `json:"params,omitempty"`
	// Reason is finish's account.
	Reason string `json:"reason,omitempty"`
	// Met, Items and Machines are finish's claims: whether the goal is
	// met, the items the inventory holds (at least these counts) and the
	// machine kinds that stand formed nearby. The planner checks them
	// against the world before the run ends.
	Met      *bool          `json:"met,omitempty"`
	Items    map[string]int `json:"items,omitempty"`
	Machines []string       `json:"machines,omitempty"`
}

// Bounds on finish's claims.
const (
	maxClaims     = 16
	maxClaimBytes = 200
)

// toolFields are the argument fields of each tool, and which are required.
var toolFields = map[string]struct{ all, required []string }{
	ToolLoadSkill:    {[]string{"name"}, []string{"name"}},
	ToolReadResource: {[]string{"name", "path"}, []string{"name", "path"}},
	ToolInvokeSkill:  {[]string{"skill", "params"}, []string{"skill"}},
	ToolFinish:       {[]string{"reason", "met", "items", "machines"}, nil},
}

// ParseToolArgs decodes a tool call's arguments: one JSON object (empty
// text counts as {}), only the tool's own fields, strings where strings are
// due, params an object (or a string holding one, as some models send it).
// Every error says what to fix, for the model to read.
func ParseToolArgs(tool, raw string) (ToolArgs, error) {
	var a ToolArgs
	spec, ok := toolFields[tool]
	if !ok {
		return a, fmt.Errorf("unknown tool %q%s; the tools are %s", tool, suggest.DidYouMean(tool, ToolNames), strings.Join(ToolNames, ", "))
	}
	if len(raw) > maxArgsBytes {
		return a, fmt.Errorf("%s arguments are %d bytes, more than %d", tool, len(raw), maxArgsBytes)
	}
	raw = strings.TrimSpace(raw)
	if raw == "" {
		raw = "{}"
	}
	fields, err := decodeObject([]byte(raw))
	if err != nil {
		return a, fmt.Errorf("%s arguments are not a JSON object: %v", tool, err)
	}
	return argsFrom(tool, spec.all, spec.required, fields)
}

// decodeObject decodes exactly one JSON object, keeping its fields raw.
func decodeObject(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var fields map[string]json.RawMessage
	if err := dec.Decode(&fields); err != nil {
		return nil, errors.New(jsonProblem(err))
	}
	if fields == nil {
		return nil, errors.New("got null")
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return nil, errors.New("text after the JSON object")
	}
	return fields, nil
}

// jsonProblem words a decoding error without Go type names.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("want a JSON object, got a JSON %s", te.Value)
	}
	return err.Error()
}

func argsFrom(tool string, all, required []string, fields map[string]json.RawMessage) (ToolArgs, error) {
	var a ToolArgs
	var problems []string
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if slices.Contains(all, k) {
			continue
		}
		hint := suggest.DidYouMean(k, all)
		if tool == ToolInvokeSkill && hint == "" {
			hint = ` (skill parameters go inside "params")`
		}
		problems = append(problems, fmt.Sprintf("unknown field %q%s", k, hint))
	}
	str := func(k string, dst *string) {
		v, ok := fields[k]
		if !ok || string(v) == "null" {
			return
		}
		if err := json.Unmarshal(v, dst); err != nil {
			problems = append(problems, fmt.Sprintf("%q must be a string", k))
		}
	}
	str("name", &a.Name)
	str("path", &a.Path)
	str("skill", &a.Skill)
	str("reason", &a.Reason)
	if v, ok := fields["met"]; ok && string(v) != "null" && slices.Contains(all, "met") {
		var b bool
		if err := json.Unmarshal(v, &b); err != nil {
			problems = append(problems, `"met" must be true or false`)
		} else {
			a.Met = &b
		}
	}
	if v, ok := fields["items"]; ok && string(v) != "null" && slices.Contains(all, "items") {
		if err := json.Unmarshal(v, &a.Items); err != nil {
			problems = append(problems, `"items" must be an object of item ids and counts, e.g. {"minecraft:log": 8}`)
		} else if len(a.Items) > maxClaims {
			problems = append(problems, fmt.Sprintf(`"items" names %d items, more than %d`, len(a.Items), maxClaims))
		} else {
			for k, n := range a.Items {
				if len(k) > maxClaimBytes || n < 1 {
					problems = append(problems, fmt.Sprintf(`"items": want an item id of at most %d bytes and a count of at least 1`, maxClaimBytes))
					break
				}
			}
		}
	}
	if v, ok := fields["machines"]; ok && string(v) != "null" && slices.Contains(all, "machines") {
		if err := json.Unmarshal(v, &a.Machines); err != nil {
			problems = append(problems, `"machines" must be a list of machine kinds, e.g. ["coke_oven"]`)
		} else if len(a.Machines) > maxClaims {
			problems = append(problems, fmt.Sprintf(`"machines" names %d machines, more than %d`, len(a.Machines), maxClaims))
		} else if slices.ContainsFunc(a.Machines, func(m string) bool { return m == "" || len(m) > maxClaimBytes }) {
			problems = append(problems, fmt.Sprintf(`"machines": each kind must be 1 to %d bytes`, maxClaimBytes))
		}
	}
	if v, ok := fields["params"]; ok && string(v) != "null" && slices.Contains(all, "params") {
		p, err := decodeParams(v)
		if err != nil {
			problems = append(problems, err.Error())
		}
		a.Params = p
	}
	for _, k := range required {
		var s string
		switch k {
		case "name":
			s = a.Name
		case "path":
			s = a.Path
		case "skill":
			s = a.Skill
		}
		if strings.TrimSpace(s) == "" {
			problems = append(problems, fmt.Sprintf("%q is required", k))
		}
	}
	if len(problems) > 0 {
		return ToolArgs{}, fmt.Errorf("%s arguments: %s", tool, strings.Join(slices.Compact(problems), "; "))
	}
	a.Name, a.Path, a.Skill = strings.TrimSpace(a.Name), strings.TrimSpace(a.Path), strings.TrimSpace(a.Skill)
	return a, nil
}

// decodeParams decodes invoke_skill's params: an object, or a string that
// holds one.
func decodeParams(v json.RawMessage) (map[string]any, error) {
	var s string
	if json.Unmarshal(v, &s) == nil {
		if strings.TrimSpace(s) == "" {
			return nil, nil
		}
		v = json.RawMessage(s)
	}
	var p map[string]any
	if err := json.Unmarshal(v, &p); err != nil || p == nil {
		return nil, errors.New(`"params" must be a JSON object of parameter names and values, e.g. {"min_logs": 4}`)
	}
	return p, nil
}

// Answer is the model's decision in JSON mode: a tool and its arguments,
// as a tool call would carry them.
type Answer struct {
	Tool string
	Args ToolArgs
}

// answerFields are the top-level fields of a JSON answer.
var answerFields = []string{"tool", "arguments"}

// ParseAnswer decodes a JSON-mode answer, {"tool": …, "arguments": {…}}.
// A reasoning block (<think>…</think>) before it and a markdown code fence
// around it are tolerated, since local models add them.
func ParseAnswer(content string) (Answer, error) {
	if len(content) > maxArgsBytes {
		return Answer{}, fmt.Errorf("the answer is %d bytes, more than %d", len(content), maxArgsBytes)
	}
	text := stripWrapping(content)
	if text == "" {
		return Answer{}, errors.New(`the answer is empty; answer with one JSON object {"tool": …, "arguments": {…}}`)
	}
	fields, err := decodeObject([]byte(text))
	if err != nil {
		return Answer{}, fmt.Errorf(`the answer is not one JSON object {"tool": …, "arguments": {…}}: %v`, err)
	}
	var problems []string
	for k := range fields {
		if !slices.Contains(answerFields, k) {
			problems = append(problems, fmt.Sprintf("unknown field %q%s", k, suggest.DidYouMean(k, answerFields)))
		}
	}
	slices.Sort(problems)
	var tool string
	if v, ok := fields["tool"]; !ok {
		problems = append(problems, `"tool" is required`)
	} else if json.Unmarshal(v, &tool) != nil {
		problems = append(problems, `"tool" must be a string`)
	}
	if len(problems) > 0 {
		return Answer{}, errors.New("the answer: " + strings.Join(problems, "; "))
	}
	raw := "{}"
	if v, ok := fields["arguments"]; ok && string(v) != "null" {
		raw = string(v)
		var s string
		if json.Unmarshal(v, &s) == nil { // arguments as a string, as in a tool call
			raw = s
		}
	}
	args, err := ParseToolArgs(tool, raw)
	if err != nil {
		return Answer{}, err
	}
	return Answer{Tool: tool, Args: args}, nil
}

// stripWrapping removes a leading <think>…</think> block and a markdown
// code fence.
func stripWrapping(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "<think>") {
		if i := strings.Index(s, "</think>"); i >= 0 {
			s = strings.TrimSpace(s[i+len("</think>"):])
		}
	}
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```")
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:] // the language tag line
		} else {
			s = ""
		}
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
	}
	return s
}

// toolDefs are the function tools offered in tools mode. skills lists the
// executable skills at this step, offered as invoke_skill's enum; words
// adds finish's claims (met, items, machines), for a goal in words.
func toolDefs(skills []string, words bool) []openai.Tool {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	skill := str("An executable skill from the catalog.")
	if len(skills) > 0 {
		skill["enum"] = skills
	}
	def := func(name, desc string, props map[string]any, required ...string) openai.Tool {
		if required == nil {
			required = []string{}
		}
		return openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name:        name,
			Description: desc,
			Parameters: map[string]any{
				"type": "object", "properties": props, "required": required, "additionalProperties": false,
			},
		}}
	}
	finish := map[string]any{"reason": str("Why the run should end.")}
	if words {
		finish["met"] = map[string]any{"type": "boolean", "description": "Whether the goal is met."}
		finish["items"] = map[string]any{"type": "object", "description": "Items the inventory holds that show the goal is met, at least these counts.", "additionalProperties": map[string]any{"type": "integer", "minimum": 1}}
		finish["machines"] = map[string]any{"type": "array", "description": "Machine kinds standing formed nearby that show the goal is met.", "items": map[string]any{"type": "string"}}
	}
	return []openai.Tool{
		def(ToolLoadSkill, "Read a skill's full instructions (its SKILL.md body with the root path, or an executable skill's parameters, preconditions and effects).",
			map[string]any{"name": str("The skill's name, as in the catalog.")}, "name"),
		def(ToolReadResource, "Read one of a knowledge skill's listed files (scripts/, references/, assets/), by its path relative to the skill's root.",
			map[string]any{"name": str("The skill's name."), "path": str("The file's path relative to the skill's root, e.g. references/build-layers.md.")}, "name", "path"),
		def(ToolInvokeSkill, "Run an executable skill now. This ends your turn: the agent runs it and shows you the result next turn.",
			map[string]any{"skill": skill, "params": map[string]any{"type": "object", "description": "The skill's parameters by name; omitted ones take their defaults."}}, "skill"),
		def(ToolFinish, "End the run: the goal is met, or it cannot be reached with these skills in this world.", finish, "reason"),
	}
}

// jsonSchema is a JSON Schema as the library's response_format takes it.
type jsonSchema map[string]any

// MarshalJSON implements json.Marshaler.
func (s jsonSchema) MarshalJSON() ([]byte, error) { return json.Marshal(map[string]any(s)) }

// answerSchema is the JSON Schema of a JSON-mode answer.
func answerSchema(skills []string) jsonSchema {
	skill := map[string]any{"type": "string"}
	if len(skills) > 0 {
		skill["enum"] = skills
	}
	return jsonSchema{
		"type": "object",
		"properties": map[string]any{
			"tool": map[string]any{"type": "string", "enum": ToolNames},
			"arguments": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"name":     map[string]any{"type": "string"},
					"path":     map[string]any{"type": "string"},
					"skill":    skill,
					"params":   map[string]any{"type": "object"},
					"reason":   map[string]any{"type": "string"},
					"met":      map[string]any{"type": "boolean"},
					"items":    map[string]any{"type": "object"},
					"machines": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				},
				"additionalProperties": false,
			},
		},
		"required":             []string{"tool", "arguments"},
		"additionalProperties": false,
	}
}
