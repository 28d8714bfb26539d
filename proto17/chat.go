package proto17

import (
	"encoding/json"
	"strings"
)

// PlainText flattens a JSON chat component (chat messages, disconnect
// reasons, the MOTD) into plain text: text and extra parts in order, a
// translate key followed by its arguments in brackets, and § formatting codes
// removed. Input that is not JSON is returned without its formatting codes.
func PlainText(raw string) string {
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return StripFormatting(raw)
	}
	var sb strings.Builder
	flatten(&sb, v, 0)
	return StripFormatting(sb.String())
}

// maxChatDepth bounds the recursion over nested components.
const maxChatDepth = 32

func flatten(sb *strings.Builder, v any, depth int) {
	if depth > maxChatDepth {
		return
	}
	switch v := v.(type) {
	case string:
		sb.WriteString(v)
	case float64, bool:
		b, _ := json.Marshal(v)
		sb.Write(b)
	case []any:
		for _, e := range v {
			flatten(sb, e, depth+1)
		}
	case map[string]any:
		if t, ok := v["text"].(string); ok {
			sb.WriteString(t)
		} else if key, ok := v["translate"].(string); ok {
			sb.WriteString(key)
			if args, ok := v["with"].([]any); ok && len(args) > 0 {
				sb.WriteString(" [")
				for i, a := range args {
					if i > 0 {
						sb.WriteString(", ")
					}
					flatten(sb, a, depth+1)
				}
				sb.WriteString("]")
			}
		}
		if extra, ok := v["extra"].([]any); ok {
			for _, e := range extra {
				flatten(sb, e, depth+1)
			}
		}
	}
}

// StripFormatting removes § codes (the section sign and the character after
// it).
func StripFormatting(s string) string {
	if !strings.Contains(s, "§") {
		return s
	}
	var sb strings.Builder
	skip := false
	for _, r := range s {
		switch {
		case skip:
			skip = false
		case r == '§':
			skip = true
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}
