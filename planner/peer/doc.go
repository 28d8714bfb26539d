// Package peer is the planner that lives in another process, on the IPC
// wire protocol (package ipc/wire), the agent still being the client.
// [Planner] is a loop.Planner whose Plan is a plan request to a peer that
// said hello as a planner (a child on its stdin and stdout, or a socket),
// over a remote.Client whose handler is remote.AgentHandler, so the planner
// can ask about the world while it plans. [PlannerServer] serves a Go
// loop.Planner to agents, and the planner asks about the world through
// [AgentOf] while it plans. docs/ipc.md describes the protocol.
//
// The package sits above ipc/remote (the body transport) and loop: the
// transport knows nothing of planners or skills.
package peer
