// Package skills defines the skill spec schema and loads specs from YAML.
//
// A skill spec (config/skills/<name>.yaml) is the metadata planners, the
// critic and the loop read: parameters with types and defaults,
// preconditions (tech tiers, tools, dimensions, nearby blocks), declared
// effects (inventory and tech deltas), tags, version fields and metrics.
// Behaviour comes either from Go code ([Implementation], registered in
// package registry) or, for template skills, from the spec's action_sequence,
// executed by [Template] with no Go code.
//
// Loading is strict: unknown keys are errors, every error names
// file:line:column and the field, and [LoadDir] reports every problem in a
// directory at once.
package skills
