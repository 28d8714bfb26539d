// Package packs loads skill packs (config/skill_packs/*.yaml) and gates skills
// by GTNH tech tier.
//
// A pack groups skills for a stage of progression and says which tiers it is
// for: requires_tech_state is an exact tier ("lv"), a comparison
// (">= steam_age", "<= mv", "> lv", "< hv"), a span ("steam_age..lv") or "any".
// Packs may depend on other packs (enabling one enables its dependencies, and
// a pack is active only when its dependencies are) and may conflict with
// others (enabling both is an error). [Set.ActiveSkillNames] answers the
// question the curriculum asks: given a tech state and the enabled packs,
// which skills are available, in order.
package packs
