package sim

import (
	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// throwItems is drop_item: the player throws Count matching items away,
// stack by stack from the lowest slot, as Q does (a whole stack with
// Ctrl, one item without). It looks level the way the items fly farthest
// (path.BestThrow), so they come to rest a few blocks ahead, out of its
// pickup reach; each stack lies there as an item entity that can be
// picked up again after drop_pickup_delay (EntityPlayer.func_146097_a:
// 40 ticks) and is gone at item_lifespan (6000 ticks).
func (s *Sim) throwItems(tx *world.Tx, a action.DropItem) ipc.Result {
	m, err := world.ParseItemMatcher(a.Item)
	if err != nil {
		return ipc.Failf(ipc.InvalidParams, 0, "%v", err)
	}
	inv := tx.Inventory()
	if have := inv.Count(m); have < a.Count {
		return ipc.Failf(ipc.InvalidParams, 0, "only %d %s in the inventory, %d asked", have, a.Item, a.Count)
	}
	feet := tx.Player().Pos
	yaw, rest, ok := path.BestThrow(tx.BlockAt, feet)
	if !ok {
		return ipc.Failf(ipc.Rejected, 0, "nowhere to throw %s from %v: every way falls out of the world", a.Item, feet)
	}
	left, thrown := a.Count, 0
	var ids []int
	for i := range inv.Slots {
		if left == 0 {
			break
		}
		st := inv.Slots[i]
		if st.Empty() || !m.Matches(st) {
			continue
		}
		k := min(left, st.Count)
		out := st
		out.Count = k
		inv.Slots[i].Count -= k
		if inv.Slots[i].Count == 0 {
			inv.Slots[i] = world.ItemStack{}
		}
		s.dropItem(rest, out, s.rules.Mobs.Player.DropPickupDelay)
		ids = append(ids, s.danger.nextID)
		left -= k
		thrown++
	}
	tx.SetInventory(inv)
	s.syncEntities(tx)
	return ipc.Result{Code: ipc.OK, Ticks: int64(thrown), Details: map[string]any{
		"dropped": a.Count, "at": rest, "yaw": yaw, "entities": ids,
	}}
}
