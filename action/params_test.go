package action

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

func TestParamTypes(t *testing.T) {
	for _, pt := range ParamTypes {
		assert.True(t, pt.Valid(), pt)
	}
	assert.Len(t, ParamTypes, 9)
	assert.False(t, ParamType("integer").Valid())
	assert.False(t, ParamType("").Valid())

	numeric := map[ParamType]bool{TypeInt: true, TypeFloat: true, TypeDuration: true}
	for _, pt := range ParamTypes {
		assert.Equal(t, numeric[pt], pt.Numeric(), pt)
	}
}

func TestParseTicks(t *testing.T) {
	tests := []struct {
		in   string
		want Ticks
		err  string
	}{
		{"40", 40, ""},
		{"0", 0, ""},
		{" 40 ", 40, ""},
		{"+5", 5, ""},
		{"40t", 40, ""},
		{"40 t", 40, ""},
		{"0.4t", 0, ""},
		{"0.5t", 1, ""}, // rounds half away from zero
		{"2s", 40, ""},
		{"1.5s", 30, ""},
		{"0.025s", 1, ""}, // 0.5 ticks rounds up
		{"0.024s", 0, ""},
		{"500ms", 10, ""},
		{"50ms", 1, ""},
		{"1ms", 0, ""},
		{"1m", 1200, ""},
		{"2.5m", 3000, ""},
		{"1h", 72000, ""},
		{"1e3t", 1000, ""},
		{"1e15t", 1e15, ""},
		{"-1", 0, `duration "-1" is negative`},
		{"-2s", 0, `duration "-2s" is negative`},
		{"1e16t", 0, `duration "1e16t" is too long`},
		{"1e300h", 0, "is too long"},
		{"", 0, "is not a duration"},
		{"s", 0, "is not a duration"},
		{"ms", 0, "is not a duration"},
		{"soon", 0, "is not a duration"},
		{"2 seconds", 0, "is not a duration"},
		{"2d", 0, "is not a duration"},
		{"NaNs", 0, "is not a duration"},
		{"infs", 0, "is not a duration"},
		{"0x10", 0, "is not a duration"},
		{"99999999999999999999", 0, "is not a duration"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseTicks(tc.in)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	assert.Equal(t, 2.0, Ticks(40).Seconds())
	assert.Equal(t, 0.05, Ticks(1).Seconds())
}

func TestCoerce(t *testing.T) {
	p := world.Pos(1, 64, -3)
	tests := []struct {
		name string
		typ  ParamType
		in   any
		want any
		err  string
	}{
		// int
		{"int", TypeInt, 5, 5, ""},
		{"int64", TypeInt, int64(-5), -5, ""},
		{"int32", TypeInt, int32(7), 7, ""},
		{"uint64", TypeInt, uint64(9), 9, ""},
		{"ticks to int", TypeInt, Ticks(20), 20, ""},
		{"whole float64 (JSON)", TypeInt, 3.0, 3, ""},
		{"negative whole float64", TypeInt, -4.0, -4, ""},
		{"json.Number", TypeInt, json.Number("12"), 12, ""},
		{"fractional float", TypeInt, 2.5, nil, "expected an integer, got 2.5"},
		{"float beyond 2^53", TypeInt, math.Pow(2, 60), nil, "expected an integer"},
		{"json.Number fraction", TypeInt, json.Number("1.5"), nil, "expected an integer, got 1.5"},
		{"json.Number whole float", TypeInt, json.Number("2.0"), 2, ""},
		{"uint64 large but in range", TypeInt, uint64(1 << 62), 1 << 62, ""},
		{"uint64 too large", TypeInt, uint64(math.MaxUint64), nil, "out of range"},
		{"string to int", TypeInt, "5", nil, `expected an integer, got "5"`},
		{"bool to int", TypeInt, true, nil, "expected an integer, got true (bool)"},
		{"nil to int", TypeInt, nil, nil, "expected an integer, got null"},
		// float
		{"float", TypeFloat, 1.5, 1.5, ""},
		{"float32", TypeFloat, float32(0.5), 0.5, ""},
		{"int to float", TypeFloat, 2, 2.0, ""},
		{"int64 to float", TypeFloat, int64(3), 3.0, ""},
		{"json.Number float", TypeFloat, json.Number("2.25"), 2.25, ""},
		{"NaN", TypeFloat, math.NaN(), nil, "expected a finite number"},
		{"Inf", TypeFloat, math.Inf(1), nil, "expected a finite number"},
		{"json.Number overflow", TypeFloat, json.Number("1e400"), nil, "expected a number"},
		{"string to float", TypeFloat, "1.5", nil, `expected a number, got "1.5"`},
		{"list to float", TypeFloat, []any{1}, nil, "expected a number, got a list"},
		// bool
		{"bool", TypeBool, true, true, ""},
		{"bool false", TypeBool, false, false, ""},
		{"string to bool", TypeBool, "true", nil, `expected true or false, got "true"`},
		{"int to bool", TypeBool, 1, nil, "expected true or false"},
		// string
		{"string", TypeString, "tree", "tree", ""},
		{"empty string", TypeString, "", "", ""},
		{"int to string", TypeString, 5, nil, "expected a string, got 5 (int)"},
		{"map to string", TypeString, map[string]any{}, nil, "expected a string, got a mapping"},
		{"block pos to string", TypeString, p, nil, "expected a string"},
		// item_id
		{"item id", TypeItemID, "minecraft:log", "minecraft:log", ""},
		{"item id meta", TypeItemID, "minecraft:coal:1", "minecraft:coal:1", ""},
		{"item ore", TypeItemID, "ore:logWood", "ore:logWood", ""},
		{"item tool", TypeItemID, "tool:axe", "tool:axe", ""},
		{"item bad", TypeItemID, "log", nil, "is not an item"},
		{"item not string", TypeItemID, 3, nil, "expected an item id"},
		// block_id
		{"block id", TypeBlockID, "minecraft:log", "minecraft:log", ""},
		{"block id meta", TypeBlockID, "Railcraft:machine.alpha:7", "Railcraft:machine.alpha:7", ""},
		{"block bad", TypeBlockID, "log", nil, "is not an id"},
		{"block tool class", TypeBlockID, "tool:", nil, "is not an id"},
		{"block not string", TypeBlockID, nil, nil, "expected a block id, got null"},
		// block_pos
		{"pos value", TypeBlockPos, p, p, ""},
		{"pos pointer", TypeBlockPos, &p, p, ""},
		{"pos nil pointer", TypeBlockPos, (*world.BlockPos)(nil), nil, "expected a block position"},
		{"pos list", TypeBlockPos, []any{1, 64, -3}, p, ""},
		{"pos list of JSON floats", TypeBlockPos, []any{1.0, 64.0, -3.0}, p, ""},
		{"pos list of json.Number", TypeBlockPos, []any{json.Number("1"), json.Number("64"), json.Number("-3")}, p, ""},
		{"pos []int", TypeBlockPos, []int{1, 64, -3}, p, ""},
		{"pos map", TypeBlockPos, map[string]any{"x": 1, "y": 64, "z": -3}, p, ""},
		{"pos map JSON floats", TypeBlockPos, map[string]any{"x": 1.0, "y": 64.0, "z": -3.0}, p, ""},
		{"pos string commas", TypeBlockPos, "1,64,-3", p, ""},
		{"pos string spaces", TypeBlockPos, "1 64 -3", p, ""},
		{"pos string mixed", TypeBlockPos, " 1, 64, -3 ", p, ""},
		{"pos list too short", TypeBlockPos, []any{1, 2}, nil, "expected a block position ([x, y, z], {x, y, z} or \"x,y,z\"), got a list"},
		{"pos list too long", TypeBlockPos, []any{1, 2, 3, 4}, nil, "expected a block position"},
		{"pos list fractional", TypeBlockPos, []any{1.5, 2, 3}, nil, "expected a block position"},
		{"pos list of strings", TypeBlockPos, []any{"1", "2", "3"}, nil, "expected a block position"},
		{"pos []int short", TypeBlockPos, []int{1}, nil, "expected a block position"},
		{"pos map missing z", TypeBlockPos, map[string]any{"x": 1, "y": 2, "w": 3}, nil, "expected a block position"},
		{"pos map extra key", TypeBlockPos, map[string]any{"x": 1, "y": 2, "z": 3, "w": 4}, nil, "expected a block position"},
		{"pos map bad value", TypeBlockPos, map[string]any{"x": 1, "y": "2", "z": 3}, nil, "expected a block position"},
		{"pos string two", TypeBlockPos, "1,2", nil, `got "1,2"`},
		{"pos string float", TypeBlockPos, "1.5,2,3", nil, "expected a block position"},
		{"pos int", TypeBlockPos, 5, nil, "expected a block position"},
		// duration
		// block_pos_list
		{"pos list", TypeBlockPosList, []any{[]any{1.0, 64.0, -3.0}, map[string]any{"x": 2.0, "y": 63.0, "z": 0.0}, "0,0,0"},
			[]world.BlockPos{p, world.Pos(2, 63, 0), world.Pos(0, 0, 0)}, ""},
		{"pos list empty", TypeBlockPosList, []any{}, []world.BlockPos{}, ""},
		{"pos list native", TypeBlockPosList, []world.BlockPos{p}, []world.BlockPos{p}, ""},
		{"pos list bad entry", TypeBlockPosList, []any{"1,2,3", "x"}, nil, `position 1: expected a block position`},
		{"pos list not a list", TypeBlockPosList, "1,2,3", nil, `expected a list of block positions, got "1,2,3"`},
		{"pos list too long", TypeBlockPosList, make([]any, MaxPosList+1), nil, "expected at most 4096 block positions, got 4097"},
		{"pos list native too long", TypeBlockPosList, make([]world.BlockPos, MaxPosList+1), nil, "expected at most 4096 block positions, got 4097"},
		{"duration ticks", TypeDuration, Ticks(5), Ticks(5), ""},
		{"duration int", TypeDuration, 40, Ticks(40), ""},
		{"duration whole float", TypeDuration, 40.0, Ticks(40), ""},
		{"duration json.Number", TypeDuration, json.Number("40"), Ticks(40), ""},
		{"duration seconds", TypeDuration, "2s", Ticks(40), ""},
		{"duration ticks suffix", TypeDuration, "40t", Ticks(40), ""},
		{"duration numeric string", TypeDuration, "40", Ticks(40), ""},
		{"duration negative ticks", TypeDuration, Ticks(-1), nil, "duration -1 is negative"},
		{"duration negative int", TypeDuration, -3, nil, "duration -3 is negative"},
		{"duration fractional", TypeDuration, 2.5, nil, `expected a duration (ticks or e.g. "2s"), got 2.5 (float64)`},
		{"duration bool", TypeDuration, true, nil, "expected a duration"},
		{"duration bad string", TypeDuration, "later", nil, "is not a duration"},
		// unknown type
		{"unknown type", ParamType("vector"), 1, nil, `unknown parameter type "vector"`},
	}
	for _, tc := range tests {
		t.Run(string(tc.typ)+"/"+tc.name, func(t *testing.T) {
			got, err := tc.typ.Coerce(tc.in)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				_ = got // the value is unspecified on error
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.IsType(t, tc.want, got, "canonical Go type")
		})
	}
}

func TestJSONValue(t *testing.T) {
	assert.Equal(t, int64(40), JSONValue(Ticks(40)))
	assert.Equal(t, map[string]any{"x": 1, "y": 2, "z": 3}, JSONValue(world.Pos(1, 2, 3)))
	assert.Equal(t, "s", JSONValue("s"))
	assert.Equal(t, 1.5, JSONValue(1.5))
	assert.Nil(t, JSONValue(nil))

	// The JSON form coerces back to the same canonical value.
	for _, tc := range []struct {
		typ ParamType
		v   any
	}{
		{TypeDuration, Ticks(40)},
		{TypeBlockPos, world.Pos(-1, 2, 3)},
	} {
		data, err := json.Marshal(JSONValue(tc.v))
		require.NoError(t, err)
		var raw any
		require.NoError(t, json.Unmarshal(data, &raw))
		back, err := tc.typ.Coerce(raw)
		require.NoError(t, err)
		assert.Equal(t, tc.v, back)
	}
}
