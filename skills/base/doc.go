// Package base holds the Go implementations of the shipped GTNH skills:
// chop_tree, plant_sapling, basic_crafting, feed_coke_ovens,
// maintain_coke_ovens, feed_steam_boiler and refill_water_tanks.
//
// Each skill is a small value type implementing [skills.Implementation]. It
// reads a [world.Snapshot] and validated [skills.Params] and returns the
// low-level actions (package action) that carry out one invocation; it never
// changes the snapshot. The metadata planners see (parameters, defaults,
// preconditions, declared effects and the action kinds a skill may emit) lives
// in the matching spec, config/skills/<name>.yaml, and the two must agree.
//
// Every skill registers itself from an init function with
// [registry.Provide], the way database/sql drivers do; import this package
// (usually with a blank import) to make the skills available:
//
//	import _ "github.com/gtnh-agent/gtnh-agent/skills/base"
//
// Conventions shared by all skills here:
//
//   - Generic preconditions (tech tier, dimension, required tools, nearby
//     semantic tags) are checked by the registry with
//     [skills.CheckPreconditions] before a skill runs; implementations add
//     only skill-specific checks.
//   - (nil, nil) means there is genuinely nothing to do (every coke oven is
//     already full). Failures are *[skills.Failure] values with a code such as
//     [skills.CodeNoTarget], [skills.CodeMissingItems] or [skills.CodeUnsafe].
//   - Output is deterministic: targets are taken nearest first with ties
//     broken by position, and no output order comes from ranging over a map.
//   - Parameters absent from the Params map fall back to the spec defaults,
//     so a skill can be driven directly in tests without a loaded spec.
//   - Items in emitted actions are written as exact ids ("minecraft:coal",
//     "minecraft:sapling:2"); an id with metadata 0 gets an explicit ":0"
//     when the inventory also holds another metadata of the same id, since a
//     bare "modid:name" matches every metadata.
package base
