package gtnh

import (
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Tinkers' Construct's stations (docs/gtnh-protocol.md, "Tinkers'
// Construct's stations"): the stencil table, the part builder and the tool
// station open their own windows (config/containers.yaml's tinkers_*), and
// a recipe made at one (config/recipes.yaml's station) is made there.
//
// An accepted click brings no Set Slot (the server's detectAndSendChanges
// runs with isChangingQuantityOnly set), and a station computes its outputs
// inside the click that lays the last input. A vanilla client computes
// them with the mod's own code; this client does not guess them (a tool's
// tag holds what every mod's handlers put there): it lays the inputs,
// opens the window again and reads the outputs from the contents the
// server sends, checks they are the recipe's, and takes them with the
// stacks the server showed, tag and all, so the server accepts the click
// only if it holds exactly that. After the take it reads the window once
// more, since taking also used the inputs on the server's side, and takes
// back the pattern and whatever is left.

// Container kinds of the stations (config/containers.yaml).
const (
	kindToolStation = "tinkers_tool_station"
	kindPartBuilder = "tinkers_part_builder"
	kindStencil     = "tinkers_stencil_table"
)

// stationBlock is Tinkers' Construct's station block.
const stationBlock = "TConstruct:ToolStationBlock"

// stationOutputs are each station's output slots, the product first
// (SlotOnlyTake, SlotTool).
var stationOutputs = map[string][]string{
	kindStencil:     {"pattern"},
	kindPartBuilder: {"part", "shard", "part_bottom", "shard_bottom"},
	kindToolStation: {"tool"},
}

// stationKindOf is the container kind of a station block's metadata
// (ToolStationBlock.getGui: 0 the tool station, 1-4 part builders, 10-13
// stencil tables; the pattern chests, 5-9, make nothing).
func stationKindOf(b world.Block) string {
	if b.ID != stationBlock {
		return ""
	}
	switch m := b.Meta; {
	case m == 0:
		return kindToolStation
	case m >= 1 && m <= 4:
		return kindPartBuilder
	case m >= 10 && m <= 13:
		return kindStencil
	}
	return ""
}

// stationCraft makes a.Count operations of a station recipe at the station
// a.Table names.
func (x *act) stationCraft(a action.Craft, recipes []rules.Recipe) ipc.Result {
	if a.Table == nil {
		return ipc.Failf(ipc.InvalidParams, 0, "%s is made at %s: name the station's position", a.Item, recipes[0].Station)
	}
	pos := *a.Table
	b := x.blockAt(pos)
	inv := x.c.state.Snapshot().Inventory
	var chosen *rules.Recipe
	atBlock := false
	for i := range recipes {
		r := recipes[i]
		id, meta, _ := world.SplitID(r.Station)
		if b.ID != id || b.Meta != max(meta, 0) {
			continue
		}
		atBlock = true
		ok := true
		for _, t := range r.Tools {
			ok = ok && inv.Find(t) >= 0
		}
		for _, in := range r.Ingredients {
			ok = ok && inv.Count(in.Item) >= in.Count*a.Count
		}
		if ok {
			chosen = &r
			break
		}
	}
	switch {
	case !atBlock:
		holds := "air"
		if !b.IsAir() {
			holds = fmt.Sprintf("%s:%d", b.ID, b.Meta)
		}
		return ipc.Failf(ipc.InvalidParams, 0, "%s is made at %s, and %v holds %s", a.Item, recipes[0].Station, pos, holds)
	case chosen == nil:
		return ipc.Failf(ipc.Rejected, 0, "missing ingredients (or the pattern) for %d × %s at %v", a.Count, a.Item, pos)
	}
	kind := stationKindOf(b)
	if kind == "" {
		return ipc.Failf(ipc.Rejected, 0, "%s:%d at %v is no station whose window the client works", b.ID, b.Meta, pos)
	}
	outM := outputMatcher(chosen.Output)
	before := x.c.state.Snapshot().Inventory.Count(outM)
	made := 0
	var failure error
	for op := 0; op < a.Count && failure == nil; op++ {
		if failure = x.stationOnce(pos, *chosen, kind); failure == nil {
			made += chosen.Count
		}
	}
	if r := x.closeContainer(); r.Code != ipc.OK && failure == nil {
		return r
	}
	if failure != nil {
		return x.fail(failure, fmt.Sprintf("making %s at %v", a.Item, pos))
	}
	after := x.c.state.Snapshot().Inventory.Count(outM)
	return ipc.Result{Code: ipc.OK, Details: map[string]any{"made": made, "gained": after - before}}
}

// outputMatcher matches a recipe's output item (any metadata when the
// recipe names none).
func outputMatcher(output string) world.ItemMatcher {
	id, meta, _ := world.SplitID(output)
	if meta >= 0 {
		return world.MustItem(output)
	}
	return world.MustItem(id)
}

// stationOnce makes one operation of r at the station at pos: it clears the
// station, lays the inputs (and, at a stencil table, chooses the pattern),
// reads the outputs the server shows, takes them, and takes back what is
// left.
func (x *act) stationOnce(pos world.BlockPos, r rules.Recipe, kind string) error {
	o, err := x.clearStation(pos, kind)
	if err != nil {
		return err
	}
	slot := func(name string) int { return o.layout.Slots[name].First }
	put := func(m world.ItemMatcher, count int, name string) error {
		got, err := x.moveItems(o.id, x.playerPart(o.id), []int{slot(name)}, m.Matches, count)
		if err != nil || got < count {
			return fmt.Errorf("%w: could not put %d %s in the %s slot (moved %d): %v", errRejected, count, m, name, got, err)
		}
		return nil
	}
	var err2 error
	shown := false // the server's Set Slot showed the stencil table's pattern
	switch kind {
	case kindStencil:
		if err2 = put(r.Ingredients[0].Item, r.Ingredients[0].Count, "blank"); err2 == nil {
			shown, err2 = x.choosePattern(o, pos, r.Output)
		}
	case kindPartBuilder:
		if len(r.Tools) != 1 || len(r.Ingredients) != 1 {
			return fmt.Errorf("%w: a part builder recipe takes one pattern and one material, %s has %d and %d", errRejected, r.Output, len(r.Tools), len(r.Ingredients))
		}
		if err2 = put(r.Tools[0], 1, "pattern"); err2 == nil {
			err2 = put(r.Ingredients[0].Item, r.Ingredients[0].Count, "material")
		}
	case kindToolStation:
		names := []string{"head", "handle", "accessory"}
		if len(r.Ingredients) > len(names) {
			return fmt.Errorf("%w: the tool station takes at most 3 parts, %s has %d", errRejected, r.Output, len(r.Ingredients))
		}
		for i, in := range r.Ingredients {
			if err2 = put(in.Item, in.Count, names[i]); err2 != nil {
				break
			}
		}
	}
	if err2 != nil {
		_, _ = x.clearStation(pos, kind) // take back what went in
		return err2
	}
	// Read what the server made of the inputs (the stencil table's
	// pattern, chosen outside a click, came in its own Set Slot).
	if !shown {
		if o, err = x.openStation(pos, kind); err != nil {
			return err
		}
	}
	outs := stationOutputs[kind]
	x.c.mu.Lock()
	out := o.slots[o.layout.Slots[outs[0]].First]
	ids := x.c.state.Resolver().IDs()
	st := toStack(out, ids, x.c.rules)
	x.c.mu.Unlock()
	if out.Empty() || !outputMatcher(r.Output).Matches(st) || st.Count < r.Count {
		what := "nothing"
		if !out.Empty() {
			what = st.String()
		}
		_, _ = x.clearStation(pos, kind)
		return fmt.Errorf("%w: the %s at %v shows %s in its %s slot, not %d %s", errRejected, kind, pos, what, outs[0], r.Count, r.Output)
	}
	// Take the product, then its leftover (a part builder's shard) from
	// the same row.
	take := outs[:1]
	if kind == kindPartBuilder {
		take = outs[:2]
	}
	for _, name := range take {
		if !x.cellHolds(o.id, slot(name)) {
			continue
		}
		if err := x.stowCursor(o.id); err != nil {
			return err
		}
		if err := x.click(o.id, slot(name), 0, 0); err != nil {
			return fmt.Errorf("taking the %s: %w", name, err)
		}
		if err := x.stowCursor(o.id); err != nil {
			return err
		}
	}
	_, err = x.clearStation(pos, kind)
	return err
}

// openStation opens the station's window (again), which brings its
// contents as the server holds them, and checks it is the station's kind.
func (x *act) openStation(pos world.BlockPos, kind string) (*container, error) {
	if r := x.openContainer(action.OpenContainer{Pos: pos}); r.Code != ipc.OK {
		return nil, fmt.Errorf("%w: opening the %s at %v: %s", errRejected, kind, pos, r.Error)
	}
	x.c.mu.Lock()
	defer x.c.mu.Unlock()
	o := x.s.inv.open
	if o == nil || o.layout == nil || o.layout.Kind != kind {
		got := "no known window"
		if o != nil && o.layout != nil {
			got = o.layout.Kind
		}
		return nil, fmt.Errorf("%w: the block at %v opened %s, not a %s", errRejected, pos, got, kind)
	}
	return o, nil
}

// clearStation opens the station and empties its own slots into the
// inventory: the inputs first (which clears the outputs they made), then,
// read afresh, any output still shown (a shard left behind). Each round
// reads the window anew, since the server sends nothing of what a take
// changes.
func (x *act) clearStation(pos world.BlockPos, kind string) (*container, error) {
	outputs := map[string]bool{}
	for _, n := range stationOutputs[kind] {
		outputs[n] = true
	}
	for round := 0; round < 4; round++ {
		o, err := x.openStation(pos, kind)
		if err != nil {
			return nil, err
		}
		var inputs, outs []int
		for _, ns := range o.slotNames() {
			if !x.cellHolds(o.id, ns.slot) {
				continue
			}
			if outputs[ns.name] {
				outs = append(outs, ns.slot)
			} else {
				inputs = append(inputs, ns.slot)
			}
		}
		if len(inputs) == 0 && len(outs) == 0 {
			return o, nil
		}
		all := func(world.ItemStack) bool { return true }
		if len(inputs) > 0 {
			for _, i := range inputs {
				if _, err := x.moveItems(o.id, []int{i}, x.playerPart(o.id), all, 64*9); err != nil {
					return nil, fmt.Errorf("taking back what lies in the %s at %v: %w", kind, pos, err)
				}
			}
			continue
		}
		for _, i := range outs {
			if err := x.stowCursor(o.id); err != nil {
				return nil, err
			}
			if err := x.click(o.id, i, 0, 0); err != nil {
				return nil, fmt.Errorf("taking what the %s at %v shows: %w", kind, pos, err)
			}
		}
		if err := x.stowCursor(o.id); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%w: the %s at %v still holds items after four rounds of taking them out", errRejected, kind, pos)
}

// choosePattern sends the stencil table the pattern to cut
// (PatternTablePacket) and waits for the server to show it in the pattern
// slot (shown). A server that changed the slot to what it already held
// sends no Set Slot; with none, the caller reads the window again.
func (x *act) choosePattern(o *container, pos world.BlockPos, output string) (shown bool, err error) {
	id, meta, _ := world.SplitID(output)
	x.c.mu.Lock()
	num, ok := x.c.state.Resolver().IDs().ItemID(id)
	x.c.mu.Unlock()
	if !ok {
		return false, fmt.Errorf("%w: the server's registry has no item %s", errRejected, id)
	}
	want := proto17.Slot{ID: int16(num), Count: 1, Damage: int16(max(meta, 0))}
	data, err := modnet.EncodePatternTable(modnet.PatternTable{X: int32(pos.X), Y: int32(pos.Y), Z: int32(pos.Z), Pattern: want}, x.s.c.Formats())
	if err != nil {
		return false, err
	}
	if err := x.c.send(x.s, &proto17.ServerboundPluginMessage{Channel: modnet.TConstructChannel, Data: data}); err != nil {
		return false, err
	}
	at := o.layout.Slots["pattern"].First
	shows := func() bool {
		p := x.s.inv.slot(o.id, at)
		return p != nil && p.ID == want.ID && p.Damage == want.Damage
	}
	return x.answer(shows)
}
