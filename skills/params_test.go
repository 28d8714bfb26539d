package skills

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/world"
)

const paramsSpec = hdr + `emits: [chat]
params:
  radius:
    type: int
    default: 8
    min: 1
    max: 64
    description: Search radius.
  speed:
    type: float
    default: 1.5
    min: 0.5
    description: Speed.
  careful:
    type: bool
    default: false
    description: Careful.
  mode:
    type: string
    default: a
    enum: [a, b]
    description: Mode.
  item:
    type: item_id
    description: Item (required).
  block:
    type: block_id
    default: "minecraft:log"
    description: Block.
  at:
    type: block_pos
    default: [0, 64, 0]
    description: Position.
  pause:
    type: duration
    default: 2s
    max: 1200
    description: Pause.
`

func paramSpec(t *testing.T) *Spec {
	t.Helper()
	return parseSrc(t, paramsSpec)
}

func TestResolveParamsDefaults(t *testing.T) {
	spec := paramSpec(t)
	p, err := spec.ResolveParams(map[string]any{"item": "ore:logWood"})
	require.NoError(t, err)
	assert.Equal(t, Params{
		"radius":  8,
		"speed":   1.5,
		"careful": false,
		"mode":    "a",
		"item":    "ore:logWood",
		"block":   "minecraft:log",
		"at":      world.Pos(0, 64, 0),
		"pause":   action.Ticks(40),
	}, p)

	// Getters.
	assert.Equal(t, 8, p.Int("radius"))
	assert.Equal(t, 40, p.Int("pause"), "Int reads durations too")
	assert.Equal(t, 0, p.Int("mode"))
	assert.Equal(t, 1.5, p.Float("speed"))
	assert.Equal(t, 8.0, p.Float("radius"), "Float reads ints too")
	assert.Equal(t, 0.0, p.Float("mode"))
	assert.False(t, p.Bool("careful"))
	assert.Equal(t, "a", p.String("mode"))
	assert.Equal(t, "minecraft:log", p.String("block"))
	assert.Equal(t, "", p.String("radius"))
	assert.Equal(t, "ore:logWood", p.Item("item").String())
	assert.True(t, p.Item("item").IsTag())
	assert.Equal(t, world.Pos(0, 64, 0), p.BlockPos("at"))
	assert.Equal(t, action.Ticks(40), p.Ticks("pause"))
	assert.True(t, p.Has("radius"))
	assert.False(t, p.Has("nope"))
	assert.Equal(t, 0, p.Int("nope"))

	assert.Equal(t, map[string]any{
		"radius": 8, "speed": 1.5, "careful": false, "mode": "a", "item": "ore:logWood",
		"block": "minecraft:log", "at": map[string]any{"x": 0, "y": 64, "z": 0}, "pause": int64(40),
	}, p.JSON())

	t.Run("no parameters", func(t *testing.T) {
		spec := parseSrc(t, goHdr)
		p, err := spec.ResolveParams(nil)
		require.NoError(t, err)
		assert.Empty(t, p)
	})
}

func TestResolveParamsCoercion(t *testing.T) {
	spec := paramSpec(t)
	tests := []struct {
		name  string
		param string
		in    any
		want  any
	}{
		{"JSON whole float to int", "radius", 12.0, 12},
		{"int64 to int", "radius", int64(12), 12},
		{"int to float", "speed", 2, 2.0},
		{"bool", "careful", true, true},
		{"enum member", "mode", "b", "b"},
		{"item with meta", "item", "minecraft:coal:1", "minecraft:coal:1"},
		{"tool class", "item", "tool:axe", "tool:axe"},
		{"block with meta", "block", "Railcraft:machine.alpha:7", "Railcraft:machine.alpha:7"},
		{"block_pos from a JSON list", "at", []any{1.0, 65.0, -3.0}, world.Pos(1, 65, -3)},
		{"block_pos from a map", "at", map[string]any{"x": 1, "y": 65, "z": -3}, world.Pos(1, 65, -3)},
		{"block_pos from a string", "at", "1, 65, -3", world.Pos(1, 65, -3)},
		{"block_pos value", "at", world.Pos(1, 65, -3), world.Pos(1, 65, -3)},
		{"duration 2s", "pause", "2s", action.Ticks(40)},
		{"duration 40t", "pause", "40t", action.Ticks(40)},
		{"duration 40", "pause", 40, action.Ticks(40)},
		{"duration JSON 40.0", "pause", 40.0, action.Ticks(40)},
		{"duration at max", "pause", "1m", action.Ticks(1200)},
		{"int at min", "radius", 1, 1},
		{"int at max", "radius", 64, 64},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := spec.ResolveParams(map[string]any{"item": "minecraft:log", tc.param: tc.in})
			require.NoError(t, err)
			assert.Equal(t, tc.want, p[tc.param])
			assert.IsType(t, tc.want, p[tc.param])
		})
	}
}

func TestResolveParamsErrors(t *testing.T) {
	spec := paramSpec(t)
	tests := []struct {
		name string
		raw  map[string]any
		msgs []string
	}{
		{"required missing", map[string]any{}, []string{`missing required parameter "item" (item_id)`}},
		{"unknown parameter", map[string]any{"item": "a:b", "radius_blocks": 3},
			[]string{`unknown parameter "radius_blocks" (declared: at, block, careful, item, mode, pause, radius, speed)`}},
		{"fractional int", map[string]any{"item": "a:b", "radius": 2.5}, []string{`parameter "radius": expected an integer, got 2.5`}},
		{"string int", map[string]any{"item": "a:b", "radius": "8"}, []string{`parameter "radius": expected an integer, got "8"`}},
		{"below min", map[string]any{"item": "a:b", "radius": 0}, []string{`parameter "radius": 0 is below the minimum 1`}},
		{"above max", map[string]any{"item": "a:b", "radius": 65}, []string{`parameter "radius": 65 is above the maximum 64`}},
		{"float below min", map[string]any{"item": "a:b", "speed": 0.25}, []string{`parameter "speed": 0.25 is below the minimum 0.5`}},
		{"duration above max", map[string]any{"item": "a:b", "pause": "61s"}, []string{`parameter "pause": 1220 is above the maximum 1200`}},
		{"bad duration", map[string]any{"item": "a:b", "pause": "later"}, []string{`parameter "pause": "later" is not a duration`}},
		{"not in enum", map[string]any{"item": "a:b", "mode": "c"}, []string{`parameter "mode": must be one of a, b, got "c"`}},
		{"bad item", map[string]any{"item": "log"}, []string{`parameter "item": "log" is not an item`}},
		{"bad block", map[string]any{"item": "a:b", "block": "ore:"}, []string{`parameter "block": "ore:" is not an id`}},
		{"bad block_pos", map[string]any{"item": "a:b", "at": []any{1, 2}}, []string{`parameter "at": expected a block position`}},
		{"bool as string", map[string]any{"item": "a:b", "careful": "yes"}, []string{`parameter "careful": expected true or false, got "yes"`}},
		{"null value", map[string]any{"item": nil}, []string{`parameter "item": must not be null`}},
		{"everything at once", map[string]any{"bogus": 1, "radius": 100, "mode": "z", "at": "here"},
			[]string{
				// Sorted by parameter name, then missing required ones.
				`parameter "at": expected a block position`,
				`unknown parameter "bogus"`,
				`parameter "mode": must be one of a, b, got "z"`,
				`parameter "radius": 100 is above the maximum 64`,
				`missing required parameter "item" (item_id)`,
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := spec.ResolveParams(tc.raw)
			assert.Nil(t, p)
			require.Error(t, err)
			var f *Failure
			require.True(t, errors.As(err, &f), "%T", err)
			assert.Equal(t, CodeInvalidParams, f.Code)
			assert.Equal(t, "dig", f.Skill)
			parts := strings.Split(f.Msg, "; ")
			require.Len(t, parts, len(tc.msgs), f.Msg)
			for i, m := range tc.msgs {
				assert.Contains(t, parts[i], m)
			}
			assert.True(t, strings.HasPrefix(err.Error(), "dig: invalid_params: "), err.Error())
		})
	}
}

func TestParamSpecCheck(t *testing.T) {
	lo, hi := 1.0, 3.0
	ps := ParamSpec{Type: action.TypeDuration, Min: &lo, Max: &hi}
	v, err := ps.Check("3t")
	require.NoError(t, err)
	assert.Equal(t, action.Ticks(3), v)
	_, err = ps.Check("4t")
	assert.ErrorContains(t, err, "4 is above the maximum 3")
	_, err = ps.Check(0)
	assert.ErrorContains(t, err, "0 is below the minimum 1")
	_, err = ps.Check(nil)
	assert.EqualError(t, err, "must not be null")

	en := ParamSpec{Type: action.TypeString, Enum: []string{"x"}}
	_, err = en.Check("y")
	assert.EqualError(t, err, `must be one of x, got "y"`)
	v, err = en.Check("x")
	require.NoError(t, err)
	assert.Equal(t, "x", v)
}

func TestFailure(t *testing.T) {
	f := Failf(CodeNoTarget, "no %s within %d blocks", "tree", 8)
	assert.Equal(t, &Failure{Code: CodeNoTarget, Msg: "no tree within 8 blocks"}, f)
	assert.Equal(t, "no_target: no tree within 8 blocks", f.Error())
	f.Skill = "chop_tree"
	assert.Equal(t, "chop_tree: no_target: no tree within 8 blocks", f.Error())

	var target *Failure
	wrapped := errors.Join(errors.New("context"), f)
	require.True(t, errors.As(wrapped, &target))
	assert.Equal(t, CodeNoTarget, target.Code)
}
