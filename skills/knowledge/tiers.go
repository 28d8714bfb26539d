package knowledge

import "github.com/gtnh-agent/gtnh-agent/rules"

// TierAllows reports whether a tier satisfies any of the expressions (an
// empty list allows every tier; an unparsable expression allows nothing).
func TierAllows(t *rules.Tiers, exprs []string, tier string) bool {
	if len(exprs) == 0 {
		return true
	}
	for _, x := range exprs {
		r, err := t.ParseRange(x)
		if err == nil && t.Includes(r, tier) {
			return true
		}
	}
	return false
}
