package skills

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// wantErr describes one expected loader error. The column is given either
// directly (col) or as the first occurrence of tok on the error's line, so the
// tables stay readable.
type wantErr struct {
	line  int
	tok   string
	col   int
	field string
	msg   string // substring of Msg
}

// errorsOf returns the located problems in err. ParseSpec documents its error
// as an Errors; see TestParseSpecSyntaxErrorType for the one exception.
func errorsOf(t *testing.T, err error) Errors {
	t.Helper()
	require.Error(t, err)
	var es Errors
	if errors.As(err, &es) {
		return es
	}
	var one *Error
	require.True(t, errors.As(err, &one), "error %T is neither Errors nor *Error: %v", err, err)
	return Errors{one}
}

func lineOf(src string, n int) string {
	lines := strings.Split(src, "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// checkErrors asserts that err holds exactly the wanted problems, in order.
func checkErrors(t *testing.T, file, src string, err error, want []wantErr) {
	t.Helper()
	es := errorsOf(t, err)
	if !assert.Len(t, es, len(want), "errors:\n%v", err) {
		return
	}
	for i, w := range want {
		e := es[i]
		assert.Equal(t, file, e.File, "file of %v", e)
		assert.Equal(t, w.field, e.Field, "field of %v", e)
		assert.Contains(t, e.Msg, w.msg, "message of %v", e)
		assert.Equal(t, w.line, e.Line, "line of %v", e)
		col := w.col
		if w.tok != "" {
			idx := strings.Index(lineOf(src, w.line), w.tok)
			require.GreaterOrEqual(t, idx, 0, "test bug: %q not on line %d", w.tok, w.line)
			col = idx + 1
		}
		assert.Equal(t, col, e.Column, "column of %v", e)
	}
}

func readFixture(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", path))
	require.NoError(t, err)
	return data
}

// hdr is a valid head of a spec named "dig": lines 1-3.
const hdr = "name: dig\nversion: 1\ndescription: Dig a block.\n"

// goHdr adds emits on line 4, which makes a complete go skill.
const goHdr = hdr + "emits: [break_block]\n"

func TestParseSpecErrors(t *testing.T) {
	tests := []struct {
		name string
		file string // default dig.yaml
		src  string
		want []wantErr
	}{
		// Unknown keys, with suggestions.
		{name: "unknown top-level key",
			src:  goHdr + "precondition:\n  dimension_allowlist: [overworld]\n",
			want: []wantErr{{5, "precondition", 0, "precondition", `unknown field "precondition" (did you mean "preconditions"?)`}}},
		{name: "unknown key in preconditions",
			src:  goHdr + "preconditions:\n  dimension_allowlst: [overworld]\n",
			want: []wantErr{{6, "dimension_allowlst", 0, "preconditions.dimension_allowlst", `unknown field "dimension_allowlst" (did you mean "dimension_allowlist"?)`}}},
		{name: "unknown key in a parameter",
			src:  goHdr + "params:\n  radius:\n    type: int\n    defualt: 8\n    description: r\n",
			want: []wantErr{{8, "defualt", 0, "params.radius.defualt", `unknown field "defualt" (did you mean "default"?)`}}},
		{name: "unknown key in a required tool",
			src: goHdr + "preconditions:\n  required_tools:\n    - item: minecraft:iron_axe\n",
			want: []wantErr{
				{7, "item", 0, "preconditions.required_tools[0].item_id", "required field is missing"},
				{7, "item", 0, "preconditions.required_tools[0].item", `unknown field "item"`},
			}},
		{name: "unknown key in an inventory change",
			src: goHdr + "effects:\n  inventory_delta:\n    minecraft:log:\n      min_increse: 4\n",
			want: []wantErr{
				{8, "min_increse", 0, "effects.inventory_delta.minecraft:log", "give at least one of min_increase, min_decrease, max_decrease"},
				{8, "min_increse", 0, "effects.inventory_delta.minecraft:log.min_increse", `(did you mean "min_increase"?)`},
			}},
		{name: "unknown key in metrics",
			src:  goHdr + "metrics:\n  succes_rate: 0.5\n",
			want: []wantErr{{6, "succes_rate", 0, "metrics.succes_rate", `unknown field "succes_rate" (did you mean "success_rate"?)`}}},
		{name: "unknown key in tech_delta",
			src:  goHdr + "effects:\n  tech_delta:\n    tier: lv\n",
			want: []wantErr{{7, "tier", 0, "effects.tech_delta.tier", `unknown field "tier"`}}},
		{name: "duplicate key",
			src:  goHdr + "version: 2\n",
			want: []wantErr{{5, "version", 0, "version", `duplicate field "version"`}}},

		// Scalar types.
		{name: "version as a string",
			src:  "name: dig\nversion: \"1\"\ndescription: D.\nemits: [chat]\n",
			want: []wantErr{{2, `"1"`, 0, "version", `expected an integer, got the string "1"`}}},
		{name: "version as a float",
			src:  "name: dig\nversion: 1.5\ndescription: D.\nemits: [chat]\n",
			want: []wantErr{{2, "1.5", 0, "version", "expected an integer, got the number 1.5"}}},
		{name: "version zero",
			src:  "name: dig\nversion: 0\ndescription: D.\nemits: [chat]\n",
			want: []wantErr{{2, "0", 0, "version", "must be at least 1, got 0"}}},
		{name: "name as an integer",
			src:  "name: 5\nversion: 1\ndescription: D.\nemits: [chat]\n",
			want: []wantErr{{1, "5", 0, "name", "expected a string, got the integer 5"}}},
		{name: "bad name",
			src: "name: Dig Tree\nversion: 1\ndescription: D.\nemits: [chat]\n",
			want: []wantErr{
				{1, "Dig", 0, "name", `"Dig Tree" must be lowercase letters, digits and underscores, starting with a letter`},
				{1, "Dig", 0, "name", `spec name "Dig Tree" does not match its file name "dig.yaml"`},
			}},
		{name: "blank description",
			src:  "name: dig\nversion: 1\ndescription: \"  \"\nemits: [chat]\n",
			want: []wantErr{{3, `"`, 0, "description", "must not be empty"}}},
		{name: "description as a list",
			src:  "name: dig\nversion: 1\ndescription: [a]\nemits: [chat]\n",
			want: []wantErr{{3, "[", 0, "description", "expected a string, got a list"}}},
		{name: "int parameter default abc",
			src:  goHdr + "params:\n  radius:\n    type: int\n    default: abc\n    description: r\n",
			want: []wantErr{{8, "abc", 0, "params.radius.default", `default does not fit type int: expected an integer, got "abc"`}}},
		{name: "bad status",
			src:  hdr + "status: done\nemits: [chat]\n",
			want: []wantErr{{4, "done", 0, "status", `must be active, candidate or deprecated, got "done"`}}},
		{name: "status as an integer",
			src:  hdr + "status: 1\nemits: [chat]\n",
			want: []wantErr{{4, "1", 0, "status", "expected a string, got the integer 1"}}},
		{name: "bad origin",
			src:  hdr + "origin: human\nemits: [chat]\n",
			want: []wantErr{{4, "human", 0, "origin", `must be manual or synthesized, got "human"`}}},
		{name: "bad implementation",
			src:  hdr + "implementation: python\nemits: [chat]\n",
			want: []wantErr{{4, "python", 0, "implementation", `must be go or template, got "python"`}}},

		// Required fields.
		{name: "missing name, version and description",
			src: "emits: [chat]\n",
			want: []wantErr{
				{1, "", 1, "name", "required field is missing"},
				{1, "", 1, "version", "required field is missing"},
				{1, "", 1, "description", "required field is missing"},
			}},
		{name: "missing parameter type",
			src:  goHdr + "params:\n  radius:\n    default: 8\n    description: r\n",
			want: []wantErr{{7, "default", 0, "params.radius.type", "required field is missing"}}},
		{name: "missing parameter description",
			src:  goHdr + "params:\n  radius:\n    type: int\n    default: 8\n",
			want: []wantErr{{7, "type", 0, "params.radius.description", "required field is missing"}}},
		{name: "unknown parameter type",
			src:  goHdr + "params:\n  radius:\n    type: integer\n    description: r\n",
			want: []wantErr{{7, "integer", 0, "params.radius.type", `unknown type "integer" (known: int, float, bool, string, item_id, block_id, block_pos, duration, block_pos_list)`}}},
		{name: "bad parameter name",
			src:  goHdr + "params:\n  Radius:\n    type: int\n    description: r\n",
			want: []wantErr{{6, "Radius", 0, "params.Radius", `parameter name "Radius" must be lowercase letters, digits and underscores`}}},
		{name: "parameter is not a mapping",
			src: goHdr + "params:\n  radius: 8\n",
			want: []wantErr{
				{6, "8", 0, "params.radius", "expected a mapping, got the integer 8"},
				{6, "8", 0, "params.radius.type", "required field is missing"},
				{6, "8", 0, "params.radius.description", "required field is missing"},
			}},

		// Parameter bounds and enums.
		{name: "min above max",
			src:  goHdr + "params:\n  n:\n    type: int\n    min: 10\n    max: 5\n    description: d\n",
			want: []wantErr{{8, "10", 0, "params.n.min", "min 10 is above max 5"}}},
		{name: "min on a string parameter",
			src:  goHdr + "params:\n  n:\n    type: string\n    min: 1\n    description: d\n",
			want: []wantErr{{8, "min", 0, "params.n.min", "min applies only to int, float and duration parameters"}}},
		{name: "max on a bool parameter",
			src:  goHdr + "params:\n  n:\n    type: bool\n    max: 1\n    description: d\n",
			want: []wantErr{{8, "max", 0, "params.n.max", "max applies only to int, float and duration parameters"}}},
		{name: "min as a string",
			src:  goHdr + "params:\n  n:\n    type: float\n    min: low\n    description: d\n",
			want: []wantErr{{8, "low", 0, "params.n.min", `expected a number, got the string "low"`}}},
		{name: "enum on an int parameter",
			src:  goHdr + "params:\n  n:\n    type: int\n    enum: [a, b]\n    description: d\n",
			want: []wantErr{{8, "enum", 0, "params.n.enum", "enum applies only to string parameters"}}},
		{name: "default above max",
			src:  goHdr + "params:\n  n:\n    type: int\n    max: 10\n    default: 50\n    description: d\n",
			want: []wantErr{{9, "50", 0, "params.n.default", "default does not fit type int: 50 is above the maximum 10"}}},
		{name: "default below min for a duration",
			src:  goHdr + "params:\n  n:\n    type: duration\n    min: 20\n    default: 10t\n    description: d\n",
			want: []wantErr{{9, "10t", 0, "params.n.default", "10 is below the minimum 20"}}},
		{name: "default not in enum",
			src:  goHdr + "params:\n  n:\n    type: string\n    enum: [a, b]\n    default: c\n    description: d\n",
			want: []wantErr{{9, "c", 0, "params.n.default", `must be one of a, b, got "c"`}}},

		// Preconditions.
		{name: "unknown tier and bad ranges",
			src: goHdr + "preconditions:\n  tech_states_any_of: [lv, ultra, \"lv..stone_age\", \">= steam_age\", \"> max\"]\n",
			want: []wantErr{
				{6, "ultra", 0, "preconditions.tech_states_any_of[1]", `unknown tier "ultra" (known: stone_age, steam_age, lv,`},
				{6, `"lv..`, 0, "preconditions.tech_states_any_of[2]", `tier range "lv..stone_age" is empty: lv is above stone_age`},
				{6, `"> max`, 0, "preconditions.tech_states_any_of[4]", `tier range "> max" matches no tier`},
			}},
		{name: "tech states not a list",
			src:  goHdr + "preconditions:\n  tech_states_any_of: lv\n",
			want: []wantErr{{6, "lv", 0, "preconditions.tech_states_any_of", `expected a list, got the string "lv"`}}},
		{name: "bad tool item id and durability",
			src: goHdr + "preconditions:\n  required_tools:\n    - item_id: iron_axe\n      min_durability: -1\n    - item_id: \"tool:\"\n      min_durability: \"10\"\n",
			want: []wantErr{
				{7, "iron_axe", 0, "preconditions.required_tools[0].item_id", `"iron_axe" is not an item: expected modid:name, modid:name:meta, ore:Name or tool:class`},
				{8, "-1", 0, "preconditions.required_tools[0].min_durability", "must not be negative"},
				{9, `"tool:"`, 0, "preconditions.required_tools[1].item_id", `"tool:": tool class expected after tool:`},
				{10, `"10"`, 0, "preconditions.required_tools[1].min_durability", `expected an integer, got the string "10"`},
			}},
		{name: "required tool as a plain string",
			src: goHdr + "preconditions:\n  required_tools: [minecraft:iron_axe]\n",
			want: []wantErr{
				{6, "minecraft", 0, "preconditions.required_tools[0]", `expected a mapping, got the string "minecraft:iron_axe"`},
				{6, "minecraft", 0, "preconditions.required_tools[0].item_id", "required field is missing"},
			}},

		// Effects.
		{name: "bad inventory item ids",
			src: goHdr + "effects:\n  inventory_delta:\n    logs:\n      min_increase: 4\n    \"ore:\":\n      min_increase: 1\n",
			want: []wantErr{
				{7, "logs", 0, "effects.inventory_delta.logs", `"logs" is not an item`},
				{9, `"ore:"`, 0, "effects.inventory_delta.ore:", "ore-dictionary name expected after ore:"},
			}},
		{name: "inventory key references an undeclared or non-item parameter",
			src: goHdr + "params:\n  n:\n    type: int\n    default: 1\n    description: d\n" +
				"effects:\n  inventory_delta:\n    \"{item}\":\n      min_increase: 1\n    \"{n}\":\n      min_increase: 1\n",
			want: []wantErr{
				{12, "{item}", -1, "effects.inventory_delta.{item}", `references undeclared parameter "item"`},
				{14, "{n}", -1, "effects.inventory_delta.{n}", `references parameter "n" of type int; an item_id parameter is needed`},
			}},
		{name: "amount references an undeclared or non-int parameter",
			src: goHdr + "params:\n  speed:\n    type: float\n    default: 1\n    description: d\n" +
				"effects:\n  inventory_delta:\n    minecraft:log:\n      min_increase: \"{count}\"\n" +
				"    minecraft:dirt:\n      min_increase: \"{speed}\"\n" +
				"    minecraft:sand:\n      min_increase: \"{speed} blocks\"\n" +
				"    minecraft:clay:\n      min_increase: -1\n" +
				"    minecraft:stone:\n      min_decrease: 1.5\n",
			want: []wantErr{
				{13, `"{count}"`, 0, "effects.inventory_delta.minecraft:log.min_increase", `references undeclared parameter "count"`},
				{15, `"{speed}"`, 0, "effects.inventory_delta.minecraft:dirt.min_increase", `references parameter "speed" of type float; an int parameter is needed`},
				{17, `"{speed} blocks"`, 0, "effects.inventory_delta.minecraft:sand.min_increase", `expected an integer or an int parameter reference like "{count}", got "{speed} blocks"`},
				{19, "-1", 0, "effects.inventory_delta.minecraft:clay.min_increase", "must not be negative"},
				{21, "1.5", 0, "effects.inventory_delta.minecraft:stone.min_decrease", "expected an integer, got the number 1.5"},
			}},
		{name: "both increase and decrease",
			src:  goHdr + "effects:\n  inventory_delta:\n    minecraft:log:\n      min_increase: 1\n      max_decrease: 2\n",
			want: []wantErr{{8, "min_increase", 0, "effects.inventory_delta.minecraft:log", "an item cannot both increase and decrease"}}},
		{name: "empty inventory change",
			src:  goHdr + "effects:\n  inventory_delta:\n    minecraft:log: {}\n",
			want: []wantErr{{7, "{}", 0, "effects.inventory_delta.minecraft:log", "give at least one of min_increase, min_decrease, max_decrease"}}},
		{name: "unknown reaches_tier",
			src:  goHdr + "effects:\n  tech_delta:\n    reaches_tier: ulv\n",
			want: []wantErr{{7, "ulv", 0, "effects.tech_delta.reaches_tier", `unknown tier "ulv" (known: stone_age`}}},

		// Metrics.
		{name: "metrics out of range",
			src: goHdr + "metrics:\n  success_rate: 1.5\n  avg_cost: -2\n  samples: -1\n",
			want: []wantErr{
				{6, "1.5", 0, "metrics.success_rate", "must be within 0..1, got 1.5"},
				{7, "-2", 0, "metrics.avg_cost", "must not be negative, got -2"},
				{8, "-1", 0, "metrics.samples", "must not be negative"},
			}},
		{name: "metrics of the wrong type",
			src:  goHdr + "metrics:\n  success_rate: high\n",
			want: []wantErr{{6, "high", 0, "metrics.success_rate", `expected a number, got the string "high"`}}},

		// File names.
		{name: "name does not match the file name", file: "chop.yaml",
			src:  goHdr,
			want: []wantErr{{1, "dig", 0, "name", `spec name "dig" does not match its file name "chop.yaml" (expected dig.yaml)`}}},
		{name: "version does not match the file name", file: "dig.v2.yaml",
			src:  goHdr,
			want: []wantErr{{2, "1", 0, "version", `version 1 does not match the file name "dig.v2.yaml"`}}},
		{name: "file name is not a spec name", file: "Dig.yaml",
			src:  goHdr,
			want: []wantErr{{1, "", 1, "name", `file name "Dig.yaml" must be <name>.yaml or <name>.v<version>.yaml`}}},
		{name: "file name without yaml extension", file: "specs/dig.json",
			src:  goHdr,
			want: []wantErr{{1, "", 1, "name", `file name "dig.json" must be <name>.yaml`}}},

		// Implementation and emits.
		{name: "go skill with an action_sequence",
			src:  hdr + "implementation: go\nemits: [chat]\naction_sequence:\n  - type: chat\n    message: hi\n",
			want: []wantErr{{4, "go", 0, "implementation", "a go skill must not have an action_sequence (use implementation: template)"}}},
		{name: "template without action_sequence",
			src:  hdr + "implementation: template\n",
			want: []wantErr{{1, "", 1, "action_sequence", "a template skill needs an action_sequence"}}},
		{name: "empty action_sequence",
			src:  hdr + "action_sequence: []\n",
			want: []wantErr{{4, "[]", 0, "action_sequence", "must list at least one action"}}},
		{name: "go skill with empty emits",
			src:  hdr + "emits: []\n",
			want: []wantErr{{4, "[]", 0, "emits", "a go skill must list the action types it may emit"}}},
		{name: "emits lists an unknown kind and a duplicate",
			src: hdr + "emits: [chat, fly, chat]\n",
			want: []wantErr{
				{4, "fly", 0, "emits[1]", `unknown action type "fly"`},
				{4, "chat]", 0, "emits[2]", "chat is listed twice"},
			}},
		{name: "template emits mismatch: missing and extra kinds",
			src: hdr + "params:\n  pos:\n    type: block_pos\n    description: Where.\n" +
				"action_sequence:\n  - type: move_to\n    pos: \"{pos}\"\n  - type: break_block\n    pos: \"{pos}\"\n" +
				"emits: [move_to, chat]\n",
			want: []wantErr{
				{13, "[", 0, "emits", "action_sequence uses break_block, which emits does not list"},
				{13, "[", 0, "emits", "chat is listed but the action_sequence never emits it"},
			}},

		// Action sequences.
		{name: "unknown action type",
			src:  hdr + "action_sequence:\n  - type: navigate_to\n    location: \"{target_location}\"\n",
			want: []wantErr{{5, "navigate_to", 0, "action_sequence[0].type", `unknown action type "navigate_to" (known: move_to, break_block`}}},
		{name: "step without a type",
			src:  hdr + "action_sequence:\n  - pos: [1, 2, 3]\n",
			want: []wantErr{{5, "pos", 0, "action_sequence[0].type", "required field is missing"}}},
		{name: "step is not a mapping",
			src: hdr + "action_sequence:\n  - chat\n",
			want: []wantErr{
				{5, "chat", 0, "action_sequence[0]", `expected a mapping, got the string "chat"`},
				{5, "chat", 0, "action_sequence[0].type", "required field is missing"},
			}},
		{name: "unknown action parameter",
			src:  hdr + "action_sequence:\n  - type: move_to\n    pos: [1, 2, 3]\n    speed: 2\n",
			want: []wantErr{{7, "speed", 0, "action_sequence[0].speed", `move_to has no parameter "speed" (parameters: pos, radius, keep)`}}},
		{name: "missing required action parameter",
			src: hdr + "action_sequence:\n  - type: chat\n    message: hi\n  - type: transfer_items\n    pos: [1, 2, 3]\n    item: minecraft:coal\n",
			want: []wantErr{
				{7, "type", 0, "action_sequence[1].count", `transfer_items needs parameter "count"`},
				{7, "type", 0, "action_sequence[1].direction", `transfer_items needs parameter "direction"`},
			}},
		{name: "literal value of the wrong type",
			src: hdr + "action_sequence:\n  - type: move_to\n    pos: somewhere\n    radius: far\n",
			want: []wantErr{
				{6, "somewhere", 0, "action_sequence[0].pos", `expected a block position ([x, y, z], {x, y, z} or "x,y,z"), got "somewhere"`},
				{7, "far", 0, "action_sequence[0].radius", `expected a number, got "far"`},
			}},
		{name: "placeholder references an undeclared parameter",
			src:  hdr + "action_sequence:\n  - type: move_to\n    pos: \"{where}\"\n",
			want: []wantErr{{6, `"{where}"`, 0, "action_sequence[0].pos", "{where} is neither a declared parameter nor a derived placeholder (derived: {dimension}, {nearest:TAG}, {player}, {position}, {target_location}, {tech_state})"}}},
		{name: "target_location without a target parameter",
			src:  hdr + "action_sequence:\n  - type: move_to\n    pos: \"{target_location}\"\n",
			want: []wantErr{{6, `"{`, 0, "action_sequence[0].pos", "{target_location}: needs a parameter named target (block_id or string)"}}},
		{name: "target_location with an int target",
			src:  hdr + "params:\n  target:\n    type: int\n    description: t\naction_sequence:\n  - type: move_to\n    pos: \"{target_location}\"\n",
			want: []wantErr{{10, `"{`, 0, "action_sequence[0].pos", "{target_location}: parameter target must be a block_id or string, not int"}}},
		{name: "int placeholder into a block_pos parameter",
			src:  hdr + "params:\n  count:\n    type: int\n    default: 1\n    description: c\naction_sequence:\n  - type: move_to\n    pos: \"{count}\"\n",
			want: []wantErr{{11, `"{count}"`, 0, "action_sequence[0].pos", "{count} is a int but action_sequence[0].pos expects block_pos"}}},
		{name: "block_pos placeholder into an item parameter",
			src:  hdr + "action_sequence:\n  - type: equip\n    item: \"{position}\"\n",
			want: []wantErr{{6, `"{position}"`, 0, "action_sequence[0].item", "{position} is a block_pos but action_sequence[0].item expects item_id"}}},
		{name: "string placeholder into a duration parameter",
			src:  hdr + "params:\n  s:\n    type: string\n    default: x\n    description: s\naction_sequence:\n  - type: wait\n    ticks: \"{s}\"\n",
			want: []wantErr{{11, `"{s}"`, 0, "action_sequence[0].ticks", "{s} is a string but action_sequence[0].ticks expects duration"}}},
		{name: "embedded placeholder in a non-string parameter",
			src:  hdr + "params:\n  wood:\n    type: string\n    default: log\n    description: w\naction_sequence:\n  - type: equip\n    item: \"minecraft:{wood}\"\n",
			want: []wantErr{{11, `"minecraft`, 0, "action_sequence[0].item", `placeholders can be embedded in text only for string parameters; write "{wood}" alone`}}},
		{name: "nearest without a tag",
			src:  hdr + "action_sequence:\n  - type: move_to\n    pos: \"{nearest}\"\n",
			want: []wantErr{{6, `"{nearest}"`, 0, "action_sequence[0].pos", "{nearest}: write {nearest:TAG}, e.g. {nearest:water_source}"}}},
		{name: "only nearest takes an argument",
			src:  hdr + "action_sequence:\n  - type: move_to\n    pos: \"{position:up}\"\n",
			want: []wantErr{{6, `"{position:up}"`, 0, "action_sequence[0].pos", "{position:up} is neither a declared parameter nor a derived placeholder"}}},
		{name: "undeclared placeholder embedded in chat",
			src:  hdr + "action_sequence:\n  - type: chat\n    message: \"mined {nothing} at {position}\"\n",
			want: []wantErr{{6, `"mined`, 0, "action_sequence[0].message", "{nothing} is neither a declared parameter nor a derived placeholder"}}},

		{name: "null action_sequence",
			src:  hdr + "action_sequence:\n",
			want: []wantErr{{4, "", 17, "action_sequence", "must list at least one action"}}},
		{name: "literal outside the enum",
			src:  hdr + "action_sequence:\n  - type: transfer_items\n    pos: [1, 2, 3]\n    item: minecraft:coal\n    count: 1\n    direction: sideways\n",
			want: []wantErr{{9, "sideways", 0, "action_sequence[0].direction", "must be one of deposit, withdraw"}}},
		{name: "literal face outside the enum",
			src:  hdr + "action_sequence:\n  - type: place_block\n    pos: [1, 2, 3]\n    item: minecraft:dirt\n    face: top\n",
			want: []wantErr{{8, "top", 0, "action_sequence[0].face", "must be one of auto, down, up"}}},
		{name: "literal step failing validation",
			src:  hdr + "action_sequence:\n  - type: craft\n    item: minecraft:planks\n    count: 0\n",
			want: []wantErr{{5, "type", 0, "action_sequence[0]", "craft: count: must be at least 1"}}},
		{name: "interact with neither pos nor entity",
			src:  hdr + "action_sequence:\n  - type: interact\n",
			want: []wantErr{{5, "type", 0, "action_sequence[0]", "exactly one of pos and entity"}}},
		{name: "empty chat",
			src:  hdr + "action_sequence:\n  - type: chat\n    message: \"\"\n",
			want: []wantErr{{5, "type", 0, "action_sequence[0]", "message: must not be empty"}}},
		{name: "null inventory change",
			src:  goHdr + "effects:\n  inventory_delta:\n    minecraft:log:\n",
			want: []wantErr{{7, "", 5, "effects.inventory_delta.minecraft:log", "give at least one of"}}},

		// Document shape.
		{name: "document is a list",
			src:  "- name: dig\n- version: 1\n",
			want: []wantErr{{1, "", 1, "", "expected a mapping, got a list"}}},
		{name: "document is a scalar",
			src:  "dig\n",
			want: []wantErr{{1, "", 1, "", `expected a mapping, got the string "dig"`}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := tc.file
			if file == "" {
				file = "dig.yaml"
			}
			for i := range tc.want {
				if tc.want[i].col == -1 { // the token is a quoted key: point at the quote
					tc.want[i].tok = `"` + tc.want[i].tok
					tc.want[i].col = 0
				}
			}
			spec, err := ParseSpec(file, []byte(tc.src))
			assert.Nil(t, spec)
			checkErrors(t, file, tc.src, err, tc.want)
		})
	}
}

func TestParseSpecUnknownKeyWithoutSuggestion(t *testing.T) {
	_, err := ParseSpec("dig.yaml", []byte(goHdr+"author: me\n"))
	es := errorsOf(t, err)
	require.Len(t, es, 1)
	assert.Equal(t, &Error{File: "dig.yaml", Line: 5, Column: 1, Field: "author", Msg: `unknown field "author"`}, es[0])
	assert.Equal(t, `dig.yaml:5:1: author: unknown field "author"`, es[0].Error())
}

func TestParseSpecBadTags(t *testing.T) {
	src := goHdr + "tags:\n  - mining\n  - Bad Tag\npreconditions:\n  dimension_allowlist: [overworld, The End]\n" +
		"  semantic_tags_any_of: [tree, 5]\neffects:\n  tags: [ok, \"-x\"]\n  tech_delta:\n    unlocks: [Coal]\n"
	_, err := ParseSpec("dig.yaml", []byte(src))
	es := errorsOf(t, err)
	type got struct {
		line  int
		field string
		msg   string
	}
	var all []got
	for _, e := range es {
		all = append(all, got{e.Line, e.Field, e.Msg})
	}
	const rule = "must be lowercase letters, digits, '_', '-', '.' or ':'"
	assert.Equal(t, []got{
		{7, "tags[1]", `tag "Bad Tag" ` + rule},
		{9, "preconditions.dimension_allowlist[1]", `tag "The End" ` + rule},
		{10, "preconditions.semantic_tags_any_of[1]", "expected a string, got the integer 5"},
		{12, "effects.tags[1]", `tag "-x" ` + rule},
		{14, "effects.tech_delta.unlocks[0]", `tag "Coal" ` + rule},
	}, all)
	// Each bad tag is located at the item itself.
	assert.Equal(t, 5, es[0].Column)
	assert.Equal(t, strings.Index(lineOf(src, 9), "The End")+1, es[1].Column)
	assert.Equal(t, strings.Index(lineOf(src, 10), "5")+1, es[2].Column)
}

func TestParseSpecGoSkillWithoutEmits(t *testing.T) {
	_, err := ParseSpec("dig.yaml", []byte(hdr))
	es := errorsOf(t, err)
	require.Len(t, es, 1)
	assert.Equal(t, "dig.yaml", es[0].File)
	assert.Equal(t, "emits", es[0].Field)
	assert.Equal(t, "a go skill must list the action types it may emit", es[0].Msg)
	assert.Equal(t, 1, es[0].Line, "reported at the mapping that lacks emits")
	assert.Equal(t, 1, es[0].Column)

	_, err = ParseSpec("dig.yaml", []byte(hdr+"emits:\n"))
	checkErrors(t, "dig.yaml", hdr+"emits:\n", err, []wantErr{{4, "", 7, "emits", "a go skill must list"}})
}

func TestParseSpecDefaultTypes(t *testing.T) {
	src := func(typ, def string) string {
		return goHdr + "params:\n  p:\n    type: " + typ + "\n    default: " + def + "\n    description: d\n"
	}
	valid := []struct {
		typ  action.ParamType
		def  string
		want any
	}{
		{action.TypeInt, "8", 8},
		{action.TypeInt, "-3", -3},
		{action.TypeFloat, "1", 1.0},
		{action.TypeFloat, "2.5", 2.5},
		{action.TypeBool, "true", true},
		{action.TypeBool, "false", false},
		{action.TypeString, "hello", "hello"},
		{action.TypeString, `""`, ""},
		{action.TypeItemID, `"ore:logWood"`, "ore:logWood"},
		{action.TypeItemID, `"minecraft:coal:1"`, "minecraft:coal:1"},
		{action.TypeItemID, `"tool:axe"`, "tool:axe"},
		{action.TypeBlockID, `"minecraft:log:2"`, "minecraft:log:2"},
		{action.TypeBlockPos, "[1, 64, -2]", world.Pos(1, 64, -2)},
		{action.TypeBlockPos, "{x: 1, y: 64, z: -2}", world.Pos(1, 64, -2)},
		{action.TypeBlockPos, `"1, 64, -2"`, world.Pos(1, 64, -2)},
		{action.TypeDuration, "2s", action.Ticks(40)},
		{action.TypeDuration, "40t", action.Ticks(40)},
		{action.TypeDuration, "40", action.Ticks(40)},
		{action.TypeDuration, "1.5m", action.Ticks(1800)},
	}
	for _, tc := range valid {
		t.Run("valid/"+string(tc.typ)+"/"+tc.def, func(t *testing.T) {
			spec, err := ParseSpec("dig.yaml", []byte(src(string(tc.typ), tc.def)))
			require.NoError(t, err)
			p := spec.Params["p"]
			assert.Equal(t, tc.typ, p.Type)
			assert.False(t, p.Required)
			assert.Equal(t, tc.want, p.Default)
			assert.IsType(t, tc.want, p.Default)
		})
	}

	for _, def := range []string{"~", "null"} {
		spec, err := ParseSpec("dig.yaml", []byte(src("int", def)))
		require.NoError(t, err)
		assert.True(t, spec.Params["p"].Required, "a null default makes the parameter required")
		assert.Nil(t, spec.Params["p"].Default)
	}

	invalid := []struct {
		typ string
		def string
		msg string
	}{
		{"int", "abc", `expected an integer, got "abc"`},
		{"int", "2.5", "expected an integer, got 2.5"},
		{"int", "true", "expected an integer, got true (bool)"},
		{"int", "[1]", "expected an integer, got a list"},
		{"float", "fast", `expected a number, got "fast"`},
		{"float", "true", "expected a number"},
		{"bool", "yes", `expected true or false, got "yes"`},
		{"bool", "1", "expected true or false, got 1 (int)"},
		{"string", "5", "expected a string, got 5 (int)"},
		{"string", "{a: 1}", "expected a string, got a mapping"},
		{"item_id", "log", `"log" is not an item`},
		{"item_id", "5", "expected an item id, got 5 (int)"},
		{"block_id", "log", `"log" is not an id of the form modid:name or modid:name:meta`},
		{"block_id", `"tool:"`, `"tool:" is not an id`},
		{"block_pos", "[1, 2]", "expected a block position"},
		{"block_pos", `"1,2"`, "expected a block position"},
		{"block_pos", "{x: 1, y: 2}", "expected a block position"},
		{"duration", "soon", `"soon" is not a duration`},
		{"duration", "-5", "duration -5 is negative"},
		{"duration", "2.5", `expected a duration (ticks or e.g. "2s"), got 2.5`},
		{"duration", "-1s", `duration "-1s" is negative`},
	}
	for _, tc := range invalid {
		t.Run("invalid/"+tc.typ+"/"+tc.def, func(t *testing.T) {
			s := src(tc.typ, tc.def)
			_, err := ParseSpec("dig.yaml", []byte(s))
			checkErrors(t, "dig.yaml", s, err, []wantErr{{8, "", len("    default: ") + 1, "params.p.default", "default does not fit type " + tc.typ + ": " + tc.msg}})
		})
	}
}

func TestParseSpecSyntaxErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		line int
		msg  string
	}{
		{"colon in a plain scalar", hdr[:len(hdr)-len("description: Dig a block.\n")] + "description: Dig: a block\nemits: [chat]\n", 3, "mapping values are not allowed in this context"},
		// yaml.v3 reports the line where the enclosing block starts (5,
		// "params:") rather than the offending line 8.
		{"bad indentation", goHdr + "params:\n  radius:\n    type: int\n   description: r\n", 5, "did not find expected key"},
		{"tab", goHdr + "tags: [a]\nstatus:\t\t@x\n", 6, "cannot start any token"},
		{"unterminated string", goHdr + "tags: [\"a]\n", 5, "found unexpected end of stream"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec, err := ParseSpec("dig.yaml", []byte(tc.src))
			assert.Nil(t, spec)
			es := errorsOf(t, err)
			require.Len(t, es, 1)
			e := es[0]
			assert.Equal(t, "dig.yaml", e.File)
			assert.Equal(t, tc.line, e.Line, "%v", e)
			assert.Greater(t, e.Column, 0)
			assert.Equal(t, "", e.Field)
			assert.True(t, strings.HasPrefix(e.Msg, "invalid YAML: "), e.Msg)
			assert.Contains(t, e.Msg, tc.msg)
		})
	}
}

func TestParseSpecSyntaxErrorType(t *testing.T) {
	_, err := ParseSpec("dig.yaml", []byte("name: dig\nversion: 1\ndescription: Dig: a\n"))
	require.Error(t, err)
	var one *Error
	require.True(t, errors.As(err, &one))
	assert.Equal(t, 3, one.Line)
	var list Errors
	require.True(t, errors.As(err, &list), "syntax errors are Errors too")
	assert.Len(t, strictyaml.Flatten("dig.yaml", err), 1)
}

func TestParseSpecEmptyDocument(t *testing.T) {
	for _, src := range []string{"", "\n", "# nothing here\n"} {
		spec, err := ParseSpec("dig.yaml", []byte(src))
		assert.Nil(t, spec)
		require.Error(t, err, "%q", src)
		var es Errors
		require.True(t, errors.As(err, &es), "%T", err)
		require.Len(t, es, 1)
		assert.Equal(t, "dig.yaml", es[0].File)
		assert.Equal(t, "", es[0].Field)
		assert.Contains(t, es[0].Msg, "empty document")
	}
}

func TestParseSpecReportsEveryProblem(t *testing.T) {
	src := readFixture(t, "invalid/many_problems.yaml")
	spec, err := ParseSpec("many_problems.yaml", src)
	assert.Nil(t, spec)
	var es Errors
	require.True(t, errors.As(err, &es), "%T", err)
	checkErrors(t, "many_problems.yaml", string(src), err, []wantErr{
		{2, `"1"`, 0, "version", `expected an integer, got the string "1"`},
		{3, "retired", 0, "status", `must be active, candidate or deprecated, got "retired"`},
		{8, "abc", 0, "params.radius.default", `default does not fit type int: expected an integer, got "abc"`},
		{12, "5", 0, "params.speed.min", "min 5 is above max 1"},
		{14, "2", 0, "params.speed.default", "default does not fit type float: 2 is below the minimum 5"},
		{16, "precondition", 0, "precondition", `unknown field "precondition" (did you mean "preconditions"?)`},
		{19, "ultra", 0, "preconditions.tech_states_any_of[1]", `unknown tier "ultra"`},
		{21, "iron_axe", 0, "preconditions.required_tools[0].item_id", `"iron_axe" is not an item`},
		{24, "logs", 0, "effects.inventory_delta.logs", `"logs" is not an item`},
		{26, "fly", 0, "emits[1]", `unknown action type "fly"`},
	})
	// The errors are sorted by position.
	assert.True(t, sort.SliceIsSorted(es, func(i, j int) bool {
		if es[i].Line != es[j].Line {
			return es[i].Line < es[j].Line
		}
		return es[i].Column < es[j].Column
	}))
	// Error() lists every problem, one per line, as file:line:col.
	lines := strings.Split(err.Error(), "\n")
	assert.Len(t, lines, 10)
	assert.Equal(t, `many_problems.yaml:2:10: version: expected an integer, got the string "1"`, lines[0])

	// A template with several broken steps.
	src = readFixture(t, "invalid/bad_template.yaml")
	_, err = ParseSpec("bad_template.yaml", src)
	checkErrors(t, "bad_template.yaml", string(src), err, []wantErr{
		{10, "navigate_to", 0, "action_sequence[0].type", `unknown action type "navigate_to"`},
		{13, `"{count}"`, 0, "action_sequence[1].pos", "{count} is a int but action_sequence[1].pos expects block_pos"},
		{14, "speed", 0, "action_sequence[1].speed", `move_to has no parameter "speed"`},
		{15, "type", 0, "action_sequence[2].pos", `break_block needs parameter "pos"`},
		{17, `"mined`, 0, "action_sequence[3].message", "{nothing} is neither a declared parameter nor a derived placeholder"},
	})
}

func ptrF(f float64) *float64 { return &f }

func TestParseSpecSeedSpec(t *testing.T) {
	spec, err := ParseSpec("chop_tree.yaml", readFixture(t, "specs/chop_tree.yaml"))
	require.NoError(t, err)

	assert.Equal(t, "chop_tree", spec.Name)
	assert.Equal(t, 1, spec.Version)
	assert.Equal(t, "chop_tree@1", spec.Key())
	assert.Equal(t, StatusActive, spec.Status)
	assert.Equal(t, OriginManual, spec.Origin)
	assert.Equal(t, "Locate the nearest tree and chop it down, collecting logs.", spec.Description)
	assert.Equal(t, "chop_tree.yaml", spec.File)

	assert.Equal(t, map[string]ParamSpec{
		"radius":   {Name: "radius", Type: action.TypeInt, Default: 8, Description: "Search radius in blocks.", Min: ptrF(1), Max: ptrF(64)},
		"min_logs": {Name: "min_logs", Type: action.TypeInt, Default: 4, Description: "Minimum logs to gather before stopping."},
	}, spec.Params)
	assert.Equal(t, []string{"min_logs", "radius"}, spec.ParamNames())

	assert.Equal(t, Preconditions{
		TechStatesAnyOf:    []string{"stone_age", "steam_age"},
		RequiredTools:      []ToolRequirement{{ItemID: "minecraft:iron_axe", MinDurability: 10}},
		DimensionAllowlist: []string{"overworld"},
		SemanticTagsAnyOf:  []string{"tree"},
		Extra:              map[string]any{},
	}, spec.Preconditions)

	assert.Equal(t, Effects{
		InventoryDelta: map[string]InventoryChange{"ore:logWood": {MinIncrease: &Amount{Param: "min_logs"}}},
		TechDelta:      TechDelta{},
		Tags:           []string{"gathers_logs"},
		Extra:          map[string]any{},
	}, spec.Effects)

	assert.Equal(t, []string{"mining", "progression", "low_risk", "resource_gathering"}, spec.Tags)
	assert.Nil(t, spec.Metrics.SuccessRate, "success_rate: null")
	assert.Nil(t, spec.Metrics.AvgCost, "avg_cost: null")
	assert.Equal(t, 0, spec.Metrics.Samples)

	assert.Equal(t, ImplGo, spec.Implementation, "go is the default implementation")
	assert.Nil(t, spec.ActionSequence)
	assert.Equal(t, []action.Kind{action.KindEquip, action.KindMoveTo, action.KindBreakBlock}, spec.Emits)
	assert.True(t, spec.EmitSet().Has(action.KindBreakBlock))
	assert.False(t, spec.EmitSet().Has(action.KindChat))

	// The JSON form is what planners see.
	data, err := json.Marshal(spec)
	require.NoError(t, err)
	var j map[string]any
	require.NoError(t, json.Unmarshal(data, &j))
	assert.Equal(t, "{min_logs}", j["effects"].(map[string]any)["inventory_delta"].(map[string]any)["ore:logWood"].(map[string]any)["min_increase"])
	assert.Nil(t, j["metrics"].(map[string]any)["success_rate"])
	assert.Equal(t, "go", j["implementation"])
	assert.NotContains(t, j, "action_sequence")
	assert.NotContains(t, j, "File")
}

func TestParseSpecEveryField(t *testing.T) {
	spec, err := ParseSpec("skills/feed_coke_ovens.v2.yaml", readFixture(t, "specs/feed_coke_ovens.v2.yaml"))
	require.NoError(t, err)

	assert.Equal(t, "feed_coke_ovens@2", spec.Key())
	assert.Equal(t, StatusCandidate, spec.Status)
	assert.Equal(t, OriginSynthesized, spec.Origin)
	assert.Equal(t, "Walk to the nearest formed coke oven and deposit coal into its input slot.", spec.Description)
	assert.Equal(t, "skills/feed_coke_ovens.v2.yaml", spec.File)
	assert.Equal(t, ImplGo, spec.Implementation)

	type pv struct {
		typ      action.ParamType
		def      any
		required bool
	}
	want := map[string]pv{
		"amount":  {action.TypeInt, 16, false},
		"fuel":    {action.TypeItemID, "ore:gemCoal", false},
		"mode":    {action.TypeString, "nearest", false},
		"pause":   {action.TypeDuration, action.Ticks(40), false},
		"spot":    {action.TypeBlockPos, world.Pos(0, 64, 0), false},
		"careful": {action.TypeBool, false, false},
		"speed":   {action.TypeFloat, 1.0, false},
		"oven":    {action.TypeBlockID, "Railcraft:machine.alpha:7", false},
		"target":  {action.TypeString, nil, true},
	}
	require.Len(t, spec.Params, len(want))
	for name, w := range want {
		p, ok := spec.Params[name]
		require.True(t, ok, name)
		assert.Equal(t, name, p.Name)
		assert.Equal(t, w.typ, p.Type, name)
		assert.Equal(t, w.def, p.Default, name)
		assert.Equal(t, w.required, p.Required, name)
		assert.NotEmpty(t, p.Description, name)
	}
	assert.Equal(t, []string{"nearest", "all"}, spec.Params["mode"].Enum)
	assert.Equal(t, ptrF(1), spec.Params["amount"].Min)
	assert.Equal(t, ptrF(64), spec.Params["amount"].Max)

	assert.Equal(t, []string{">= steam_age", "stone_age..stone_age"}, spec.Preconditions.TechStatesAnyOf)
	assert.Empty(t, spec.Preconditions.RequiredTools)
	assert.Equal(t, []string{"overworld", "nether"}, spec.Preconditions.DimensionAllowlist)
	assert.Equal(t, []string{"coke_oven"}, spec.Preconditions.SemanticTagsAnyOf)
	assert.Equal(t, map[string]any{"tag_radius": 24, "note": "ovens must be formed"}, spec.Preconditions.Extra)

	assert.Equal(t, map[string]InventoryChange{
		"ore:gemCoal":         {MinDecrease: &Amount{Param: "amount"}, MaxDecrease: &Amount{Value: 64}},
		"Railcraft:fuel.coke": {MinIncrease: &Amount{Value: 0}},
		"{fuel}":              {MaxDecrease: &Amount{Value: 128}},
	}, spec.Effects.InventoryDelta)
	assert.Equal(t, map[string]BlockChange{
		"tag:coke_oven": {MinRemoved: &Amount{Value: 1}, Radius: Amount{Value: 8}},
		"{oven}":        {MinPlaced: &Amount{Param: "amount"}, Radius: Amount{Param: "amount"}},
	}, spec.Effects.Blocks)
	assert.Equal(t, []MachineChange{
		{Kind: "coke_oven", Slot: "input", Item: "{fuel}", MinIncrease: &Amount{Param: "amount"}, Radius: &Amount{Value: 24}},
		{Kind: "coke_oven", Fluid: "creosote", MinDecrease: &Amount{Value: 1000}},
	}, spec.Effects.Machines)
	assert.Equal(t, []EffectSet{
		{InventoryDelta: map[string]InventoryChange{AnyItem: {MinIncrease: &Amount{Value: 1}}}},
		{Machines: []MachineChange{{Kind: "coke_oven", Slot: "output", MinDecrease: &Amount{Value: 1}}},
			Blocks: map[string]BlockChange{"minecraft:log:1": {MinPlaced: &Amount{Value: 2}, Radius: Amount{Value: 4}}}},
	}, spec.Effects.AnyOf)
	require.NoError(t, spec.Validate(nil), "a parsed spec passes Validate")
	assert.Equal(t, spec, spec.Clone())
	assert.Equal(t, TechDelta{ReachesTier: "steam_age", Unlocks: []string{"coal_coke", "creosote"}}, spec.Effects.TechDelta)
	assert.Equal(t, []string{"feeds_machines"}, spec.Effects.Tags)
	assert.Equal(t, map[string]any{"expected_minutes": 3}, spec.Effects.Extra)
	assert.Equal(t, []string{"automation", "steam_age"}, spec.Tags)

	require.NotNil(t, spec.Metrics.SuccessRate)
	require.NotNil(t, spec.Metrics.AvgCost)
	assert.Equal(t, 0.75, *spec.Metrics.SuccessRate)
	assert.Equal(t, 120.5, *spec.Metrics.AvgCost)
	assert.Equal(t, 8, spec.Metrics.Samples)
	assert.Equal(t, []action.Kind{action.KindMoveTo, action.KindOpenContainer, action.KindTransferItems, action.KindCloseContainer, action.KindWait}, spec.Emits)

	// Amounts resolve per invocation.
	p := Params{"amount": 12}
	assert.Equal(t, 12, spec.Effects.InventoryDelta["ore:gemCoal"].MinDecrease.Resolve(p))
	assert.Equal(t, 64, spec.Effects.InventoryDelta["ore:gemCoal"].MaxDecrease.Resolve(p))
}

func TestParseSpecTemplates(t *testing.T) {
	t.Run("implementation defaults to template with an action_sequence", func(t *testing.T) {
		spec, err := ParseSpec("fill_water_tank.yaml", readFixture(t, "specs/fill_water_tank.yaml"))
		require.NoError(t, err)
		assert.Equal(t, ImplTemplate, spec.Implementation)
		// Emits derived from the sequence, in order of first use.
		assert.Equal(t, []action.Kind{action.KindEquip, action.KindMoveTo, action.KindUseItem, action.KindChat}, spec.Emits)
		require.Len(t, spec.ActionSequence, 6)
		assert.Equal(t, ActionTemplate{Kind: action.KindMoveTo, Params: map[string]any{"pos": "{nearest:water_source}", "radius": 2}, Line: 29}, spec.ActionSequence[1])
		assert.Equal(t, action.KindChat, spec.ActionSequence[5].Kind)
		assert.Equal(t, 1.0, *spec.Metrics.SuccessRate, "an integer metric is a number")
		assert.Equal(t, 0.0, *spec.Metrics.AvgCost)
	})
	t.Run("explicit template with matching emits", func(t *testing.T) {
		spec, err := ParseSpec("mine_block.yml", readFixture(t, "specs/mine_block.yml"))
		require.NoError(t, err)
		assert.Equal(t, ImplTemplate, spec.Implementation)
		assert.Equal(t, []action.Kind{action.KindEquip, action.KindMoveTo, action.KindBreakBlock, action.KindWait}, spec.Emits)
		assert.True(t, spec.Params["target"].Required)
	})
	t.Run("compatible whole-value placeholders", func(t *testing.T) {
		src := hdr + `params:
  n:
    type: int
    default: 2
    description: n
  b:
    type: block_id
    default: minecraft:dirt
    description: b
  at:
    type: block_pos
    default: [0, 0, 0]
    description: at
  f:
    type: float
    default: 1.5
    description: f
action_sequence:
  - type: move_to
    pos: "{at}"
    radius: "{n}"
  - type: place_block
    pos: "{position}"
    item: "{b}"
  - type: wait
    ticks: "{n}"
  - type: move_to
    pos: "{nearest:tree}"
    radius: "{f}"
  - type: chat
    message: "{n} {b} {at} {f} {player} {dimension} {tech_state}"
  - type: chat
    message: "{player}"
`
		spec, err := ParseSpec("dig.yaml", []byte(src))
		require.NoError(t, err)
		assert.Equal(t, []action.Kind{action.KindMoveTo, action.KindPlaceBlock, action.KindWait, action.KindChat}, spec.Emits)
	})
	t.Run("explicit go implementation", func(t *testing.T) {
		spec, err := ParseSpec("dig.yaml", []byte(hdr+"implementation: go\nemits: [chat]\n"))
		require.NoError(t, err)
		assert.Equal(t, ImplGo, spec.Implementation)
	})
	t.Run("file name with a directory and a version", func(t *testing.T) {
		src := "name: dig\nversion: 3\ndescription: D.\nemits: [chat]\n"
		spec, err := ParseSpec("config/skills/dig.v3.yaml", []byte(src))
		require.NoError(t, err)
		assert.Equal(t, 3, spec.Version)
		spec, err = ParseSpec("", []byte(src))
		require.NoError(t, err, "an empty file name skips the name check")
		assert.Equal(t, "", spec.File)
	})
}

func TestLoadOptionsTiers(t *testing.T) {
	tiers, err := rules.ParseTiers("t.yaml", []byte("tiers:\n  - name: early\n  - name: late\n"))
	require.NoError(t, err)
	opts := LoadOptions{Tiers: tiers}
	src := goHdr + "preconditions:\n  tech_states_any_of: [\">= early\"]\neffects:\n  tech_delta:\n    reaches_tier: late\n"
	_, err = opts.ParseSpec("dig.yaml", []byte(src))
	require.NoError(t, err)

	_, err = ParseSpec("dig.yaml", []byte(src))
	es := errorsOf(t, err)
	require.Len(t, es, 2, "the shipped table knows neither tier")

	_, err = opts.ParseSpec("dig.yaml", []byte(goHdr+"preconditions:\n  tech_states_any_of: [lv]\n"))
	es = errorsOf(t, err)
	require.Len(t, es, 1)
	assert.Contains(t, es[0].Msg, `unknown tier "lv" (known: early, late)`)
}

func TestLoadDirFixtures(t *testing.T) {
	t.Run("valid specs", func(t *testing.T) {
		specs, err := LoadDir(os.DirFS("testdata"), "specs")
		require.NoError(t, err)
		var keys, files []string
		for _, s := range specs {
			keys = append(keys, s.Key())
			files = append(files, s.File)
		}
		assert.Equal(t, []string{"chop_tree@1", "feed_coke_ovens@2", "fill_water_tank@1", "mine_block@1"}, keys)
		assert.Equal(t, []string{"specs/chop_tree.yaml", "specs/feed_coke_ovens.v2.yaml", "specs/fill_water_tank.yaml", "specs/mine_block.yml"}, files)
	})

	t.Run("invalid specs", func(t *testing.T) {
		specs, err := LoadDir(os.DirFS("testdata"), "invalid")
		require.Error(t, err)
		require.Len(t, specs, 1, "valid specs are still returned")
		assert.Equal(t, "valid_one", specs[0].Name)

		var es Errors
		require.True(t, errors.As(err, &es))
		byFile := map[string]int{}
		for _, e := range es {
			byFile[e.File]++
		}
		assert.Equal(t, map[string]int{
			"invalid/bad_template.yaml":  5,
			"invalid/broken_syntax.yaml": 1,
			"invalid/many_problems.yaml": 10,
			"invalid/wrong_name.yaml":    1,
		}, byFile)
		assertSorted(t, es)
		assert.Equal(t, &Error{File: "invalid/broken_syntax.yaml", Line: 3, Column: 1, Msg: "invalid YAML: mapping values are not allowed in this context"}, findErr(es, "invalid/broken_syntax.yaml", ""))
		e := findErr(es, "invalid/wrong_name.yaml", "name")
		require.NotNil(t, e)
		assert.Equal(t, 1, e.Line)
		assert.Equal(t, 7, e.Column)
	})
}

func findErr(es Errors, file, field string) *Error {
	for _, e := range es {
		if e.File == file && e.Field == field {
			return e
		}
	}
	return nil
}

func assertSorted(t *testing.T, es Errors) {
	t.Helper()
	sorted := append(Errors(nil), es...)
	sorted.Sort()
	assert.Equal(t, sorted, es, "errors must be sorted by file, line, column")
}

func TestLoadDirMapFS(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	goSpec := func(name string, version int) string {
		return "name: " + name + "\nversion: " + string(rune('0'+version)) + "\ndescription: " + name + ".\nemits: [chat]\n"
	}
	fsys := fstest.MapFS{
		"skills/b.yaml":        file("name: b\nversion: \"1\"\ndescription: B.\nemits: [chat, fly]\n"),
		"skills/a.yaml":        file(goSpec("a", 1)),
		"skills/c.yaml":        file("name: c\nversion: 1\ndescription: C: broken\n"),
		"skills/d.yaml":        file(goSpec("d", 1)),
		"skills/d.v1.yaml":     file(goSpec("d", 1)),
		"skills/d.v2.yaml":     file(goSpec("d", 2)),
		"skills/e.yml":         file(goSpec("e", 1)),
		"skills/f.yaml":        file(""),
		"skills/notes.txt":     file("not a spec"),
		"skills/.hidden.yaml":  file("garbage: ["),
		"skills/sub/g.yaml":    file("garbage: ["),
		"skills/sub.yaml/x.md": file("a directory named like a spec"),
	}
	specs, err := LoadDir(fsys, "skills")
	require.Error(t, err)

	var keys []string
	for _, s := range specs {
		keys = append(keys, s.Key())
	}
	// d.v1.yaml sorts before d.yaml, so d.yaml is the duplicate.
	assert.Equal(t, []string{"a@1", "d@1", "d@2", "e@1"}, keys)
	assert.Equal(t, "skills/d.v1.yaml", specs[1].File)

	var es Errors
	require.True(t, errors.As(err, &es))
	assertSorted(t, es)
	var got []string
	for _, e := range es {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		`skills/b.yaml:2:10: version: expected an integer, got the string "1"`,
		`skills/b.yaml:4:15: emits[1]: unknown action type "fly" (known: move_to, break_block, place_block, use_item, interact, equip, open_container, close_container, transfer_items, craft, wait, chat, attack, drop_item)`,
		`skills/c.yaml:3:1: invalid YAML: mapping values are not allowed in this context`,
		`skills/d.yaml:1:1: version: d@1 is also defined in skills/d.v1.yaml`,
		`skills/f.yaml: empty document: a skill spec needs at least name, version and description`,
	}, got)

	t.Run("all valid", func(t *testing.T) {
		specs, err := LoadDir(fstest.MapFS{"x/a.yaml": file(goSpec("a", 1)), "x/b.yml": file(goSpec("b", 1))}, "x")
		require.NoError(t, err)
		assert.Len(t, specs, 2)
	})
	t.Run("empty directory", func(t *testing.T) {
		specs, err := LoadDir(fstest.MapFS{"x/readme.md": file("")}, "x")
		require.NoError(t, err)
		assert.Empty(t, specs)
	})
	t.Run("missing directory", func(t *testing.T) {
		specs, err := LoadDir(fstest.MapFS{}, "nope")
		assert.Nil(t, specs)
		var es Errors
		require.True(t, errors.As(err, &es))
		require.Len(t, es, 1)
		assert.Equal(t, "nope", es[0].File)
		assert.Contains(t, es[0].Msg, "cannot read spec directory")
	})
	t.Run("many files in parallel", func(t *testing.T) {
		fsys := fstest.MapFS{}
		for i := range 40 {
			name := "s" + string(rune('a'+i%26)) + string(rune('a'+i/26))
			fsys["d/"+name+".yaml"] = file(goSpec(name, 1))
		}
		fsys["d/zz.yaml"] = file("name: zz\nversion: 1\n")
		specs, err := LoadDir(fsys, "d")
		assert.Len(t, specs, 40)
		es := errorsOf(t, err)
		require.Len(t, es, 2)
		// The position-less emits error sorts first.
		assert.Equal(t, "emits", es[0].Field)
		assert.Equal(t, "description", es[1].Field)
		for i := 1; i < len(specs); i++ {
			assert.Less(t, specs[i-1].File, specs[i].File)
		}
	})
}

func TestSpecHelpers(t *testing.T) {
	spec, err := ParseSpec("feed_coke_ovens.v2.yaml", readFixture(t, "specs/feed_coke_ovens.v2.yaml"))
	require.NoError(t, err)
	c := spec.Clone()
	assert.Equal(t, spec, c)

	// Mutating the clone leaves the original alone.
	c.Params["amount"] = ParamSpec{Name: "amount"}
	c.Preconditions.Extra["tag_radius"] = 1
	c.Preconditions.TechStatesAnyOf[0] = "lv"
	c.Effects.InventoryDelta["x:y"] = InventoryChange{}
	c.Effects.TechDelta.Unlocks[0] = "x"
	c.Effects.Extra["expected_minutes"] = 99
	c.Tags[0] = "x"
	*c.Metrics.SuccessRate = 0
	c.Emits[0] = action.KindChat
	assert.Equal(t, 16, spec.Params["amount"].Default)
	assert.Equal(t, 24, spec.Preconditions.Extra["tag_radius"])
	assert.Equal(t, ">= steam_age", spec.Preconditions.TechStatesAnyOf[0])
	assert.NotContains(t, spec.Effects.InventoryDelta, "x:y")
	assert.Equal(t, "coal_coke", spec.Effects.TechDelta.Unlocks[0])
	assert.Equal(t, 3, spec.Effects.Extra["expected_minutes"])
	assert.Equal(t, "automation", spec.Tags[0])
	assert.Equal(t, 0.75, *spec.Metrics.SuccessRate)
	assert.Equal(t, action.KindMoveTo, spec.Emits[0])
	// Clone copies pointers deeply.
	deep := spec.Clone()
	for name, ps := range deep.Params {
		if ps.Min != nil {
			*ps.Min = 99
			assert.NotEqual(t, 99.0, *spec.Params[name].Min, name)
		}
	}
	for key, ch := range deep.Effects.InventoryDelta {
		for _, a := range []*Amount{ch.MinIncrease, ch.MinDecrease, ch.MaxDecrease} {
			if a != nil {
				a.Value = 12345
			}
		}
		for _, a := range []*Amount{spec.Effects.InventoryDelta[key].MinIncrease, spec.Effects.InventoryDelta[key].MinDecrease, spec.Effects.InventoryDelta[key].MaxDecrease} {
			if a != nil {
				assert.NotEqual(t, 12345, a.Value, key)
			}
		}
	}
	*deep.Metrics.SuccessRate = 0.1
	assert.Equal(t, 0.75, *spec.Metrics.SuccessRate)

	tmpl, err := ParseSpec("fill_water_tank.yaml", readFixture(t, "specs/fill_water_tank.yaml"))
	require.NoError(t, err)
	tc := tmpl.Clone()
	assert.Equal(t, tmpl, tc)
	tc.ActionSequence[0].Params["item"] = "changed"
	assert.Equal(t, "{bucket}", tmpl.ActionSequence[0].Params["item"])

	// Amount.
	assert.True(t, Amount{}.IsZero())
	assert.False(t, Amount{Value: 1}.IsZero())
	assert.False(t, Amount{Param: "n"}.IsZero())
	assert.Equal(t, 7, Amount{Param: "n"}.Resolve(Params{"n": 7}))
	assert.Equal(t, 0, Amount{Param: "n"}.Resolve(Params{}))
	assert.Equal(t, 3, Amount{Value: 3}.Resolve(Params{"n": 7}))
	data, err := json.Marshal(InventoryChange{MinIncrease: &Amount{Param: "n"}, MaxDecrease: &Amount{Value: 5}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"min_increase":"{n}","max_decrease":5}`, string(data))
}

// FuzzParseSpec: ParseSpec never panics; what it accepts is a usable spec and
// what it rejects is reported as located errors naming the file.
func FuzzParseSpec(f *testing.F) {
	for _, dir := range []string{"specs", "invalid"} {
		entries, err := os.ReadDir(filepath.Join("testdata", dir))
		if err != nil {
			f.Fatal(err)
		}
		for _, e := range entries {
			f.Add(e.Name(), readFixture(f, filepath.Join(dir, e.Name())))
		}
	}
	f.Add("dig.yaml", []byte(goHdr))
	f.Add("dig.v2.yaml", []byte(goHdr))
	f.Add("", []byte("- a\n- b\n"))
	f.Add("dig.yaml", []byte(""))
	f.Add("dig.yaml", []byte(hdr+"action_sequence:\n  - type: chat\n    message: \"{position} {nearest:tree}\"\n"))

	f.Fuzz(func(t *testing.T, file string, data []byte) {
		spec, err := ParseSpec(file, data)
		if err != nil {
			if spec != nil {
				t.Fatalf("ParseSpec returned a spec and an error: %v", err)
			}
			var es Errors
			if !errors.As(err, &es) {
				// Known bug (reported): YAML syntax errors come back as a
				// bare *Error rather than Errors.
				var one *Error
				if !errors.As(err, &one) || !strings.HasPrefix(one.Msg, "invalid YAML") {
					t.Fatalf("error is %T, not skills.Errors: %v", err, err)
				}
				es = Errors{one}
			}
			if len(es) == 0 {
				t.Fatal("empty Errors returned as an error")
			}
			for _, e := range es {
				if e == nil {
					t.Fatal("nil *Error in Errors")
				}
				if e.File != file {
					t.Fatalf("error names file %q, want %q: %v", e.File, file, e)
				}
				if e.Msg == "" {
					t.Fatalf("error without a message: %#v", e)
				}
			}
			return
		}
		if spec == nil {
			t.Fatal("ParseSpec returned neither a spec nor an error")
		}
		if spec.Name == "" {
			t.Fatal("accepted a spec without a name")
		}
		if spec.Version < 1 {
			t.Fatalf("accepted version %d", spec.Version)
		}
		if spec.File != file {
			t.Fatalf("spec.File = %q, want %q", spec.File, file)
		}
		if spec.Description == "" {
			t.Fatal("accepted an empty description")
		}
		if spec.Implementation != ImplGo && spec.Implementation != ImplTemplate {
			t.Fatalf("implementation %q", spec.Implementation)
		}
		seen := action.KindSet{}
		for _, k := range spec.Emits {
			if !k.Valid() {
				t.Fatalf("emits invalid kind %q", k)
			}
			if seen.Has(k) {
				t.Fatalf("emits %q twice", k)
			}
			seen[k] = struct{}{}
		}
		if spec.Implementation == ImplGo && len(spec.Emits) == 0 {
			t.Fatal("go skill without emits accepted")
		}
		for _, step := range spec.ActionSequence {
			if !seen.Has(step.Kind) {
				t.Fatalf("action_sequence uses %s, which is not in emits %v", step.Kind, spec.Emits)
			}
		}
		for name, p := range spec.Params {
			if !p.Type.Valid() {
				t.Fatalf("param %s has type %q", name, p.Type)
			}
			if !p.Required {
				if _, err := p.Check(p.Default); err != nil {
					t.Fatalf("param %s default %v does not check: %v", name, p.Default, err)
				}
			}
		}
		if _, err := json.Marshal(spec); err != nil {
			t.Fatalf("spec does not marshal: %v", err)
		}
		if err := spec.Validate(nil); err != nil {
			t.Fatalf("the loader accepted a spec that Validate rejects: %v", err)
		}
		if c := spec.Clone(); !assert.ObjectsAreEqual(spec, c) {
			t.Fatal("Clone differs from the original")
		}
	})
}

// TestCloneKeepsEmptyLists: a spec that writes an empty list keeps an empty,
// non-nil list in its clone, and a clone shares no lists or maps with the
// original (FuzzParseSpec found "tags: []" cloning to nil).
func TestCloneKeepsEmptyLists(t *testing.T) {
	spec, err := ParseSpec("dig.yaml", []byte(goHdr+
		"tags: []\neffects: {tech_delta: {unlocks: []}, tags: []}\n"+
		"preconditions: {tech_states_any_of: [], semantic_tags_any_of: [], extra: {a: [], b: {}}}\n"+
		"params:\n  kind: {type: string, default: a, enum: [a, b], description: Kind.}\n"))
	require.NoError(t, err)
	require.NotNil(t, spec.Tags)
	c := spec.Clone()
	assert.Equal(t, spec, c)
	assert.NotNil(t, c.Tags)
	assert.NotNil(t, c.Effects.TechDelta.Unlocks)
	assert.NotNil(t, c.Effects.Tags)
	assert.Equal(t, []any{}, c.Preconditions.Extra["a"])
	assert.Nil(t, c.Preconditions.RequiredTools)
	assert.Nil(t, c.ActionSequence)

	// A spec built in code with nil lists and maps keeps them nil.
	bare := &Spec{Name: "bare", Version: 1}
	assert.Equal(t, bare, bare.Clone())

	c.Params["kind"].Enum[0] = "changed"
	c.Preconditions.Extra["b"].(map[string]any)["x"] = 1
	assert.Equal(t, "a", spec.Params["kind"].Enum[0])
	assert.Empty(t, spec.Preconditions.Extra["b"])
}
