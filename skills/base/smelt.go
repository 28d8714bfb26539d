package base

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(Smelt{}) }

// furnaceSearchRadius is how far smelt looks for a furnace by default.
const furnaceSearchRadius = 16

// fuelPreference is the order smelt burns fuels in when none is named:
// planks first (a log makes 2, each burning as long as the log), then coal,
// then logs (which GTNH needs for charcoal in the coke oven), sticks and
// saplings.
var fuelPreference = []string{"ore:plankWood", "minecraft:coal", "ore:logWood", "ore:stickWood", "ore:treeSapling"}

// Smelt smelts items in a vanilla furnace, by the shipped smelting table
// (config/smelting.yaml).
//
// GTNH behaviour: the furnace is 6 cobblestone around 3 flint, and GTNH
// takes recipes out of it: logs make no charcoal (the coke oven does) and
// clay balls no bricks (the wooden brick form shapes them first). What
// remains early is cobblestone into stone (the flint mortar), the unfired
// coke oven bricks and the clay bucket.
//
// The skill takes the nearest furnace within radius, or places the one in
// the inventory next to the player's feet; walks to it, opens it, puts in
// the input for ceil(count / yield) items and enough fuel to cook them
// (CookTicks each; the fuel parameter, or planks, coal, logs, sticks and
// saplings in that order), waits the cooking time and takes the output.
// Fuel left in an existing furnace's fuel slot counts towards the cooking,
// and more of the same kind goes on it; when the inventory has too little
// of that kind, the slot is emptied first and the fuel picked goes in (the
// slot takes one kind at a time).
// Another item left in the output or the input slot (a batch whose step
// was cut short) is taken out first; the same recipe's output and input
// left there count towards the items asked for (rules.SmeltRecipe.InFurnace).
type Smelt struct {
	// Rules holds the furnace's table (nil = the shipped set).
	Rules *rules.Set
}

var _ skills.RuleUser = Smelt{}

// Name implements skills.Implementation.
func (Smelt) Name() string { return "smelt" }

// WithRules implements skills.RuleUser.
func (Smelt) WithRules(set *rules.Set) skills.Implementation { return Smelt{Rules: set} }

// SuggestActions implements skills.Implementation.
func (sk Smelt) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	item := p.String("item")
	if item == "" {
		return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"item\" is required: the item to smelt into, e.g. minecraft:stone")
	}
	count := intParam(p, "count", 1)
	if count < 1 || count > 64 {
		return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"count\": must be 1..64, got %d", count)
	}
	radius := intParam(p, "radius", furnaceSearchRadius)
	sm := rules.Default().Smelt
	if sk.Rules != nil {
		sm = sk.Rules.Smelt
	}
	recipes := sm.For(item)
	if len(recipes) == 0 {
		if id, meta, err := world.SplitID(item); err == nil && meta == 0 {
			recipes = sm.For(id)
		}
	}
	if len(recipes) == 0 {
		var known []string
		for _, r := range sm.All() {
			known = append(known, r.Output)
		}
		return nil, skills.Failf(skills.CodeInvalidParams, "no known furnace recipe makes %s (smelt knows: %s; GTNH makes charcoal in the coke oven, not the furnace)", item, strings.Join(known, ", "))
	}
	inv := w.Inventory
	// The first recipe whose input is held for the whole count (tin from
	// raw cassiterite sand, not raw tin ore), else the first.
	r := recipes[0]
	for _, c := range recipes {
		if inv.Count(c.Input) >= ceilDiv(count, c.Count) {
			r = c
			break
		}
	}
	fs := w.MachinesOfKind(world.MachineFurnace, radius)
	if raw := p.String("pos"); raw != "" {
		at, err := parsePos(raw)
		if err != nil {
			return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"pos\": %v", err)
		}
		i := slices.IndexFunc(w.Machines, func(m world.Machine) bool { return m.Kind == world.MachineFurnace && m.Pos == at })
		if i < 0 {
			return nil, skills.Failf(skills.CodeNoTarget, "no furnace known at %s", raw)
		}
		fs = []world.Machine{w.Machines[i]}
	}
	// What a batch of the same recipe cut short left in the furnace (a
	// mob ended its step before the withdrawal): its output is made, its
	// input cooks on, and a player counts both.
	done, cooking := 0, 0
	if len(fs) > 0 {
		done, cooking = r.InFurnace(fs[0].Slots, item, nil)
	}
	wanted := max(0, count-done)                            // items still to cook
	ops := ceilDiv(max(0, wanted-cooking*r.Count), r.Count) // inputs to put in
	if have := inv.Count(r.Input); have < ops {
		return nil, skills.Failf(skills.CodeMissingItems, "smelting %d %s needs %d %s (have %d)", count, item, ops, r.Input, have)
	}
	cooks := ceilDiv(wanted, r.Count)
	named, ticks := p.String("fuel"), cooks*sm.CookTicks

	var acts []action.Action
	var at world.BlockPos
	var left world.ItemStack    // the fuel an existing furnace holds
	var stale world.ItemStack   // another item in its output
	var staleIn world.ItemStack // another item in its input
	if len(fs) > 0 {
		f := fs[0]
		at = f.Pos
		left = f.Slots["fuel"]
		if in := withTags(f.Slots["input"]); !in.Empty() && !r.Input.Matches(in) {
			// Another batch's input (its step cut short by a mob or
			// the night): a player takes it out and smelts it again
			// when it is wanted.
			staleIn = f.Slots["input"]
		}
		if out := f.Slots["output"]; !out.Empty() && plainRef(out) != item && out.ID != item {
			// What an earlier batch left in the output (a step cut
			// short before its withdrawal): the furnace stops with
			// its output full of another item, so it comes out first,
			// as a player takes it.
			stale = out
		}
	} else if slot := inv.Find(world.MustItem("minecraft:furnace")); slot >= 0 {
		spot, walk, ok := placeSpot(w)
		if !ok {
			return nil, skills.Failf(skills.CodeNoTarget, "no free spot with solid ground within %d blocks of %s to place the furnace", spotSearch, w.Feet())
		}
		at = spot
		acts = append(acts, walk...)
		acts = append(acts, action.PlaceBlock{Pos: spot, Item: "minecraft:furnace", Face: "up"})
	} else {
		return nil, skills.Failf(skills.CodeMissingItems,
			"furnace: no furnace within %d blocks nor in the inventory; craft one first (basic_crafting item=minecraft:furnace: 6 cobblestone around 3 flint in GTNH)", radius)
	}
	acts = append(acts,
		action.MoveTo{Pos: at, Radius: workRadius},
		action.OpenContainer{Pos: at},
	)
	if !stale.Empty() {
		acts = append(acts, action.TransferItems{Pos: at, Item: plainRef(stale) + metaSuffixOf(stale), Count: stale.Count, Direction: action.Withdraw, Slot: "output"})
	}
	if !staleIn.Empty() {
		acts = append(acts, action.TransferItems{Pos: at, Item: plainRef(staleIn) + metaSuffixOf(staleIn), Count: staleIn.Count, Direction: action.Withdraw, Slot: "input"})
	}
	if ops > 0 {
		input := itemRef(inv, inv.Slots[inv.Find(r.Input)])
		acts = append(acts,
			action.TransferItems{Pos: at, Item: input, Count: ops, Direction: action.Deposit, Slot: "input"},
		)
	}
	if !left.Empty() && (named == "" || namedMatches(named, left)) {
		// The fuel slot takes only more of what it holds (planks left
		// from the last batch refuse the coal picked now), and what it
		// holds burns too.
		rest := ticks - left.Count*sm.BurnTicks(left)
		if rest <= 0 {
			ticks = 0
		} else if fuel, fuels, err := pickFuel(inv, sm, plainRef(left)+metaSuffixOf(left), rest, r.Input); err == nil {
			acts = append(acts, action.TransferItems{Pos: at, Item: fuel, Count: fuels, Direction: action.Deposit, Slot: "fuel"})
			ticks = 0
		}
	}
	if ticks > 0 {
		fuel, fuels, err := pickFuel(inv, sm, named, ticks, r.Input)
		if err != nil {
			return nil, err
		}
		if !left.Empty() {
			// Another fuel, or too little of the one there: what the
			// slot holds comes out first.
			acts = append(acts, action.TransferItems{Pos: at, Item: plainRef(left) + metaSuffixOf(left), Count: left.Count, Direction: action.Withdraw, Slot: "fuel"})
		}
		acts = append(acts, action.TransferItems{Pos: at, Item: fuel, Count: fuels, Direction: action.Deposit, Slot: "fuel"})
	}
	if cooks > 0 {
		acts = append(acts, action.Wait{Ticks: action.Ticks(cooks * sm.CookTicks)})
	}
	acts = append(acts,
		action.TransferItems{Pos: at, Item: r.Output, Count: done + cooks*r.Count, Direction: action.Withdraw, Slot: "output"},
		action.CloseContainer{},
	)
	return acts, nil
}

// namedMatches reports whether a fuel parameter names the stack's item
// (false when it does not parse: pickFuel says why).
func namedMatches(named string, st world.ItemStack) bool {
	m, err := world.ParseItemMatcher(named)
	return err == nil && m.Matches(st)
}

// pickFuel chooses the fuel and how many items burn ticks take: the named
// one, or the first of fuelPreference the inventory holds enough of (the
// input's own item is not burnt).
func pickFuel(inv world.Inventory, sm *rules.Smelting, named string, ticks int, input world.ItemMatcher) (string, int, error) {
	need := func(st world.ItemStack) int { return ceilDiv(ticks, sm.BurnTicks(st)) }
	if named != "" {
		m, err := world.ParseItemMatcher(named)
		if err != nil {
			return "", 0, skills.Failf(skills.CodeInvalidParams, "parameter \"fuel\": %v", err)
		}
		slot := inv.Find(m)
		if slot < 0 {
			return "", 0, skills.Failf(skills.CodeMissingItems, "no %s in the inventory to burn", named)
		}
		st := inv.Slots[slot]
		if sm.BurnTicks(st) == 0 {
			return "", 0, skills.Failf(skills.CodeInvalidParams, "parameter \"fuel\": %s does not burn in a furnace", plainRef(st))
		}
		if n := need(st); inv.Count(m) < n {
			return "", 0, skills.Failf(skills.CodeMissingItems, "%d ticks of cooking need %d %s (have %d)", ticks, n, named, inv.Count(m))
		} else {
			return itemRef(inv, st), n, nil
		}
	}
	var short []string
	for _, f := range fuelPreference {
		m := world.MustItem(f)
		slot := inv.Find(m)
		if slot < 0 || input.Matches(inv.Slots[slot]) {
			continue
		}
		st := inv.Slots[slot]
		// A fuel of several kinds (planks of two woods) is counted by the
		// exact item burnt.
		exact := world.MustItem(plainRef(st) + metaSuffixOf(st))
		if n := need(st); inv.Count(exact) >= n {
			return itemRef(inv, st), n, nil
		} else {
			short = append(short, fmt.Sprintf("%d %s (have %d)", n, plainRef(st), inv.Count(exact)))
		}
	}
	if len(short) == 0 {
		return "", 0, skills.Failf(skills.CodeMissingItems, "nothing to burn: %d ticks of cooking need fuel (planks burn 300 ticks, coal 1600)", ticks)
	}
	return "", 0, skills.Failf(skills.CodeMissingItems, "not enough of one fuel for %d ticks of cooking: %s", ticks, strings.Join(short, "; "))
}

// metaSuffixOf pins an exact matcher to metadata 0.
func metaSuffixOf(st world.ItemStack) string {
	if st.Meta == 0 {
		return ":0"
	}
	return ""
}
