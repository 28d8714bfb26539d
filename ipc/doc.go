// Package ipc is the action channel between the plan-act loop and a body
// (the simulator, the GTNH client, or a body in another process).
//
// The loop talks to a [Conn]: Hello tells what the body is and which action
// kinds it supports, Observe returns a world snapshot, Execute carries out one
// action and returns a [Result] whose error [Code] comes from a documented
// taxonomy. [InProcess] adapts a [Body] living in the same process.
//
// For a body in another process, package ipc/wire defines the protocol
// (newline-delimited JSON over a Unix socket, loopback TCP or a child's
// stdin and stdout; see docs/ipc.md) and package ipc/remote implements both
// ends: remote.Server exposes any Body, and remote.Client is a Conn whose
// snapshots mirror the remote world's blocks, so the loop does not change
// when the body moves out of process. Actions cross the boundary in the
// flat JSON form of action.Marshal.
package ipc
