// Package chunk is the chunk engine under the world model: block states,
// sections, columns, the chunk store and nearest-block search.
//
// Blocks are stored as [StateID] values (block id << 16 | metadata, both 16
// bits wide as GTNH's NotEnoughIds allows) in chunk [Column]s of sixteen
// [Section]s. A section keeps a palette of its distinct states with block
// counts and packs one palette index per block in 0, 4, 8 or 16 bits; the
// counts let spatial queries skip sections that cannot match. A section
// decoded from a chunk packet first reads the packet's own arrays in place
// ([NewVanillaSection], [NewNEIDSection], [NewNEIDNibbleSection]: "raw"),
// which makes decoding cost little more than inflating; its palette form is
// built by the first query that needs it, and a [Compaction] (the world
// model runs one every tick of the live client) swaps it in so the arrays
// are freed. A [ChunkStore] is the mutable storage; its [ChunkStore.View] is
// an immutable [Chunks] that shares every unchanged column and section
// (copy-on-write) and answers exact nearest-block queries ([Chunks.Nearest])
// section by section. A [Resolver] turns states into blocks with their tags,
// from an id map and a tag table of package rules.
//
// The package is named after its unit, the chunk, the way the game and its
// protocol name it; it imports the game's nouns and the rule tables, never
// the world model above it.
package chunk
