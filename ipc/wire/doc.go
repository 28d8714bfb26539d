// Package wire is the IPC wire protocol: newline-delimited JSON messages
// {"v":1,"id":…,"type":…,"payload":…} over a Unix socket, loopback TCP or a
// child process's stdin and stdout.
//
// It holds what both ends share: the envelope and its typed errors
// ([Message], [Error]), the framing with its size limit ([Reader],
// [Writer]), the addresses and listeners ([ParseAddr], [Listen], [Dial]),
// the payloads of every message, and the wire form of the world's blocks
// ([EncodeSection], [Mirror], [Tracker]). The body server and the client
// that drives a remote body live in package remote. docs/ipc.md describes
// the protocol for users; docs/ipc/schema holds a JSON Schema per message.
package wire
