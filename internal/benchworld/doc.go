// Package benchworld generates the benchmark world: a deterministic
// 256×256 column world (seed 1337) with hills, 551 oak trees, tall grass, a
// pond, a cobblestone wall with a gap and ores. It is a Go port of a
// JavaScript generator (a mulberry32 PRNG consumed in a fixed order); the
// block array is byte-for-byte the one that generator makes (JSHash, checked
// in the tests). The side-by-side benchmarks (package bench) hand the
// JavaScript side this world as chunk packets, and the JavaScript side
// reports the hash of what it decoded, so both sides run on identical input.
package benchworld
