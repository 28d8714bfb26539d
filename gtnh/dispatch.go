package gtnh

import (
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// handler applies one play packet of a kind to the session.
type handler func(c *Client, s *session, p proto17.Packet) error

// on makes the handler of the packet kind P: the table below is keyed by
// P's own packet id, so an entry cannot sit under another packet's id.
func on[P proto17.Packet](f func(c *Client, s *session, p P) error) entry {
	var zero P
	return entry{zero.PacketID(), func(c *Client, s *session, p proto17.Packet) error { return f(c, s, p.(P)) }}
}

// quiet adapts a handler that cannot fail.
func quiet[P proto17.Packet](f func(c *Client, s *session, p P)) func(c *Client, s *session, p P) error {
	return func(c *Client, s *session, p P) error { f(c, s, p); return nil }
}

// playHandlers are the play packets the client reads, by packet id; the
// others are skipped (counted by name). Each handler lives with its
// concern: chat.go, entities.go, chunks.go, windows.go, mods.go and the
// session's own (play.go, physics and position).
var playHandlers = table(
	on(func(c *Client, s *session, p *proto17.KeepAlive) error {
		c.mu.Lock()
		c.stats.KeepAlives++
		c.mu.Unlock()
		return c.send(s, &proto17.ServerboundKeepAlive{ID: p.ID})
	}),
	on((*Client).onJoin),
	on(quiet((*Client).onChat)),
	on(quiet((*Client).onTime)),
	on(quiet(func(c *Client, s *session, p *proto17.SpawnPosition) {
		c.mu.Lock()
		s.spawnPoint = world.Pos(int(p.X), int(p.Y), int(p.Z))
		c.mu.Unlock()
	})),
	on((*Client).onHealth),
	on(quiet((*Client).onRespawn)),
	on((*Client).onPosition),
	on(quiet((*Client).onHeldItemChange)),
	on(quiet((*Client).onSpawnPlayer)),
	on(quiet((*Client).onSpawnObject)),
	on(quiet((*Client).onSpawnMob)),
	on(quiet((*Client).onDestroyEntities)),
	on(quiet((*Client).onCollect)),
	on(quiet((*Client).onRelativeMove)),
	on(quiet((*Client).onLookAndRelativeMove)),
	on(quiet((*Client).onTeleport)),
	on(quiet((*Client).onMetadata)),
	on(quiet((*Client).onEntityStatus)),
	on(quiet((*Client).onChunk)),
	on(quiet((*Client).onBulk)),
	on(quiet((*Client).onBlockChange)),
	on(quiet((*Client).onMultiBlockChange)),
	on(quiet((*Client).onOpenWindow)),
	on(quiet((*Client).onCloseWindow)),
	on(quiet((*Client).onSetSlot)),
	on(quiet((*Client).onWindowItems)),
	on(quiet((*Client).onWindowProperty)),
	on((*Client).onConfirmTransaction),
	on(func(c *Client, s *session, p *proto17.PluginMessage) error { return c.onPlugin(s, p.Channel, p.Data) }),
	on((*Client).onDisconnect),
)

// entry is one row of the table.
type entry struct {
	id int32
	h  handler
}

// table builds the handlers by id; an id twice is a programming error.
func table(rows ...entry) map[int32]handler {
	out := make(map[int32]handler, len(rows))
	for _, r := range rows {
		if _, dup := out[r.id]; dup {
			panic("gtnh: two handlers for play packet " + proto17.PacketName(proto17.Play, proto17.Clientbound, r.id))
		}
		out[r.id] = r.h
	}
	return out
}

// handle applies one packet.
func (c *Client) handle(s *session, p proto17.Packet) error {
	if h := playHandlers[p.PacketID()]; h != nil {
		return h(c, s, p)
	}
	c.skip(p.PacketName())
	return nil
}
