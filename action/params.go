package action

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// ParamType is the type of a skill or action parameter.
type ParamType string

// The parameter types. Canonical Go values after Coerce are noted.
const (
	TypeInt      ParamType = "int"       // int
	TypeFloat    ParamType = "float"     // float64
	TypeBool     ParamType = "bool"      // bool
	TypeString   ParamType = "string"    // string
	TypeItemID   ParamType = "item_id"   // string: modid:name[:meta], ore:Name or tool:class
	TypeBlockID  ParamType = "block_id"  // string: modid:name[:meta]
	TypeBlockPos ParamType = "block_pos" // world.BlockPos
	TypeDuration ParamType = "duration"  // Ticks
	// TypeBlockPosList is a list of block positions: []world.BlockPos, at
	// most MaxPosList of them.
	TypeBlockPosList ParamType = "block_pos_list"
)

// MaxPosList bounds a block position list (TypeBlockPosList): a move's
// keep list is a site's ground, tens of blocks; a message with more is
// refused rather than held.
const MaxPosList = 4096

// ParamTypes lists every parameter type, for documentation and validation.
var ParamTypes = []ParamType{TypeInt, TypeFloat, TypeBool, TypeString, TypeItemID, TypeBlockID, TypeBlockPos, TypeDuration, TypeBlockPosList}

// Valid reports whether t is a known parameter type.
func (t ParamType) Valid() bool {
	for _, x := range ParamTypes {
		if x == t {
			return true
		}
	}
	return false
}

// Numeric reports whether values of t are ordered numbers (min/max apply).
func (t ParamType) Numeric() bool { return t == TypeInt || t == TypeFloat || t == TypeDuration }

// Ticks is a duration in game ticks (20 per second at full speed).
type Ticks int64

// TicksPerSecond is the game's nominal tick rate.
const TicksPerSecond = 20

// ParseTicks parses a duration: a bare integer is ticks; otherwise a number
// with a unit t (ticks), ms, s, m or h. Fractional ticks round to the nearest.
func ParseTicks(s string) (Ticks, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 {
			return 0, fmt.Errorf("duration %q is negative", s)
		}
		return Ticks(n), nil
	}
	units := []struct {
		suffix string
		ticks  float64
	}{{"ms", 0.02}, {"t", 1}, {"s", 20}, {"m", 1200}, {"h", 72000}}
	for _, u := range units {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			break
		}
		if v < 0 {
			return 0, fmt.Errorf("duration %q is negative", s)
		}
		t := math.Round(v * u.ticks)
		if t > 1e15 {
			return 0, fmt.Errorf("duration %q is too long", s)
		}
		return Ticks(t), nil
	}
	return 0, fmt.Errorf("%q is not a duration: use ticks (40), or a number with t, ms, s, m or h (2s)", s)
}

// Seconds converts ticks to seconds at the nominal tick rate.
func (t Ticks) Seconds() float64 { return float64(t) / TicksPerSecond }

// Coerce converts v (from YAML, JSON or Go) to the canonical Go value of type t,
// or explains why it cannot.
func (t ParamType) Coerce(v any) (any, error) {
	switch t {
	case TypeInt:
		return toInt(v)
	case TypeFloat:
		return toFloat(v)
	case TypeBool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, fmt.Errorf("expected true or false, got %s", show(v))
	case TypeString:
		if s, ok := v.(string); ok {
			return s, nil
		}
		return nil, fmt.Errorf("expected a string, got %s", show(v))
	case TypeItemID:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("expected an item id, got %s", show(v))
		}
		if _, err := world.ParseItemMatcher(s); err != nil {
			return nil, err
		}
		return s, nil
	case TypeBlockID:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("expected a block id, got %s", show(v))
		}
		if _, _, err := world.SplitID(s); err != nil {
			return nil, err
		}
		return s, nil
	case TypeBlockPos:
		return toBlockPos(v)
	case TypeBlockPosList:
		return toBlockPosList(v)
	case TypeDuration:
		switch x := v.(type) {
		case Ticks:
			if x < 0 {
				return nil, fmt.Errorf("duration %d is negative", x)
			}
			return x, nil
		case string:
			return ParseTicks(x)
		default:
			n, err := toInt(v)
			if err != nil {
				return nil, fmt.Errorf("expected a duration (ticks or e.g. \"2s\"), got %s", show(v))
			}
			if n.(int) < 0 {
				return nil, fmt.Errorf("duration %d is negative", n)
			}
			return Ticks(n.(int)), nil
		}
	}
	return nil, fmt.Errorf("unknown parameter type %q", t)
}

func toInt(v any) (any, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case int64:
		return int(x), nil
	case int32:
		return int(x), nil
	case uint64:
		if x > math.MaxInt64 {
			return nil, fmt.Errorf("integer %d out of range", x)
		}
		return int(x), nil
	case Ticks:
		return int(x), nil
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
			return nil, fmt.Errorf("expected an integer, got %v", x)
		}
		return int(x), nil
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return int(n), nil
		}
		if f, err := x.Float64(); err == nil {
			return toInt(f) // 2.0 is an integer; 2.5 is not
		}
		return nil, fmt.Errorf("expected an integer, got %s", x)
	}
	return nil, fmt.Errorf("expected an integer, got %s", show(v))
}

func toFloat(v any) (any, error) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case float32:
		f = float64(x)
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case json.Number:
		var err error
		if f, err = x.Float64(); err != nil {
			return nil, fmt.Errorf("expected a number, got %s", x)
		}
	default:
		return nil, fmt.Errorf("expected a number, got %s", show(v))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("expected a finite number, got %v", f)
	}
	return f, nil
}

// toBlockPosList reads a list of block positions, each as toBlockPos
// reads one, at most MaxPosList of them.
func toBlockPosList(v any) (any, error) {
	var items []any
	switch x := v.(type) {
	case []world.BlockPos:
		if len(x) > MaxPosList {
			return nil, fmt.Errorf("expected at most %d block positions, got %d", MaxPosList, len(x))
		}
		return append([]world.BlockPos(nil), x...), nil
	case []any:
		items = x
	default:
		return nil, fmt.Errorf("expected a list of block positions, got %s", show(v))
	}
	if len(items) > MaxPosList {
		return nil, fmt.Errorf("expected at most %d block positions, got %d", MaxPosList, len(items))
	}
	out := make([]world.BlockPos, 0, len(items))
	for i, e := range items {
		p, err := toBlockPos(e)
		if err != nil {
			return nil, fmt.Errorf("position %d: %w", i, err)
		}
		out = append(out, p.(world.BlockPos))
	}
	return out, nil
}

func toBlockPos(v any) (any, error) {
	bad := fmt.Errorf("expected a block position ([x, y, z], {x, y, z} or \"x,y,z\"), got %s", show(v))
	switch x := v.(type) {
	case world.BlockPos:
		return x, nil
	case *world.BlockPos:
		if x == nil {
			return nil, bad
		}
		return *x, nil
	case []any:
		if len(x) != 3 {
			return nil, bad
		}
		var c [3]int
		for i, e := range x {
			n, err := toInt(e)
			if err != nil {
				return nil, bad
			}
			c[i] = n.(int)
		}
		return world.Pos(c[0], c[1], c[2]), nil
	case []int:
		if len(x) != 3 {
			return nil, bad
		}
		return world.Pos(x[0], x[1], x[2]), nil
	case map[string]any:
		if len(x) != 3 {
			return nil, bad
		}
		var c [3]int
		for i, k := range []string{"x", "y", "z"} {
			e, ok := x[k]
			if !ok {
				return nil, bad
			}
			n, err := toInt(e)
			if err != nil {
				return nil, bad
			}
			c[i] = n.(int)
		}
		return world.Pos(c[0], c[1], c[2]), nil
	case string:
		f := strings.FieldsFunc(x, func(r rune) bool { return r == ',' || r == ' ' })
		if len(f) != 3 {
			return nil, bad
		}
		var c [3]int
		for i, s := range f {
			n, err := strconv.Atoi(s)
			if err != nil {
				return nil, bad
			}
			c[i] = n
		}
		return world.Pos(c[0], c[1], c[2]), nil
	}
	return nil, bad
}

func show(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%v (%T)", v, v)
}

// JSONValue converts a canonical parameter value to a JSON-ready value
// (block positions become {x, y, z}, ticks become integers).
func JSONValue(v any) any {
	switch x := v.(type) {
	case Ticks:
		return int64(x)
	case world.BlockPos:
		return map[string]any{"x": x.X, "y": x.Y, "z": x.Z}
	}
	return v
}
