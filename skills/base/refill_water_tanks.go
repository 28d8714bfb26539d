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
// 1000 mB and a small coal boiler 16 000 mB. The one deadly mistake is
// watering a GregTech boiler that has run dry while hot: a boiler above
// 100 °C with no water explodes the moment water reaches it. This skill
// never adds water to a steam_boiler whose water is 0 and whose temperature
// is above 100 °C; such a boiler has to cool down (or be broken and
// replaced) first. A dry boiler that is still cold is safe to fill.
//
// Targets are machines of kind water_tank and steam_boiler within radius,
// nearest first, whose water is below min_fill of their capacity; each is
// filled towards capacity in whole buckets (a bucket cannot be emptied into
// less than 1000 mB of room). The plan:
//
//  1. Water buckets and cells already held (ore:bucketWater,
//     ore:cellWater) are used first: move_to the target (radius 3), then
//     use_item the container on the machine once per 1000 mB.
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

// waterTarget is a machine that needs water and how many buckets it takes.
type waterTarget struct {
	pos  world.BlockPos
	need int
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
	for _, m := range machines {
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
		if m.Kind == world.MachineSteamBoiler && t.Amount <= 0 && m.Temperature > hotBoilerC {
			unsafe = append(unsafe, m)
			continue
		}
		targets = append(targets, waterTarget{pos: m.Pos, need: need})
	}
	if len(targets) == 0 {
		if len(unsafe) > 0 {
			return nil, skills.Failf(skills.CodeUnsafe,
				"boiler(s) at %s ran dry while hot (above %.0f °C): water now would make them explode; let them cool down, or break and replace them",
				positions(unsafe), hotBoilerC)
		}
		return nil, nil
	}

	inv := w.Inventory
	// Step 1: water containers already held, by exact id.
	var acts []action.Action
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
		var uses []action.Action
		for t.need > 0 && fi < len(filled) {
			f := &filled[fi]
			uses = append(uses, action.UseItem{Item: f.ref, Target: ptr(t.pos)})
			emptied[f.kind]++
			t.need--
			if f.left--; f.left == 0 {
				fi++
			}
		}
		if len(uses) > 0 {
			acts = append(acts, action.MoveTo{Pos: t.pos, Radius: workRadius})
			acts = append(acts, uses...)
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
			for t.need > 0 && ci < len(carried) {
				acts = append(acts, action.UseItem{Item: waterContainers[carried[ci]].water.String(), Target: ptr(t.pos)})
				ci++
				t.need--
				remaining--
			}
		}
	}
	return acts, nil
}
