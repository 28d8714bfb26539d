package base

import (
	"sort"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(RefillWaterTanks{}) }

// RefillWaterTanks carries water by bucket or cell to nearby water tanks and
// steam boilers.
//
// GTNH behaviour: before pumps and pipes, steam-age boilers are kept running
// by hand with buckets (or IC2 cells) of water; a bucket or cell holds
// 1000 mB and a small coal boiler 16 000 mB. A GregTech boiler takes water
// two ways (GT5-Unofficial MTEBoiler.onRightclick and MTEBasicTank.onPreTick):
// right-clicking it with a water bucket pours the bucket in (and hands back
// an empty bucket even if the tank had less room); any other item, an IC2
// water cell among them, only opens its GUI, where a cell goes into the
// fluid input slot ("fluid_in"), is emptied into the tank and comes out
// empty in the fluid output slot ("fluid_out"). A Railcraft water tank takes
// buckets and cells by right-click (TileTankWater.blockActivated,
// FluidHelper.handleRightClick).
//
// A live server tells a Railcraft water tank's water only with the tank's
// tile data (when its chunk is sent) and to a player with the tank's window
// open, not as it changes; it tells a GregTech boiler's water only in the
// boiler's open window (and a bucket right-clicked on a full boiler is
// emptied all the same, MTEBoiler.onRightclick). So after pouring into a
// water tank or a boiler the skill opens and closes its window
// (open_container, close_container): the body then sees the new amount, and
// the skill's declared effect (the water went up) is checked on what the
// server said, not on what the body believes. A water tank or boiler whose
// contents the body does not know (world.Machine.ContentsUnknown: a tank's
// master's data has not arrived, a boiler's window has not been opened) is
// looked into the same way (move_to, open_container, close_container; the
// body puts a held bucket away before opening a window) and not watered;
// the next invocation waters it with what fits, or leaves it if it is full.
// The look alone does not meet the declared effect.
//
// The one deadly mistake is watering a GregTech boiler that has run dry
// while hot: a boiler above 100 °C with no water explodes as soon as water
// reaches it (within ten ticks). This skill never adds water to a
// steam_boiler whose contents are unknown (it looks first), nor to one
// whose water is 0 and whose temperature is above 100 °C, nor
// to a dry one that is still burning within burningDryMarginC of 100 °C
// (it would pass 100 °C before the water lands); such a boiler has to cool
// down (or be broken and replaced) first. A dry boiler that is still cold
// is safe to fill.
//
// Targets are machines of kind water_tank and steam_boiler within radius,
// nearest first, whose water is below min_fill of their capacity; each is
// filled towards capacity in whole buckets (never more than fits, so no
// water is spilled). The plan:
//
//  1. Water buckets and cells already held (ore:bucketWater,
//     ore:cellWater) are used first: move_to the target (radius 3), then
//     use_item each bucket (and each cell, on a water tank) on it; cells for
//     a boiler go through its GUI: open_container, transfer_items{deposit 1,
//     slot "fluid_in"} per cell, transfer_items{withdraw the empty cells
//     (ore:cellEmpty), slot "fluid_out"}, close_container.
//  2. If more is needed, every empty container (held ones, ore:bucketEmpty
//     and ore:cellEmpty, plus those emptied in step 1) goes on trips: move_to
//     the nearest block tagged water_source (radius 3), use_item each empty
//     container on it (cycling through the source blocks next to it), then
//     deliver to the targets as in step 1. At most max_trips trips.
//
// Held containers are named by exact id; containers filled on a trip are
// named by ore-dictionary entry (ore:bucketEmpty, ore:bucketWater, …) so the
// body picks whichever it holds.
//
// Nothing below min_fill is nothing to do (no actions, no error); targets
// that are all hot and dry is unsafe; no water container of any kind is
// missing_items; only empty containers and no water source within radius is
// no_target.
type RefillWaterTanks struct{}

// Name implements skills.Implementation.
func (RefillWaterTanks) Name() string { return "refill_water_tanks" }

// container kinds for trips: the ore-dictionary entries of the empty and
// filled forms.
var waterContainers = []struct {
	empty, water world.ItemMatcher
}{
	{world.MustItem("ore:bucketEmpty"), world.MustItem("ore:bucketWater")},
	{world.MustItem("ore:cellEmpty"), world.MustItem("ore:cellWater")},
}

// cellKind is the index of cells in waterContainers.
const cellKind = 1

// burningDryMarginC is how far below boiling a dry boiler that is still
// burning must be for water to reach it safely. A bronze boiler with fuel
// gains a degree every 12 ticks and loses one every 46 (GT5-Unofficial
// MTEBoiler, MTEBoilerBronze), about 1.2 °C a second; once above 100 °C dry
// it explodes when water arrives, so the walk to it (and the trips to a
// water source) must not give it time to pass 100 °C: 40 °C is half a
// minute.
const burningDryMarginC = 40.0

// dryBoilerUnsafe says whether a boiler with no water must not be watered:
// it is above 100 °C (it has noted that it ran dry, or will at its next
// check), or it is still burning and close enough to 100 °C to pass it
// before the water lands.
func dryBoilerUnsafe(m world.Machine) bool {
	return m.Temperature > hotBoilerC || m.Active && m.Temperature > hotBoilerC-burningDryMarginC
}

// waterTarget is a machine that needs water and how many buckets it takes.
type waterTarget struct {
	pos    world.BlockPos
	need   int
	boiler bool
}

// pouring is one water container to empty into a target.
type pouring struct {
	ref  string // the item, as the body should match it
	kind int    // index into waterContainers
}

// pour empties containers into a target: buckets (and cells, on a water
// tank) by use_item; cells on a GregTech boiler through its GUI's fluid
// slots, taking the empty cells back. The target's window is opened and
// closed after the pouring, so the body reads the new amount from the
// server.
func pour(t waterTarget, items []pouring) []action.Action {
	var acts, gui []action.Action
	for _, it := range items {
		if t.boiler && it.kind == cellKind {
			gui = append(gui, action.TransferItems{Pos: t.pos, Item: it.ref, Count: 1, Direction: action.Deposit, Slot: "fluid_in"})
			continue
		}
		acts = append(acts, action.UseItem{Item: it.ref, Target: ptr(t.pos)})
	}
	if len(gui) > 0 {
		acts = append(acts, action.OpenContainer{Pos: t.pos})
		acts = append(acts, gui...)
		acts = append(acts,
			action.TransferItems{Pos: t.pos, Item: waterContainers[cellKind].empty.String(), Count: len(gui), Direction: action.Withdraw, Slot: "fluid_out"},
			action.CloseContainer{})
	}
	if len(acts) > 0 {
		acts = append(acts, look(t.pos)...)
	}
	return acts
}

// look opens and closes a machine's window (the body stands within reach),
// so the body sees what it holds.
func look(pos world.BlockPos) []action.Action {
	return []action.Action{action.OpenContainer{Pos: pos}, action.CloseContainer{}}
}

// SuggestActions implements skills.Implementation.
func (RefillWaterTanks) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	radius := intParam(p, "radius", 24)
	minFill := floatParam(p, "min_fill", 0.5)
	maxTrips := intParam(p, "max_trips", 8)

	feet := w.Feet()
	machines := append(w.MachinesOfKind(world.MachineWaterTank, radius), w.MachinesOfKind(world.MachineSteamBoiler, radius)...)
	sort.SliceStable(machines, func(i, j int) bool {
		di, dj := machines[i].Pos.DistSq(feet), machines[j].Pos.DistSq(feet)
		if di != dj {
			return di < dj
		}
		return machines[i].Pos.Less(machines[j].Pos)
	})

	var targets []waterTarget
	var unsafe []world.Machine
	var looks []action.Action // water tanks and boilers whose water is not known
	for _, m := range machines {
		if m.ContentsUnknown {
			looks = append(looks, action.MoveTo{Pos: m.Pos, Radius: workRadius})
			looks = append(looks, look(m.Pos)...)
			continue
		}
		t := m.Fluid("water")
		if t.Capacity <= 0 || (t.Fluid != "" && t.Fluid != "water") {
			continue
		}
		if float64(t.Amount) >= minFill*float64(t.Capacity) {
			continue
		}
		need := (t.Capacity - t.Amount) / bucketMB
		if need <= 0 {
			continue
		}
		if m.Kind == world.MachineSteamBoiler && t.Amount <= 0 && dryBoilerUnsafe(m) {
			unsafe = append(unsafe, m)
			continue
		}
		targets = append(targets, waterTarget{pos: m.Pos, need: need, boiler: m.Kind == world.MachineSteamBoiler})
	}
	if len(targets) == 0 {
		if len(looks) > 0 {
			return looks, nil
		}
		if len(unsafe) > 0 {
			return nil, skills.Failf(skills.CodeUnsafe,
				"boiler(s) at %s ran dry while hot (above %.0f °C), or are burning dry and will be before water reaches them: water then makes them explode; let the fuel burn out and the boiler cool down, or break and replace it",
				positions(unsafe), hotBoilerC)
		}
		return nil, nil
	}

	inv := w.Inventory
	// Step 1: water containers already held, by exact id. The looks come
	// first.
	acts := looks
	emptied := make([]int, len(waterContainers))
	type held struct {
		ref  string
		kind int
		left int
	}
	var filled []held
	empties := make([]int, len(waterContainers))
	for _, s := range inv.Slots {
		for k, c := range waterContainers {
			if c.water.Matches(s) {
				filled = append(filled, held{ref: itemRef(inv, s), kind: k, left: s.Count})
				break
			}
			if c.empty.Matches(s) {
				empties[k] += s.Count
				break
			}
		}
	}
	fi := 0
	for ti := range targets {
		t := &targets[ti]
		var uses []pouring
		for t.need > 0 && fi < len(filled) {
			f := &filled[fi]
			uses = append(uses, pouring{ref: f.ref, kind: f.kind})
			emptied[f.kind]++
			t.need--
			if f.left--; f.left == 0 {
				fi++
			}
		}
		if len(uses) > 0 {
			acts = append(acts, action.MoveTo{Pos: t.pos, Radius: workRadius})
			acts = append(acts, pour(*t, uses)...)
		}
	}

	remaining := 0
	for _, t := range targets {
		remaining += t.need
	}
	if remaining == 0 {
		return acts, nil
	}

	// Step 2: trips to a water source with every empty container.
	carry := make([]int, len(waterContainers))
	containers := 0
	for k := range waterContainers {
		carry[k] = empties[k] + emptied[k]
		containers += carry[k]
	}
	if containers == 0 {
		return nil, skills.Failf(skills.CodeMissingItems,
			"%d bucket(s) of water needed but the inventory holds no water bucket or cell and no empty bucket or cell", remaining)
	}
	sources := w.NearestBlocks(radius, 0, "water_source")
	if len(sources) == 0 {
		if len(acts) > 0 {
			return acts, nil
		}
		return nil, skills.Failf(skills.CodeNoTarget,
			"no water source block within %d blocks of %s to fill the %d empty bucket(s)/cell(s)", radius, feet, containers)
	}
	src := sources[0].Pos
	spots := []world.BlockPos{src}
	for _, h := range sources[1:] {
		if h.Pos.DistSq(src) == 1 {
			spots = append(spots, h.Pos)
		}
	}
	sort.SliceStable(spots[1:], func(i, j int) bool { return spots[1+i].Less(spots[1+j]) })

	for trip := 0; trip < maxTrips && remaining > 0; trip++ {
		load := min(containers, remaining)
		acts = append(acts, action.MoveTo{Pos: src, Radius: workRadius})
		var carried []int // container kinds, in filling order
		for k, c := range waterContainers {
			for n := min(carry[k], load-len(carried)); n > 0; n-- {
				acts = append(acts, action.UseItem{Item: c.empty.String(), Target: ptr(spots[len(carried)%len(spots)])})
				carried = append(carried, k)
			}
		}
		ci := 0
		for ti := range targets {
			t := &targets[ti]
			if t.need == 0 || ci == len(carried) {
				continue
			}
			acts = append(acts, action.MoveTo{Pos: t.pos, Radius: workRadius})
			var uses []pouring
			for t.need > 0 && ci < len(carried) {
				uses = append(uses, pouring{ref: waterContainers[carried[ci]].water.String(), kind: carried[ci]})
				ci++
				t.need--
				remaining--
			}
			acts = append(acts, pour(*t, uses)...)
		}
	}
	return acts, nil
}
