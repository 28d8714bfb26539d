package base

import (
	"sort"
	"strconv"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

func init() { registry.Provide(StoreItems{}) }

// chestSlots is a single chest's size (TileEntityChest.getSizeInventory).
const chestSlots = 27

// chestItem is the chest as an item and a block.
const chestItem = "minecraft:chest"

// StoreItems puts items away in a chest, as a player whose inventory fills
// up does: every item matching item beyond keep goes into the nearest
// chest within radius whose contents are known and that has room (its
// empty slots, and its stacks of the same item not yet full), after a
// walk there. With no such chest and a chest in the inventory, it places
// that chest beside the feet first (on a free cell with a block to put it
// against) and fills it. It emits move_to, open_container, one
// transfer_items (deposit) per chest slot filled, and close_container.
// Nothing beyond keep is no_target; no chest with room and none to place,
// missing_items.
type StoreItems struct{}

// Name implements skills.Implementation.
func (StoreItems) Name() string { return "store_items" }

// SuggestActions implements skills.Implementation.
func (StoreItems) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	want := p.String("item")
	m, err := world.ParseItemMatcher(want)
	if err != nil {
		return nil, skills.Failf(skills.CodeInvalidParams, "item: %v", err)
	}
	keep := intParam(p, "keep", 0)
	radius := intParam(p, "radius", 32)
	left := newPool(w.Inventory, m)
	extra := left.total() - keep
	if extra <= 0 {
		return nil, skills.Failf(skills.CodeNoTarget, "%d %s held, %d to keep: nothing to store", left.total(), want, keep)
	}
	feet := w.Feet()
	var chests []world.Machine
	for _, c := range w.Machines {
		if c.Kind == world.MachineChest && !c.ContentsUnknown && c.Pos.DistSq(feet) <= radius*radius {
			chests = append(chests, c)
		}
	}
	sort.SliceStable(chests, func(i, j int) bool { return chests[i].Pos.DistSq(feet) < chests[j].Pos.DistSq(feet) })
	var acts []action.Action
	for _, c := range chests {
		moves := deposits(c, left, &extra)
		if len(moves) == 0 {
			continue
		}
		acts = append(acts, action.MoveTo{Pos: c.Pos, Radius: workRadius}, action.OpenContainer{Pos: c.Pos})
		acts = append(acts, moves...)
		acts = append(acts, action.CloseContainer{})
		if extra == 0 {
			break
		}
	}
	if len(acts) > 0 {
		return acts, nil
	}
	if w.Inventory.CountID(chestItem) == 0 {
		return nil, skills.Failf(skills.CodeMissingItems, "no chest with room for %s within %d blocks, and no chest to place", want, radius)
	}
	at, ok := chestSpot(w, feet)
	if !ok {
		// In a tunnel a player digs a nook for the chest.
		if at, ok = chestNook(w, feet); !ok {
			return nil, skills.Failf(skills.CodeNoTarget, "no free cell beside %v to place a chest in, and no block beside the feet to dig a nook in", feet)
		}
		if w.Inventory.BestTool(world.MustItem("tool:pickaxe"), 1) >= 0 {
			acts = append(acts, action.Equip{Item: "tool:pickaxe"})
		}
		acts = append(acts, action.BreakBlock{Pos: at})
	}
	fresh := world.Machine{Kind: world.MachineChest, Pos: at, Formed: true}
	acts = append(acts, action.PlaceBlock{Pos: at, Item: chestItem, Face: "auto"}, action.OpenContainer{Pos: at})
	acts = append(acts, deposits(fresh, left, &extra)...)
	return append(acts, action.CloseContainer{}), nil
}

// deposits fills chest c's slots, in slot order, from the pool, up to
// *extra items: the stacks of the same item first up to a full stack, then
// the empty slots. It lowers *extra by what it moves.
func deposits(c world.Machine, left *pool, extra *int) []action.Action {
	var acts []action.Action
	for pass := 0; pass < 2 && *extra > 0; pass++ {
		for i := 0; i < chestSlots && *extra > 0; i++ {
			slot := strconv.Itoa(i)
			cur := withTags(c.Slot(slot))
			var k itemKey
			room := stackSize
			switch {
			case pass == 0 && !cur.Empty():
				if _, ok := left.left[keyOf(cur)]; !ok || cur.Count >= stackSize {
					continue
				}
				k, room = keyOf(cur), stackSize-cur.Count
			case pass == 1 && cur.Empty():
				var ok bool
				if k, ok = left.first(); !ok {
					return acts
				}
			default:
				continue
			}
			n := left.take(k, min(room, *extra))
			if n <= 0 {
				continue
			}
			*extra -= n
			acts = append(acts, action.TransferItems{Pos: c.Pos, Item: left.ref[k], Count: n, Direction: action.Deposit, Slot: slot})
			if pass == 1 {
				// The slot is taken now.
				c = withSlot(c, slot, world.ItemStack{ID: k.id, Meta: k.meta, Count: n})
			}
		}
	}
	return acts
}

// withSlot is c with slot set to st (a copy of the slots).
func withSlot(c world.Machine, slot string, st world.ItemStack) world.Machine {
	slots := make(map[string]world.ItemStack, len(c.Slots)+1)
	for k, v := range c.Slots {
		slots[k] = v
	}
	slots[slot] = st
	c.Slots = slots
	return c
}

// chestSpot finds a cell beside the feet (the four sides at the feet's
// level, then above the head) that is open, not beside another chest, and
// has a solid block below or beside it to place a chest against.
func chestSpot(w *world.Snapshot, feet world.BlockPos) (world.BlockPos, bool) {
	cell := func(p world.BlockPos) path.Cell {
		if !w.Known(p) {
			return path.Unknown
		}
		return path.ClassifyByTags(w.BlockAt(p))
	}
	for _, at := range []world.BlockPos{feet.Add(0, 0, -1), feet.Add(1, 0, 0), feet.Add(0, 0, 1), feet.Add(-1, 0, 0), feet.Add(0, 2, 0)} {
		if cell(at) != path.Passable || !w.BlockAt(at).IsAir() || hasMachine(w, at) || besideChest(w, at) {
			continue
		}
		for _, d := range [6][3]int{{0, -1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}, {0, 1, 0}} {
			if cell(at.Add(d[0], d[1], d[2])) == path.Solid {
				return at, true
			}
		}
	}
	return world.BlockPos{}, false
}

// besideChest reports whether a chest block is next to p on a side. A
// chest placed there would join it into a large chest of 54 slots, or not
// be placed at all beside a large one (1.7.10 BlockChest.canPlaceBlockAt
// and func_149952_n; onBlockPlacedBy turns the pair to face alike), and
// the chest the skill fills is to be a single one of 27.
func besideChest(w *world.Snapshot, p world.BlockPos) bool {
	for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		if w.BlockAt(p.Add(d[0], 0, d[1])).ID == chestItem {
			return true
		}
	}
	return false
}

// chestNook finds a block beside the feet (the four sides at the feet's
// level) to dig out and put a chest in: a solid block with a solid block
// under it to place the chest against, that is not bedrock, does not fall
// (sand, gravel), is beside no chest and has no liquid or unknown cell
// around it, so digging it lets nothing in.
func chestNook(w *world.Snapshot, feet world.BlockPos) (world.BlockPos, bool) {
	cell := func(p world.BlockPos) path.Cell {
		if !w.Known(p) {
			return path.Unknown
		}
		return path.ClassifyByTags(w.BlockAt(p))
	}
	for _, at := range []world.BlockPos{feet.Add(0, 0, -1), feet.Add(1, 0, 0), feet.Add(0, 0, 1), feet.Add(-1, 0, 0)} {
		b := w.BlockAt(at)
		if cell(at) != path.Solid || b.ID == "minecraft:bedrock" || fallingBlocks[b.ID] || hasMachine(w, at) || cell(at.Down()) != path.Solid || besideChest(w, at) {
			continue
		}
		sealed := true
		for _, d := range [6][3]int{{0, -1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}, {0, 1, 0}} {
			if c := cell(at.Add(d[0], d[1], d[2])); c == path.Unknown || c == path.Water || c == path.Danger {
				sealed = false
			}
		}
		if sealed {
			return at, true
		}
	}
	return world.BlockPos{}, false
}

func hasMachine(w *world.Snapshot, p world.BlockPos) bool {
	for _, m := range w.Machines {
		if m.Pos == p {
			return true
		}
	}
	return false
}
