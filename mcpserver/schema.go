package mcpserver

import (
	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// ParamsSchema is the JSON Schema (draft 2020-12) of an executable skill's
// parameters: one property per parameter with its type, description,
// default, range and allowed values; the required ones listed; no others
// allowed. It describes what the skill accepts for a client; the skill's
// own validation (skills.Spec.ResolveParams) is what decides.
func ParamsSchema(d *registry.Description) map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, name := range d.ParamNames() {
		p := d.Params[name]
		s := typeSchema(p.Type)
		desc := p.Description
		if hint := typeHint(p.Type); hint != "" {
			if desc != "" {
				desc += " "
			}
			desc += "(" + hint + ")"
		}
		if desc != "" {
			s["description"] = desc
		}
		if p.Required {
			required = append(required, name)
		} else if p.Default != nil {
			s["default"] = p.Default
		}
		if p.Min != nil {
			s["minimum"] = *p.Min
		}
		if p.Max != nil {
			s["maximum"] = *p.Max
		}
		if len(p.Enum) > 0 {
			enum := make([]any, len(p.Enum))
			for i, e := range p.Enum {
				enum[i] = e
			}
			s["enum"] = enum
		}
		props[name] = s
	}
	return map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
}

// typeSchema is the JSON Schema of one parameter type.
func typeSchema(t action.ParamType) map[string]any {
	switch t {
	case action.TypeInt:
		return map[string]any{"type": "integer"}
	case action.TypeFloat:
		return map[string]any{"type": "number"}
	case action.TypeBool:
		return map[string]any{"type": "boolean"}
	case action.TypeDuration:
		// Ticks, or a number with a unit ("2s"): action.ParseTicks.
		return map[string]any{"type": []any{"integer", "string"}}
	case action.TypeBlockPos:
		coord := map[string]any{"type": "integer"}
		return map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"x": coord, "y": coord, "z": coord},
			"required":             []any{"x", "y", "z"},
			"additionalProperties": false,
		}
	case action.TypeBlockPosList:
		return map[string]any{"type": "array", "items": typeSchema(action.TypeBlockPos), "maxItems": action.MaxPosList}
	}
	return map[string]any{"type": "string"} // string, item_id, block_id
}

// typeHint says how a parameter type is written, where the JSON type alone
// does not.
func typeHint(t action.ParamType) string {
	switch t {
	case action.TypeItemID:
		return "item: modid:name[:meta], ore:Name or tool:class"
	case action.TypeBlockID:
		return "block: modid:name[:meta]"
	case action.TypeDuration:
		return `game ticks, or a number with a unit: "2s", "500ms", "1m"`
	case action.TypeBlockPos:
		return "block position"
	case action.TypeBlockPosList:
		return "list of block positions"
	}
	return ""
}
