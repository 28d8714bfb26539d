// Package planner is the home of the plan-act loop's planners, one package
// each; every one implements loop.Planner, the interface the loop defines
// where it uses it, and sees only skill metadata (registry descriptions),
// never Go code:
//
//   - planner/chain: chains skills through their declared effects and
//     preconditions and the recipe book ("have 4 minecraft:planks" →
//     basic_crafting needs logs → chop_tree), and runs skills named by the
//     goal (--planner goal).
//   - planner/script: replays a fixed list of invocations read from a YAML
//     script (--planner script), for tests and demos.
//   - planner/llm: asks a language model behind an OpenAI-compatible API
//     (--planner llm); its HTTP client lives there too.
//   - planner/peer: a planner in another process over the wire protocol
//     (--planner-cmd, --planner ADDR), and the server that offers a Go
//     planner to agents that way.
//
// This package holds no code: the planners share nothing but the loop's
// interface, and each imports only what it needs.
package planner
