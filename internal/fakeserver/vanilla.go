package fakeserver

import (
	"fmt"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// The vanilla containers of the Stone Age, played by the shared rules
// (rules.Default(): config/recipes.yaml, config/smelting.yaml), as
// Minecraft 1.7.10 plays them:
//
//   - the inventory's 2×2 crafting grid (ContainerPlayer: window 0, slot 0
//     the result, 1–4 the grid) and the crafting table (BlockWorkbench →
//     EntityPlayerMP.displayGUIWorkbench: Open Window type 1 "Crafting",
//     ContainerWorkbench: slot 0 the result, 1–9 the grid, 10–36 the main
//     inventory, 37–45 the hotbar). When a grid slot changes the server
//     looks the grid up in the recipe set (onCraftMatrixChanged →
//     CraftingManager.findMatchingRecipe); it never sends the result slot
//     (EntityPlayerMP.sendSlotContents skips a SlotCrafting: the client
//     computes the result itself). Taking the result (SlotCrafting
//     .onPickupFromSlot) uses one item of every grid slot, except a tool
//     the recipe names, which stays (the rules' tools are not consumed).
//     Closing the table gives its grid back (a real server drops it at the
//     player's feet, where the player picks it up).
//   - the furnace (BlockFurnace → displayGUIFurnace: Open Window type 2,
//     ContainerFurnace: slot 0 input, 1 fuel, 2 output (take only), 3–29
//     main, 30–38 hotbar). TileEntityFurnace.updateEntity runs every server
//     tick: a furnace that can smelt and has no burn time left burns one
//     fuel item (its burn time from the smelting table); while burning and
//     able to smelt, the cook time rises by one a tick and at cook_ticks
//     (200) the input becomes the output; otherwise it falls back to 0. The
//     block becomes minecraft:lit_furnace while it burns and
//     minecraft:furnace again when it goes out (updateFurnaceBlockState,
//     keeping the furnace's contents). An open window gets the changed
//     slots and, as ContainerFurnace.detectAndSendChanges sends them,
//     window property 0 the cook time, 1 the burn time left, 2 the burn
//     time of the item burning.

// Layouts of the vanilla windows (fixed by 1.7.10's containers).
const (
	layoutWorkbench = "vanilla_crafting_table"
	layoutFurnace   = "vanilla_furnace"
	// windowTypeWorkbench and windowTypeFurnace are Open Window's types.
	windowTypeWorkbench = 1
	windowTypeFurnace   = 2
)

var (
	workbenchLayout = modnet.ContainerLayout{Kind: layoutWorkbench, Machine: "crafting_table", Size: 46,
		Slots: map[string]modnet.SlotRange{"result": {First: 0, Count: 1}, "grid": {First: 1, Count: 9},
			"player_main": {First: 10, Count: 27}, "player_hotbar": {First: 37, Count: 9}}}
	furnaceLayout = modnet.ContainerLayout{Kind: layoutFurnace, Machine: "furnace", Size: 39,
		Slots: map[string]modnet.SlotRange{"input": {First: 0, Count: 1}, "fuel": {First: 1, Count: 1}, "output": {First: 2, Count: 1},
			"player_main": {First: 3, Count: 27}, "player_hotbar": {First: 30, Count: 9}}}
)

// Furnace slots (ContainerFurnace).
const (
	furnaceInput  = 0
	furnaceFuel   = 1
	furnaceOutput = 2
)

// furnace is a furnace's tile state (TileEntityFurnace's fields).
type furnace struct {
	burn, itemBurn, cook int
}

// stackOf is a wire stack as the rules see it (tags included).
func (s *Server) stackOf(sl proto17.Slot) game.ItemStack {
	if sl.Empty() {
		return game.ItemStack{}
	}
	name, ok := s.ids.ItemName(int(sl.ID))
	if !ok {
		return game.ItemStack{}
	}
	st := rules.Default().Stack(name, int(sl.Damage), int(sl.Count))
	if ct, ok := rules.Default().Grid.Get(st); ok {
		// A tool that wears in the grid: a GregTech tool's wear is in its
		// NBT, the brick form's in its item damage.
		if ct.GregTech != nil {
			if t, err := modnet.ParseGTTool(sl.NBT); err == nil {
				st.Damage, st.MaxDamage = int(t.Damage), int(t.MaxDamage)
			}
		} else {
			st.Damage, st.Meta, st.MaxDamage = st.Meta, 0, ct.MaxDamage
		}
	}
	if len(sl.NBT) > 0 && strings.HasPrefix(name, "TConstruct:") {
		// A Tinkers' tool mines at the level its InfiTool tag carries
		// (tinkersToolNBT).
		if n, err := proto17.DecodeGzipNBT(sl.NBT); err == nil {
			if it, ok := n.Root["InfiTool"].(proto17.Compound); ok {
				head, okHead := it["Head"].(int32)
				lv, okLv := it["HarvestLevel"].(int32)
				if okHead && okLv {
					st.Tinker = &game.TinkerTool{Head: int(head), HarvestLevel: int(lv)}
				}
			}
		}
	}
	return st
}

// wireStack is an item id ("modid:name[:meta]") and count as a wire stack.
func (s *Server) wireStack(item string, count int) (proto17.Slot, bool) {
	name, meta, err := game.SplitID(item)
	if err != nil {
		return proto17.Slot{}, false
	}
	id, ok := s.ids.ItemID(name)
	if !ok {
		return proto17.Slot{}, false
	}
	return proto17.Slot{ID: int16(id), Count: int32(count), Damage: int16(max(meta, 0))}, true
}

// craftGrid is a crafting grid of the server: its result slot and its grid
// slots (row-major), in the player's window or a crafting table's.
type craftGrid struct {
	result *proto17.Slot
	cells  []*proto17.Slot
	width  int
}

// gridLocked is the crafting grid of a window: the player's 2×2 (window 0,
// no container open) or the open crafting table's 3×3; ok is false for
// other windows.
func (c *conn) gridLocked(window uint8) (craftGrid, bool) {
	w := c.window
	switch {
	case w == nil && window == 0:
		g := craftGrid{result: &c.inv[0], width: 2}
		for i := 1; i <= 4; i++ {
			g.cells = append(g.cells, &c.inv[i])
		}
		return g, true
	case w != nil && w.id == window && w.box.layout.Kind == layoutWorkbench:
		g := craftGrid{result: &w.box.slots[0], width: 3}
		for i := 1; i <= 9; i++ {
			g.cells = append(g.cells, &w.box.slots[i])
		}
		return g, true
	}
	return craftGrid{}, false
}

// matchLocked looks the grid up in the recipe set.
func (s *Server) matchLocked(g craftGrid) (rules.Recipe, bool) {
	stacks := make([]game.ItemStack, len(g.cells))
	for i, p := range g.cells {
		stacks[i] = s.stackOf(*p)
	}
	return rules.Default().Recipes.Match(stacks, g.width)
}

// updateResultLocked recomputes the grid's result (onCraftMatrixChanged).
func (s *Server) updateResultLocked(g craftGrid) {
	*g.result = proto17.Slot{}
	if r, ok := s.matchLocked(g); ok {
		if st, ok := s.wireStack(r.Output, r.Count); ok {
			st.NBT = s.newToolNBT(st)
			*g.result = st
		}
	}
}

// takeResultLocked is a left or right click on the result slot, as
// Container.slotClick treats a SlotCrafting: the whole result onto an
// empty cursor or onto the same item with room, then the grid pays for it
// (onPickupFromSlot). The packet's stack was already checked against the
// result.
func (c *conn) takeResultLocked(g craftGrid) {
	s := c.s
	res := *g.result
	if res.Empty() {
		return
	}
	r, ok := s.matchLocked(g)
	if !ok {
		return
	}
	cur := &c.cursor
	switch {
	case cur.Empty():
		*cur = res
	case sameItemFS(*cur, res) && int(cur.Count+res.Count) <= maxStack(s.itemOf(0, res).Name):
		cur.Count += res.Count
	default:
		return
	}
	for _, p := range g.cells {
		if p.Empty() {
			continue
		}
		st := s.stackOf(*p)
		tool := false
		for _, t := range r.Tools {
			tool = tool || t.Matches(st)
		}
		if tool {
			*p = s.wornLocked(*p, st) // the rules' tools stay in the grid, worn
			continue
		}
		p.Count--
		if p.Count <= 0 {
			*p = proto17.Slot{}
		}
	}
	for _, back := range r.Returns {
		// The ingredient's container (Item.getContainerItem: the emptied
		// bucket) goes into the inventory, as doesContainerItemLeaveCraftingGrid
		// is true for it, or into its emptied grid slot when there is no
		// room (SlotCrafting.onPickupFromSlot).
		st, ok := s.wireStack(back, 1)
		if !ok {
			continue
		}
		if _, ok := c.addItemLocked(st); ok {
			continue
		}
		for _, p := range g.cells {
			if p.Empty() {
				*p = st
				break
			}
		}
	}
	s.crafted = append(s.crafted, Crafted{Conn: c.id, Item: r.Output, Count: r.Count})
	s.logf("conn %d: crafted %d %s", c.id, r.Count, r.Output)
	s.updateResultLocked(g)
}

// newToolNBT is the NBT of a newly crafted tool that wears in the grid: a
// GregTech tool gets its stats (getToolWithStats: MaxDamage and its
// materials, config/crafting_tools.yaml); other items none.
func (s *Server) newToolNBT(sl proto17.Slot) []byte {
	ct, ok := rules.Default().Grid.Get(s.stackOf(sl))
	if !ok || ct.GregTech == nil {
		return nil
	}
	nbt, err := modnet.GTTool{Primary: ct.GregTech.Primary, Secondary: ct.GregTech.Secondary, MaxDamage: int64(ct.MaxDamage)}.NBT()
	if err != nil {
		return nil
	}
	return nbt
}

// wornLocked is a grid tool after a craft (its getContainerItem, by
// config/crafting_tools.yaml): a GregTech tool with its NBT's Damage
// raised (MetaGeneratedTool.doDamage), the brick form with its item damage
// raised (WoodenBrickForm.getContainerItem), or the empty slot when the
// craft used it up. A tool the table does not know stays as it is.
func (s *Server) wornLocked(sl proto17.Slot, st game.ItemStack) proto17.Slot {
	grid := rules.Default().Grid
	ct, ok := grid.Get(st)
	if !ok || st.MaxDamage <= 0 {
		return sl
	}
	after := grid.AfterCraft(st)
	if after.Empty() {
		s.logf("a %s wore out in the crafting grid", s.itemOf(0, sl).Name)
		return proto17.Slot{}
	}
	if ct.GregTech == nil {
		sl.Damage = int16(after.Damage)
		return sl
	}
	t, err := modnet.ParseGTTool(sl.NBT)
	if err != nil {
		return sl
	}
	t.Damage, t.HasDamage = int64(after.Damage), true
	if nbt, err := t.NBT(); err == nil {
		sl.NBT = nbt
	}
	return sl
}

// Crafted is one crafting result a player took.
type Crafted struct {
	Conn  int
	Item  string // the recipe's output, "modid:name[:meta]"
	Count int
}

// Crafts returns every crafting result taken, in order.
func (s *Server) Crafts() []Crafted {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Crafted(nil), s.crafted...)
}

// openVanillaLocked opens the window of a crafting table or a furnace the
// player right-clicked; it reports whether the block has one.
func (c *conn) openVanillaLocked(out *outbox, pos world.BlockPos) bool {
	s := c.s
	name := s.blockName(s.stateAt(pos))
	var b *box
	var wtype uint8
	title := ""
	switch name {
	case "minecraft:crafting_table":
		// The grid belongs to the window, not the block.
		b = &box{pos: pos, layout: workbenchLayout, slots: make([]proto17.Slot, workbenchLayout.Size)}
		wtype, title = windowTypeWorkbench, "Crafting"
	case "minecraft:furnace", "minecraft:lit_furnace":
		b = s.furnaceAtLocked(pos)
		wtype, title = windowTypeFurnace, "container.furnace"
	default:
		return false
	}
	if c.pos.DistSq(pos.Center()) >= 64 {
		return true // out of reach: nothing opens
	}
	s.mods.window = s.mods.window%100 + 1 // EntityPlayerMP.getNextWindowId
	s.opened++
	w := &openWindow{id: s.mods.window, box: b}
	c.window = w
	slots := 9 // displayGUIWorkbench sends 9
	if wtype == windowTypeFurnace {
		slots = 3
	}
	out.to(c, StageNone, &proto17.OpenWindow{WindowID: w.id, Type: wtype, Title: title, Slots: uint8(slots), UseTitle: wtype == windowTypeWorkbench})
	out.to(c, StageNone, c.windowItemsLocked(w))
	if b.furnace != nil {
		// ContainerFurnace.addCraftingToCrafters: the three properties.
		f := b.furnace
		out.add(windowProperty(c, w.id, 0, f.cook), windowProperty(c, w.id, 1, f.burn), windowProperty(c, w.id, 2, f.itemBurn))
		w.sent = []int{f.cook, f.burn, f.itemBurn}
		w.sentSlots = append([]proto17.Slot(nil), b.slots[:3]...)
	}
	s.logf("conn %d: opened %s at %v as window %d", c.id, b.layout.Kind, pos, w.id)
	return true
}

// furnaceAtLocked is the furnace at pos, made when first used.
func (s *Server) furnaceAtLocked(pos world.BlockPos) *box {
	if b, ok := s.mods.boxes[pos]; ok && b.furnace != nil {
		return b
	}
	b := &box{pos: pos, layout: furnaceLayout, slots: make([]proto17.Slot, furnaceLayout.Size), furnace: &furnace{}}
	s.mods.boxes[pos] = b
	return b
}

// tickFurnacesLocked runs every furnace's and coke oven's updateEntity up
// to the current server tick.
func (s *Server) tickFurnacesLocked(out *outbox) {
	now := s.tick()
	for ; s.worldTick < now; s.worldTick++ {
		for _, b := range s.mods.boxes {
			switch {
			case b.furnace != nil:
				s.furnaceTickLocked(out, b)
			case b.layout.Kind == layoutCokeOven:
				s.cokeOvenTickLocked(out, b, int64(s.worldTick)+1)
			}
		}
	}
}

// furnaceTickLocked is one TileEntityFurnace.updateEntity.
func (s *Server) furnaceTickLocked(out *outbox, b *box) {
	f := b.furnace
	sm := rules.Default().Smelt
	was := f.burn > 0
	if f.burn > 0 {
		f.burn--
	}
	recipe, canSmelt := s.canSmeltLocked(b)
	if f.burn == 0 && canSmelt {
		fuel := &b.slots[furnaceFuel]
		f.burn = sm.BurnTicks(s.stackOf(*fuel))
		f.itemBurn = f.burn
		if f.burn > 0 {
			fuel.Count--
			if fuel.Count <= 0 {
				*fuel = proto17.Slot{}
			}
		}
	}
	if f.burn > 0 && canSmelt {
		f.cook++
		if f.cook >= sm.CookTicks {
			f.cook = 0
			s.smeltItemLocked(b, recipe)
		}
	} else {
		f.cook = 0
	}
	if was != (f.burn > 0) {
		name := "minecraft:furnace"
		if f.burn > 0 {
			name = "minecraft:lit_furnace"
		}
		if id, ok := s.ids.BlockID(name); ok {
			s.setBlockLocked(0, b.pos, chunk.MakeState(id, s.stateAt(b.pos).Meta()), "furnace")
			out.all(s, StageNone, s.blockChange(b.pos))
		}
	}
}

// canSmeltLocked is TileEntityFurnace.canSmelt: an input with a recipe and
// room for its output.
func (s *Server) canSmeltLocked(b *box) (rules.SmeltRecipe, bool) {
	in := b.slots[furnaceInput]
	if in.Empty() {
		return rules.SmeltRecipe{}, false
	}
	r, ok := rules.Default().Smelt.Recipe(s.stackOf(in))
	if !ok {
		return r, false
	}
	res, ok := s.wireStack(r.Output, max(r.Count, 1))
	if !ok {
		return r, false
	}
	o := b.slots[furnaceOutput]
	if o.Empty() {
		return r, true
	}
	return r, sameItemFS(o, res) && int(o.Count+res.Count) <= maxStack(s.itemOf(0, res).Name)
}

// smeltItemLocked is TileEntityFurnace.smeltItem.
func (s *Server) smeltItemLocked(b *box, r rules.SmeltRecipe) {
	res, _ := s.wireStack(r.Output, max(r.Count, 1))
	o := &b.slots[furnaceOutput]
	if o.Empty() {
		*o = res
	} else {
		o.Count += res.Count
	}
	in := &b.slots[furnaceInput]
	in.Count--
	if in.Count <= 0 {
		*in = proto17.Slot{}
	}
	s.smelted = append(s.smelted, Crafted{Item: r.Output, Count: int(res.Count)})
	s.notifyLocked()
}

// Smelted returns every item the furnaces made, in order (Conn unused).
func (s *Server) Smelted() []Crafted {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Crafted(nil), s.smelted...)
}

// furnaceSyncLocked sends an open furnace window what changed since it
// was last sent (ContainerFurnace.detectAndSendChanges): its slots, then
// its properties.
func (c *conn) furnaceSyncLocked(out *outbox) {
	w := c.window
	if w == nil || w.box.furnace == nil || w.sent == nil {
		return
	}
	for i := 0; i < 3; i++ {
		if !sameStack(w.box.slots[i], w.sentSlots[i]) {
			if i == furnaceOutput && c.s.opts.FurnaceOutputLag > 0 {
				if !w.outHeld {
					w.outHeld, w.outSince = true, c.s.worldTick
				}
				if c.s.worldTick-w.outSince < c.s.opts.FurnaceOutputLag {
					continue
				}
			}
			if i == furnaceOutput {
				w.outHeld = false
			}
			out.to(c, StageNone, &proto17.SetSlot{WindowID: int8(w.id), Slot: int16(i), Item: w.box.slots[i]})
			w.sentSlots[i] = w.box.slots[i]
		}
	}
	f := w.box.furnace
	for i, v := range []int{f.cook, f.burn, f.itemBurn} {
		if w.sent[i] != v {
			out.add(windowProperty(c, w.id, i, v))
			w.sent[i] = v
		}
	}
}

// clickedFurnaceLocked records a click's change of an open furnace's (or
// Tinkers' station's) slots as sent: the client predicted it (processClickWindow sends no Set
// Slot for the clicker's own change).
func (c *conn) clickedFurnaceLocked() {
	if w := c.window; w != nil && w.box.station != nil && w.sentSlots != nil {
		copy(w.sentSlots, w.box.slots) // a Tinkers' station's own slots
		return
	}
	if w := c.window; w != nil && w.box.furnace != nil && w.sentSlots != nil {
		copy(w.sentSlots, w.box.slots[:3])
		w.outHeld = false
	}
}

// closeGridLocked gives a crafting table's grid back to the player when
// its window closes.
func (c *conn) closeGridLocked(out *outbox, w *openWindow) {
	if w == nil || w.box.layout.Kind != layoutWorkbench {
		return
	}
	for i := 1; i <= 9; i++ {
		st := w.box.slots[i]
		if st.Empty() {
			continue
		}
		w.box.slots[i] = proto17.Slot{}
		if slot, ok := c.addItemLocked(st); ok {
			out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(slot), Item: c.inv[slot]})
		}
	}
}

// FurnaceState returns the furnace at a position: its slots by name, cook
// time, burn time left and the burn time of the item burning.
func (s *Server) FurnaceState(pos world.BlockPos) (items map[string]Item, cook, burn, itemBurn int, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, found := s.mods.boxes[pos]
	if !found || b.furnace == nil {
		return nil, 0, 0, 0, false
	}
	items = map[string]Item{}
	for i, name := range []string{"input", "fuel", "output"} {
		if !b.slots[i].Empty() {
			items[name] = s.itemOf(i, b.slots[i])
		}
	}
	return items, b.furnace.cook, b.furnace.burn, b.furnace.itemBurn, true
}

// String names a crafted stack.
func (c Crafted) String() string { return fmt.Sprintf("%d %s", c.Count, c.Item) }

// A coke oven the player builds (Railcraft 9.16.33, blocks/machine/
// TileMultiBlock and coke_oven/TileCokeOven): a placed coke oven brick
// (Railcraft:machine.alpha metadata 7) is a tile entity whose description
// packet goes out with its Block Change (RC TILE_ENTITY, hasMaster false).
// Adding a brick makes its neighbours test again (onBlockAdded →
// onBlockChange), and in the next tick the brick at the pattern's master
// cell finds the pattern complete (testIfMasterBlock → isPatternValid: the
// 5×5×5 pattern of TileCokeOven, 26 bricks 'B'/'W' around an air centre
// 'A', inside a border 'O' of blocks that are not oven bricks); it then
// gives every brick its master and pattern cell and sends each one's tile
// packet again (sendUpdateToClient: hasMaster true, pattern index 0, cell
// 1-3 each, cook time 0, not cooking). Block and metadata stay as they
// were: the tile packets are all a client learns of the forming. This
// server forms the oven right after the placement that completes it.

// placedBrickLocked sends a placed brick's tile packet and forms a coke
// oven the brick completes.
func (c *conn) placedBrickLocked(out *outbox, pos world.BlockPos) {
	s := c.s
	out.all(s, StageNone, &proto17.PluginMessage{Channel: modnet.RailcraftChannel, Data: RailcraftLooseBrick(pos.X, pos.Y, pos.Z)})
	for dx := -2; dx <= 0; dx++ {
		for dy := -2; dy <= 0; dy++ {
			for dz := -2; dz <= 0; dz++ {
				corner := pos.Add(dx, dy, dz)
				if _, formed := s.mods.bricks[corner]; formed || !s.cokeOvenPatternLocked(corner) {
					continue
				}
				s.formCokeOvenLocked(out, corner)
			}
		}
	}
}

// isBrickLocked reports whether a coke oven brick stands at p.
func (s *Server) isBrickLocked(p world.BlockPos) bool {
	st := s.stateAt(p)
	return s.blockName(st) == CokeOvenBlock && st.Meta() == modnet.CokeOvenMachineID
}

// cokeOvenPatternLocked is TileMultiBlock.isPatternValid for the oven
// whose lowest corner is c: bricks on the 26 cells, air in the centre, no
// Railcraft machine.alpha block in the border around them.
func (s *Server) cokeOvenPatternLocked(c world.BlockPos) bool {
	for dx := -1; dx <= 3; dx++ {
		for dy := -1; dy <= 3; dy++ {
			for dz := -1; dz <= 3; dz++ {
				p := c.Add(dx, dy, dz)
				if !s.loaded(p) {
					return false // NOT_LOADED
				}
				border := dx < 0 || dx > 2 || dy < 0 || dy > 2 || dz < 0 || dz > 2
				switch {
				case border:
					if s.blockName(s.stateAt(p)) == CokeOvenBlock {
						return false
					}
				case dx == 1 && dy == 1 && dz == 1:
					if !s.stateAt(p).IsAir() {
						return false
					}
				default:
					if !s.isBrickLocked(p) {
						return false
					}
				}
			}
		}
	}
	return true
}

// formCokeOvenLocked forms the oven at corner c: its bricks know their
// master, its GUI opens at the master, and every player gets the 26 tile
// packets.
func (s *Server) formCokeOvenLocked(out *outbox, c world.BlockPos) {
	m := s.mods
	ov := CokeOven{X: c.X, Y: c.Y, Z: c.Z}
	m.ovens = append(m.ovens, ov)
	l := m.data.Containers[layoutCokeOven]
	m.boxes[ov.Master()] = &box{pos: ov.Master(), layout: l, slots: make([]proto17.Slot, l.Size)}
	for dx := 0; dx < 3; dx++ {
		for dy := 0; dy < 3; dy++ {
			for dz := 0; dz < 3; dz++ {
				if dx == 1 && dy == 1 && dz == 1 {
					continue
				}
				p := c.Add(dx, dy, dz)
				m.bricks[p] = ov.Master()
				out.all(s, StageNone, &proto17.PluginMessage{Channel: modnet.RailcraftChannel,
					Data: RailcraftCokeOven(p.X, p.Y, p.Z, ov.Master(), 0, false)})
			}
		}
	}
	s.formed = append(s.formed, ov.Master())
	s.notifyLocked()
	s.logf("a coke oven formed with its master at %v", ov.Master())
}

// RailcraftLooseBrick is an RC TILE_ENTITY payload of a coke oven brick
// that belongs to no formed oven (TileMultiBlock.writePacketData: hasMaster
// false; TileMultiBlockOven: cook time 0, not cooking).
func RailcraftLooseBrick(x, y, z int) []byte {
	b := []byte{modnet.RCTileEntity}
	b = be32(b, int32(x))
	b = be32(b, int32(y))
	b = be32(b, int32(z))
	b = be16(b, modnet.CokeOvenMachineID)
	b = append(b, 0)
	b = be32(b, 0)
	return append(b, 0)
}

// FormedCokeOvens returns the masters of the coke ovens that formed while
// the server ran, in order.
func (s *Server) FormedCokeOvens() []world.BlockPos {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]world.BlockPos(nil), s.formed...)
}
