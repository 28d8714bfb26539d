// Package world is the agent's model of the Minecraft world: positions, blocks,
// items, inventories, entities, machines and the GTNH tech tiers.
//
// The package knows nothing of skills, planners or the loop; everything built on
// top of it reads a [Snapshot], an immutable view taken from the state owner at
// one instant. Bodies (the simulator, the GTNH client) fill the world; skills read
// snapshots of it.
//
// Tags come from a data file (config/tags.yaml): blocks carry semantic tags such
// as "log", "tree" or "water", items carry ore-dictionary names ("ore:logWood")
// and tool classes ("tool:axe"). Item matchers ([ParseItemMatcher]) select items
// by exact id, id and metadata, ore-dictionary name or tool class, which is how
// GTNH recipes and tools are written in practice.
package world
