package gtnh

import (
	"bytes"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Player inventory window (window 0) layout in 1.7.10.
const (
	playerWindowSlots = 45
	invCraftResult    = 0
	invCraftGrid      = 1 // 1..4, row-major 2×2
	invMain           = 9 // 9..35
	invHotbar         = 36
	cursorWindow      = -1
)

// Window types of Open Window the client knows.
const (
	windowChest     = 0
	windowWorkbench = 1
	windowFurnace   = 2
)

// container is an open container window. slots covers every window slot;
// the slots of the player's inventory (27 main from mainAt, 9 hotbar from
// hotbarAt) map onto the player window instead. A vanilla window has its own
// slots first and the player's after them; a mod window's layout (from
// config/containers.yaml) may put the player's inventory first.
type container struct {
	id    uint8
	kind  uint8
	title string
	slots []proto17.Slot
	// mainAt and hotbarAt are the window slots of the player's first main
	// and first hotbar slot.
	mainAt, hotbarAt int
	// layout names the slots of a mod container (nil: a vanilla window).
	layout *modnet.ContainerLayout
	pos    *world.BlockPos
	// asked is the block open_container clicked for this window (a coke
	// oven's brick, where the GUI opens at the master).
	asked *world.BlockPos
	// synced: a Window Items for it arrived.
	synced bool
	// tanksSeen counts the tank amounts (RC GUI_INTEGER) that arrived for
	// it; a Railcraft window sends them right after its slots.
	tanksSeen int
	// waterSeen: a coal boiler's water bar (ModularUI) arrived for it.
	waterSeen bool
	// rcTanks is what a Railcraft window sent of its tanks, by the
	// GUI_INTEGER data id of their amount (3i+1 for tank i); only tanks
	// its layout names are kept.
	rcTanks map[int]*rcTank
	// furnace is what a vanilla furnace's window sent of its progress.
	furnace furnaceProgress
}

// furnaceProgress is a furnace window's properties as 1.7.10's
// ContainerFurnace sends them (all three when the window opens, then each
// as it changes, once a server tick at most): 0 the cook time of the item
// in progress, 1 the burn time left, 2 the burn time of the item burning.
type furnaceProgress struct {
	cook, burn, itemBurn int
	seen                 bool
	// burned is set once the burn time was seen above 0; out once it was
	// seen back at 0 after that (the furnace went out).
	burned, out bool
}

func (f *furnaceProgress) read(property, value int) {
	f.seen = true
	switch property {
	case 0:
		f.cook = value
	case 1:
		f.burn = value
		if value > 0 {
			f.burned, f.out = true, false
		} else if f.burned {
			f.out = true
		}
	case 2:
		f.itemBurn = value
	}
}

// rcTank is what an open Railcraft window sent of one of its tanks
// (TankManager.initGuiData and updateGuiData): the fluid id as window
// property 3i, the amount as RC GUI_INTEGER 3i+1.
type rcTank struct {
	fluid, amount         int32
	fluidSeen, amountSeen bool
}

// rcTank returns the record of the tank whose amount has GUI_INTEGER data
// id dataID, making it. Client.mu is held; the caller checked that the
// layout names the tank, which bounds the map.
func (o *container) rcTank(dataID int) *rcTank {
	if o.rcTanks == nil {
		o.rcTanks = map[int]*rcTank{}
	}
	t, ok := o.rcTanks[dataID]
	if !ok {
		t = &rcTank{}
		o.rcTanks[dataID] = t
	}
	return t
}

// newContainer is a vanilla window with n own slots, then the player's.
func newContainer(id, kind uint8, title string, n int) *container {
	return &container{id: id, kind: kind, title: title, slots: make([]proto17.Slot, n+36), mainAt: n, hotbarAt: n + 27}
}

// newModContainer is a window with a slot layout from the data.
func newModContainer(id uint8, l modnet.ContainerLayout) *container {
	main, hot := l.Slots["player_main"], l.Slots["player_hotbar"]
	o := &container{id: id, title: l.Kind, slots: make([]proto17.Slot, l.Size), mainAt: main.First, hotbarAt: hot.First, layout: &l}
	return o
}

// at reports whether the window is the container at p.
func (o *container) at(p world.BlockPos) bool {
	return o.pos != nil && *o.pos == p || o.asked != nil && *o.asked == p
}

// playerAt maps a window slot to the player window's slot, or -1 for the
// container's own slots.
func (o *container) playerAt(i int) int {
	switch {
	case i >= o.mainAt && i < o.mainAt+27:
		return invMain + i - o.mainAt
	case i >= o.hotbarAt && i < o.hotbarAt+9:
		return invHotbar + i - o.hotbarAt
	}
	return -1
}

// own lists the container's own window slots, in order.
func (o *container) own() []int {
	out := make([]int, 0, len(o.slots))
	for i := range o.slots {
		if o.playerAt(i) < 0 {
			out = append(out, i)
		}
	}
	return out
}

// inventory is the client's model of the windows: the player window, the
// open container and the cursor. Accepted clicks are not echoed by the
// server, so the model predicts them the way the vanilla client does.
type inventory struct {
	player [playerWindowSlots]proto17.Slot
	open   *container
	cursor proto17.Slot
	held   int
	synced bool // the player window arrived once
}

func (inv *inventory) reset() {
	*inv = inventory{}
}

// slot returns the slot of a window, or nil for a window or index the model
// does not hold.
func (inv *inventory) slot(window uint8, i int) *proto17.Slot {
	if window == 0 {
		if i < 0 || i >= playerWindowSlots {
			return nil
		}
		return &inv.player[i]
	}
	o := inv.open
	if o == nil || o.id != window || i < 0 || i >= len(o.slots) {
		return nil
	}
	if p := o.playerAt(i); p >= 0 {
		return &inv.player[p]
	}
	return &o.slots[i]
}

// windowSize is the number of slots of a window.
func (inv *inventory) windowSize(window uint8) int {
	if window == 0 {
		return playerWindowSlots
	}
	if inv.open != nil && inv.open.id == window {
		return len(inv.open.slots)
	}
	return 0
}

// playerSlot maps a world inventory slot (0..8 hotbar, 9..35 main) to the
// slot of a window.
func (inv *inventory) playerSlot(window uint8, worldSlot int) int {
	if window != 0 && inv.open != nil && inv.open.id == window {
		if worldSlot < 9 {
			return inv.open.hotbarAt + worldSlot
		}
		return inv.open.mainAt + worldSlot - 9
	}
	if worldSlot < 9 {
		return invHotbar + worldSlot
	}
	return invMain + worldSlot - 9
}

// heldSlot is the held stack.
func (inv *inventory) heldSlot() proto17.Slot { return inv.player[invHotbar+inv.held] }

// sameItem reports whether two stacks merge (same id, damage and NBT).
func sameItem(a, b proto17.Slot) bool {
	return !a.Empty() && !b.Empty() && a.ID == b.ID && a.Damage == b.Damage && bytes.Equal(a.NBT, b.NBT)
}

// click predicts a mode-0 click (button 0 left, 1 right) on slot s of
// window, as Container.slotClick does, and returns the stack the slot held
// before (the packet's "clicked" item). maxOf gives an item's stack limit.
func (inv *inventory) click(window uint8, i int, button int8, result bool, maxOf func(proto17.Slot) int, ids *rules.IDMap, set *rules.Set) (proto17.Slot, bool) {
	p := inv.slot(window, i)
	if p == nil {
		return proto17.Slot{}, false
	}
	before := *p
	cur := &inv.cursor
	if result {
		// A crafting result: take it whole onto the cursor when it fits.
		if p.Empty() {
			return before, true
		}
		switch {
		case cur.Empty():
			*cur = *p
		case sameItem(*cur, *p) && int(cur.Count+p.Count) <= maxOf(*p):
			cur.Count += p.Count
		default:
			return before, true
		}
		*p = proto17.Slot{}
		inv.consumeGrid(window, maxOf, ids, set)
		return before, true
	}
	switch {
	case p.Empty() && cur.Empty():
	case cur.Empty():
		if button == 0 {
			*cur, *p = *p, proto17.Slot{}
		} else {
			take := (p.Count + 1) / 2
			*cur = *p
			cur.Count = take
			p.Count -= take
			if p.Count == 0 {
				*p = proto17.Slot{}
			}
		}
	case p.Empty():
		if button == 0 {
			*p, *cur = *cur, proto17.Slot{}
		} else {
			*p = *cur
			p.Count = 1
			cur.Count--
		}
	case sameItem(*p, *cur):
		room := int32(maxOf(*p)) - p.Count
		n := cur.Count
		if button == 1 {
			n = 1
		}
		n = max(0, min(n, room))
		p.Count += n
		cur.Count -= n
	default:
		*p, *cur = *cur, *p
	}
	if cur.Count <= 0 {
		*cur = proto17.Slot{}
	}
	return before, true
}

// consumeGrid predicts the grid after a result was taken, as the
// client's own SlotCrafting.onPickupFromSlot does (the server sends none of
// it: NetHandlerPlayServer.processClickWindow changes slots "quantity
// only"): one item is taken from every grid slot, a tool that wears in the
// grid (config/crafting_tools.yaml) comes back worn — a GregTech tool with
// its NBT's Damage raised, the brick form with its item damage — or not at
// all when that craft used it up, and a container the recipe gives back
// (returns: the emptied bucket) goes into the inventory
// (InventoryPlayer.addItemStackToInventory), or into its emptied grid slot
// when the inventory has no room. A grid that matches no recipe (the
// client's view was behind) keeps its unstackable items, as tools.
func (inv *inventory) consumeGrid(window uint8, maxOf func(proto17.Slot) int, ids *rules.IDMap, set *rules.Set) {
	lo, hi := invCraftGrid, invCraftGrid+4
	if window != 0 {
		lo, hi = 1, 10
	}
	grid := make([]world.ItemStack, 0, hi-lo)
	for i := lo; i < hi; i++ {
		grid = append(grid, toStack(*inv.slot(window, i), ids, set))
	}
	width := 2
	if window != 0 {
		width = 3
	}
	recipe, matched := set.Recipes.Match(grid, width)
	for i := lo; i < hi; i++ {
		p := inv.slot(window, i)
		if p == nil || p.Empty() {
			continue
		}
		if matched && !isTool(recipe, grid[i-lo]) || !matched && maxOf(*p) > 1 {
			p.Count--
			if p.Count <= 0 {
				*p = proto17.Slot{}
			}
			continue
		}
		if worn, ok := wearGridTool(*p, ids, set); ok {
			*p = worn
		}
	}
	if !matched {
		return
	}
	for _, back := range recipe.Returns {
		name, meta, err := world.SplitID(back)
		id, found := ids.ItemID(name)
		if err != nil || !found {
			continue
		}
		st := proto17.Slot{ID: int16(id), Count: 1, Damage: int16(max(meta, 0))}
		if !inv.addToPlayer(window, st, maxOf) {
			for i := lo; i < hi; i++ {
				if p := inv.slot(window, i); p != nil && p.Empty() {
					*p = st
					break
				}
			}
		}
	}
}

// isTool reports whether a grid stack is one of the recipe's tools, which
// stay in the grid (worn, when the crafting tools table says they wear).
func isTool(r rules.Recipe, st world.ItemStack) bool {
	for _, t := range r.Tools {
		if t.Matches(st) {
			return true
		}
	}
	return false
}

// wearGridTool is a grid tool of the crafting tools table after one craft,
// as the server's getContainerItem makes it; ok is false for stacks that
// do not wear in the grid. The empty slot means the craft used it up.
func wearGridTool(p proto17.Slot, ids *rules.IDMap, set *rules.Set) (proto17.Slot, bool) {
	st := toStack(p, ids, set)
	ct, ok := set.Grid.Get(st)
	if !ok || st.MaxDamage <= 0 {
		return p, false
	}
	after := set.Grid.AfterCraft(st)
	if after.Empty() {
		return proto17.Slot{}, true
	}
	if ct.GregTech == nil {
		p.Damage = int16(after.Damage)
		return p, true
	}
	t, err := modnet.ParseGTTool(p.NBT)
	if err != nil {
		return p, false
	}
	t.Damage, t.HasDamage = int64(after.Damage), true
	nbt, err := t.NBT()
	if err != nil {
		return p, false
	}
	p.NBT = nbt
	return p, true
}

// newGridTool is the NBT of a newly crafted GregTech tool of the crafting
// tools table (getToolWithStats: its MaxDamage and materials, no Damage
// yet); nil for other items.
func newGridTool(output world.ItemStack, set *rules.Set) []byte {
	ct, ok := set.Grid.Get(output)
	if !ok || ct.GregTech == nil {
		return nil
	}
	nbt, err := modnet.GTTool{Primary: ct.GregTech.Primary, Secondary: ct.GregTech.Secondary, MaxDamage: int64(ct.MaxDamage)}.NBT()
	if err != nil {
		return nil
	}
	return nbt
}

// addToPlayer predicts InventoryPlayer.addItemStackToInventory for one
// item: onto the first stack of the same item with room, else into the
// first empty slot, the hotbar (inventory slots 0–8) before the main
// inventory (9–35). It reports false when there is no room.
func (inv *inventory) addToPlayer(window uint8, st proto17.Slot, maxOf func(proto17.Slot) int) bool {
	order := make([]*proto17.Slot, 0, 36)
	for i := 0; i < 9; i++ {
		order = append(order, &inv.player[invHotbar+i])
	}
	for i := 9; i < 36; i++ {
		order = append(order, &inv.player[i])
	}
	for _, p := range order {
		if !p.Empty() && sameItem(*p, st) && len(p.NBT) == 0 && int(p.Count+st.Count) <= maxOf(*p) {
			p.Count += st.Count
			return true
		}
	}
	for _, p := range order {
		if p.Empty() {
			*p = st
			return true
		}
	}
	return false
}

// predictResult computes a crafting grid's result after a click changed
// it, as the vanilla client does (ContainerPlayer and ContainerWorkbench
// .onCraftMatrixChanged run on the client too, and a server never sends the
// result slot: EntityPlayerMP.sendSlotContents skips a SlotCrafting). The
// grid is window 0's 2×2 when no container is open, or an open crafting
// table's 3×3; the recipe set is the rules' (the server's own).
func (inv *inventory) predictResult(window uint8, ids *rules.IDMap, set *rules.Set) {
	var result, first, width int
	switch {
	case window == 0 && inv.open == nil:
		result, first, width = invCraftResult, invCraftGrid, 2
	case inv.open != nil && inv.open.id == window && inv.open.kind == windowWorkbench && inv.open.layout == nil:
		result, first, width = 0, 1, 3
	default:
		return
	}
	grid := make([]world.ItemStack, width*width)
	for i := range grid {
		if p := inv.slot(window, first+i); p != nil {
			grid[i] = toStack(*p, ids, set)
		}
	}
	out := proto17.Slot{}
	if r, ok := set.Recipes.Match(grid, width); ok {
		name, meta, err := world.SplitID(r.Output)
		if id, found := ids.ItemID(name); err == nil && found {
			out = proto17.Slot{ID: int16(id), Count: int32(r.Count), Damage: int16(max(meta, 0))}
			out.NBT = newGridTool(toStack(out, ids, set), set)
		}
	}
	if p := inv.slot(window, result); p != nil {
		*p = out
	}
}

// swapHotbar predicts a mode-2 click: slot i and hotbar slot h swap. It
// returns the stack slot i held; the packet's clicked stack for mode 2 is
// empty regardless (see act.clickResult).
func (inv *inventory) swapHotbar(window uint8, i, h int) (proto17.Slot, bool) {
	p := inv.slot(window, i)
	if p == nil || h < 0 || h > 8 {
		return proto17.Slot{}, false
	}
	before := *p
	hb := &inv.player[invHotbar+h]
	*p, *hb = *hb, *p
	return before, true
}

// worldInventory converts the player window into the world's inventory.
func (inv *inventory) worldInventory(ids *rules.IDMap, set *rules.Set) world.Inventory {
	out := world.NewInventory()
	for i := 0; i < 9; i++ {
		out.Slots[i] = toStack(inv.player[invHotbar+i], ids, set)
	}
	for i := 9; i < 36; i++ {
		out.Slots[i] = toStack(inv.player[i], ids, set)
	}
	out.Held = inv.held
	return out
}

// toStack converts a wire stack into a world stack: the registry names the
// item; vanilla tools move their wear from the damage field into Damage,
// GregTech tools read it from their NBT.
func toStack(s proto17.Slot, ids *rules.IDMap, set *rules.Set) world.ItemStack {
	if s.Empty() {
		return world.ItemStack{}
	}
	st, _ := s.ItemStack(ids)
	if max := vanillaDurability(set.Mining, st.ID); max > 0 {
		st.Damage, st.Meta, st.MaxDamage = st.Meta, 0, max
		st.Tags = set.Tags.ItemTags(st.ID, 0)
	} else if dmg, maxDmg, ok := gtToolWear(s.NBT); ok {
		st.Damage, st.MaxDamage = dmg, maxDmg
	} else if ct, ok := set.Grid.Get(st); ok && ct.GregTech == nil {
		// A grid tool that wears in its item damage (the brick form:
		// NewHorizonsCoreMod WoodenBrickForm.getContainerItem raises the
		// damage by one).
		st.Damage, st.Meta, st.MaxDamage = st.Meta, 0, ct.MaxDamage
	}
	if len(s.NBT) > 0 && strings.HasPrefix(st.ID, "TConstruct:") {
		if v, ok := readItemNBT(s.NBT); ok {
			st.Tinker = v.tinker
		}
	}
	return st
}

// itemNBT is the part of an item's NBT the client reads.
type itemNBT struct {
	// damage and maxDamage are GregTech's tool wear (GT.ToolStats: Damage
	// and MaxDamage, longs); hasWear is set when MaxDamage is positive.
	damage, maxDamage int64
	hasWear           bool
	// ench maps enchantment ids to levels (ench: a list of {id, lvl}).
	ench map[int16]int16
	// tinker is a Tinkers' Construct tool's head material and harvest
	// level (InfiTool: Head and HarvestLevel, ints; TinkersConstruct
	// library/crafting/ToolBuilder.buildTool, lowered by IguanaTinkerTweaks'
	// LevelingLogic until the mining boost); nil without both.
	tinker *world.TinkerTool
}

// readItemNBT decodes an item's gzipped NBT with proto17's bounded decoder:
// the server's bytes decide nothing about how much the client allocates
// beyond proto17.MaxNBTAlloc. ok is false for NBT that does not decode.
func readItemNBT(gz []byte) (v itemNBT, ok bool) {
	if len(gz) == 0 {
		return v, false
	}
	n, err := proto17.DecodeGzipNBT(gz)
	if err != nil {
		return v, false
	}
	if gt, ok := n.Root["GT.ToolStats"].(proto17.Compound); ok {
		dmg, _ := nbtInt(gt["Damage"])
		maxDmg, okMax := nbtInt(gt["MaxDamage"])
		if okMax && maxDmg > 0 {
			v.damage, v.maxDamage, v.hasWear = dmg, maxDmg, true
		}
	}
	if it, ok := n.Root["InfiTool"].(proto17.Compound); ok {
		head, okHead := nbtInt(it["Head"])
		lv, okLv := nbtInt(it["HarvestLevel"])
		if okHead && okLv && head == int64(int32(head)) && lv == int64(int32(lv)) {
			v.tinker = &world.TinkerTool{Head: int(head), HarvestLevel: int(lv)}
		}
	}
	if l, ok := n.Root["ench"].(proto17.List); ok && l.Type == proto17.TagCompound {
		for _, e := range l.Values {
			c, _ := e.(proto17.Compound)
			id, okID := nbtInt(c["id"])
			lvl, okLvl := nbtInt(c["lvl"])
			if !okID || !okLvl || id != int64(int16(id)) || lvl != int64(int16(lvl)) {
				continue
			}
			if v.ench == nil {
				v.ench = map[int16]int16{}
			}
			if _, seen := v.ench[int16(id)]; !seen {
				v.ench[int16(id)] = int16(lvl)
			}
		}
	}
	return v, true
}

// nbtInt reads an integer tag of any width, as Minecraft's
// NBTTagCompound.getLong/getShort do through NBTPrimitive.
func nbtInt(v any) (int64, bool) {
	switch v := v.(type) {
	case int8:
		return int64(v), true
	case int16:
		return int64(v), true
	case int32:
		return int64(v), true
	case int64:
		return v, true
	}
	return 0, false
}

// gtToolWear reads GregTech's tool stats (GT.ToolStats: Damage and
// MaxDamage, longs).
func gtToolWear(gz []byte) (damage, maxDamage int, ok bool) {
	v, ok := readItemNBT(gz)
	if !ok || !v.hasWear {
		return 0, 0, false
	}
	return int(v.damage), int(v.maxDamage), true
}

// efficiency is the Efficiency enchantment level of a stack (id 32).
func efficiency(s proto17.Slot) int {
	v, _ := readItemNBT(s.NBT)
	return int(v.ench[32])
}
