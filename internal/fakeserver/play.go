package fakeserver

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// droppedItem is an item entity in the world.
type droppedItem struct {
	eid   int32
	pos   world.Vec3
	stack proto17.Slot
	born  int // server tick
	delay int // ticks before it can be picked up (0: Options.PickupDelayTicks)
	// hurt is the damage it took (EntityItem.health falls from
	// item_health): lava burns it.
	hurt float64
}

// play runs the play state: a ticker for keep-alives and pickups, and the
// handler of every serverbound packet.
func (c *conn) play() error {
	c.s.wg.Add(1) // serve's own count keeps the group above zero here
	go func() {
		defer c.s.wg.Done()
		c.ticker()
	}()
	for {
		r, err := c.read()
		if err != nil {
			return err
		}
		if strings.HasPrefix(r.Name, "Unknown(") {
			c.kick(fmt.Sprintf("Internal Exception: java.io.IOException: Bad packet id %d", r.ID))
			return errKicked
		}
		if r.Err != nil {
			// A real server drops the connection on a packet it cannot
			// decode, naming the exception.
			c.kick("Internal Exception: java.io.IOException: " + r.Err.Error())
			return errKicked
		}
		if err := c.handle(r); err != nil {
			return err
		}
	}
}

// handle applies one play packet.
func (c *conn) handle(r Record) error {
	s := c.s
	var out outbox
	var kick string
	respawn := false
	s.mu.Lock()
	if c.dead {
		// A dead player's moves and actions are not played
		// (NetHandlerPlayServer checks the player is alive); it may only
		// ask to respawn and keep the connection.
		switch p := r.Packet.(type) {
		case *proto17.ClientStatus:
			respawn = p.Action == proto17.StatusRespawn
		case *proto17.ServerboundKeepAlive:
			delete(c.pendingKA, p.ID)
		case *proto17.UseEntity:
			c.attackLocked(&out, p)
		}
		s.mu.Unlock()
		out.deliver()
		if respawn {
			return c.respawn()
		}
		return nil
	}
	switch p := r.Packet.(type) {
	case *proto17.UseEntity:
		if p.Action == proto17.UseEntityAttack {
			c.attackLocked(&out, p)
		}
	case *proto17.ServerboundKeepAlive:
		delete(c.pendingKA, p.ID)
	case *proto17.ServerboundChat:
		out.add(c.chatLocked(p.Message)...)
	case *proto17.Player:
		c.onGround = p.OnGround
	case *proto17.PlayerLook:
		c.onGround = p.OnGround
		c.yaw, c.pitch = p.Yaw, p.Pitch
	case *proto17.PlayerPosition:
		kick = c.moveLocked(&out, p.X, p.FeetY, p.HeadY, p.Z, p.OnGround)
	case *proto17.ServerboundPlayerPositionAndLook:
		kick = c.moveLocked(&out, p.X, p.FeetY, p.HeadY, p.Z, p.OnGround)
		c.yaw, c.pitch = p.Yaw, p.Pitch
	case *proto17.PlayerDigging:
		c.digLocked(&out, p)
	case *proto17.PlayerBlockPlacement:
		c.placeLocked(&out, p)
	case *proto17.EntityAction:
		// NetHandlerPlayServer.processEntityAction: 1 sets the sneaking
		// flag, 2 clears it.
		switch p.Action {
		case proto17.ActionCrouch:
			c.sneaking = true
		case proto17.ActionUncrouch:
			c.sneaking = false
		}
	case *proto17.ServerboundHeldItemChange:
		if p.Slot >= 0 && p.Slot < 9 {
			c.held = int(p.Slot)
		}
	case *proto17.ClickWindow:
		// Mode-0 clicks in the open container window, or in the main
		// and hotbar slots of the player's own window when none is
		// open, are applied to the server's state; anything else (other
		// modes, the crafting and armour slots) is not modelled and
		// refused as a real server refuses a click whose view is out of
		// date: it resends the window.
		if c.clickLocked(p) {
			out.to(c, StageNone, &proto17.ConfirmTransaction{WindowID: p.WindowID, Action: p.Action, Accepted: true})
			s.notifyLocked()
			break
		}
		out.to(c, StageNone, &proto17.ConfirmTransaction{WindowID: p.WindowID, Action: p.Action, Accepted: false})
		s.refuseLocked(c.id, "click", "window %d slot %d mode %d button %d (%s)", p.WindowID, p.Slot, p.Mode, p.Button, s.itemOf(0, p.Clicked).Name)
		if c.window != nil && c.window.id == p.WindowID {
			out.to(c, StageNone, c.windowItemsLocked(c.window))
		} else {
			out.to(c, StageNone, &proto17.WindowItems{WindowID: 0, Items: append([]proto17.Slot(nil), c.inv[:]...)})
		}
		out.to(c, StageNone, &proto17.SetSlot{WindowID: -1, Slot: -1, Item: c.cursor})
	case *proto17.ServerboundCloseWindow:
		c.closeWindowLocked(&out)
	case *proto17.ServerboundPluginMessage:
		switch p.Channel {
		case modnet.ModularUIChannel:
			c.onModularUILocked(&out, p.Data)
		case modnet.TConstructChannel:
			c.onTConstructLocked(p.Data)
		case modnet.BetterQuestingChannel:
			c.onBetterQuestingLocked(&out, p.Data)
		}
	}
	if kick == "" {
		out.add(c.pickupLocked()...)
	}
	s.mu.Unlock()
	if kick != "" {
		c.kick(kick)
		return errKicked
	}
	out.deliver()
	if c.isClosed() {
		return errKicked
	}
	return nil
}

// ticker sends keep-alives, kicks a player who stops answering them and
// lets players standing still collect items.
func (c *conn) ticker() {
	s := c.s
	t := time.NewTicker(s.opts.TickDuration)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
		}
		var out outbox
		var kick string
		now := time.Now()
		s.mu.Lock()
		if now.Sub(c.lastKeepAlive) >= s.opts.KeepAliveInterval {
			c.lastKeepAlive = now
			c.nextKeepAlive++
			id := c.nextKeepAlive*7919 + 12345 // distinct, not a counter a client could guess
			c.pendingKA[id] = now
			out.to(c, StageKeepAlive, &proto17.KeepAlive{ID: id})
		}
		if s.opts.KeepAliveTimeout > 0 {
			for id, at := range c.pendingKA {
				if now.Sub(at) > s.opts.KeepAliveTimeout {
					kick = fmt.Sprintf("Timed out (keep-alive %d unanswered for %v)", id, now.Sub(at).Round(time.Millisecond))
				}
			}
		}
		out.add(c.pickupLocked()...)
		c.moduiSyncLocked(&out)
		s.tickFurnacesLocked(&out)
		c.furnaceSyncLocked(&out)
		c.stationSyncLocked(&out)
		c.eatTickLocked(&out)
		s.runWorldLocked(&out)
		s.mu.Unlock()
		if kick != "" {
			c.kick(kick)
			return
		}
		out.deliver()
	}
}

// chatLocked handles a chat line: commands are unknown, anything else is
// broadcast as the vanilla server does.
func (c *conn) chatLocked(msg string) []outgoing {
	var out outbox
	if strings.HasPrefix(msg, "/") {
		out.to(c, StageNone, &proto17.Chat{JSON: `{"translate":"commands.generic.notFound","color":"red"}`})
		return out
	}
	b, _ := json.Marshal(map[string]any{"translate": "chat.type.text", "with": []string{c.name, msg}})
	out.all(c.s, StageNone, &proto17.Chat{JSON: string(b)})
	return out
}

// moveLocked checks a movement packet as the 1.7.10 server does: until the
// client confirms the last reset its moves are ignored; a bad stance is a
// kick; a move too long, or into a block from a place clear of blocks, is
// reset. It returns a kick reason.
func (c *conn) moveLocked(out *outbox, x, feetY, headY, z float64, onGround bool) string {
	s := c.s
	for _, v := range []float64{x, feetY, headY, z} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "Illegal position"
		}
	}
	if math.Abs(x) >= 3.2e7 || math.Abs(z) >= 3.2e7 {
		return "Illegal position"
	}
	to := world.Vec3{X: x, Y: feetY, Z: z}
	if c.awaitTeleport != nil {
		t := *c.awaitTeleport
		dy := feetY - t.Y
		if math.Abs(x-t.X) > 1e-6 || math.Abs(z-t.Z) > 1e-6 || dy*dy >= 0.01 {
			return "" // the server waits for the confirmation
		}
		c.awaitTeleport = nil
	}
	if stance := headY - feetY; stance > 1.65 || stance < 0.1 {
		return "Illegal stance"
	}
	c.onGround = onGround
	reason := ""
	switch {
	case math.Sqrt(c.pos.DistSq(to)) > s.opts.MaxMovePerPacket:
		reason = "moved too quickly"
	case !s.loaded(to.Block()):
		reason = "outside the world"
	case s.collidesLocked(to) && !s.collidesLocked(c.pos):
		// NetHandlerPlayServer.processPlayer resets a move that ends
		// inside a block only when the player was clear before it (its
		// flag): a player that sand or gravel fell onto may move, and
		// so climb out.
		reason = "moved wrongly"
	}
	if reason != "" {
		s.fixes = append(s.fixes, Correction{Conn: c.id, From: to, To: c.pos, Reason: reason})
		s.refuseLocked(c.id, "move", "%s: %v → %v", reason, c.pos, to)
		back := c.pos
		c.awaitTeleport = &back
		out.to(c, StageNone, positionPacket(back))
		s.logf("conn %d: %s %v → %v, reset", c.id, reason, c.pos, to)
		return ""
	}
	c.pos = to
	c.streamLocked(out)
	return ""
}

// Player box: 0.6 wide, 1.8 tall.
const (
	playerHalfWidth = 0.3
	playerHeight    = 1.8
)

// collidesLocked reports whether a player with the feet at p overlaps a
// block's collision box (rules.ShapeOf, the 1.7.10 shapes: a bottom slab
// is half a block high, a fence 1.5), as the server's collision check sees
// it; the cell below the feet is included for the boxes that reach above
// it.
func (s *Server) collidesLocked(p world.Vec3) bool {
	const eps = 1e-3
	x0, x1 := p.X-playerHalfWidth+eps, p.X+playerHalfWidth-eps
	z0, z1 := p.Z-playerHalfWidth+eps, p.Z+playerHalfWidth-eps
	y0, y1 := p.Y+eps, p.Y+playerHeight-eps
	block := func(q world.BlockPos) world.Block {
		st := s.stateAt(q)
		return world.Block{ID: s.blockName(st), Meta: st.Meta()}
	}
	for x := int(math.Floor(x0)); x <= int(math.Floor(x1)); x++ {
		for y := int(math.Floor(y0)) - 1; y <= int(math.Floor(y1)); y++ {
			for z := int(math.Floor(z0)); z <= int(math.Floor(z1)); z++ {
				q := world.Pos(x, y, z)
				shape := rules.ShapeOf(block(q), func(dy int) world.Block { return block(q.Add(0, dy, 0)) })
				for _, b := range shape.Boxes {
					if float64(x)+b.MaxX > x0 && float64(x)+b.MinX < x1 && float64(z)+b.MaxZ > z0 && float64(z)+b.MinZ < z1 &&
						float64(y)+b.MaxY > y0 && float64(y)+b.MinY < y1 {
						return true
					}
				}
			}
		}
	}
	return false
}

// boxHitsBlock reports whether a player with the feet at p overlaps the
// cube of block b.
func boxHitsBlock(p world.Vec3, b world.BlockPos) bool {
	const eps = 1e-3
	return p.X+playerHalfWidth-eps > float64(b.X) && p.X-playerHalfWidth+eps < float64(b.X+1) &&
		p.Z+playerHalfWidth-eps > float64(b.Z) && p.Z-playerHalfWidth+eps < float64(b.Z+1) &&
		p.Y+playerHeight-eps > float64(b.Y) && p.Y+eps < float64(b.Y+1)
}

// mobInLocked returns a mob whose box (its width by its height, on its
// feet) meets block b, or nil.
func (s *Server) mobInLocked(b world.BlockPos) *mob {
	for _, m := range s.mobs {
		half := m.kind.Width / 2
		if m.pos.X+half > float64(b.X) && m.pos.X-half < float64(b.X+1) &&
			m.pos.Z+half > float64(b.Z) && m.pos.Z-half < float64(b.Z+1) &&
			m.pos.Y+m.kind.Height > float64(b.Y) && m.pos.Y < float64(b.Y+1) {
			return m
		}
	}
	return nil
}

// heldLocked is the held stack and its item name ("" for an empty hand).
func (c *conn) heldLocked() (proto17.Slot, string) {
	sl := c.inv[hotbarFirst+c.held]
	if sl.Empty() {
		return sl, ""
	}
	return sl, c.s.itemOf(0, sl).Name
}

// inDigReach is the server's digging reach check: the squared distance from
// the block's centre to a point 1.5 above the feet must not exceed 36.
func (c *conn) inDigReach(p world.BlockPos) bool {
	dx := c.pos.X - (float64(p.X) + 0.5)
	dy := c.pos.Y - (float64(p.Y) + 0.5) + 1.5
	dz := c.pos.Z - (float64(p.Z) + 0.5)
	return dx*dx+dy*dy+dz*dz <= 36
}

// digLocked applies a Player Digging packet: start, cancel, finish.
func (c *conn) digLocked(out *outbox, p *proto17.PlayerDigging) {
	s := c.s
	pos := world.Pos(int(p.X), int(p.Y), int(p.Z))
	switch p.Status {
	case proto17.DigStart:
		c.dig = nil
		st := s.stateAt(pos)
		if st.IsAir() || !c.inDigReach(pos) {
			return
		}
		_, held := c.heldLocked()
		block := s.blockName(st)
		rel, _ := relativeHardness(block, held, c.onGround)
		if rel >= 1 {
			s.digs = append(s.digs, Dig{Conn: c.id, Pos: pos, Block: block, Held: held, Accepted: true})
			c.breakLocked(out, pos)
			return
		}
		c.dig = &digState{pos: pos, start: s.tick()}
	case proto17.DigCancel:
		c.dig = nil
	case proto17.DigDropStack, proto17.DigDropItem:
		c.tossLocked(out, p.Status == proto17.DigDropStack)
	case proto17.DigFinish:
		st := s.stateAt(pos)
		if st.IsAir() {
			return
		}
		_, held := c.heldLocked()
		d := Dig{Conn: c.id, Pos: pos, Block: s.blockName(st), Held: held}
		rel, _ := relativeHardness(d.Block, held, c.onGround)
		thr := s.opts.DigThreshold
		if rel > 0 {
			d.Needed = max(int(math.Ceil(thr/rel-1e-9))-1, 0)
		}
		switch {
		case c.dig == nil || c.dig.pos != pos:
			d.Reason = "finish without a start at this block"
		case !c.inDigReach(pos):
			d.Reason = "out of reach"
		case rel == 0 && rules.Default().Mining.MinesNothing(held):
			d.Reason = held + " digs nothing (IguanaTinkerTweaks' disableRegularTools)"
		case rel == 0:
			d.Reason = "unbreakable"
		default:
			d.Ticks = s.tick() - c.dig.start
			if rel*float64(d.Ticks+1) >= thr-1e-9 {
				d.Accepted = true
			} else {
				d.Reason = fmt.Sprintf("too early: %d ticks, %d needed", d.Ticks, d.Needed)
				if !c.onGround {
					d.Reason += " (not on ground: five times slower)"
				}
			}
		}
		c.dig = nil
		s.digs = append(s.digs, d)
		s.notifyLocked()
		if d.Accepted {
			c.breakLocked(out, pos)
			return
		}
		s.refuseLocked(c.id, "dig", "%s at %v: %s", d.Block, pos, d.Reason)
		out.to(c, StageNone, s.blockChange(pos)) // the block is still there
	}
}

// breakLocked breaks a block: air in its place, wear on the held tool, and
// the drop as an item entity when the held item harvests the block.
func (c *conn) breakLocked(out *outbox, pos world.BlockPos) {
	s := c.s
	st := s.stateAt(pos)
	block := s.blockName(st)
	sl, held := c.heldLocked()
	_, harvest := relativeHardness(block, held, true)
	s.setBlockLocked(c.id, pos, chunk.AirState, "dig")
	if b, ok := s.mods.boxes[pos]; ok && (b.furnace != nil || b.layout.Kind == layoutVanilla) {
		// BlockFurnace.breakBlock and BlockChest.breakBlock drop the
		// container's contents.
		delete(s.mods.boxes, pos)
		own := b.slots[:3]
		if b.layout.Kind == layoutVanilla {
			r := b.layout.Slots["chest"]
			own = b.slots[r.First : r.First+r.Count]
		}
		for _, st := range own {
			if !st.Empty() {
				out.add(s.spawnItemLocked(pos, st)...)
			}
		}
	}
	bc := s.blockChange(pos)
	out.to(c, StageDig, bc)
	for _, o := range s.conns {
		if o != c && o.playing {
			out.to(o, StageNone, bc)
		}
	}
	s.fallAboveLocked(out, pos)
	if w := wearOf(held, ruleFor(block).Hardness); w > 0 {
		sl.Damage += int16(w)
		if int(sl.Damage) > maxDamage(held) {
			sl = proto17.Slot{}
		}
		c.inv[hotbarFirst+c.held] = sl
		out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(hotbarFirst + c.held), Item: sl})
	}
	if harvest {
		if drop, ok := s.dropOf(block, st.Meta()); ok {
			out.add(s.spawnItemLocked(pos, drop)...)
		}
	}
	out.add(s.settleItemsLocked()...)
	if s.opts.Hostile && !c.hostileDug {
		c.hostileDug = true
		out.add(c.hostileLocked()...)
	}
}

// dropOf is the stack a harvested block drops, by the shared drop table
// (config/drops.yaml: stone gives cobblestone, clay 4 clay balls, gravel
// only gravel as GTNH has it, a log its wood type). Rolled drops (leaves,
// tall grass) are rolls this server makes come up empty.
func (s *Server) dropOf(block string, meta int) (proto17.Slot, bool) {
	if noDrops[block] {
		return proto17.Slot{}, false
	}
	d, random := rules.Default().Drops.Of(game.Block{ID: block, Meta: meta})
	if random || d.Count <= 0 {
		return proto17.Slot{}, false
	}
	id, ok := s.ids.ItemID(d.Item)
	if !ok {
		return proto17.Slot{}, false
	}
	return proto17.Slot{ID: int16(id), Count: int32(d.Count), Damage: int16(d.Meta)}, true
}

// tossLocked drops the held stack (whole) or one item of it, as
// NetHandlerPlayServer.processPlayerDigging does for statuses 3 and 4
// (EntityPlayer.dropOneItem; MCP-Decompiled/1.7.10-12 at 1b1a78f): the
// item flies ahead along the player's yaw and comes to rest where
// path.Throw says, can be picked up after drop_pickup_delay
// (EntityPlayer.func_146097_a: 40 ticks), and the player gets a Set Slot
// for the held slot (the server's next detectAndSendChanges).
func (c *conn) tossLocked(out *outbox, whole bool) {
	s := c.s
	slot := hotbarFirst + c.held
	sl := c.inv[slot]
	if sl.Empty() {
		return
	}
	thrown := sl
	if !whole {
		thrown.Count = 1
	}
	sl.Count -= thrown.Count
	if sl.Count <= 0 {
		sl = proto17.Slot{}
	}
	c.inv[slot] = sl
	at := func(p world.BlockPos) world.Block {
		st := s.stateAt(p)
		return world.Block{ID: s.blockName(st), Meta: st.Meta()}
	}
	rest, ok := path.Throw(at, c.pos, float64(c.yaw))
	if ok {
		out.add(s.spawnItemAtLocked(rest, thrown)...)
		s.items[s.nextEID].delay = rules.Default().Mobs.Player.DropPickupDelay
		s.tossed = append(s.tossed, DroppedItem{EntityID: s.nextEID, Pos: rest, Item: s.itemOf(0, thrown)})
	}
	out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(slot), Item: sl})
	s.notifyLocked()
	s.logf("conn %d: tossed %v", c.id, s.itemOf(0, thrown))
}

// spawnItemLocked puts a dropped item in the middle of the block and tells
// every player (Spawn Object of type 2, then its metadata with the stack).
func (s *Server) spawnItemLocked(pos world.BlockPos, stack proto17.Slot) []outgoing {
	return s.spawnItemAtLocked(pos.Center(), stack)
}

// spawnItemAtLocked puts a dropped item at pos and tells every player.
func (s *Server) spawnItemAtLocked(pos world.Vec3, stack proto17.Slot) []outgoing {
	s.nextEID++
	it := &droppedItem{eid: s.nextEID, pos: pos, stack: stack, born: s.tick()}
	s.items[it.eid] = it
	var out outbox
	for _, c := range s.conns {
		if c.playing {
			out.add(s.itemPackets(c, it)...)
		}
	}
	return out
}

// itemPackets show an item entity to one player: Spawn Object of type 2,
// then its metadata with the stack.
func (s *Server) itemPackets(c *conn, it *droppedItem) []outgoing {
	var out outbox
	out.to(c, StageNone, &proto17.SpawnObject{EntityID: it.eid, Type: proto17.ObjectItem,
		X: proto17.ToFixed(it.pos.X), Y: proto17.ToFixed(it.pos.Y), Z: proto17.ToFixed(it.pos.Z), Data: 1})
	out.to(c, StageNone, &proto17.EntityMetadata{EntityID: it.eid, Metadata: proto17.Metadata{
		{Key: 0, Type: proto17.MetaByte},
		{Key: 1, Type: proto17.MetaShort, Int: 300},
		{Key: proto17.MetaKeyItem, Type: proto17.MetaSlot, Slot: it.stack},
	}})
	return out
}

// settleItemsLocked lets items fall onto the block below them (at once; a
// real server moves them over a few ticks) and tells the players where they
// landed. Lava holds no item up: an item falls into it (and burns there,
// runWorldLocked).
func (s *Server) settleItemsLocked() []outgoing {
	var out outbox
	holds := func(p world.BlockPos) bool { return !s.stateAt(p).IsAir() && s.liquidAtLocked(p) != "lava" }
	for _, it := range s.items {
		y := int(math.Floor(it.pos.Y))
		if it.pos.Y == float64(y) && holds(world.Pos(int(math.Floor(it.pos.X)), y-1, int(math.Floor(it.pos.Z)))) {
			continue // resting on a block
		}
		ground := 0
		for yy := y - 1; yy >= 0; yy-- {
			if holds(world.Pos(int(math.Floor(it.pos.X)), yy, int(math.Floor(it.pos.Z)))) {
				ground = yy + 1
				break
			}
		}
		if float64(ground) == it.pos.Y {
			continue
		}
		it.pos.Y = float64(ground)
		out.all(s, StageNone, &proto17.EntityTeleport{EntityID: it.eid,
			X: proto17.ToFixed(it.pos.X), Y: proto17.ToFixed(it.pos.Y), Z: proto17.ToFixed(it.pos.Z)})
	}
	return out
}

// pickupLocked collects the items the player touches: the player's box grown
// by PickupReach sideways and half of it up and down meets the item's 0.25
// box, and the item is old enough. The player gets Collect Item, Destroy
// Entities and a Set Slot for the changed inventory slot.
func (c *conn) pickupLocked() []outgoing {
	s := c.s
	if !c.playing {
		return nil
	}
	var out outbox
	reach := s.opts.PickupReach
	now := s.tick()
	for eid, it := range s.items {
		delay := it.delay
		if delay == 0 {
			delay = s.opts.PickupDelayTicks
		}
		if now-it.born < delay {
			continue
		}
		dx, dz := math.Abs(it.pos.X-c.pos.X), math.Abs(it.pos.Z-c.pos.Z)
		if dx >= playerHalfWidth+reach+0.125 || dz >= playerHalfWidth+reach+0.125 {
			continue
		}
		if it.pos.Y+0.25 <= c.pos.Y-reach/2 || it.pos.Y >= c.pos.Y+playerHeight+reach/2 {
			continue
		}
		slot, ok := c.addItemLocked(it.stack)
		if !ok {
			continue // inventory full: the item stays
		}
		delete(s.items, eid)
		for _, o := range s.conns {
			if o.playing {
				stage := StageNone
				if o == c {
					stage = StageCollect
				}
				out.to(o, stage, &proto17.CollectItem{CollectedID: eid, CollectorID: c.eid})
				out.to(o, StageNone, &proto17.DestroyEntities{IDs: []int32{eid}})
			}
		}
		out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(slot), Item: c.inv[slot]})
		s.notifyLocked()
		s.logf("conn %d: collected item %d into slot %d", c.id, eid, slot)
	}
	return out
}

// addItemLocked puts a stack into the inventory as vanilla's
// addItemStackToInventory does: onto a matching stack with room, hotbar
// first, else into the first empty slot, hotbar first. It returns the
// window slot.
func (c *conn) addItemLocked(st proto17.Slot) (int, bool) {
	name := c.s.itemOf(0, st).Name
	limit := int32(maxStack(name))
	order := make([]int, 0, 36)
	for i := 0; i < 9; i++ {
		order = append(order, hotbarFirst+i)
	}
	for i := 9; i < 36; i++ {
		order = append(order, i)
	}
	for _, slot := range order {
		cur := c.inv[slot]
		if !cur.Empty() && cur.ID == st.ID && cur.Damage == st.Damage && cur.NBT == nil && cur.Count+st.Count <= limit {
			cur.Count += st.Count
			c.inv[slot] = cur
			return slot, true
		}
	}
	for _, slot := range order {
		if c.inv[slot].Empty() {
			c.inv[slot] = st
			return slot, true
		}
	}
	return 0, false
}

// faceOffset is the block next to a face.
var faceOffset = map[int8][3]int{
	proto17.FaceBottom: {0, -1, 0}, proto17.FaceTop: {0, 1, 0},
	proto17.FaceNorth: {0, 0, -1}, proto17.FaceSouth: {0, 0, 1},
	proto17.FaceWest: {-1, 0, 0}, proto17.FaceEast: {1, 0, 0},
}

// placeLocked places the held block against a face. A placement the server
// refuses is answered with the true state of both blocks, as vanilla does.
func (c *conn) placeLocked(out *outbox, p *proto17.PlayerBlockPlacement) {
	s := c.s
	off, ok := faceOffset[p.Face]
	if !ok {
		// Using the held item in the air (ItemInWorldManager.tryUseItem):
		// a bucket fills, food is eaten.
		if !c.fillBucketLocked(out) {
			c.startEatingLocked()
		}
		return
	}
	clicked := world.Pos(int(p.X), int(p.Y), int(p.Z))
	// Forge 1.7.10 ItemInWorldManager.activateBlockOrUseItem: the clicked
	// block is used first (its GUI opens and nothing is placed) unless
	// the player sneaks with an item in hand.
	if _, held := c.heldLocked(); (!c.sneaking || held == "") && c.useBlockLocked(out, clicked) {
		return
	}
	target := clicked.Add(off[0], off[1], off[2])
	refuse := func(why string) {
		s.refuseLocked(c.id, "place", "at %v against %v: %s", target, clicked, why)
		if s.loaded(clicked) {
			out.to(c, StageNone, s.blockChange(clicked))
		}
		if s.loaded(target) {
			out.to(c, StageNone, s.blockChange(target))
		}
	}
	sl, name := c.heldLocked()
	blockID, isBlock := s.ids.BlockID(name)
	switch {
	case name == "" || !isBlock || blockID == 0:
		refuse(fmt.Sprintf("the held item %q is no block", name))
		return
	case !s.loaded(target) || !s.loaded(clicked) || s.stateAt(clicked).IsAir():
		refuse("no block to place against, or outside the world")
		return
	case c.pos.DistSq(clicked.Center()) >= 64:
		refuse("out of reach")
		return
	case !replaceable[s.blockName(s.stateAt(target))]:
		refuse(s.blockName(s.stateAt(target)) + " is in the way")
		return
	case boxHitsBlock(c.pos, target):
		refuse("the block would be inside the player")
		return
	case s.mobInLocked(target) != nil:
		// World.canPlaceEntityOnSide: no block where a living entity's
		// box is (checkNoEntityCollision).
		refuse("a " + s.mobInLocked(target).kind.Name + " stands there")
		return
	}
	meta := int(sl.Damage)
	if meta < 0 || (!s.formats.NEID && meta > 15) {
		meta = 0
	}
	s.setBlockLocked(c.id, target, chunk.MakeState(blockID, meta), "place")
	sl.Count--
	if sl.Count <= 0 {
		sl = proto17.Slot{}
	}
	c.inv[hotbarFirst+c.held] = sl
	out.all(s, StageNone, s.blockChange(target))
	out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(hotbarFirst + c.held), Item: sl})
	if s.isBrickLocked(target) {
		c.placedBrickLocked(out, target)
	}
}
