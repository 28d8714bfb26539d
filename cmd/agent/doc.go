// Command agent is the gtnh-agent binary: an autonomous player for GregTech:
// New Horizons. This version manages the skill catalog:
//
//	agent skills list [--tech-state T] [--packs a,b] [--candidates] [--json]
//	agent skills describe NAME[@VERSION] [--json]
//	agent skills validate [DIR...]
//	agent packs list [--json]
//
// Every command reads the shipped configuration embedded in the binary unless
// --config DIR names a directory with skills/ and skill_packs/. Exit codes:
// 0 success, 1 failure (invalid specs, unknown skill), 2 usage error.
package main
