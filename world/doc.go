// Package world is the agent's model of the Minecraft world: the state owner
// and the snapshots it hands out (player, inventory, entities, machines,
// blocks, the inferred tech tier).
//
// The package knows nothing of skills, planners or the loop; everything built on
// top of it reads a [Snapshot], an immutable view taken from the state owner at
// one instant. Bodies (the simulator, the GTNH client) fill the world; skills read
// snapshots of it.
//
// [State] is that owner. It holds the chunks, entities, inventory, player,
// machines and tick, changes only inside [State.Update] under a lock, and hands
// out snapshots that stay consistent while the body keeps writing.
//
// What the world stands on, from the bottom:
//
//   - package game: the nouns every layer shares (positions, blocks, item
//     stacks and matchers, inventories, machines). This package re-exports
//     them under the same names (aliases), so code built on snapshots needs
//     one import.
//   - package rules: the game's rules and data tables (ids, tags, recipes,
//     mining, collision shapes, tiers, tech evidence).
//   - package world/chunk: the chunk engine (block states, sections,
//     columns, the copy-on-write chunk store and exact nearest-block search).
package world
