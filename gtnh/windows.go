package gtnh

import (
	"slices"
	"strconv"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// The windows the server opens, their slots and the transactions of the
// player's clicks.

func (c *Client) onCloseWindow(s *session, p *proto17.CloseWindow) {
	c.mu.Lock()
	if s.inv.open != nil && s.inv.open.id == p.WindowID {
		s.inv.open = nil
	}
	c.notifyLocked()
	c.mu.Unlock()
}

func (c *Client) onConfirmTransaction(s *session, p *proto17.ConfirmTransaction) error {
	c.mu.Lock()
	s.confirm(confirmKey{p.WindowID, p.Action}, p.Accepted)
	c.notifyLocked()
	c.mu.Unlock()
	if !p.Accepted {
		// The server waits for this acknowledgement before it accepts
		// further clicks in the window.
		return c.send(s, &proto17.ServerboundConfirmTransaction{WindowID: p.WindowID, Action: p.Action, Accepted: true})
	}
	return nil
}

func (c *Client) onOpenWindow(s *session, p *proto17.OpenWindow) {
	n := int(p.Slots)
	if p.Type == windowWorkbench {
		// The crafting table's slot count is 0 on the wire: result + 3×3.
		n = 10
	}
	w := newContainer(p.WindowID, p.Type, p.Title, n)
	if l, ok := modData().layoutForWindow(int(p.Type), n); ok {
		w.layout = &l
	}
	c.openWindow(s, w, nil)
}

// openWindow makes w the open window: at pos when the server named one (FML
// OpenGui), else at the block open_container clicked.
func (c *Client) openWindow(s *session, w *container, pos *world.BlockPos) {
	c.mu.Lock()
	if s.opening != nil {
		asked := *s.opening
		w.asked = &asked
		if pos == nil {
			pos = &asked
		}
	}
	w.pos = pos
	s.inv.open = w
	c.notifyLocked()
	c.mu.Unlock()
}

func (c *Client) onSetSlot(s *session, p *proto17.SetSlot) {
	c.mu.Lock()
	switch {
	case p.WindowID == cursorWindow && p.Slot == -1:
		s.inv.cursor = p.Item
	case p.WindowID >= 0:
		if sl := s.inv.slot(uint8(p.WindowID), int(p.Slot)); sl != nil {
			*sl = p.Item
		}
	}
	c.syncInventoryLocked(s)
	c.notifyLocked()
	c.mu.Unlock()
	c.inventoryAppliedHook()
}

func (c *Client) onWindowItems(s *session, p *proto17.WindowItems) {
	c.mu.Lock()
	for i, it := range p.Items {
		if sl := s.inv.slot(p.WindowID, i); sl != nil {
			*sl = it
		}
	}
	if p.WindowID == 0 {
		s.inv.synced = true
	} else if s.inv.open != nil && s.inv.open.id == p.WindowID {
		s.inv.open.synced = true
	}
	delete(c.unknown, "inventory")
	c.syncInventoryLocked(s)
	c.notifyLocked()
	c.mu.Unlock()
	c.inventoryAppliedHook()
}

// inventoryAppliedHook calls Client.inventoryApplied when a test set it.
func (c *Client) inventoryAppliedHook() {
	if c.inventoryApplied != nil {
		c.inventoryApplied()
	}
}

// syncInventory copies the player window into the world, and an open
// container into the machine at its position (keeping what the machine's
// own messages said: active, formed, fluids).
func (c *Client) syncInventory(s *session) {
	c.mu.Lock()
	c.syncInventoryLocked(s)
	c.mu.Unlock()
}

// syncInventoryLocked is syncInventory with c.mu held. Whatever changes the
// session's inventory calls it before releasing c.mu, so the world's
// inventory changes in the same critical section: a goroutine that sees
// the session's inventory change (an action waiting for the server's Set
// Slot, under c.mu) finds the world's already changed. Were the world
// written after c.mu was released, an action that saw a used bucket come
// back empty could look up its next bucket in the world's older inventory,
// find the emptied slot and use it (nothing poured); and two writers could
// store their copies in the world out of order. The lock order is c.mu,
// then the world's.
func (c *Client) syncInventoryLocked(s *session) {
	inv := &s.inv
	open := inv.open
	// A coal boiler's contents are known once its window has shown the
	// water too (onModularUI), not with its slots alone.
	waterUnknown := false
	if open != nil && open.pos != nil {
		g, ok := s.mods.gtm[*open.pos]
		spec, boiler := coalBoilers[g.meta]
		waterUnknown = ok && boiler && !waterReadable(g, spec, c.ticks.Load())
	}
	c.state.Update(func(tx *world.Tx) {
		ids := tx.Resolver().IDs()
		tx.SetInventory(inv.worldInventory(ids, c.rules))
		if open != nil && open.pos != nil && open.synced {
			m := machineOf(open, ids, c.rules)
			if old, ok := tx.Machine(m.Pos); ok && isTankKind(old.Kind) && isTankKind(m.Kind) {
				m.Kind = old.Kind // an iron tank of another fluid stays a fluid_tank
			}

			old, ok := tx.Machine(m.Pos)
			switch {
			case ok && old.Kind == m.Kind && isTankKind(old.Kind):
				// A tank's window slots say nothing of its fluid: the
				// tile data or the window's tank values do.
				old.Slots = m.Slots
				m = old
			case ok && old.Kind == m.Kind:
				old.Slots, old.ContentsUnknown = m.Slots, waterUnknown
				m = old
			case isTankKind(m.Kind):
				m.ContentsUnknown = true
			}
			tx.PutMachine(m)
		}
	})
}

// machineOf describes an open container as a world machine: its kind and
// slot names from its layout (config/containers.yaml), else chests by slot
// number and furnaces by name.
func machineOf(o *container, ids *rules.IDMap, set *rules.Set) world.Machine {
	m := world.Machine{Kind: world.MachineChest, Pos: *o.pos, Formed: true, Slots: map[string]world.ItemStack{}}
	switch {
	case o.layout != nil:
		m.Kind = o.layout.Machine
	case o.kind == windowFurnace:
		m.Kind = "furnace"
	case o.kind != windowChest:
		m.Kind = "container"
	}
	for _, ns := range o.slotNames() {
		if sl := o.slots[ns.slot]; !sl.Empty() {
			m.Slots[ns.name] = toStack(sl, ids, set)
		}
	}
	return m
}

// slotNames names the container's own slots for transfer_items: a layout's
// named slots (its "chest" range by number from 0), a furnace's input, fuel
// and output, else numbers.
func (o *container) slotNames() []namedSlot {
	var out []namedSlot
	if o.layout != nil {
		for name, r := range o.layout.Slots {
			if name == "player_main" || name == "player_hotbar" {
				continue
			}
			for k := 0; k < r.Count; k++ {
				n := name
				if name == "chest" {
					n = strconv.Itoa(k)
				} else if r.Count > 1 {
					n = name + "_" + strconv.Itoa(k)
				}
				out = append(out, namedSlot{r.First + k, n})
			}
		}
		slices.SortFunc(out, func(a, b namedSlot) int { return a.slot - b.slot })
		return out
	}
	for _, i := range o.own() {
		out = append(out, namedSlot{i, strconv.Itoa(i)})
	}
	if o.kind == windowFurnace && len(out) >= 3 {
		out[0].name, out[1].name, out[2].name = "input", "fuel", "output"
	}
	return out
}
