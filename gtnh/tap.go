package gtnh

import "github.com/gtnh-agent/gtnh-agent/proto17"

// Tap watches what the client's connections carry, for recording sessions
// (package gtnh/record). Set it in Config.Tap. Every connection to the
// server (not the ping) is reported: Connected, then its frames, then
// Closed. The methods are called from the client's goroutines, some
// concurrently (reads and writes happen on different goroutines); they must
// return quickly and must not keep the slices they are given.
type Tap interface {
	// Connected starts a connection: the mod list the client claims, the
	// wire formats it starts with and whether those were fixed by the
	// configuration (Config.Formats) rather than decided from the mods.
	Connected(info TapConnection)
	// Received is one clientbound frame as the decoder sees it (after
	// decryption; 1.7.10 has no compression): the packet id and payload.
	// The state (login, then play after Login Success) follows from the
	// frames themselves.
	Received(id int32, data []byte)
	// Sent is one serverbound packet the server accepted for sending.
	Sent(p proto17.Packet)
	// FormatsChanged reports the wire formats the FML handshake decided.
	FormatsChanged(f proto17.Formats)
	// Closed ends the connection.
	Closed()
}

// TapConnection describes a connection as it starts.
type TapConnection struct {
	Username     string
	Mods         []proto17.ModInfo
	Formats      proto17.Formats
	FixedFormats bool
}

// startTap makes cn report to tap.
func (c *conn) startTap(tap Tap, info TapConnection) {
	if tap == nil {
		return
	}
	c.tap = tap
	tap.Connected(info)
}
