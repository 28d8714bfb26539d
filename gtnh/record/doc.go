// Package record writes and reads recordings of live sessions, and replays
// them into the client's world model offline.
//
// A recording holds every frame the server sent, as the client's decoder saw
// it, with its time, the wire formats the client chose and the positions
// and looks the bot reported (its own movement, which the server does not
// echo), and notes of what the agent's loop did (its steps and its
// planner's decisions, written by Recorder.Step and Recorder.Plan). A
// Recorder (a gtnh.Tap) writes one while the client plays; Replay feeds one
// to a gtnh.Client over an in-memory connection that discards what the
// client sends, so the same handlers that built the live world build the
// replayed one. The file format is described in docs/recording-format.md.
package record
