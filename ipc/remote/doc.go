// Package remote implements both ends of the IPC wire protocol (package
// ipc/wire) for bodies: [Server] exposes any ipc.Body to clients on a Unix
// socket, loopback TCP or a child's stdin and stdout, and [Client] is an
// ipc.Conn that drives such a body from another process.
//
// The server answers hello, execute, observe and the world queries
// (block_at, blocks_in, nearest, path, catalog), runs a connection's
// actions one after another, and sends events to the connections that
// subscribe, found by comparing the body's snapshots; a slow reader's
// events are coalesced or dropped with a lagged notice, never waited for.
// A dropped connection cancels its requests. A hostile client is bounded:
// the server holds at most MaxConns connections (one that has not said
// hello gives way to a newcomer), reads at most 64 KiB before hello,
// prepares at most ReplyBudget bytes of replies per connection, and drops
// a client that does not read a message within WriteTimeout. The client keeps a mirror of
// the world's chunks from the block deltas of observe, so its snapshots
// are what an in-process body would give: the same loop, skills, planners
// and trace.
//
// Planners in other processes use the same protocol, the agent still being
// the client; package planner/peer holds that planner and its server, and
// [AgentHandler] answers the world queries such a planner asks its agent.
// docs/ipc.md describes the protocol.
package remote
