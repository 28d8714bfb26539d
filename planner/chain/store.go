package chain

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// storeSkill puts items away in a chest (skills/base).
const storeSkill = "store_items"

// storeFreeSlots: with this many free inventory slots or fewer, what the
// goal does not need is put away before more is gathered (a slot or two
// stay free for the logs and planks of a chest, or a tool).
const storeFreeSlots = 2

// chestFreeSlots: with this many free inventory slots or fewer and no
// chest with room in sight, a chest is made ready (its logs, planks and
// flint need room too).
const chestFreeSlots = 6

// chestItem is the chest, as an item.
const chestItem = "minecraft:chest"

// fullStack is a stack of bulk items (cobblestone, dirt, logs): a collect
// goal's items are put away only when a stack of them is held, and of
// what the goal may still use (its inputs, fuel) a stack is kept.
const fullStack = 64

// inputDepth bounds how many recipe levels below the goal's items count
// as the goal's inputs.
const inputDepth = 8

// storable is a kind of item the inventory holds more of than the goal
// needs: Item (id:meta) beyond Keep goes into a chest.
type storable struct {
	Item  string
	Keep  int
	Extra int
	Goal  bool // an item a collect goal gathers (its haul)
	node  *loop.PlanNode
}

// storeWhenFull plans emptying an all-but-full inventory into a chest as a
// player does: a collect goal's haul first (a stack of it held), then
// what the goal has no use for (dirt from a tunnel, gravel, seeds), then
// the surplus of what it may use beyond a stack; tools and food are
// always kept. It stores in a chest with room in sight, or in one placed
// from the inventory, and makes a chest ready (crafted) when the
// inventory is filling up and there is none. ok is false when nothing
// needs storing or it cannot be planned (the goal's own steps then say
// why).
func (s *search) storeWhenFull(goal loop.Goal, parts, itemParts []*loop.PlanNode) (loop.Decision, *loop.PlanNode, bool) {
	free := 0
	for _, st := range s.w.Inventory.Slots {
		if st.Empty() {
			free++
		}
	}
	if free > chestFreeSlots {
		return loop.Decision{}, nil, false
	}
	var next *loop.PlanNode
	for _, n := range parts {
		if n.State != loop.PlanMet {
			next = n
			break
		}
	}
	if dec, ok := s.dropWhenFull(goal, free); ok {
		s.node = next
		return dec, next, true
	}
	if s.find(storeSkill) == nil {
		return loop.Decision{}, nil, false
	}
	if free > storeFreeSlots && s.find(dropSkill) != nil && len(s.junkToDrop(goal)) > 0 {
		// Junk to throw away frees slots when the inventory is full: no
		// chest is made for it.
		return loop.Decision{}, nil, false
	}
	cands := s.storables(goal, parts, itemParts)
	if len(cands) == 0 {
		return loop.Decision{}, nil, false
	}
	first := cands[0]
	s.node = first.node
	why := fmt.Sprintf("the inventory is filling up (%d free slots): %s goes into a chest", free, first.Item)
	if !first.Goal {
		why = fmt.Sprintf("the inventory is filling up (%d free slots) and the goal has no use for %d %s: into a chest", free, first.Extra, first.Item)
	}
	m, _ := world.ParseItemMatcher(first.Item)
	if !s.chestWithRoom(m) && s.w.Inventory.CountID(chestItem) == 0 {
		inv, err := s.obtain(chestItem, 1, 0)
		if err == nil && inv != nil && !s.blocked[inv.String()] {
			return loop.Decision{Invocation: inv, Reason: why + " (a chest first)"}, first.node, true
		}
	}
	if free > storeFreeSlots {
		return loop.Decision{}, nil, false
	}
	placing := !s.chestWithRoom(world.ItemMatcher{})
	for _, c := range cands {
		inv := &loop.Invocation{Skill: storeSkill, Params: map[string]any{"item": c.Item}}
		if c.Keep > 0 {
			inv.Params["keep"] = c.Keep
		}
		if s.blocked[inv.String()] {
			if placing {
				// With no chest with room in sight every kind goes into
				// the chest to be placed here: where one could not be
				// placed, the next kind fails the same way.
				break
			}
			continue
		}
		if c != first {
			why = fmt.Sprintf("the inventory is filling up (%d free slots): %d %s goes into a chest", free, c.Extra, c.Item)
		}
		return loop.Decision{Invocation: inv, Reason: why}, c.node, true
	}
	return loop.Decision{}, nil, false
}

// storables lists what could go into a chest, in the order it goes: the
// haul of the collect goals (a stack or more held, the goal not met yet),
// then the other kinds by how many would go, most first. Of every kind
// that is not a tool or food, what the goal does not need goes: all of it
// when the goal has no use for it, what is beyond a stack when it may
// (an item of the goal, an input of one down its recipes, fuel, the
// makings of a chest).
func (s *search) storables(goal loop.Goal, parts, itemParts []*loop.PlanNode) []storable {
	var out []storable
	var hauled matchers
	for i, ig := range goal.Items {
		m, err := world.ParseItemMatcher(ig.Item)
		if !ig.Gain || err != nil {
			continue
		}
		if s.w.Inventory.Count(m) < fullStack || ig.Gathered(s.w, m) >= ig.Target() {
			continue
		}
		out = append(out, storable{Item: ig.Item, Extra: s.w.Inventory.Count(m), Goal: true, node: itemParts[i]})
		hauled = append(hauled, m)
	}
	var node *loop.PlanNode
	for _, n := range parts {
		if n.State != loop.PlanMet {
			node = n
			break
		}
	}
	if node == nil {
		return out
	}
	needed := s.inputs(goal)
	amounts := s.inputAmounts(goal)
	kinds, first, counts := heldKinds(s.w.Inventory, func(st world.ItemStack) bool {
		if st.MaxDamage > 0 || hasToolClass(st) {
			return false // a tool, worn or not
		}
		_, food := s.Food.Of(st)
		return !food
	})
	var rest []storable
	for _, k := range kinds {
		st, keep := first[k], 0
		if hauled.matches(st) {
			continue // stored as the goal's haul
		}
		if s.Smelt.BurnTicks(st) > 0 || needed.matches(st) {
			keep = fullStack
		}
		if needed.matches(st) {
			// An input the goal takes more than a stack of (the coke
			// oven's 175 sand) stays held as a whole: stored beyond a
			// stack, it was gathered again and stored again, turn by
			// turn, until the steps ran out.
			keep = max(keep, amounts.of(st))
		}
		for _, ig := range goal.Items {
			// What a "have" goal wants held stays held.
			if m, err := world.ParseItemMatcher(ig.Item); err == nil && !ig.Gain && m.Matches(st) {
				keep = max(keep, ig.Target())
			}
		}
		if counts[k] > keep {
			rest = append(rest, storable{Item: k, Keep: keep, Extra: counts[k] - keep, node: node})
		}
	}
	sort.SliceStable(rest, func(i, j int) bool {
		if rest[i].Extra != rest[j].Extra {
			return rest[i].Extra > rest[j].Extra
		}
		return rest[i].Item < rest[j].Item
	})
	return append(out, rest...)
}

// hasToolClass reports whether a stack carries a tool class (tool:pickaxe).
func hasToolClass(st world.ItemStack) bool {
	for _, t := range st.Tags {
		if strings.HasPrefix(t, "tool:") {
			return true
		}
	}
	return false
}

// matchers is a set of item matchers.
type matchers []world.ItemMatcher

func (ms matchers) matches(st world.ItemStack) bool {
	for _, m := range ms {
		if m.Matches(st) {
			return true
		}
	}
	return false
}

// inputs lists what the goal may use: its items and its structures'
// blocks, a chest's makings, and what they are crafted, smelted or baked
// from, inputDepth recipe levels down (an ore-dictionary name stands for
// the items carrying it).
func (s *search) inputs(goal loop.Goal) matchers {
	var out matchers
	seen := map[string]bool{}
	var walk func(item string, depth int)
	walk = func(item string, depth int) {
		if seen[item] || depth > inputDepth {
			return
		}
		seen[item] = true
		m, err := world.ParseItemMatcher(item)
		if err != nil {
			return
		}
		out = append(out, m)
		if m.IsTag() {
			for _, exact := range s.craftableWithTag(item) {
				walk(exact, depth+1)
			}
		}
		for _, r := range s.Recipes.For(item) {
			for _, in := range r.Ingredients {
				walk(in.Item.String(), depth+1)
			}
			if r.AtStation() {
				walk(r.Station, depth+1) // the Tinkers' table it is made at
			}
		}
		for _, r := range s.Smelt.For(item) {
			walk(r.Input.String(), depth+1)
		}
		for _, r := range s.Coke.All() {
			if r.Output == item {
				walk(r.Input.String(), depth+1)
			}
		}
		if _, ok := s.rawOreMaterial(item); ok {
			// A raw ore is mined with a pickaxe of its level: the parts
			// of one the plan builds (Upgrade 2.0's head, the binding)
			// stay at hand.
			walk("tool:pickaxe", depth)
		}
	}
	for _, ig := range goal.Items {
		walk(ig.Item, 0)
	}
	for _, bg := range goal.Builds {
		if bp, ok := s.Builds.Get(bg.Name); ok {
			for _, bc := range bp.Blocks() {
				walk(bc.Block.Item(), 0)
			}
		}
	}
	walk(chestItem, 0)
	return out
}

// amountList is how much of each item a goal takes in all, down its
// recipes.
type amountList []struct {
	m world.ItemMatcher
	n int
}

// of is the most any entry matching st asks for.
func (a amountList) of(st world.ItemStack) int {
	n := 0
	for _, e := range a {
		if e.m.Matches(st) {
			n = max(n, e.n)
		}
	}
	return n
}

// maxAmount bounds what inputAmounts counts of one item: four stacks, so
// that a long gathering goal (a thousand charcoal) keeps no more than four
// slots of its logs from the chest, and the inventory still fills with
// what is worth storing.
const maxAmount = 4 * fullStack

// inputAmounts is how many of each item the goal's items and structures
// take in all, down their crafting and smelting recipes (inputDepth
// levels; of an item's recipes, the one that takes most): the whole
// amount a player gathers before crafting, where inputs only says which
// items count.
func (s *search) inputAmounts(goal loop.Goal) amountList {
	total := map[string]int{}
	var walk func(item string, n, depth int)
	walk = func(item string, n, depth int) {
		if n <= 0 || depth > inputDepth {
			return
		}
		n = min(n, maxAmount)
		total[item] = min(total[item]+n, maxAmount)
		if m, err := world.ParseItemMatcher(item); err == nil && m.IsTag() {
			return
		}
		takes := map[string]int{}
		for _, r := range s.Recipes.For(item) {
			crafts := (n + max(r.Count, 1) - 1) / max(r.Count, 1)
			for _, in := range r.Ingredients {
				takes[in.Item.String()] = max(takes[in.Item.String()], crafts*max(in.Count, 1))
			}
		}
		for _, r := range s.Smelt.For(item) {
			takes[r.Input.String()] = max(takes[r.Input.String()], (n+max(r.Count, 1)-1)/max(r.Count, 1))
		}
		for in, k := range takes {
			walk(in, k, depth+1)
		}
	}
	for _, ig := range goal.Items {
		walk(ig.Item, ig.Target(), 0)
	}
	for _, bg := range goal.Builds {
		if bp, ok := s.Builds.Get(bg.Name); ok {
			per := map[string]int{}
			for _, bc := range bp.Blocks() {
				per[bc.Block.Item()]++
			}
			for it, n := range per {
				walk(it, n, 0)
			}
		}
	}
	var out amountList
	for it, n := range total {
		if m, err := world.ParseItemMatcher(it); err == nil {
			out = append(out, struct {
				m world.ItemMatcher
				n int
			}{m, n})
		}
	}
	return out
}

// chestWithRoom reports whether a chest in sight within the storing
// skill's default reach has a free slot or a stack of m that is not full
// (a free slot, for the zero matcher).
func (s *search) chestWithRoom(m world.ItemMatcher) bool {
	for _, c := range s.w.Machines {
		if c.Kind != world.MachineChest || c.ContentsUnknown || c.Pos.DistSq(s.w.Feet()) > 32*32 {
			continue
		}
		used := 0
		for _, st := range c.Slots {
			if st.Empty() {
				continue
			}
			used++
			if m.Matches(st) && st.Count < fullStack {
				return true
			}
		}
		if used < 27 {
			return true
		}
	}
	return false
}

// heldKinds groups the inventory's stacks that pass keep by kind
// ("modid:name:meta"): the kinds in slot order, a stack of each (for its
// tags) and how many of each are held.
func heldKinds(inv world.Inventory, keep func(world.ItemStack) bool) (kinds []string, first map[string]world.ItemStack, counts map[string]int) {
	first, counts = map[string]world.ItemStack{}, map[string]int{}
	for _, st := range inv.Slots {
		if st.Empty() || !keep(st) {
			continue
		}
		k := fmt.Sprintf("%s:%d", st.ID, st.Meta)
		if _, ok := first[k]; !ok {
			kinds = append(kinds, k)
			first[k] = st
		}
		counts[k] += st.Count
	}
	return kinds, first, counts
}
