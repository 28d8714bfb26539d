package gtnh

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// click sends one window click after predicting it in the model, and waits
// for the server's Confirm Transaction. Modes: 0 left/right click (button
// 0/1), 2 swap with hotbar slot button (sent with an empty clicked stack). A refused click (the reader acks
// it, the server resends the window) is errRejected.
func (x *act) click(window uint8, slot int, button int8, mode int8) error {
	return x.clickResult(window, slot, button, mode, false)
}

func (x *act) clickResult(window uint8, slot int, button int8, mode int8, result bool) error {
	x.c.mu.Lock()
	stale := window == 0 && x.s.inv.open != nil
	x.c.mu.Unlock()
	if stale {
		// A window left open (a skill that failed before closing it):
		// the server clicks only its open container, so close it first.
		if r := x.closeContainer(); r.Code != ipc.OK {
			return fmt.Errorf("%w: closing the window left open: %s", errRejected, r.Error)
		}
	}
	x.c.mu.Lock()
	ids := x.c.state.Resolver().IDs()
	var clicked proto17.Slot
	var ok bool
	if mode == 2 {
		// The server compares the packet's stack with what
		// Container.slotClick returns, which for mode 2 is always null
		// (1.7.10 Container.func_75144_a sets its result only for modes
		// 0 and 1; NetHandlerPlayServer.processClickWindow refuses the
		// click on a mismatch): send an empty stack, predict the swap.
		_, ok = x.s.inv.swapHotbar(window, slot, int(button))
	} else {
		clicked, ok = x.s.inv.click(window, slot, button, result, maxStackOf(ids, x.c.rules.Mining), ids, x.c.rules)
		if ok {
			x.s.inv.predictResult(window, ids, x.c.rules)
		}
	}
	if !ok {
		x.c.mu.Unlock()
		return fmt.Errorf("%w: window %d has no slot %d", errRejected, window, slot)
	}
	x.s.actionNum++
	num := x.s.actionNum
	key := confirmKey{window, num}
	pending := x.s.expectConfirm(key)
	x.c.mu.Unlock()
	defer func() {
		x.c.mu.Lock()
		if x.s.confirms[key] == pending {
			delete(x.s.confirms, key)
		}
		x.c.mu.Unlock()
	}()
	if err := x.c.send(x.s, &proto17.ClickWindow{WindowID: window, Slot: int16(slot), Button: button, Action: num, Mode: mode, Clicked: clicked}); err != nil {
		return err
	}
	var accepted bool
	got, err := x.answer(func() bool {
		accepted = pending.accepted
		return pending.answered
	})
	if err != nil {
		return err
	}
	x.c.syncInventory(x.s)
	if !got {
		return fmt.Errorf("%w: no confirmation for click %d on window %d slot %d", errRejected, num, window, slot)
	}
	if !accepted {
		// Let the window contents the server resends arrive.
		_, _ = x.within(5, func() bool { return false })
		return fmt.Errorf("%w: click on window %d slot %d refused", errRejected, window, slot)
	}
	return nil
}

// openContainer right-clicks a container block and waits for its window
// and contents.
func (x *act) openContainer(a action.OpenContainer) ipc.Result {
	if r, ok := x.reach(a.Pos); !ok {
		return r
	}
	if x.blockAt(a.Pos).IsAir() {
		return ipc.Failf(ipc.InvalidParams, 0, "no container at %v: the block is air", a.Pos)
	}
	if r := x.closeContainer(); r.Code != ipc.OK {
		return r
	}
	if r, ok := x.emptyHanded(); !ok {
		return r
	}
	pos := a.Pos
	x.c.mu.Lock()
	x.s.opening = &pos
	x.c.mu.Unlock()
	defer func() {
		x.c.mu.Lock()
		x.s.opening = nil
		x.c.mu.Unlock()
	}()
	if err := x.rightClick(&pos); err != nil {
		return x.fail(err, "opening")
	}
	opened, err := x.answer(func() bool {
		o := x.s.inv.open
		return o != nil && o.synced && o.at(pos)
	})
	if err != nil {
		return x.fail(err, fmt.Sprintf("opening %v", pos))
	}
	if !opened {
		return ipc.Failf(ipc.Rejected, 0, "no window opened at %v", pos)
	}
	// A Railcraft window sends its tanks' amounts right after its slots
	// (TankManager.initGuiData): wait for them, so that the window is not
	// closed before they are read.
	// A GregTech coal boiler's ModularUI window sends its bars when it
	// opens (ProgressBar.detectAndSendChanges): wait for the water's, so
	// that the boiler's water is read from this window (after a pour, the
	// amount the server has now), not from an earlier one or an estimate.
	x.c.mu.Lock()
	o := x.s.inv.open
	tanks := 0
	boiler := false
	if o != nil && o.layout != nil {
		tanks = len(o.layout.Tanks)
		if o.pos != nil {
			g, ok := x.s.mods.gtm[*o.pos]
			_, coal := coalBoilers[g.meta]
			boiler = ok && coal
		}
	}
	x.c.mu.Unlock()
	// read says whether what the window was waited for came in time: the
	// window is open all the same (the action's effect), but its contents
	// are then what the world model knew before, not what the window shows.
	// unread says what did not come (the result's "unread" detail).
	read := true
	var unread []string
	if tanks > 0 {
		got, err := x.answer(func() bool { return x.s.inv.open != o || o.tanksSeen >= tanks })
		if err != nil {
			return x.fail(err, fmt.Sprintf("reading the tanks at %v", pos))
		}
		if !got {
			x.c.mu.Lock()
			seen := o.tanksSeen
			x.c.mu.Unlock()
			read = false
			unread = append(unread, fmt.Sprintf("the window sent %d of its %d tank amounts within %d ticks", seen, tanks, answerTicks))
		}
	}
	if boiler {
		got, err := x.answer(func() bool { return x.s.inv.open != o || o.waterSeen })
		if err != nil {
			return x.fail(err, fmt.Sprintf("reading the boiler's water at %v", pos))
		}
		if !got {
			read = false
			unread = append(unread, fmt.Sprintf("the boiler's window sent no water level within %d ticks (its server's ModularUI did not sync the window's bars)", answerTicks))
		}
	}
	x.c.syncInventory(x.s)
	x.c.mu.Lock()
	o = x.s.inv.open
	if o == nil {
		x.c.mu.Unlock()
		return ipc.Failf(ipc.Rejected, 0, "the window at %v was closed by the server", pos)
	}
	details := map[string]any{"window": o.id, "type": o.kind, "title": o.title, "slots": len(o.own())}
	if o.layout != nil {
		details["container"] = o.layout.Kind
	}
	x.c.mu.Unlock()
	if tanks > 0 || boiler {
		details["contents_read"] = read
		if !read {
			details["unread"] = strings.Join(unread, "; ")
		}
		x.c.log.Debug().Stringer("pos", pos).Bool("contents_read", read).Int("tanks", tanks).Bool("boiler", boiler).
			Msg("opened a window with contents to read")
	}
	return ipc.Result{Code: ipc.OK, Details: details}
}

// fluidContainerTags are the item tags (config/tags.yaml) of the fluid
// containers the client knows: buckets and cells of water, full or empty,
// and the other items Forge's fluid container registry knows.
var fluidContainerTags = []string{"container_empty", "container_water", "fluid_container"}

// emptyHanded makes sure the player does not hold a fluid container
// before a click meant to open a window: Railcraft's tanks and coke ovens
// treat that click as filling or emptying any container held, a lava
// bucket or a GregTech cell as well as a water bucket, and open no GUI
// (TileTankWater and TileTankBase.blockActivated,
// FluidHelper.handleRightClick; TileCokeOven.blockActivated opens nothing
// while a container is held), so opening an iron tank with a lava cell in
// hand would pour the lava in. Only an empty hand is sure to be safe (the
// client cannot know every mod's containers, GregTech's cells among them),
// so a hand holding anything takes the first empty hotbar slot. With none
// empty, the held stack goes into the first empty slot of the main
// inventory (emptyHotbarSlot), which leaves the hand empty. Only with the
// main inventory full too does it keep the held item, or take the first
// hotbar slot, that is not a known fluid container (fluidContainerTags).
func (x *act) emptyHanded() (ipc.Result, bool) {
	tags := x.c.rules.Tags
	x.c.mu.Lock()
	ids := x.c.state.Resolver().IDs()
	empty := func(i int) bool { return x.s.inv.player[i].Empty() }
	fluidContainer := func(i int) bool {
		st := toStack(x.s.inv.player[invHotbar+i], ids, x.c.rules)
		if st.Empty() {
			return false
		}
		for _, t := range tags.ItemTags(st.ID, st.Meta) {
			if slices.Contains(fluidContainerTags, t) {
				return true
			}
		}
		return false
	}
	held := x.s.inv.held
	// free is an empty hotbar slot, the held one first.
	free := -1
	if empty(invHotbar + held) {
		free = held
	}
	for i := 0; i < 9 && free < 0; i++ {
		if empty(invHotbar + i) {
			free = i
		}
	}
	// room is the window-0 slot of the first empty main slot; with a
	// stack on the cursor there is none (the first click would swap the
	// cursor's stack into the hand).
	room := -1
	for i := invMain; i < invHotbar && room < 0 && x.s.inv.cursor.Empty(); i++ {
		if empty(i) {
			room = i
		}
	}
	// safe is the held hotbar slot, or the first, whose item is not a
	// known fluid container.
	safe := -1
	if !fluidContainer(held) {
		safe = held
	}
	for i := 0; i < 9 && safe < 0; i++ {
		if !fluidContainer(i) {
			safe = i
		}
	}
	x.c.mu.Unlock()
	switch {
	case free >= 0:
		if free != held {
			if err := x.hold(free); err != nil {
				return x.fail(err, "emptying the hand"), false
			}
		}
	case room >= 0:
		if err := x.emptyHotbarSlot(held, room); err != nil {
			return x.fail(err, "emptying the hand"), false
		}
	case safe < 0:
		return ipc.Failf(ipc.Rejected, 0, "every hotbar slot holds a bucket or cell, the main inventory is full, and a click with one fills or empties it instead of opening the window"), false
	case safe != held:
		if err := x.hold(safe); err != nil {
			return x.fail(err, "emptying the hand"), false
		}
	}
	return ipc.Result{}, true
}

// emptyHotbarSlot moves the stack of a hotbar slot into the empty main
// slot room (a window-0 slot) with two clicks in the player's own window,
// which the server accepts while no container is open: pick the stack up,
// put it down (1.7.10 ContainerPlayer: 9-35 main, 36-44 hotbar). Each click
// waits for the server's confirmation; a refused click leaves the server's
// resent window in the model. A stack left on the cursor (the server's
// room was not empty after all) is put back into the inventory, and the
// hotbar slot must be empty in the end.
func (x *act) emptyHotbarSlot(hotbar, room int) error {
	from := invHotbar + hotbar
	if err := x.click(0, from, 0, 0); err != nil {
		return fmt.Errorf("picking up the held stack: %w", err)
	}
	err := x.click(0, room, 0, 0)
	if err != nil {
		err = fmt.Errorf("putting the held stack down in slot %d: %w", room, err)
	}
	if serr := x.stowCursor(0); serr != nil {
		return errors.Join(err, fmt.Errorf("putting the cursor stack back: %w", serr))
	}
	if err != nil {
		return err
	}
	x.c.mu.Lock()
	emptied := x.s.inv.player[from].Empty()
	x.c.mu.Unlock()
	if !emptied {
		return fmt.Errorf("%w: hotbar slot %d is not empty after moving its stack to slot %d", errRejected, hotbar, room)
	}
	x.c.log.Debug().Int("hotbar", hotbar).Int("slot", room).Msg("moved the held stack into the main inventory before opening a window")
	return nil
}

// closeContainer closes the open window (the cursor stack is put back
// first, as far as it fits).
func (x *act) closeContainer() ipc.Result {
	x.c.mu.Lock()
	o := x.s.inv.open
	x.c.mu.Unlock()
	if o == nil {
		return ipc.Result{Code: ipc.OK}
	}
	if err := x.stowCursor(o.id); err != nil {
		return x.fail(err, "emptying the cursor")
	}
	if err := x.c.send(x.s, &proto17.ServerboundCloseWindow{WindowID: o.id}); err != nil {
		return x.fail(err, "closing")
	}
	x.c.mu.Lock()
	if x.s.inv.open == o {
		x.s.inv.open = nil
	}
	x.c.mu.Unlock()
	return ipc.Result{Code: ipc.OK}
}

// playerPart lists the window slots of the player's inventory: main first,
// then the hotbar.
func (x *act) playerPart(window uint8) []int {
	x.c.mu.Lock()
	defer x.c.mu.Unlock()
	out := make([]int, 0, 36)
	for ws := 9; ws < 36; ws++ {
		out = append(out, x.s.inv.playerSlot(window, ws))
	}
	for ws := 0; ws < 9; ws++ {
		out = append(out, x.s.inv.playerSlot(window, ws))
	}
	return out
}

// stowCursor puts the cursor stack into the player's inventory.
func (x *act) stowCursor(window uint8) error {
	for _, sl := range x.playerPart(window) {
		x.c.mu.Lock()
		cur := x.s.inv.cursor
		p := x.s.inv.slot(window, sl)
		fits := p != nil && (p.Empty() || sameItem(*p, cur) && int(p.Count) < maxStackOf(x.c.state.Resolver().IDs(), x.c.rules.Mining)(*p))
		x.c.mu.Unlock()
		if cur.Empty() {
			return nil
		}
		if !fits {
			continue
		}
		if err := x.click(window, sl, 0, 0); err != nil {
			return err
		}
	}
	x.c.mu.Lock()
	empty := x.s.inv.cursor.Empty()
	x.c.mu.Unlock()
	if !empty {
		return fmt.Errorf("%w: no room in the inventory for the cursor stack", errRejected)
	}
	return nil
}

// matching returns the slots among candidates whose stack matches, and
// their total.
func (x *act) matching(window uint8, candidates []int, match func(world.ItemStack) bool) ([]int, int) {
	x.c.mu.Lock()
	defer x.c.mu.Unlock()
	ids := x.c.state.Resolver().IDs()
	var out []int
	total := 0
	for _, i := range candidates {
		if p := x.s.inv.slot(window, i); p != nil && !p.Empty() && match(toStack(*p, ids, x.c.rules)) {
			out = append(out, i)
			total += int(p.Count)
		}
	}
	return out, total
}

// moveItems moves count matching items from src slots to dst slots of a
// window: pick a stack up, place it whole or one by one (right clicks)
// where it merges or fits, put the rest back.
func (x *act) moveItems(window uint8, src, dst []int, match func(world.ItemStack) bool, count int) (int, error) {
	moved := 0
	srcs, _ := x.matching(window, src, match)
	for _, from := range srcs {
		if moved >= count {
			break
		}
		if err := x.click(window, from, 0, 0); err != nil {
			return moved, err
		}
		for _, to := range x.targets(window, dst) {
			x.c.mu.Lock()
			cur := x.s.inv.cursor
			p := x.s.inv.slot(window, to)
			maxOf := maxStackOf(x.c.state.Resolver().IDs(), x.c.rules.Mining)
			room := 0
			switch {
			case p.Empty():
				room = maxOf(cur)
			case sameItem(*p, cur):
				room = maxOf(cur) - int(p.Count)
			}
			x.c.mu.Unlock()
			if cur.Empty() || moved >= count {
				break
			}
			n := min(room, count-moved, int(cur.Count))
			if n <= 0 {
				continue
			}
			if n == int(cur.Count) {
				if err := x.click(window, to, 0, 0); err != nil {
					return moved, err
				}
			} else {
				for k := 0; k < n; k++ {
					if err := x.click(window, to, 1, 0); err != nil {
						return moved, err
					}
				}
			}
			moved += n
		}
		x.c.mu.Lock()
		left := !x.s.inv.cursor.Empty()
		x.c.mu.Unlock()
		if left {
			if err := x.click(window, from, 0, 0); err != nil {
				return moved, err
			}
		}
	}
	return moved, nil
}

// targets orders destination slots: stacks of the cursor's item first,
// then empty slots.
func (x *act) targets(window uint8, dst []int) []int {
	x.c.mu.Lock()
	defer x.c.mu.Unlock()
	cur := x.s.inv.cursor
	var same, empty []int
	for _, i := range dst {
		p := x.s.inv.slot(window, i)
		switch {
		case p == nil:
		case p.Empty():
			empty = append(empty, i)
		case sameItem(*p, cur):
			same = append(same, i)
		}
	}
	return append(same, empty...)
}

// transfer moves items between the inventory and the open container.
func (x *act) transfer(a action.TransferItems) ipc.Result {
	m, err := world.ParseItemMatcher(a.Item)
	if err != nil {
		return ipc.Failf(ipc.InvalidParams, 0, "%v", err)
	}
	x.c.mu.Lock()
	o := x.s.inv.open
	x.c.mu.Unlock()
	if o == nil || !o.at(a.Pos) {
		return ipc.Failf(ipc.Rejected, 0, "the container at %v is not open", a.Pos)
	}
	named := o.slotNames()
	var box, names = make([]int, 0, len(named)), make([]string, 0, len(named))
	for _, ns := range named {
		if o.kind == windowWorkbench && o.layout == nil && ns.slot == 0 {
			continue // the crafting result
		}
		box, names = append(box, ns.slot), append(names, ns.name)
	}
	if a.Slot != "" {
		i := slices.Index(names, a.Slot)
		if n, err := strconv.Atoi(a.Slot); i < 0 && err == nil {
			i = slices.Index(box, n) // a window slot by number (a furnace's "0")
		}
		if i < 0 {
			return ipc.Failf(ipc.InvalidParams, 0, "the container has no slot %q (slots: %v)", a.Slot, names)
		}
		box = []int{box[i]}
	}
	player := x.playerPart(o.id)
	src, dst := player, box
	if a.Direction == action.Withdraw {
		src, dst = box, player
	}
	if a.Direction == action.Withdraw && o.kind == windowFurnace && o.layout == nil && len(box) == 1 && box[0] == furnaceOutputSlot {
		if err := x.awaitFurnace(o, m, a.Count); err != nil {
			return x.fail(err, "waiting for the furnace")
		}
	}
	if _, have := x.matching(o.id, src, m.Matches); have < a.Count {
		where := "inventory"
		if a.Direction == action.Withdraw {
			where = "container"
		}
		code := ipc.InvalidParams
		if a.Direction == action.Withdraw {
			code = ipc.Rejected
		}
		return ipc.Failf(code, 0, "only %d %s in the %s, %d asked", have, a.Item, where, a.Count)
	}
	moved, err := x.moveItems(o.id, src, dst, m.Matches, a.Count)
	if err != nil {
		return x.fail(err, fmt.Sprintf("moving %s", a.Item))
	}
	if moved < a.Count {
		return ipc.Failf(ipc.Rejected, 0, "moved %d of %d %s: no room", moved, a.Count, a.Item)
	}
	x.c.syncInventory(x.s)
	return ipc.Result{Code: ipc.OK, Details: map[string]any{"moved": moved}}
}

// craft crafts in the inventory's 2×2 grid or at a crafting table:
// ingredients are clicked into the grid, the result is taken from the
// result slot as often as asked, and leftovers go back to the inventory.
func (x *act) craft(a action.Craft) ipc.Result {
	book := x.c.rules.Recipes
	recipes := book.For(a.Item)
	if len(recipes) == 0 {
		if id, meta, err := world.SplitID(a.Item); err == nil && meta == 0 {
			recipes = book.For(id)
		}
	}
	if len(recipes) == 0 {
		return ipc.Failf(ipc.InvalidParams, 0, "no recipe makes %s", a.Item)
	}
	// The stencil table, part builder and tool station have windows of
	// their own (act_station.go): a recipe made only at a station is made
	// there.
	var stations []rules.Recipe
	recipes = slices.DeleteFunc(recipes, func(r rules.Recipe) bool {
		if r.AtStation() {
			stations = append(stations, r)
		}
		return r.AtStation()
	})
	if len(recipes) == 0 {
		return x.stationCraft(a, stations)
	}
	inv := x.c.state.Snapshot().Inventory
	var chosen *rules.Recipe
	for i := range recipes {
		r := recipes[i]
		ok := true
		for _, t := range r.Tools {
			ok = ok && inv.Find(t) >= 0
		}
		for _, in := range r.Ingredients {
			ok = ok && inv.Count(in.Item) >= in.Count*a.Count
		}
		if ok && (!r.NeedsTable() || a.Table != nil) {
			chosen = &r
			break
		}
	}
	if chosen == nil {
		return ipc.Failf(ipc.Rejected, 0, "missing ingredients (or a crafting table) for %d × %s", a.Count, a.Item)
	}
	window, width, result := uint8(0), 2, invCraftResult
	gridBase := invCraftGrid
	if chosen.NeedsTable() {
		if x.blockAt(*a.Table).ID != "minecraft:crafting_table" {
			return ipc.Failf(ipc.InvalidParams, 0, "no crafting table at %v", *a.Table)
		}
		r := x.openContainer(action.OpenContainer{Pos: *a.Table})
		if r.Code != ipc.OK {
			return r
		}
		x.c.mu.Lock()
		window = x.s.inv.open.id
		x.c.mu.Unlock()
		width, result, gridBase = 3, 0, 1
		defer x.closeContainer()
	}
	cells, what, ok := chosen.Layout(width) // the recipe's pattern (config/recipes.yaml), as the server matches it
	if !ok {
		return ipc.Failf(ipc.Rejected, 0, "the recipe for %s does not fit a %d×%d grid", a.Item, width, width)
	}
	matchers := make([]world.ItemMatcher, 0, len(chosen.Ingredients)+len(chosen.Tools))
	for _, in := range chosen.Ingredients {
		matchers = append(matchers, in.Item)
	}
	matchers = append(matchers, chosen.Tools...)
	outID, outMeta, _ := world.SplitID(chosen.Output)
	outM := world.MustItem(outID)
	if outMeta >= 0 {
		outM = world.MustItem(chosen.Output)
	}
	before := x.c.state.Snapshot().Inventory.Count(outM)
	player := x.playerPart(window)
	grid := make([]int, width*width)
	for i := range grid {
		grid[i] = gridBase + i
	}
	made := 0
	var failure error
	for done := 0; done < a.Count && failure == nil; {
		batch := min(a.Count-done, 64/max(chosen.Count, 1))
		for k, cell := range cells {
			n := batch
			if what[k] >= len(chosen.Ingredients) {
				n = 1 // a tool stays in the grid
				if x.cellHolds(window, gridBase+cell) {
					continue
				}
			}
			if got, err := x.moveItems(window, player, []int{gridBase + cell}, matchers[what[k]].Matches, n); err != nil || got < n {
				failure = fmt.Errorf("%w: could not put %d %s in the grid (moved %d): %v", errRejected, n, matchers[what[k]], got, err)
				break
			}
		}
		for i := 0; i < batch && failure == nil; i++ {
			ready, err := x.answer(func() bool { return !x.s.inv.slot(window, result).Empty() })
			if err != nil {
				failure = err
				break
			}
			if !ready {
				failure = fmt.Errorf("%w: the server shows no result for the grid", errRejected)
				break
			}
			if !x.cursorTakes(window, result) {
				if err := x.stowCursor(window); err != nil {
					failure = err
					break
				}
			}
			if err := x.clickResult(window, result, 0, 0, true); err != nil {
				failure = err
				break
			}
			made += chosen.Count
			done++
		}
	}
	// Put the product and the leftovers back into the inventory.
	if err := x.stowCursor(window); err != nil && failure == nil {
		failure = err
	}
	for _, g := range grid {
		if x.cellHolds(window, g) {
			if _, err := x.moveItems(window, []int{g}, player, func(world.ItemStack) bool { return true }, 64); err != nil && failure == nil {
				failure = err
			}
		}
	}
	if failure != nil {
		return x.fail(failure, fmt.Sprintf("crafting %s", a.Item))
	}
	after := x.c.state.Snapshot().Inventory.Count(outM)
	return ipc.Result{Code: ipc.OK, Details: map[string]any{"made": made, "gained": after - before}}
}

// cellHolds reports whether a window slot holds anything.
func (x *act) cellHolds(window uint8, slot int) bool {
	x.c.mu.Lock()
	defer x.c.mu.Unlock()
	p := x.s.inv.slot(window, slot)
	return p != nil && !p.Empty()
}

// cursorTakes reports whether the result stack fits onto the cursor.
func (x *act) cursorTakes(window uint8, result int) bool {
	x.c.mu.Lock()
	defer x.c.mu.Unlock()
	cur, res := x.s.inv.cursor, x.s.inv.slot(window, result)
	if cur.Empty() {
		return true
	}
	return sameItem(cur, *res) && int(cur.Count+res.Count) <= maxStackOf(x.c.state.Resolver().IDs(), x.c.rules.Mining)(cur)
}

// furnaceOutputSlot is a vanilla furnace window's output (ContainerFurnace:
// 0 input, 1 fuel, 2 output).
const furnaceOutputSlot = 2

// awaitFurnace waits, before taking count items from an open furnace's
// output, while the furnace is still cooking them: by the window's progress
// properties, which the server sends each server tick the furnace's cook
// time or burn time changes. It waits at most the cook ticks the items in
// its input still need (the smelting table's cook ticks each, less the
// cook time already done) and stops early when the output holds enough or
// the furnace is seen going out. Whatever is in the output then is for the
// caller to take.
func (x *act) awaitFurnace(o *container, m world.ItemMatcher, count int) error {
	cookTicks := int64(x.c.rules.Smelt.CookTicks)
	x.c.mu.Lock()
	in := o.slots[0].Count
	cook := int64(o.furnace.cook)
	x.c.mu.Unlock()
	if _, have := x.matching(o.id, []int{furnaceOutputSlot}, m.Matches); have >= count {
		return nil
	}
	full := func() bool {
		p := x.s.inv.slot(o.id, furnaceOutputSlot)
		ids := x.c.state.Resolver().IDs()
		return p != nil && !p.Empty() && m.Matches(toStack(*p, ids, x.c.rules)) && int(p.Count) >= count
	}
	closed := func() bool { return x.s.inv.open != o }
	if in > 0 {
		limit := int64(in)*cookTicks - cook + answerTicks
		if _, err := x.serverWait(limit, func() bool {
			return full() || closed() || o.furnace.out && o.furnace.cook == 0
		}); err != nil {
			return err
		}
	}
	// The last item made reaches the client in its own Set Slot after the
	// input slot's (and, when the fuel ran out with it, after the burn
	// time's): with the input seen empty or the fire out, the output may
	// still be on its way. The server gets answerTicks to send it.
	if _, err := x.serverWait(answerTicks, func() bool { return full() || closed() }); err != nil {
		return err
	}
	x.c.mu.Lock()
	f := o.furnace
	x.c.mu.Unlock()
	x.c.log.Debug().Int("cook", f.cook).Int("burn", f.burn).Bool("out", f.out).Msg("waited for the furnace")
	return nil
}
