package chain

import (
	"fmt"
	"sort"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// dropSkill throws items away (skills/base).
const dropSkill = "drop_items"

// buildReserve is how many dirt and cobblestone stay held whatever the
// goal, a stack of each: the blocks the nights' walls, a pillar out of a
// pit or a digging route place. With 32, a quest run spent its dirt on
// walls over the days and then walled itself in with the cobblestone its
// furnace was gathered for, mined it back and walled in again until the
// quest's steps ran out.
const buildReserve = 64

// junk is what a player whose inventory is full throws away rather than
// carry to a chest: blocks every tunnel gives again, and saplings beyond a
// tree farm's (farmSize). Of each kind, keep stay held at least.
var junk = []struct {
	item string
	keep int
}{
	{"minecraft:dirt", buildReserve},
	{"minecraft:cobblestone", buildReserve},
	{"ore:treeSapling", farmSize},
}

// junkToDrop lists the junk held beyond what stays: of each kind (item
// and meta), the most of its reserve, of what the goal takes in all down
// its crafting and smelting recipes (inputAmounts) and of what the quests
// after this one ask for (goal.Keep); the goal's own items are never
// junk. The kind with most to throw comes first.
// Nothing outside the list is junk (tools, food, fuel, gravel).
func (s *search) junkToDrop(goal loop.Goal) []storable {
	amounts := s.inputAmounts(goal)
	kinds, first, counts := heldKinds(s.w.Inventory, func(world.ItemStack) bool { return true })
	var out []storable
	for _, k := range kinds {
		st, keep, isJunk := first[k], 0, false
		for _, j := range junk {
			if world.MustItem(j.item).Matches(st) {
				keep, isJunk = max(keep, j.keep), true
			}
		}
		if !isJunk {
			continue
		}
		keep = max(keep, amounts.of(st))
		if goalItem(goal, st) {
			continue // the goal's own items (a collect goal's haul) are never junk
		}
		for _, ig := range goal.Keep {
			if m, err := world.ParseItemMatcher(ig.Item); err == nil && m.Matches(st) {
				keep = max(keep, ig.Count)
			}
		}
		if counts[k] > keep && s.freedSlots(k, counts[k]-keep) > 0 {
			out = append(out, storable{Item: k, Keep: keep, Extra: counts[k] - keep})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Extra != out[j].Extra {
			return out[i].Extra > out[j].Extra
		}
		return out[i].Item < out[j].Item
	})
	return out
}

// goalItem reports whether st is one of the goal's items.
func goalItem(goal loop.Goal, st world.ItemStack) bool {
	for _, ig := range goal.Items {
		if m, err := world.ParseItemMatcher(ig.Item); err == nil && m.Matches(st) {
			return true
		}
	}
	return false
}

// freedSlots is how many slots throwing n of a kind (item and meta) away
// empties, the lowest slots first as drop_item takes them: 24 of one
// stack of 40 saplings empty none, and are not worth a step.
func (s *search) freedSlots(kind string, n int) int {
	m, err := world.ParseItemMatcher(kind)
	if err != nil {
		return 0
	}
	freed := 0
	for _, st := range s.w.Inventory.Slots {
		if n <= 0 {
			break
		}
		if st.Empty() || !m.Matches(st) {
			continue
		}
		if st.Count <= n {
			freed++
		}
		n -= st.Count
	}
	return freed
}

// dropWhenFull plans throwing junk away when the inventory is full (free
// slots at most storeFreeSlots), before anything goes to a chest: a
// player does not walk to a chest with a tunnel's dirt. ok is false with
// nothing to throw, or no skill to throw it with.
func (s *search) dropWhenFull(goal loop.Goal, free int) (loop.Decision, bool) {
	if free > storeFreeSlots || s.find(dropSkill) == nil {
		return loop.Decision{}, false
	}
	for _, j := range s.junkToDrop(goal) {
		inv := &loop.Invocation{Skill: dropSkill, Params: map[string]any{"item": j.Item}}
		if j.Keep > 0 {
			inv.Params["keep"] = j.Keep
		}
		if s.blocked[inv.String()] {
			continue
		}
		return loop.Decision{Invocation: inv, Reason: fmt.Sprintf(
			"the inventory is full (%d free slots) and nothing needs %d of the %d %s held: thrown away", free, j.Extra, j.Extra+j.Keep, j.Item)}, true
	}
	return loop.Decision{}, false
}
