package skills

import (
	"strings"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// DefaultTagRadius is how far from the player CheckPreconditions looks for
// blocks named in semantic_tags_any_of (the spec may override it with
// preconditions.extra.tag_radius).
const DefaultTagRadius = 32

// CheckPreconditions checks a spec's declared preconditions against a
// snapshot: tech tier, dimension, required tools and nearby semantic tags. It
// returns nil or a *Failure naming the first unmet precondition. Skill
// implementations add their own, more specific checks.
func CheckPreconditions(spec *Spec, w *world.Snapshot, tiers *rules.Tiers) error {
	pre := spec.Preconditions
	fail := func(code Code, format string, args ...any) error {
		f := Failf(code, format, args...)
		f.Skill = spec.Name
		return f
	}
	if len(pre.TechStatesAnyOf) > 0 {
		ok := false
		for _, expr := range pre.TechStatesAnyOf {
			r, err := tiers.ParseRange(expr)
			if err != nil {
				return fail(CodeInternal, "tech_states_any_of: %v", err)
			}
			if tiers.Includes(r, w.TechState) {
				ok = true
				break
			}
		}
		if !ok {
			return fail(CodeTierMismatch, "tech state %q is not in %s", w.TechState, strings.Join(pre.TechStatesAnyOf, " | "))
		}
	}
	if len(pre.DimensionAllowlist) > 0 && !contains(pre.DimensionAllowlist, w.Player.Dimension) {
		return fail(CodeWrongDimension, "dimension %q is not one of %s", w.Player.Dimension, strings.Join(pre.DimensionAllowlist, ", "))
	}
	for _, tool := range pre.RequiredTools {
		m, err := world.ParseItemMatcher(tool.ItemID)
		if err != nil {
			return fail(CodeInternal, "required_tools: %v", err)
		}
		if w.Inventory.BestTool(m, tool.MinDurability) < 0 {
			if w.Inventory.Find(m) >= 0 {
				return fail(CodeMissingTool, "%s has less than %d durability left", tool.ItemID, tool.MinDurability)
			}
			return fail(CodeMissingTool, "no %s in the inventory", tool.ItemID)
		}
	}
	if len(pre.SemanticTagsAnyOf) > 0 {
		radius := DefaultTagRadius
		if r, ok := pre.Extra["tag_radius"].(int); ok && r > 0 {
			radius = r
		}
		found := len(w.NearestBlocks(radius, 1, pre.SemanticTagsAnyOf...)) > 0
		if !found {
			for _, m := range w.Machines {
				if contains(pre.SemanticTagsAnyOf, m.Kind) && m.Pos.DistSq(w.Feet()) <= radius*radius {
					found = true
					break
				}
			}
		}
		if !found {
			return fail(CodeNoTarget, "no block tagged %s within %d blocks", strings.Join(pre.SemanticTagsAnyOf, " or "), radius)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
