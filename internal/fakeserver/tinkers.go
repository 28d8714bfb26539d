package fakeserver

import (
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Tinkers' Construct's stations as TinkersConstruct 1.13.57-GTNH (GTNH
// 2.8.4) plays them, making what the shared recipe set's station recipes
// say (config/recipes.yaml):
//
//   - ToolStationBlock's metadata picks the station
//     (ToolStationBlock.createNewTileEntity and getGui): 0 the tool station
//     (gui 0), 1-4 a part builder (gui 1), 10-13 a stencil table (gui 3);
//     each opens by FML OpenGui with mod "TConstruct" and keeps its slots in
//     its tile entity when the window closes.
//   - The stencil table (StencilTableLogic, PatternShaperContainer): slot 0
//     the blank patterns, slot 1 the pattern chosen. The choice comes in a
//     PatternTablePacket on the "TConstruct" channel while the window is
//     open and a blank lies in slot 0; the pattern shows in slot 1 (and the
//     next tick's detectAndSendChanges sends it). Taking it uses one blank
//     (decrStackSize(1)); the pattern stays while blanks remain.
//   - The part builder (PartBuilderLogic): slot 0 a pattern, 2 the
//     material; the part shows in slot 4 and the material's leftover shard
//     in 5 (buildTopPart); taking either pays the material once
//     (tryBuildPart), and the next part shows only once both are taken.
//     Slots 1, 3, 6 and 7 are the bottom row, the same.
//   - The tool station (ToolStationLogic, SlotTool): slots 1 head, 2
//     handle, 3 accessory; the tool shows in slot 0 (buildTool) and taking
//     it uses one of each part (SlotTool.onCrafting).
//
// Every change a click makes is the clicker's to predict: an accepted
// click sends no Set Slot (processClickWindow's detectAndSendChanges runs
// with isChangingQuantityOnly set), so a client learns a station's
// outputs from the window's contents when it opens or after a refused
// click. Changes made outside a click (a pattern chosen) are sent on the
// next tick.

// StationBlock is Tinkers' Construct's station block (the tool station,
// part builders, pattern chests and stencil tables by metadata).
const StationBlock = "TConstruct:ToolStationBlock"

// Numeric ids of the station block (and its item), as the other modded
// blocks: NotEnoughIds-sized or vanilla-sized.
const (
	stationIDNEID    = 4205
	stationIDVanilla = 1005
)

// Container kinds of the stations (config/containers.yaml).
const (
	layoutToolStation = "tinkers_tool_station"
	layoutPartBuilder = "tinkers_part_builder"
	layoutStencil     = "tinkers_stencil_table"
)

// tinkersItems are the items the stations make or take beyond the blank
// pattern (stoneAgeItems), registered so the server can name them.
var tinkersItems = []string{
	"TConstruct:woodPattern", "TConstruct:pickaxeHead", "TConstruct:shovelHead", "TConstruct:hatchetHead",
	"TConstruct:binding", "TConstruct:knifeBlade", "TConstruct:toolShard", "TConstruct:toolRod",
	"TConstruct:pickaxe", "TConstruct:shovel", "TConstruct:hatchet", "TConstruct:ThrowingKnife",
}

// station is a station's tile state beyond its slots.
type station struct {
	// selected is the stencil table's chosen pattern
	// (StencilTableLogic.selectedStack).
	selected proto17.Slot
	// crafted and made are the part builder's rows (top, bottom): crafted
	// is PartBuilderLogic's craftedTop/craftedBottom (an output was taken
	// and the material paid), made the recipe of the part shown.
	crafted [2]bool
	made    [2]*rules.Recipe
}

// stationKind is the container kind of a station block's metadata ("" for
// the pattern chest and unknown metadata).
func stationKind(meta int) string {
	switch {
	case meta == 0:
		return layoutToolStation
	case meta >= 1 && meta <= 4:
		return layoutPartBuilder
	case meta >= 10 && meta <= 13:
		return layoutStencil
	}
	return ""
}

// stationRecipe is the station block a recipe is made at, as a container
// kind.
func stationRecipeKind(r rules.Recipe) string {
	id, meta, err := game.SplitID(r.Station)
	if err != nil || id != StationBlock {
		return ""
	}
	return stationKind(max(meta, 0))
}

// placedStationLocked gives a station block that has no box yet its slots,
// as ToolStationBlock.createNewTileEntity makes its logic.
func (s *Server) placedStationLocked(pos world.BlockPos) {
	st := s.stateAt(pos)
	if _, ok := s.mods.boxes[pos]; ok || s.blockName(st) != StationBlock {
		return
	}
	kind := stationKind(st.Meta())
	if kind == "" {
		return
	}
	l := s.mods.data.Containers[kind]
	s.mods.boxes[pos] = &box{pos: pos, layout: l, slots: make([]proto17.Slot, l.Size), station: &station{}}
}

// ownSlots is the number of a station window's own slots (those before the
// player's inventory).
func ownSlots(b *box) int { return b.layout.Slots["player_main"].First }

// stationOutput reports whether a window slot is one of a station's
// outputs, which a click takes from (SlotOnlyTake, SlotTool).
func stationOutput(b *box, slot int) bool {
	switch b.layout.Kind {
	case layoutStencil:
		return slot == 1
	case layoutPartBuilder:
		return slot >= 4 && slot <= 7
	case layoutToolStation:
		return slot == 0
	}
	return false
}

// isBlankPattern is StencilBuilder.isBlank for the blank pattern.
func (s *Server) isBlankPattern(sl proto17.Slot) bool {
	st := s.stackOf(sl)
	return st.ID == "TConstruct:blankPattern" && st.Meta == 0
}

// takeStationLocked is a left or right click on a station's output: the
// whole stack onto an empty cursor, or onto the same item with room, and
// the station pays for it as its logic's decrStackSize and
// onPickupFromSlot do. A cursor that cannot take it leaves everything as
// it is (the click is still accepted, as slotClick accepts it).
func (c *conn) takeStationLocked(b *box, slot int) {
	s := c.s
	out := &b.slots[slot]
	if out.Empty() {
		return
	}
	cur := &c.cursor
	if !cur.Empty() && (!sameItemFS(*cur, *out) || int(cur.Count+out.Count) > maxStack(s.itemOf(0, *out).Name)) {
		return
	}
	taken := *out
	made := s.itemOf(0, taken).Name
	switch b.layout.Kind {
	case layoutStencil:
		made = fmt.Sprintf("%s:%d", made, taken.Damage)
		blank := &b.slots[0]
		blank.Count--
		if blank.Count <= 0 {
			*blank, *out = proto17.Slot{}, proto17.Slot{}
		}
	case layoutPartBuilder:
		row := (slot - 4) / 2
		*out = proto17.Slot{}
		st := b.station
		if r := st.made[row]; !st.crafted[row] && r != nil {
			mat := &b.slots[2+row]
			mat.Count -= int32(r.Ingredients[0].Count)
			if mat.Count <= 0 {
				*mat = proto17.Slot{}
			}
			made = r.Output
		}
		st.crafted[row] = !b.slots[4+2*row].Empty() || !b.slots[5+2*row].Empty()
		if !st.crafted[row] {
			s.buildPartLocked(b, row)
		}
	case layoutToolStation:
		*out = proto17.Slot{}
		for _, i := range []int{2, 3, 1} {
			if p := &b.slots[i]; !p.Empty() {
				p.Count--
				if p.Count <= 0 {
					*p = proto17.Slot{}
				}
			}
		}
		s.buildToolLocked(b)
	}
	if cur.Empty() {
		*cur = taken
	} else {
		cur.Count += taken.Count
	}
	s.crafted = append(s.crafted, Crafted{Conn: c.id, Item: made, Count: int(taken.Count)})
	s.logf("conn %d: took %d %s from the %s at %v", c.id, taken.Count, s.itemOf(0, taken).Name, b.layout.Kind, b.pos)
}

// stationChangedLocked updates a station's outputs after a click changed
// its input slot (setInventorySlotContents and decrStackSize of its logic).
func (s *Server) stationChangedLocked(b *box, slot int) {
	switch b.layout.Kind {
	case layoutStencil:
		if slot != 0 {
			return
		}
		switch blank := b.slots[0]; {
		case blank.Empty():
			b.slots[1] = proto17.Slot{}
		case s.isBlankPattern(blank):
			if b.slots[1].Empty() {
				b.slots[1] = b.station.selected
			}
		default:
			// Not a blank: StencilTableLogic shows a copy of it.
			cp := blank
			cp.Count = 1
			b.slots[1] = cp
		}
	case layoutPartBuilder:
		if slot < 0 || slot > 3 {
			return
		}
		if row := slot % 2; !b.station.crafted[row] {
			s.buildPartLocked(b, row)
		}
	case layoutToolStation:
		if slot >= 1 && slot <= 3 {
			s.buildToolLocked(b)
		}
	}
}

// buildPartLocked shows the part a part builder row makes from its pattern
// and material (buildTopPart, buildBottomPart: PatternBuilder.getToolPart),
// by the station recipes of the part builder: the pattern is the recipe's
// tool, the material its ingredient, in at least the recipe's count.
func (s *Server) buildPartLocked(b *box, row int) {
	st := b.station
	st.made[row] = nil
	b.slots[4+2*row], b.slots[5+2*row] = proto17.Slot{}, proto17.Slot{}
	pattern, mat := s.stackOf(b.slots[row]), s.stackOf(b.slots[2+row])
	if pattern.Empty() || mat.Empty() {
		return
	}
	for _, r := range rules.Default().Recipes.All() {
		if stationRecipeKind(r) != layoutPartBuilder || len(r.Tools) != 1 || len(r.Ingredients) != 1 {
			continue
		}
		if !r.Tools[0].Matches(pattern) || !r.Ingredients[0].Item.Matches(mat) || mat.Count < r.Ingredients[0].Count {
			continue
		}
		part, ok := s.wireStack(r.Output, r.Count)
		if !ok {
			continue
		}
		b.slots[4+2*row] = part
		if len(r.Returns) > 0 {
			if shard, ok := s.wireStack(r.Returns[0], 1); ok {
				b.slots[5+2*row] = shard
			}
		}
		st.made[row] = &r
		return
	}
}

// buildToolLocked shows the tool the tool station makes from its parts
// (ToolStationLogic.buildTool: ToolBuilder.buildTool(head, handle,
// accessory)), by the tool station's recipes: ingredient i in slot 1+i,
// the slots after the last ingredient empty.
func (s *Server) buildToolLocked(b *box) {
	b.slots[0] = proto17.Slot{}
	parts := make([]game.ItemStack, 3)
	for i := range parts {
		parts[i] = s.stackOf(b.slots[1+i])
	}
	for _, r := range rules.Default().Recipes.All() {
		if stationRecipeKind(r) != layoutToolStation || len(r.Ingredients) > 3 || len(r.Tools) > 0 {
			continue
		}
		ok := true
		for i, p := range parts {
			if i < len(r.Ingredients) {
				ok = ok && !p.Empty() && r.Ingredients[i].Item.Matches(p)
			} else {
				ok = ok && p.Empty()
			}
		}
		if !ok {
			continue
		}
		tool, ok := s.wireStack(r.Output, r.Count)
		if !ok {
			continue
		}
		tool.NBT = tinkersToolNBT(r, parts)
		b.slots[0] = tool
		return
	}
}

// tinkersToolNBT is the tag of a tool the tool station builds, in the shape
// of ToolBuilder.buildTool's "InfiTool" compound: the parts' material ids
// (a part's metadata; a stick handle is the wooden rod, material 0) and the
// tool's stats from the shared mining table (config/mining.yaml: durability,
// mining speed × 100, harvest level). It is this server's own tag, not a
// byte-for-byte copy of a GTNH server's (whose mods add their own keys): a
// client must take the tool with the tag the server shows, whatever it is.
func tinkersToolNBT(r rules.Recipe, parts []game.ItemStack) []byte {
	id, _, _ := game.SplitID(r.Output)
	mining := rules.Default().Mining
	tm, _ := mining.Material(id)
	if t, ok := mining.TinkerTool(id, parts[0]); ok {
		// The head's material decides (config/mining.yaml's tinkers): an
		// iron head's pickaxe mines at 2 until its boost.
		m, _ := mining.TinkerMaterial(t.Head)
		tm.Level, tm.Speed, tm.Durability = t.HarvestLevel, m.Speed, m.Durability
	}
	mat := func(p game.ItemStack) int32 {
		if p.ID == "minecraft:stick" {
			return 0
		}
		return int32(p.Meta)
	}
	tag := proto17.Compound{
		"Head": mat(parts[0]), "RenderHead": mat(parts[0]),
		"Handle": mat(parts[1]), "RenderHandle": mat(parts[1]),
		"Damage": int32(0), "TotalDurability": int32(tm.Durability), "BaseDurability": int32(tm.Durability),
		"BonusDurability": int32(0), "ModDurability": float32(0), "Broken": int8(0),
		"MiningSpeed": int32(tm.Speed * 100), "HarvestLevel": int32(tm.Level),
		"Unbreaking": int32(0), "Shoddy": float32(0), "Modifiers": int32(0),
	}
	if !parts[2].Empty() {
		tag["Accessory"], tag["RenderAccessory"] = mat(parts[2]), mat(parts[2])
	}
	n := proto17.NBT{Root: proto17.Compound{"InfiTool": tag}}
	gz, err := n.Gzip()
	if err != nil {
		return nil
	}
	return gz
}

// onTConstructLocked applies a client's message on Tinkers' Construct's
// channel: a PatternTablePacket (PatternTablePacket.handleServerSide) chooses
// the pattern of the open stencil table at its position when a blank lies in
// slot 0 and the pattern is one the stencil table makes (a station recipe
// there, compared by item and damage); an empty stack clears the choice.
// Anything else, or a message that does not decode, is dropped and logged.
func (c *conn) onTConstructLocked(data []byte) {
	s := c.s
	p, err := modnet.DecodePatternTable(data, s.formats)
	if err != nil {
		s.logf("conn %d: a TConstruct message that does not decode: %v", c.id, err)
		return
	}
	w := c.window
	if w == nil || w.box.layout.Kind != layoutStencil || w.box.pos != world.Pos(int(p.X), int(p.Y), int(p.Z)) {
		s.logf("conn %d: a stencil table's pattern at %d,%d,%d with no such window open", c.id, p.X, p.Y, p.Z)
		return
	}
	b := w.box
	if p.Pattern.Empty() {
		b.station.selected, b.slots[1] = proto17.Slot{}, proto17.Slot{}
		return
	}
	if b.slots[0].Empty() || !s.isBlankPattern(b.slots[0]) {
		return
	}
	want := s.stackOf(p.Pattern)
	for _, r := range rules.Default().Recipes.All() {
		if stationRecipeKind(r) != layoutStencil {
			continue
		}
		id, meta, _ := game.SplitID(r.Output)
		if want.ID != id || want.Meta != max(meta, 0) {
			continue
		}
		sel, _ := s.wireStack(r.Output, 1)
		b.station.selected, b.slots[1] = sel, sel
		s.logf("conn %d: chose %s at the stencil table at %v", c.id, r.Output, b.pos)
		return
	}
	s.logf("conn %d: possible packet-cheating with the stencil table: %s is no stencil", c.id, want.ID)
}

// WindowsOpened returns how many container windows the server has opened.
func (s *Server) WindowsOpened() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opened
}

// stationSyncLocked sends an open station window's own slots that changed
// since they were last sent, as the tick's detectAndSendChanges does.
func (c *conn) stationSyncLocked(out *outbox) {
	w := c.window
	if w == nil || w.box.station == nil || w.sentSlots == nil {
		return
	}
	for i := range w.sentSlots {
		if !sameStack(w.box.slots[i], w.sentSlots[i]) {
			out.to(c, StageNone, &proto17.SetSlot{WindowID: int8(w.id), Slot: int16(i), Item: w.box.slots[i]})
			w.sentSlots[i] = w.box.slots[i]
		}
	}
}
