// Package planner holds the built-in planners for the plan-act loop:
//
//   - Goal: chains skills through their declared effects and preconditions
//     and the recipe book ("have 4 minecraft:planks" → basic_crafting needs
//     logs → chop_tree), and runs skills named by the goal, template skills
//     included, as in seed 001.
//   - Scripted: replays a fixed list of invocations, for tests and demos.
//
// Planners see only skill metadata (registry descriptions), never Go code.
package planner
