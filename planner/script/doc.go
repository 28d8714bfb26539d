// Package script is the scripted planner (--planner script): Planner
// replays a fixed list of invocations, and Parser reads that list from a
// YAML script, checking names when asked.
package script
