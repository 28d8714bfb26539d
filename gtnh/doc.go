// Package gtnh is the live GregTech: New Horizons client: a Minecraft 1.7.10
// Forge client (protocol 5, FML handshake, NotEnoughIds and ModularUI wire
// formats) that joins a server as a bot and implements ipc.Body, so the same
// plan-act loop and skills that run in the simulator play on a real server.
//
// The layers, one file each:
//
//   - ping.go: Server List Ping with the FML modinfo (Ping).
//   - conn.go: framing on go-mc's net package (no compression in 1.7),
//     packets encoded and decoded with proto17.
//   - auth.go: offline login, and the encryption handshake of online-mode
//     servers behind AuthProvider (the Java-style signed SHA-1 digest is
//     computed here); credentials are Secret values that never print.
//   - fml.go: the client side of the FML|HS handshake, echoing the server's
//     mod list, with FML|MP multipart reassembly; the registry becomes the
//     world's id map.
//   - client.go, play.go: the connection lifecycle (Open, Close, reconnect
//     with backoff) and the play-state packet handlers that feed world.State.
//     Unknown packets are skipped and counted; a packet that does not decode
//     is counted, the state it would have changed is marked unknown, and the
//     connection goes on.
//   - physics.go: the player's body on the client: a movement packet every
//     tick, walking at legal speed along a path, jumps, falls, and
//     position corrections from the server.
//   - body.go, act_*.go: the actions of the closed vocabulary as packets,
//     each with a timeout and a result code from ipc's taxonomy.
//   - safety.go: chat commands obeyed only from an operator allow-list, rate
//     limited.
//
// One goroutine reads and applies packets, one ticks the body; both belong
// to a session (one connection) and stop with it. Close cancels everything
// and waits.
package gtnh
