package llm_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/planner/llm"
)

func TestParseToolArgs(t *testing.T) {
	ok := []struct {
		tool, raw string
		want      llm.ToolArgs
	}{
		{"invoke_skill", `{"skill":"chop_tree","params":{"min_logs":4}}`, llm.ToolArgs{Skill: "chop_tree", Params: map[string]any{"min_logs": 4.0}}},
		{"invoke_skill", `{"skill":" chop_tree ","params":"{\"min_logs\":4}"}`, llm.ToolArgs{Skill: "chop_tree", Params: map[string]any{"min_logs": 4.0}}},
		{"invoke_skill", `{"skill":"report_status","params":null}`, llm.ToolArgs{Skill: "report_status"}},
		{"load_skill", ` {"name":"coke-oven-operation"} `, llm.ToolArgs{Name: "coke-oven-operation"}},
		{"read_skill_resource", `{"name":"x","path":"references/a.md"}`, llm.ToolArgs{Name: "x", Path: "references/a.md"}},
		{"finish", ``, llm.ToolArgs{}},
		{"finish", `{"reason":"done"}`, llm.ToolArgs{Reason: "done"}},
	}
	for _, tt := range ok {
		got, err := llm.ParseToolArgs(tt.tool, tt.raw)
		require.NoError(t, err, tt.raw)
		assert.Equal(t, tt.want, got, tt.raw)
	}
	bad := []struct{ tool, raw, want string }{
		{"invoke_skill", `{"skill":"a"} and more`, "text after the JSON object"},
		{"invoke_skill", `{"skill":"a"}{"skill":"b"}`, "text after the JSON object"},
		{"invoke_skill", `[1,2]`, "want a JSON object, got a JSON array"},
		{"invoke_skill", `null`, "got null"},
		{"invoke_skill", `{"skill":7}`, `"skill" must be a string`},
		{"invoke_skill", `{"skil":"a"}`, `unknown field "skil" (did you mean "skill"?)`},
		{"load_skill", `{}`, `"name" is required`},
		{"read_skill_resource", `{"name":"x"}`, `"path" is required`},
		{"finish", `{"reason":"x","params":{}}`, `unknown field "params"`},
		{"invokeskill", `{}`, `unknown tool "invokeskill" (did you mean "invoke_skill"?)`},
	}
	for _, tt := range bad {
		_, err := llm.ParseToolArgs(tt.tool, tt.raw)
		require.Error(t, err, tt.raw)
		assert.Contains(t, err.Error(), tt.want, tt.raw)
	}
}

func TestParseAnswer(t *testing.T) {
	a, err := llm.ParseAnswer("<think>\nlogs first\n</think>\n```json\n{\"tool\":\"load_skill\",\"arguments\":{\"name\":\"x\"}}\n```")
	require.NoError(t, err)
	assert.Equal(t, llm.Answer{Tool: "load_skill", Args: llm.ToolArgs{Name: "x"}}, a)
	a, err = llm.ParseAnswer(`{"tool":"finish","arguments":"{\"reason\":\"done\"}"}`)
	require.NoError(t, err)
	assert.Equal(t, "done", a.Args.Reason)
	for raw, want := range map[string]string{
		``:                        "the answer is empty",
		`chop a tree`:             "is not one JSON object",
		`{"arguments":{}}`:        `"tool" is required`,
		`{"tool":1}`:              `"tool" must be a string`,
		`{"tool":"finish","x":1}`: `unknown field "x"`,
		`{"tool":"finish"} {}`:    "text after the JSON object",
		`{"tool":"fnish"}`:        `unknown tool "fnish" (did you mean "finish"?)`,
	} {
		_, err := llm.ParseAnswer(raw)
		require.Error(t, err, raw)
		assert.Contains(t, err.Error(), want, raw)
	}
}

// TestFinishClaimsParsed: finish's claims are decoded and bounded.
func TestFinishClaimsParsed(t *testing.T) {
	yes := true
	got, err := llm.ParseToolArgs("finish", `{"reason":"done","met":true,"items":{"minecraft:coal":4},"machines":["coke_oven"]}`)
	require.NoError(t, err)
	assert.Equal(t, llm.ToolArgs{Reason: "done", Met: &yes, Items: map[string]int{"minecraft:coal": 4}, Machines: []string{"coke_oven"}}, got)

	many := func(n int, item string) string {
		var parts []string
		for i := range n {
			parts = append(parts, strings.ReplaceAll(item, "N", strconv.Itoa(i)))
		}
		return strings.Join(parts, ",")
	}
	for _, tt := range []struct{ raw, want string }{
		{`{"met":1}`, `"met" must be true or false`},
		{`{"items":[1]}`, `"items" must be an object`},
		{`{"items":{"a":-1}}`, "a count of at least 1"},
		{`{"items":{"` + strings.Repeat("a", 201) + `":1}}`, "at most 200 bytes"},
		{`{"items":{` + many(17, `"i:N":1`) + `}}`, `"items" names 17 items, more than 16`},
		{`{"machines":"coke_oven"}`, `"machines" must be a list`},
		{`{"machines":[` + many(17, `"mN"`) + `]}`, `"machines" names 17 machines, more than 16`},
		{`{"machines":[""]}`, "each kind must be 1 to 200 bytes"},
	} {
		_, err := llm.ParseToolArgs("finish", tt.raw)
		require.Error(t, err, tt.raw)
		assert.Contains(t, err.Error(), tt.want, tt.raw)
	}
	_, err = llm.ParseToolArgs("finish", `{"items":{`+many(16, `"i:N":1`)+`},"machines":[`+many(16, `"mN"`)+`]}`)
	require.NoError(t, err, "16 of each")
	_, err = llm.ParseToolArgs("invoke_skill", `{"skill":"x","met":true}`)
	require.Error(t, err, "claims are finish's only")
}
