package gtnh

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// dropItem throws items away as Q does: each matching stack is made the
// held one, and Player Digging with status 3 drops the held stack whole,
// status 4 one item of it (NetHandlerPlayServer.processPlayerDigging →
// EntityPlayer.dropOneItem; MCP-Decompiled/1.7.10-12 at 1b1a78f,
// src/minecraft/net/minecraft/network/NetHandlerPlayServer.java). The
// vanilla client predicts nothing of it (EntityClientPlayerMP.dropOneItem
// only sends the packet): the server takes the items from the held slot
// and its next detectAndSendChanges sends that slot, so each throw counts
// only once the server's Set Slot shows the held stack smaller. The bot
// first looks level the way the items fly farthest (path.BestThrow), so
// they land out of its pickup reach. A stack swapped in from the main
// inventory is swapped back, so the held tool returns to its slot.
func (x *act) dropItem(a action.DropItem) ipc.Result {
	m, err := world.ParseItemMatcher(a.Item)
	if err != nil {
		return ipc.Failf(ipc.InvalidParams, 0, "%v", err)
	}
	if have := x.c.state.Snapshot().Inventory.Count(m); have < a.Count {
		return ipc.Failf(ipc.InvalidParams, 0, "only %d %s in the inventory, %d asked", have, a.Item, a.Count)
	}
	b := x.body()
	feet := world.Vec3{X: b.x, Y: b.y, Z: b.z}
	yaw, rest, ok := path.BestThrow(x.blockAt, feet)
	if !ok {
		return ipc.Failf(ipc.Rejected, 0, "nowhere to throw %s from %v: every way falls out of the world", a.Item, feet)
	}
	r := yaw * math.Pi / 180
	eyes := feet.Y + proto17.EyeHeight
	if err := x.look(world.Vec3{X: feet.X - 4*math.Sin(r), Y: eyes, Z: feet.Z + 4*math.Cos(r)}); err != nil {
		return x.fail(err, "looking")
	}
	left := a.Count
	for left > 0 {
		slot, _, res, ok := x.findItem(a.Item, false)
		if !ok {
			return ipc.Failf(ipc.Rejected, 0, "threw %d of %d %s: %s", a.Count-left, a.Count, a.Item, res.Error)
		}
		if err := x.hold(slot); err != nil {
			return x.fail(err, "holding "+a.Item)
		}
		x.c.mu.Lock()
		held := x.s.inv.held
		before := x.s.inv.heldSlot()
		x.c.mu.Unlock()
		if before.Empty() {
			return ipc.Failf(ipc.Rejected, 0, "the held slot is empty after taking up %s", a.Item)
		}
		k := min(left, int(before.Count))
		if k == int(before.Count) {
			err = x.c.send(x.s, &proto17.PlayerDigging{Status: proto17.DigDropStack})
		} else {
			for i := 0; i < k && err == nil; i++ {
				err = x.c.send(x.s, &proto17.PlayerDigging{Status: proto17.DigDropItem})
			}
		}
		if err != nil {
			return x.fail(err, "throwing "+a.Item)
		}
		want := before.Count - int32(k)
		thrown, err := x.answer(func() bool {
			now := x.s.inv.player[invHotbar+held]
			if want == 0 {
				return now.Empty()
			}
			return sameItem(now, before) && now.Count == want
		})
		if err != nil {
			return x.fail(err, "throwing "+a.Item)
		}
		if !thrown {
			return ipc.Failf(ipc.Rejected, 0, "threw %d of %d %s: the server did not take %d from the held slot", a.Count-left, a.Count, a.Item, k)
		}
		left -= k
		if slot >= 9 {
			if err := x.hold(slot); err != nil { // swap back
				return x.fail(err, "putting the held item back")
			}
		}
	}
	x.c.syncInventory(x.s)
	return ipc.Result{Code: ipc.OK, Details: map[string]any{"dropped": a.Count, "at": rest, "yaw": yaw}}
}
