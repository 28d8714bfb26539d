package loop

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// EffectCheck is the comparison of one declared effect with the world.
// Before and After are the counts compared: items in the inventory, matching
// blocks within the radius, or the slot count or fluid amount of the machine
// that changed most.
type EffectCheck struct {
	Effect string `json:"effect"`
	Before int    `json:"before"`
	After  int    `json:"after"`
	OK     bool   `json:"ok"`
}

// VerifyEffects compares a spec's declared effects with the world before and
// after the skill ran, with keys and amounts resolved against the
// invocation's parameters: every inventory_delta, blocks and machines entry,
// player.food, tech_delta.reaches_tier, and, when any_of is declared, the
// alternatives.
// A key of a block's drop (skills.DropPrefix) is resolved in drops (nil:
// the shipped table).
// It returns one check per effect, in a stable order, and whether all hold.
// Of any_of, only the first alternative that holds is reported; when none
// holds, every alternative's checks are, each prefixed "any_of[i]".
func VerifyEffects(spec *skills.Spec, p skills.Params, before, after *world.Snapshot, tiers *rules.Tiers, drops *rules.Drops) ([]EffectCheck, bool) {
	if drops == nil {
		drops = rules.Default().Drops
	}
	e := spec.Effects
	checks := verifySet(skills.EffectSet{InventoryDelta: e.InventoryDelta, Blocks: e.Blocks, Machines: e.Machines}, p, before, after, drops)
	if pc := e.Player; pc != nil && pc.Food != nil && pc.Food.MinIncrease != nil {
		n := pc.Food.MinIncrease.Resolve(p)
		b, a := int(before.Player.Food), int(after.Player.Food)
		checks = append(checks, EffectCheck{Effect: fmt.Sprintf("food level increases by >= %d", n), Before: b, After: a, OK: a-b >= n})
	}
	if pc := e.Player; pc != nil && pc.Sheltered {
		b, a := 0, 0
		if path.Enclosed(before, before.Feet()) {
			b = 1
		}
		if path.Enclosed(after, after.Feet()) {
			a = 1
		}
		checks = append(checks, EffectCheck{Effect: "the player is walled in", Before: b, After: a, OK: a == 1})
	}
	if t := e.TechDelta.ReachesTier; t != "" {
		ia, _ := tiers.Index(after.TechState)
		it, _ := tiers.Index(t)
		ib, _ := tiers.Index(before.TechState)
		checks = append(checks, EffectCheck{Effect: "tier reaches " + t, Before: ib, After: ia, OK: ia >= it})
	}
	if len(e.AnyOf) > 0 {
		var tried []EffectCheck
		held := false
		for i, alt := range e.AnyOf {
			cs := verifySet(alt, p, before, after, drops)
			if alt.Empty() {
				cs = []EffectCheck{{Effect: "an alternative with no effects never holds"}}
			}
			if allOK(cs) {
				checks, held = append(checks, cs...), true
				break
			}
			for _, c := range cs {
				c.Effect = fmt.Sprintf("any_of[%d]: %s", i, c.Effect)
				tried = append(tried, c)
			}
		}
		if !held {
			checks = append(checks, tried...)
		}
	}
	return checks, allOK(checks)
}

func allOK(cs []EffectCheck) bool {
	for _, c := range cs {
		if !c.OK {
			return false
		}
	}
	return true
}

// verifySet checks one group of effects.
func verifySet(set skills.EffectSet, p skills.Params, before, after *world.Snapshot, drops *rules.Drops) []EffectCheck {
	var checks []EffectCheck
	for _, key := range slices.Sorted(maps.Keys(set.InventoryDelta)) {
		checks = append(checks, verifyItems(key, set.InventoryDelta[key], p, before, after, drops)...)
	}
	for _, key := range slices.Sorted(maps.Keys(set.Blocks)) {
		checks = append(checks, verifyBlocks(key, set.Blocks[key], p, before, after)...)
	}
	for _, mc := range set.Machines {
		checks = append(checks, verifyMachine(mc, p, before, after))
	}
	return checks
}

// verifyItems checks one inventory_delta entry. For a matcher, the delta is
// the change of the matching count; for skills.AnyItem, min_increase is
// compared with the items gained (summed over kinds that went up) and the
// decreases with the items lost.
func verifyItems(key string, ch skills.InventoryChange, p skills.Params, before, after *world.Snapshot, drops *rules.Drops) []EffectCheck {
	item := skills.ResolveKey(key, p)
	if block, ok := strings.CutPrefix(item, skills.DropPrefix); ok {
		item = dropItem(block, drops)
	}
	var b, a, gained, lost int
	if item == skills.AnyItem {
		item = "any item"
		gained, lost = itemChanges(before.Inventory, after.Inventory)
		b, a = totalItems(before.Inventory), totalItems(after.Inventory)
	} else {
		m, err := world.ParseItemMatcher(item)
		if err != nil {
			return []EffectCheck{{Effect: fmt.Sprintf("%s: %v", key, err)}}
		}
		b, a = before.Inventory.Count(m), after.Inventory.Count(m)
		gained, lost = a-b, b-a
	}
	var out []EffectCheck
	if ch.MinIncrease != nil {
		n := ch.MinIncrease.Resolve(p)
		out = append(out, EffectCheck{Effect: fmt.Sprintf("%s increases by >= %d", item, n), Before: b, After: a, OK: gained >= n})
	}
	if ch.MinDecrease != nil {
		n := ch.MinDecrease.Resolve(p)
		out = append(out, EffectCheck{Effect: fmt.Sprintf("%s decreases by >= %d", item, n), Before: b, After: a, OK: lost >= n})
	}
	if ch.MaxDecrease != nil {
		n := ch.MaxDecrease.Resolve(p)
		out = append(out, EffectCheck{Effect: fmt.Sprintf("%s decreases by <= %d", item, n), Before: b, After: a, OK: lost <= n})
	}
	return out
}

// dropItem is the item matcher a block's harvest gives by the drop table
// (its meta when the drop fixes one), or skills.AnyItem for a block whose
// drops are rolled or an id that does not parse.
func dropItem(block string, drops *rules.Drops) string {
	id, meta, err := world.SplitID(block)
	if err != nil {
		return skills.AnyItem
	}
	d, random := drops.Of(world.Block{ID: id, Meta: max(meta, 0)})
	if random {
		return skills.AnyItem
	}
	if meta < 0 && d.Item == id {
		return d.Item // the block itself, whatever its meta
	}
	return fmt.Sprintf("%s:%d", d.Item, d.Meta)
}

// itemKey names an item kind: damageable tools wear, so they are one kind
// whatever their damage.
func itemKey(s world.ItemStack) string { return fmt.Sprintf("%s:%d", s.ID, s.Meta) }

func itemCounts(inv world.Inventory) map[string]int {
	out := map[string]int{}
	for _, s := range inv.Slots {
		if !s.Empty() {
			out[itemKey(s)] += s.Count
		}
	}
	return out
}

func totalItems(inv world.Inventory) int {
	n := 0
	for _, s := range inv.Slots {
		if !s.Empty() {
			n += s.Count
		}
	}
	return n
}

// itemChanges returns how many items were gained (summed over the kinds
// whose count went up) and lost (over the kinds whose count went down).
func itemChanges(before, after world.Inventory) (gained, lost int) {
	b, a := itemCounts(before), itemCounts(after)
	for k, n := range a {
		if d := n - b[k]; d > 0 {
			gained += d
		}
	}
	for k, n := range b {
		if d := n - a[k]; d > 0 {
			lost += d
		}
	}
	return gained, lost
}

// verifyBlocks checks one blocks entry around the player's starting
// position: removed counts positions that matched before and do not after,
// placed the reverse.
func verifyBlocks(key string, ch skills.BlockChange, p skills.Params, before, after *world.Snapshot) []EffectCheck {
	raw := skills.ResolveKey(key, p)
	m, err := skills.ParseBlockMatcher(raw)
	if err != nil {
		return []EffectCheck{{Effect: fmt.Sprintf("%s: %v", key, err)}}
	}
	center, radius := before.Feet(), ch.Radius.Resolve(p)
	if before.Blocks == nil || after.Blocks == nil {
		// A body that reports no blocks cannot show a change of them.
		var out []EffectCheck
		for _, verb := range []struct {
			a    *skills.Amount
			what string
		}{{ch.MinRemoved, "removed"}, {ch.MinPlaced, "placed"}, {ch.MinNear, "near the end"}} {
			if verb.a != nil {
				out = append(out, EffectCheck{Effect: fmt.Sprintf("%s blocks within %d %s >= %d (blocks not observed)", raw, radius, verb.what, verb.a.Resolve(p))})
			}
		}
		return out
	}
	nBefore := world.CountBlocks(before.Blocks, center, radius, m.Matches)
	var out []EffectCheck
	if ch.MinRemoved != nil || ch.MinPlaced != nil {
		removed, placed := blockChanges(before, after, center, radius, m)
		nAfter := world.CountBlocks(after.Blocks, center, radius, m.Matches)
		if ch.MinRemoved != nil {
			n := ch.MinRemoved.Resolve(p)
			out = append(out, EffectCheck{Effect: fmt.Sprintf("%s blocks within %d removed >= %d (removed %d)", raw, radius, n, removed),
				Before: nBefore, After: nAfter, OK: removed >= n})
		}
		if ch.MinPlaced != nil {
			n := ch.MinPlaced.Resolve(p)
			out = append(out, EffectCheck{Effect: fmt.Sprintf("%s blocks within %d placed >= %d (placed %d)", raw, radius, n, placed),
				Before: nBefore, After: nAfter, OK: placed >= n})
		}
	}
	if ch.MinNear != nil {
		// Counted around where the player ends the step: a skill that
		// travels to the blocks.
		n := ch.MinNear.Resolve(p)
		near := world.CountBlocks(after.Blocks, after.Feet(), radius, m.Matches)
		out = append(out, EffectCheck{Effect: fmt.Sprintf("%s blocks within %d of the end >= %d (found %d)", raw, radius, n, near),
			Before: nBefore, After: near, OK: near >= n})
	}
	return out
}

// blockChanges counts the positions within radius of center whose block
// matched before and does not after (removed), and the reverse (placed).
// Only the positions where the world changed are looked at when the block
// sources can list them (views of one chunk store, world.ChangedBlocks); a
// step that mined one block in a hill of stone costs one block, not the
// hill.
func blockChanges(before, after *world.Snapshot, center world.BlockPos, radius int, m skills.BlockMatcher) (removed, placed int) {
	if world.ChangedBlocks(before.Blocks, after.Blocks, center, radius, func(p world.BlockPos) {
		// Air is never a hit of a block query (BlockSource.Nearest).
		b, a := before.BlockAt(p), after.BlockAt(p)
		was, is := !b.IsAir() && m.Matches(b), !a.IsAir() && m.Matches(a)
		switch {
		case was && !m.Matches(a):
			removed++
		case is && !m.Matches(b):
			placed++
		}
	}) {
		return removed, placed
	}
	for _, h := range before.Blocks.Nearest(center, radius, 0, m.Matches) {
		if !m.Matches(after.BlockAt(h.Pos)) {
			removed++
		}
	}
	for _, h := range after.Blocks.Nearest(center, radius, 0, m.Matches) {
		if !m.Matches(before.BlockAt(h.Pos)) {
			placed++
		}
	}
	return removed, placed
}

// verifyMachine checks one machines entry: it holds when at least one
// machine of the kind, seen at the same position before and after, changed
// by the amount. The check reports the machine that changed most.
func verifyMachine(mc skills.MachineChange, p skills.Params, before, after *world.Snapshot) EffectCheck {
	what := mc.Kind + " " + mc.Fluid + " (mB)"
	var item *world.ItemMatcher
	if mc.Slot != "" {
		what = mc.Kind + " " + mc.Slot + " slot"
		if mc.Item != "" {
			raw := skills.ResolveKey(mc.Item, p)
			m, err := world.ParseItemMatcher(raw)
			if err != nil {
				return EffectCheck{Effect: fmt.Sprintf("%s item %s: %v", what, mc.Item, err)}
			}
			item = &m
			what = fmt.Sprintf("%s %s in the %s slot", mc.Kind, raw, mc.Slot)
		}
	}
	value := func(m world.Machine) int {
		if mc.Slot == "" {
			return m.Fluid(mc.Fluid).Amount
		}
		st := m.Slot(mc.Slot)
		if st.Empty() || (item != nil && !item.Matches(st)) {
			return 0
		}
		return st.Count
	}
	increase := mc.MinIncrease != nil
	var n int
	verb := "increases"
	if increase {
		n = mc.MinIncrease.Resolve(p)
	} else {
		n, verb = mc.MinDecrease.Resolve(p), "decreases"
	}
	where := ""
	var radius int
	if mc.Radius != nil {
		radius = mc.Radius.Resolve(p)
		where = fmt.Sprintf(" within %d", radius)
	}
	c := EffectCheck{Effect: fmt.Sprintf("%s%s %s by >= %d", what, where, verb, n)}
	center := before.Feet()
	found, best := false, 0
	for _, mb := range before.Machines {
		if mb.Kind != mc.Kind || (mc.Radius != nil && mb.Pos.DistSq(center) > radius*radius) {
			continue
		}
		ma, ok := machineAt(after, mb.Kind, mb.Pos)
		if !ok {
			continue // not seen after: nothing can be said about it
		}
		if mb.ContentsUnknown || ma.ContentsUnknown {
			// Its slots and tanks were not known before (or are not
			// after): what a look read would count as a change the skill
			// never made (a live coke oven's input, a Railcraft tank
			// before its master's data or window, a GregTech boiler's
			// water and fuel before its window, whose believed water a
			// pour on a full boiler would raise). Every skill with a
			// machine effect looks into such a machine first, in a step
			// of its own that reaches no effect, and acts on the next
			// (feed_coke_ovens, maintain_coke_ovens, feed_steam_boiler,
			// refill_water_tanks), so only known contents are compared.
			continue
		}
		b, a := value(mb), value(ma)
		change := a - b
		if !increase {
			change = b - a
		}
		if !found || change > best {
			found, best = true, change
			c.Before, c.After = b, a
		}
	}
	if !found {
		c.Effect += fmt.Sprintf(" (no %s%s seen before and after with known contents)", mc.Kind, where)
		return c
	}
	c.OK = best >= n
	return c
}

// machineAt is the machine of a kind ("" for any) at a position.
func machineAt(w *world.Snapshot, kind string, pos world.BlockPos) (world.Machine, bool) {
	for _, m := range w.Machines {
		if (kind == "" || m.Kind == kind) && m.Pos == pos {
			return m, true
		}
	}
	return world.Machine{}, false
}
