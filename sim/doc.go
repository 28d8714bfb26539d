// Package sim is a deterministic simulated GTNH world and the body that acts
// in it. Scenarios are YAML files (size and terrain generator, blocks, trees,
// machines, the player and a seed); the same scenario and seed always give
// the same world and, driven by the same planner, a byte-identical trace.
package sim
