// Package benchworld is a Go port of the shared benchmark world
// (../shared/bench/world.js): a deterministic 256×256 column world (seed
// 1337) with hills, 551 oak trees, tall grass, a pond, a cobblestone wall
// with a gap and ores. The block array is byte-for-byte the one the
// JavaScript generator makes (checked by hash in the tests), so Go and
// JavaScript measurements run on identical input.
package benchworld
