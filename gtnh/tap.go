package gtnh

import (
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

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
	// Sent is one serverbound packet about to be written (before the
	// server can answer it).
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

// ReplayBlockClick tells the client, as a replay of a recording does between
// two packets, that the bot right-clicked the block at pos: the next window
// the server opens belongs to that block, as when open_container clicks it
// and waits for the window. nil forgets the block. Outside a replay the
// actions do this themselves.
func (c *Client) ReplayBlockClick(pos *world.BlockPos) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == nil {
		return
	}
	if pos == nil {
		c.sess.opening = nil
		return
	}
	p := *pos
	c.sess.opening = &p
}

// ReplayWindowClick applies a window click the bot made, as a replay of a
// recording does between two packets: the client predicts its clicks (a
// 1.7.10 server answers an accepted one with its Confirm Transaction only:
// NetHandlerPlayServer.processClickWindow runs detectAndSendChanges with
// isChangingQuantityOnly set, and EntityPlayerMP.sendSlotContents then
// sends no Set Slot), so the prediction is made again — mode
// 0 a left or right click (button 0 or 1; slot 0 of the player window and
// of a crafting table is the crafting result), mode 2 a swap with hotbar
// slot button. The client sends no other modes.
func (c *Client) ReplayWindowClick(window uint8, slot int16, button, mode int8) {
	c.mu.Lock()
	s := c.sess
	if s == nil {
		c.mu.Unlock()
		return
	}
	switch mode {
	case 0:
		result := slot == invCraftResult && (window == 0 || s.inv.open != nil && s.inv.open.id == window && s.inv.open.kind == windowWorkbench)
		ids := c.state.Resolver().IDs()
		s.inv.click(window, int(slot), button, result, maxStackOf(ids, c.rules.Mining), ids, c.rules)
	case 2:
		s.inv.swapHotbar(window, int(slot), int(button))
	}
	c.syncInventoryLocked(s)
	c.mu.Unlock()
}
