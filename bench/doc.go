// Package bench runs the side-by-side benchmarks: this project's pathfinder,
// nearest-block search, chunk decoder and column memory against what a
// JavaScript bot would use on the same input — mineflayer-pathfinder,
// mineflayer's findBlocks, a hand-written Node decoder and prismarine-chunk.
//
// The Go side generates the benchmark world (internal/benchworld), encodes
// its 256 columns as 1.7.10 Chunk Data payloads and hands the JavaScript
// worker (bench/js/worker.js) those bytes; the worker decodes them itself,
// so both sides measure identical input, and reports a hash of the world it
// decoded. Each case runs on both sides in turn, several repetitions with
// the order alternating, and the table gives medians, ranges and the ratio
// of the medians.
//
// Both sides' paths are checked here with one walking rule set
// ([CheckWalk]), written apart from the pathfinder's move generator, and
// costed in both cost models: this project's ticks and mineflayer-
// pathfinder's own units ([MineflayerCost]). Nearest-block answers are
// checked against a brute-force scan of the block array ([BruteNearest]).
package bench
