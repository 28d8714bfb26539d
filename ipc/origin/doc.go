// Package origin serves a body (the simulator or the live GTNH client) over
// the line protocol of the origin Python agent's Forge mod, so that agent's
// bot core can drive our bodies unchanged: one JSON object per line,
// {"type": …, "payload": …}, over loopback TCP.
//
// The client sends move_step, block_dig (start, stop, abort), block_place,
// use_item and interact; each maps to one of our actions (a dig's start and
// stop together are one break_block) and is answered by one action_result
// carrying the shared result codes. The adapter sends the world as the mod
// would: time_update, position_update, chunk_data, spawn_entity,
// destroy_entities, set_slot, window_items and dimension_change, derived by
// comparing the body's snapshots after every action and on a poll while it
// is idle. Malformed or oversized lines get an error reply and the
// connection goes on; a slow reader gets a lagged notice and a full resync
// instead of stalling the body; a client silent for the idle timeout (or
// that takes nothing the adapter writes for as long) is disconnected, so it
// cannot keep the one slot from the next client. The bot core's defaults
// are taken as sent: face "auto" is the face that looks at the player's
// eyes (AutoFace).
//
// Serve runs the adapter on a listener made by Listen; docs/ipc-origin.md
// describes the messages for users.
package origin
