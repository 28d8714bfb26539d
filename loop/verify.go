package loop

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// EffectCheck is the comparison of one declared effect with the world.
type EffectCheck struct {
	Effect string `json:"effect"`
	Before int    `json:"before"`
	After  int    `json:"after"`
	OK     bool   `json:"ok"`
}

// VerifyEffects compares a spec's declared effects with the world before and
// after the skill ran: every inventory_delta entry (item keys and amounts
// resolved against the invocation's parameters) and tech_delta.reaches_tier.
// It returns one check per effect, in a stable order, and whether all hold.
func VerifyEffects(spec *skills.SkillSpec, p skills.Params, before, after *world.Snapshot, tiers *world.Tiers) ([]EffectCheck, bool) {
	keys := make([]string, 0, len(spec.Effects.InventoryDelta))
	for k := range spec.Effects.InventoryDelta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var checks []EffectCheck
	all := true
	add := func(c EffectCheck) {
		checks = append(checks, c)
		all = all && c.OK
	}
	for _, key := range keys {
		ch := spec.Effects.InventoryDelta[key]
		item := key
		if strings.HasPrefix(key, "{") && strings.HasSuffix(key, "}") {
			item = p.String(key[1 : len(key)-1])
		}
		m, err := world.ParseItemMatcher(item)
		if err != nil {
			add(EffectCheck{Effect: fmt.Sprintf("%s: %v", key, err)})
			continue
		}
		b, a := before.Inventory.Count(m), after.Inventory.Count(m)
		if ch.MinIncrease != nil {
			n := ch.MinIncrease.Resolve(p)
			add(EffectCheck{Effect: fmt.Sprintf("%s increases by >= %d", item, n), Before: b, After: a, OK: a-b >= n})
		}
		if ch.MinDecrease != nil {
			n := ch.MinDecrease.Resolve(p)
			add(EffectCheck{Effect: fmt.Sprintf("%s decreases by >= %d", item, n), Before: b, After: a, OK: b-a >= n})
		}
		if ch.MaxDecrease != nil {
			n := ch.MaxDecrease.Resolve(p)
			add(EffectCheck{Effect: fmt.Sprintf("%s decreases by <= %d", item, n), Before: b, After: a, OK: b-a <= n})
		}
	}
	if t := spec.Effects.TechDelta.ReachesTier; t != "" {
		ia, _ := tiers.Index(after.TechState)
		it, _ := tiers.Index(t)
		ib, _ := tiers.Index(before.TechState)
		add(EffectCheck{Effect: "tier reaches " + t, Before: ib, After: ia, OK: ia >= it})
	}
	return checks, all
}
