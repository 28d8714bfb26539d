package gtnh

import (
	"fmt"
	"math"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// Tick budgets of the block actions.
const (
	swingEvery    = 5  // arm swings while digging
	answerTicks   = 60 // how long the server may take to answer (3 s)
	dropWaitTicks = 12 // for the drops of a broken block to spawn
	pickupTicks   = 30 // standing on an item until it is collected
	dropRadius    = 6  // drops farther than this from the block are left
)

// otherToolLevel is the harvest level assumed for tools the mining table
// does not know (GregTech's, Tinkers'): stone-grade, like their assumed
// speed, so that a wrong guess makes the wait longer, never too short.
const otherToolLevel = 1

// breakTicks is the vanilla break time of a block with the held stack,
// whether the block breaks at once, and whether the held stack harvests it
// (drops anything).
func (x *act) breakTicks(b world.Block) (float64, bool, bool) {
	info := blockInfoOf(x.c.rules.Mining, b)
	x.c.mu.Lock()
	raw := x.s.inv.heldSlot()
	onGround := x.s.body.onGround
	x.c.mu.Unlock()
	held := x.c.state.Snapshot().Inventory.HeldStack()
	speed := toolSpeed(x.c.rules.Mining, held, raw, info.Tool)
	harvest := x.c.rules.Mining.Harvests(info, held, otherToolLevel)
	t := rules.BreakTicks(info.Hardness, speed, harvest)
	if !onGround {
		t *= 5 // the server divides the dig speed by 5 off the ground
	}
	return t, info.Hardness == 0, harvest
}

// breakBlock digs a block: look, start, swing, wait the break time times
// BreakFactor, finish; success is the server's Block Change to air. The
// drops are then picked up (walking onto them) unless NoCollectDrops.
func (x *act) breakBlock(a action.BreakBlock) ipc.Result {
	if !x.loaded(a.Pos) {
		return ipc.Failf(ipc.Unreachable, 0, "%v is in a chunk the server has not sent", a.Pos)
	}
	if r, ok := x.reach(a.Pos); !ok {
		return r
	}
	b := x.blockAt(a.Pos)
	if b.IsAir() {
		return ipc.Failf(ipc.Rejected, 0, "nothing to break at %v", a.Pos)
	}
	if blockInfoOf(x.c.rules.Mining, b).Hardness < 0 {
		return ipc.Failf(ipc.Rejected, 0, "%s at %v cannot be broken", b.ID, a.Pos)
	}
	if held := x.c.state.Snapshot().Inventory.HeldStack(); x.c.rules.Mining.MinesNothing(held.ID) {
		// The server would dig at speed 0 for ever (IguanaTinkerTweaks'
		// VanillaToolNerfHandler): nothing is sent.
		return ipc.Failf(ipc.Rejected, 0, "the held %s digs nothing in GTNH (IguanaTinkerTweaks' disableRegularTools: dig speed 0 whatever the block): hold another tool or none to break %s at %v", held.ID, b.ID, a.Pos)
	}
	vanilla, instant, harvest := x.breakTicks(b)
	wait := int64(math.Ceil(vanilla * x.c.cfg.BreakFactor))
	before := x.itemEntities()
	inv := x.c.state.Snapshot().Inventory
	x.c.mu.Lock()
	mark := x.s.collectedN // what was collected before the dig
	x.c.mu.Unlock()
	eye := x.body().eye()
	face := faceToward(a.Pos, eye)
	if err := x.look(a.Pos.Center()); err != nil {
		return x.fail(err, "looking")
	}
	dig := func(status int8) error {
		return x.c.send(x.s, &proto17.PlayerDigging{Status: status, X: int32(a.Pos.X), Y: uint8(a.Pos.Y), Z: int32(a.Pos.Z), Face: face})
	}
	if err := dig(proto17.DigStart); err != nil {
		return x.fail(err, "starting to dig")
	}
	if err := x.swing(); err != nil {
		return x.fail(err, "swinging")
	}
	// Gone when the server showed the block as air since the dig started,
	// even if sand or gravel fell into its place at once (the block change
	// to air, then the landed block's).
	x.c.mu.Lock()
	x.s.dig.pos, x.s.dig.watching, x.s.dig.air = a.Pos, true, false
	x.c.mu.Unlock()
	defer func() {
		x.c.mu.Lock()
		x.s.dig.watching = false
		x.c.mu.Unlock()
	}()
	isAir := func() bool { return x.s.dig.air || x.blockAt(a.Pos).IsAir() }
	if !instant {
		for waited := int64(0); waited < wait; waited += swingEvery {
			n := min(int64(swingEvery), wait-waited)
			gone, err := x.within(n, isAir)
			if err != nil {
				_ = dig(proto17.DigCancel)
				return x.fail(err, fmt.Sprintf("digging %s at %v", b.ID, a.Pos))
			}
			if gone {
				break
			}
			if err := x.swing(); err != nil {
				return x.fail(err, "swinging")
			}
		}
		if err := dig(proto17.DigFinish); err != nil {
			return x.fail(err, "finishing the dig")
		}
	}
	// A finish the server finds early makes it break the block itself at
	// the full vanilla time; allow for that.
	gone, err := x.serverWait(answerTicks+int64(math.Ceil(vanilla)), isAir)
	if err != nil {
		return x.fail(err, fmt.Sprintf("waiting for %v to break", a.Pos))
	}
	if !gone {
		_ = dig(proto17.DigCancel)
		return ipc.Failf(ipc.Timeout, 0, "the server did not break %s at %v (dug %d ticks, vanilla %.0f)", b.ID, a.Pos, wait, vanilla)
	}
	details := map[string]any{"block": b.ID, "dig_ticks": wait}
	if !harvest {
		details["harvested"] = false // the held tool cannot harvest it: the server drops nothing
	}
	if !x.c.cfg.NoCollectDrops {
		details["collected"] = x.collectDrops(a.Pos, before, inv, mark)
	}
	return ipc.Result{Code: ipc.OK, Details: details}
}

// itemEntities is the set of item entity ids known now.
func (x *act) itemEntities() map[int]bool {
	out := map[int]bool{}
	for _, e := range x.c.state.Snapshot().EntitiesOfKind(world.EntityItem) {
		out[e.ID] = true
	}
	return out
}

// itemEntity is the item entity with the given id, if it is known.
func (x *act) itemEntity(id int) (world.Entity, bool) {
	for _, e := range x.c.state.Snapshot().EntitiesOfKind(world.EntityItem) {
		if e.ID == id {
			return e, true
		}
	}
	return world.Entity{}, false
}

// collectDrops picks up the items that appeared near a broken block:
// those that come to rest within pickup reach (inPickupReach) are collected
// standing still; others are walked to. It returns what was collected
// during the action, once the inventory shows it. inv is the inventory
// before the dig and mark the number of items collected then (at a fast
// tick a drop can be collected before the block's break is seen); before
// holds the item entities known then, which are no drops of this block.
// The server sends the Set Slot at the player's next update, after the
// Collect Item (vanilla EntityPlayerMP.onUpdate →
// Container.detectAndSendChanges), and the loop looks at the inventory as
// soon as the action ends.
func (x *act) collectDrops(at world.BlockPos, before map[int]bool, inv world.Inventory, mark int) []string {
	var got []string
	fresh := func() []world.Entity {
		var out []world.Entity
		for _, e := range x.c.state.Snapshot().EntitiesOfKind(world.EntityItem) {
			if !before[e.ID] && e.Pos.DistSq(at.Center()) <= dropRadius*dropRadius {
				out = append(out, e)
			}
		}
		return out
	}
	// Wait for the drops to spawn: until one is there (or already
	// collected), up to dropWaitTicks. An
	// item the bot knew before the dig is no drop of this block, though
	// the server may collect it meanwhile (the bot stands beside an
	// earlier drop).
	if _, err := x.serverWait(dropWaitTicks, func() bool {
		for _, c := range x.s.collectedSince(mark) {
			if !before[int(c.entity)] {
				return true
			}
		}
		return len(fresh()) > 0
	}); err != nil {
		return got
	}
	for tries := 0; tries < 4; tries++ {
		drops := fresh()
		if len(drops) == 0 {
			break
		}
		e := drops[0]
		// Where it comes to rest: a drop still in the air (the server
		// moves it over the next ticks) falls onto the ground below.
		spot := x.groundUnder(e.Pos)
		rest := world.Vec3{X: e.Pos.X, Y: min(e.Pos.Y, float64(spot.Y)), Z: e.Pos.Z}
		if !x.inPickupReach(rest) {
			// Walk onto it, or, where the bot cannot stand (under the rest
			// of a tree, say), beside it.
			res := x.moveTo(action.MoveTo{Pos: spot, Radius: 0.5})
			if res.Code != ipc.OK {
				res = x.moveTo(action.MoveTo{Pos: spot, Radius: 1.5})
			}
			if res.Code != ipc.OK || !x.inPickupReach(rest) {
				x.c.log.Debug().Str("error", res.Error).Int("entity", e.ID).Msg("drop out of reach")
				before[e.ID] = true
				continue
			}
		}
		id := e.ID
		gone, err := x.serverWait(pickupTicks, func() bool { return !x.s.entities[int32(id)] })
		if err != nil {
			break
		}
		if now, ok := x.itemEntity(id); !gone && ok && now.Pos != e.Pos {
			continue // it moved (a drop's own speed, or pushed): judge it again where it is
		}
		before[id] = true // collected, or left (a full inventory keeps it on the ground)
	}
	want := map[string]int{} // by item id: the count the inventory should reach
	x.c.mu.Lock()
	for _, c := range x.s.collectedSince(mark) {
		if c.item != nil {
			got = append(got, c.item.String())
			if _, ok := want[c.item.ID]; !ok {
				want[c.item.ID] = inv.CountID(c.item.ID)
			}
			want[c.item.ID] += c.item.Count
		} else {
			got = append(got, fmt.Sprintf("entity %d", c.entity))
		}
	}
	x.c.mu.Unlock()
	if len(want) > 0 {
		// Bounded by the answer time: a stack the server could only
		// partly take (a nearly full inventory) never shows in whole.
		_, _ = x.answer(func() bool {
			now := x.c.state.Snapshot().Inventory
			for id, n := range want {
				if now.CountID(id) < n {
					return false
				}
			}
			return true
		})
	}
	return got
}

// Vanilla's pickup geometry (EntityPlayer.onLivingUpdate): the server
// collects an item whose box meets the player's box grown by 1 block
// sideways and 0.5 up and down (boundingBox.expand(1.0, 0.5, 1.0)); the
// player's box is 0.6 wide and 1.8 tall from the feet, an item's 0.25 wide
// and tall, centred on its position (EntityItem: setSize(0.25, 0.25),
// yOffset half its height). pickupMargin keeps the client's test inside
// that, for positions sent in 1/32 of a block.
const (
	pickupGrowXZ = 1.0
	pickupGrowY  = 0.5
	playerHalfW  = 0.3
	playerTall   = 1.8
	itemHalf     = 0.125
	pickupMargin = 0.1
)

// inPickupReach says whether a player whose feet are at feet stands close
// enough to an item at item for the server to collect it (once the item's
// pickup delay has passed) without moving.
func inPickupReach(feet, item world.Vec3) bool {
	side := playerHalfW + pickupGrowXZ + itemHalf - pickupMargin
	if math.Abs(item.X-feet.X) >= side || math.Abs(item.Z-feet.Z) >= side {
		return false
	}
	low := feet.Y - pickupGrowY + pickupMargin
	high := feet.Y + playerTall + pickupGrowY - pickupMargin
	return item.Y+itemHalf > low && item.Y-itemHalf < high
}

// inPickupReach says whether the bot stands within pickup reach of an item.
func (x *act) inPickupReach(item world.Vec3) bool {
	b := x.body()
	return inPickupReach(world.Vec3{X: b.x, Y: b.y, Z: b.z}, item)
}

// groundUnder is the feet position on the ground below a point.
func (x *act) groundUnder(p world.Vec3) world.BlockPos {
	bp := p.Block()
	var out world.BlockPos
	x.c.state.Update(func(tx *world.Tx) {
		for y := bp.Y; y > max(bp.Y-16, 0); y-- {
			q := world.Pos(bp.X, y-1, bp.Z)
			if path.ClassifyByTags(tx.BlockAt(q)) == path.Solid {
				out = world.Pos(bp.X, y, bp.Z)
				return
			}
		}
		out = bp
	})
	return out
}

// findItem returns the world slot of the first stack matching an item.
func (x *act) findItem(item string, best bool) (int, world.ItemStack, ipc.Result, bool) {
	m, err := world.ParseItemMatcher(item)
	if err != nil {
		return 0, world.ItemStack{}, ipc.Failf(ipc.InvalidParams, 0, "%v", err), false
	}
	inv := x.c.state.Snapshot().Inventory
	slot := inv.Find(m)
	if best {
		slot = x.c.rules.Mining.BestTool(inv, m, 0)
	}
	if slot < 0 {
		return 0, world.ItemStack{}, ipc.Failf(ipc.InvalidParams, 0, "no %s in the inventory", item), false
	}
	return slot, inv.Slots[slot], ipc.Result{}, true
}

// hold makes the stack in a world slot the held one: a hotbar slot is
// selected, a main-inventory stack is swapped into the held hotbar slot.
func (x *act) hold(slot int) error {
	if slot < 9 {
		x.c.mu.Lock()
		x.s.inv.held = slot
		x.c.syncInventoryLocked(x.s)
		x.c.mu.Unlock()
		return x.c.send(x.s, &proto17.ServerboundHeldItemChange{Slot: int16(slot)})
	}
	x.c.mu.Lock()
	held := x.s.inv.held
	ws := x.s.inv.playerSlot(0, slot)
	x.c.mu.Unlock()
	return x.click(0, ws, int8(held), 2)
}

func (x *act) equip(a action.Equip) ipc.Result {
	slot, st, r, ok := x.findItem(a.Item, true)
	if !ok {
		return r
	}
	if err := x.hold(slot); err != nil {
		return x.fail(err, "equipping "+a.Item)
	}
	return ipc.Result{Code: ipc.OK, Details: map[string]any{"item": st.String()}}
}

// placeBlock places a block item against a supporting face; success is the
// block appearing and the held stack shrinking.
func (x *act) placeBlock(a action.PlaceBlock) ipc.Result {
	slot, st, r, ok := x.findItem(a.Item, false)
	if !ok {
		return r
	}
	if !x.loaded(a.Pos) {
		return ipc.Failf(ipc.Unreachable, 0, "%v is in a chunk the server has not sent", a.Pos)
	}
	here := x.blockAt(a.Pos)
	if !here.IsAir() && !here.HasTag("replaceable") {
		return ipc.Failf(ipc.Rejected, 0, "%v is occupied by %s", a.Pos, here.ID)
	}
	b := x.body()
	if collidesBlock(b, a.Pos) {
		return ipc.Failf(ipc.Rejected, 0, "the player stands in %v", a.Pos)
	}
	var support world.BlockPos
	var face int8 = -1
	faces := []int8{proto17.FaceTop, proto17.FaceNorth, proto17.FaceSouth, proto17.FaceWest, proto17.FaceEast, proto17.FaceBottom}
	if a.Face != "" && a.Face != "auto" {
		faces = []int8{faceNames[a.Face]}
	}
faces:
	for _, f := range faces {
		o := faceOffsets[f]
		cand := a.Pos.Add(-o[0], -o[1], -o[2])
		switch path.ClassifyByTags(x.blockAt(cand)) {
		case path.Solid, path.Slab, path.Low, path.Fence: // a block with a face to click
			support, face = cand, f
			break faces
		}
	}
	if face < 0 {
		return ipc.Failf(ipc.Rejected, 0, "no face to place against at %v", a.Pos)
	}
	if r, ok := x.reach(a.Pos); !ok {
		return r
	}
	if err := x.hold(slot); err != nil {
		return x.fail(err, "holding "+a.Item)
	}
	x.c.mu.Lock()
	heldRaw := x.s.inv.heldSlot()
	held := x.s.inv.held
	x.c.mu.Unlock()
	if heldRaw.Empty() {
		return ipc.Failf(ipc.Rejected, 0, "the held slot is empty after equipping %s", a.Item)
	}
	before := heldRaw.Count
	o := faceOffsets[face]
	hit := support.Center()
	hit = world.Vec3{X: hit.X + 0.5*float64(o[0]), Y: hit.Y + 0.5*float64(o[1]), Z: hit.Z + 0.5*float64(o[2])}
	if err := x.look(hit); err != nil {
		return x.fail(err, "looking")
	}
	if err := x.placeAgainst(support, face, heldRaw); err != nil {
		return x.fail(err, "placing")
	}
	_ = x.swing()
	placed, err := x.answer(func() bool {
		now := x.s.inv.player[invHotbar+held]
		shrunk := now.Empty() || now.ID != heldRaw.ID || now.Count < before
		return shrunk && !x.blockAt(a.Pos).IsAir()
	})
	if err != nil {
		return x.fail(err, "placing "+st.ID)
	}
	if !placed {
		return ipc.Failf(ipc.Rejected, 0, "the server did not place %s at %v", st.ID, a.Pos)
	}
	return ipc.Result{Code: ipc.OK, Details: map[string]any{"block": x.blockAt(a.Pos).ID}}
}

// placeAgainst right-clicks a face of support with the held block, crouched
// for that click as a player holds shift: the server uses the clicked
// block before the held item unless the player sneaks with an item in
// hand (Forge 1.7.10 ItemInWorldManager.activateBlockOrUseItem: useBlock
// is !player.isSneaking() || player.getHeldItem() == null), so a block
// placed against a furnace, a crafting table or a chest — or on top of
// one, pillaring — would open its window instead. The server handles the
// packets in order (NetHandlerPlayServer.processEntityAction sets and
// clears the sneaking flag), so the crouch lasts exactly the click.
func (x *act) placeAgainst(support world.BlockPos, face int8, held proto17.Slot) error {
	x.c.mu.Lock()
	id := x.s.entityID
	x.c.mu.Unlock()
	if err := x.c.send(x.s, &proto17.EntityAction{EntityID: id, Action: proto17.ActionCrouch}); err != nil {
		return err
	}
	cx, cy, cz := faceCursor(face)
	if err := x.c.send(x.s, &proto17.PlayerBlockPlacement{X: int32(support.X), Y: uint8(support.Y), Z: int32(support.Z),
		Face: face, Held: held, CursorX: cx, CursorY: cy, CursorZ: cz}); err != nil {
		return err
	}
	return x.c.send(x.s, &proto17.EntityAction{EntityID: id, Action: proto17.ActionUncrouch})
}

// collidesBlock reports whether the body overlaps block p.
func collidesBlock(b motion, p world.BlockPos) bool {
	return b.x+halfWidth > float64(p.X) && b.x-halfWidth < float64(p.X+1) &&
		b.z+halfWidth > float64(p.Z) && b.z-halfWidth < float64(p.Z+1) &&
		b.y+bodyHeight > float64(p.Y) && b.y < float64(p.Y+1)
}

// rightClick sends a Block Placement packet on a block (or in the air
// when p is nil) with the held stack.
func (x *act) rightClick(p *world.BlockPos) error {
	x.c.mu.Lock()
	held := x.s.inv.heldSlot()
	x.c.mu.Unlock()
	pk := &proto17.PlayerBlockPlacement{X: -1, Y: 255, Z: -1, Face: -1, Held: held}
	if p != nil {
		face := faceToward(*p, x.body().eye())
		if err := x.look(p.Center()); err != nil {
			return err
		}
		cx, cy, cz := faceCursor(face)
		pk = &proto17.PlayerBlockPlacement{X: int32(p.X), Y: uint8(p.Y), Z: int32(p.Z), Face: face, Held: held, CursorX: cx, CursorY: cy, CursorZ: cz}
	}
	if err := x.c.send(x.s, pk); err != nil {
		return err
	}
	return x.swing()
}

// liquids are the blocks a right-click never lands on: the client's cursor
// passes through them (Minecraft.objectMouseOver ignores liquids), and an
// item used on one, a bucket, traces the look itself on the server.
var liquids = map[string]bool{
	"minecraft:water": true, "minecraft:flowing_water": true,
	"minecraft:lava": true, "minecraft:flowing_lava": true,
}

// useToward looks at the top of block p and uses the held item in the
// air, as the vanilla client does when the cursor is on a liquid
// (PlayerControllerMP.sendUseItem: Block Placement at -1, 255, -1, face
// -1). The server traces the look from the eyes (a bucket fills at the
// first liquid source it meets).
func (x *act) useToward(p *world.BlockPos) error {
	// Aim just under the top of the block: a liquid is entered through
	// its surface, and a ray to its centre can meet the shore first.
	if err := x.look(world.Vec3{X: float64(p.X) + 0.5, Y: float64(p.Y) + 0.9, Z: float64(p.Z) + 0.5}); err != nil {
		return err
	}
	x.c.mu.Lock()
	held := x.s.inv.heldSlot()
	x.c.mu.Unlock()
	return x.c.send(x.s, &proto17.PlayerBlockPlacement{X: -1, Y: 255, Z: -1, Face: -1, Held: held})
}

// useAnswerTicks is how long a use of an item waits for the server to
// change the held stack (Set Slot), half a second in the game.
const useAnswerTicks = 10

// useItem holds an item and right-clicks with it, on a block or in the air.
// The result reports whether the held stack changed (a bucket filled, …);
// the loop checks the skill's effects.
func (x *act) useItem(a action.UseItem) ipc.Result {
	slot, _, r, ok := x.findItem(a.Item, false)
	if !ok {
		return r
	}
	if a.Target != nil {
		if r, ok := x.reach(*a.Target); !ok {
			return r
		}
	}
	if err := x.hold(slot); err != nil {
		return x.fail(err, "holding "+a.Item)
	}
	x.c.mu.Lock()
	before := x.s.inv.heldSlot()
	x.c.mu.Unlock()
	use := x.rightClick
	if a.Target != nil && liquids[x.blockAt(*a.Target).ID] {
		use = x.useToward
	}
	if err := use(a.Target); err != nil {
		return x.fail(err, "using "+a.Item)
	}
	wait := int64(useAnswerTicks)
	eating := false
	x.c.mu.Lock()
	foodBefore := x.s.food
	if a.Target == nil {
		// Eating takes the item's use duration before the server takes
		// one and raises the food level (Hunger Overhaul: hunger × 8 + 8
		// ticks); the bite is both packets, the slot and the food level.
		held := toStack(before, x.c.state.Resolver().IDs(), x.c.rules)
		var fi rules.FoodItem
		if fi, eating = x.c.rules.Food.Of(held); eating {
			wait += int64(x.c.rules.Food.EatTicksOf(fi))
		}
	}
	x.c.mu.Unlock()
	heldChanged := func() bool {
		now := x.s.inv.heldSlot()
		return now.ID != before.ID || now.Count != before.Count || now.Damage != before.Damage
	}
	changed, err := x.serverWait(wait, func() bool { return heldChanged() && (!eating || x.s.food != foodBefore) })
	if !changed && eating {
		x.c.mu.Lock()
		changed = heldChanged()
		x.c.mu.Unlock()
	}
	if err != nil {
		return x.fail(err, "using "+a.Item)
	}
	if changed && a.Target != nil {
		x.c.mu.Lock()
		ids := x.c.state.Resolver().IDs()
		b, n := toStack(before, ids, x.c.rules), toStack(x.s.inv.heldSlot(), ids, x.c.rules)
		x.c.mu.Unlock()
		x.c.noteUse(x.s, *a.Target, b, n)
	}
	return ipc.Result{Code: ipc.OK, Details: map[string]any{"held_changed": changed}}
}

// interact right-clicks a block or an entity with the held stack.
func (x *act) interact(a action.Interact) ipc.Result {
	if a.Pos != nil {
		if r, ok := x.reach(*a.Pos); !ok {
			return r
		}
		if err := x.rightClick(a.Pos); err != nil {
			return x.fail(err, "interacting")
		}
	} else {
		var e world.Entity
		found := false
		for _, en := range x.c.state.Snapshot().Entities {
			if en.ID == *a.Entity {
				e, found = en, true
			}
		}
		if !found {
			return ipc.Failf(ipc.InvalidParams, 0, "no entity %d nearby", *a.Entity)
		}
		if d := math.Sqrt(x.body().eye().DistSq(e.Pos)); d > Reach+1 {
			return ipc.Failf(ipc.Unreachable, 0, "entity %d is %.1f blocks away", e.ID, d)
		}
		if err := x.look(e.Pos); err != nil {
			return x.fail(err, "looking")
		}
		if err := x.c.send(x.s, &proto17.UseEntity{Target: int32(e.ID), Action: proto17.UseEntityInteract}); err != nil {
			return x.fail(err, "interacting")
		}
	}
	if err := x.c.waitTicks(x.ctx, x.s, 2); err != nil {
		return x.fail(err, "interacting")
	}
	return ipc.Result{Code: ipc.OK}
}
