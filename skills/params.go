package skills

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Params holds validated invocation parameters in their canonical Go types
// (see action.ParamType). Getters return the zero value for absent names;
// ResolveParams guarantees every declared parameter is present.
type Params map[string]any

// Int returns an int or duration parameter as int.
func (p Params) Int(name string) int {
	switch v := p[name].(type) {
	case int:
		return v
	case action.Ticks:
		return int(v)
	}
	return 0
}

// Float returns a float (or int) parameter.
func (p Params) Float(name string) float64 {
	switch v := p[name].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	}
	return 0
}

// Bool returns a bool parameter.
func (p Params) Bool(name string) bool { b, _ := p[name].(bool); return b }

// String returns a string, item_id or block_id parameter.
func (p Params) String(name string) string { s, _ := p[name].(string); return s }

// Item returns an item_id parameter as a matcher.
func (p Params) Item(name string) world.ItemMatcher {
	m, _ := world.ParseItemMatcher(p.String(name))
	return m
}

// BlockPos returns a block_pos parameter.
func (p Params) BlockPos(name string) world.BlockPos { b, _ := p[name].(world.BlockPos); return b }

// Ticks returns a duration parameter.
func (p Params) Ticks(name string) action.Ticks { t, _ := p[name].(action.Ticks); return t }

// Has reports whether a parameter is set.
func (p Params) Has(name string) bool { _, ok := p[name]; return ok }

// JSON returns the parameters as JSON-ready values.
func (p Params) JSON() map[string]any {
	out := make(map[string]any, len(p))
	for k, v := range p {
		out[k] = action.JSONValue(v)
	}
	return out
}

// ResolveParams validates an invocation's raw parameters against the spec:
// unknown names, wrong types, out-of-range values and missing required
// parameters are errors (a *Failure with CodeInvalidParams listing all of
// them); absent optional parameters take their defaults.
func (s *Spec) ResolveParams(raw map[string]any) (Params, error) {
	out := make(Params, len(s.Params))
	var problems []string
	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		ps, ok := s.Params[name]
		if !ok {
			problems = append(problems, fmt.Sprintf("unknown parameter %q (declared: %s)", name, strings.Join(s.ParamNames(), ", ")))
			continue
		}
		v, err := ps.Check(raw[name])
		if err != nil {
			problems = append(problems, fmt.Sprintf("parameter %q: %v", name, err))
			continue
		}
		out[name] = v
	}
	for _, name := range s.ParamNames() {
		if _, ok := out[name]; ok {
			continue
		}
		if _, given := raw[name]; given {
			continue // already reported
		}
		ps := s.Params[name]
		if ps.Required {
			problems = append(problems, fmt.Sprintf("missing required parameter %q (%s)", name, ps.Type))
			continue
		}
		out[name] = ps.Default
	}
	if len(problems) > 0 {
		return nil, &Failure{Skill: s.Name, Code: CodeInvalidParams, Msg: strings.Join(problems, "; ")}
	}
	return out, nil
}

// Check coerces a value to the parameter's type and checks min, max and enum.
func (ps ParamSpec) Check(v any) (any, error) {
	if v == nil {
		return nil, fmt.Errorf("must not be null")
	}
	c, err := ps.Type.Coerce(v)
	if err != nil {
		return nil, err
	}
	if ps.Type.Numeric() {
		var f float64
		switch x := c.(type) {
		case int:
			f = float64(x)
		case float64:
			f = x
		case action.Ticks:
			f = float64(x)
		}
		if ps.Min != nil && f < *ps.Min {
			return nil, fmt.Errorf("%v is below the minimum %v", f, *ps.Min)
		}
		if ps.Max != nil && f > *ps.Max {
			return nil, fmt.Errorf("%v is above the maximum %v", f, *ps.Max)
		}
	}
	if len(ps.Enum) > 0 {
		s, _ := c.(string)
		ok := false
		for _, e := range ps.Enum {
			ok = ok || e == s
		}
		if !ok {
			return nil, fmt.Errorf("must be one of %s, got %q", strings.Join(ps.Enum, ", "), s)
		}
	}
	return c, nil
}
