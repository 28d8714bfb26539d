// Package registry is the skill registry: it holds every version of every
// skill spec, binds Go implementations and template executors to them, gates
// what planners see by version status, tech tier and skill packs, and learns
// per-skill metrics.
//
// Life cycle: build a Registry from specs (New or LoadConfig), register Go
// implementations (Register, or RegisterProvided for those added with
// Provide from init functions — the Go counterpart of the seed's
// @register_skill decorator), then Finalize. Finalize checks that every
// active go spec has an implementation; registering afterwards is an error.
//
// Versions: several versions of a skill may coexist; at most one is active.
// Planners see the active one; candidates are visible only under an explicit
// Policy. PromoteCandidate makes a candidate active and deprecates the
// previous active version.
//
// Metrics: RecordOutcome updates success_rate and avg_cost with a moving
// average (see RecordOutcome) and, when a state file is configured, persists
// them atomically so they survive restarts. A corrupt state file is an error,
// never silently reset.
//
// A Registry is safe for concurrent use.
package registry
