// Package world is the agent's model of the Minecraft world: positions, blocks,
// items, inventories, entities, machines and the GTNH tech tiers.
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
// Blocks are stored as [StateID] values (block id << 16 | metadata, both 16 bits
// wide as GTNH's NotEnoughIds allows) in chunk [Column]s of sixteen [Section]s.
// A section keeps a palette of its distinct states with block counts and packs
// one palette index per block in 0, 4, 8 or 16 bits; the counts let spatial
// queries skip sections that cannot match. A section decoded from a chunk
// packet first reads the packet's own arrays in place ([NewVanillaSection],
// [NewNEIDSection], [NewNEIDNibbleSection]: "raw"), which makes decoding
// cost little more than inflating; its palette form is built by the first
// query that needs it, and
// [State.CompactChunks] (the live client calls it every tick) swaps it in so
// the arrays are freed. A [ChunkStore] is the mutable
// storage; its [ChunkStore.View] is an immutable [Chunks] that shares every
// unchanged column and section (copy-on-write), implements [BlockSource] and
// answers exact nearest-block queries ([Chunks.Nearest]) section by section.
// An [IDMap] names numeric ids (the server's registry, or the shipped vanilla
// 1.7.10 map) and a [Resolver] turns states into [Block]s with their tags.
//
// Tags come from a data file (config/tags.yaml): blocks carry semantic tags such
// as "log", "tree" or "water", items carry ore-dictionary names ("ore:logWood")
// and tool classes ("tool:axe"). Item matchers ([ParseItemMatcher]) select items
// by exact id, id and metadata, ore-dictionary name or tool class, which is how
// GTNH recipes and tools are written in practice.
//
// How blocks break ([MiningRules], config/mining.yaml: hardness, tool class,
// harvest level, tool materials, wear) and how they collide ([KnownShape]: the
// 1.7.10 collision boxes of slabs, snow, carpets, trapdoors, doors, fences,
// walls and gates) are one table each, read by the simulator, the pathfinder
// and the live client alike.
//
// The tech state is inferred from evidence ([TechRules], config/tech.yaml): the
// highest tier for which the inventory holds a tier item (a circuit, a motor, a
// tier metal) or a known machine shows it; an empty inventory is stone_age.
package world
