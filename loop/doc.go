// Package loop is the plan-act loop: observe the world through an ipc.Conn,
// infer the tier-gated skill catalog, ask a Planner for one skill invocation,
// validate it against the skill's spec, turn it into actions, execute them
// through the body, check the spec's declared effects against the world
// observed afterwards, record the outcome in the registry's metrics, write a
// trace line, and repeat until the goal holds, the planner is done, or a
// budget (steps, ticks, wall time) runs out.
//
// Failures are contained: an invalid invocation is rejected with the reason
// and the loop continues; a skill that panics is a failed step; the same
// invocation failing the same way twice is blocked until the world changes
// (a lost connection, io_error, is not the invocation's failure);
// consecutive failures are bounded. Cancelling the context stops the loop
// cleanly with the trace flushed.
package loop
