package chain

import (
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// spareBelow is how few uses a tool has left, the best of its kind held,
// before the plan makes another before a step that needs it: a player
// keeps a spare pickaxe rather than go down with one that wears out on
// the way (a night's shelter is three blocks down and its way out as many
// up; a digging route wears the pickaxe a use a block, as mining does).
const spareBelow = 8

// spare is the first step towards another tool of a kind when the best
// held (in slot) has fewer than spareBelow uses left (durability is in
// the world model: ItemStack.Durability), nil when it has more or
// another cannot be made now (the worn one serves to its end).
func (s *search) spare(item string, tm world.ItemMatcher, slot, depth int) *loop.Invocation {
	if left := s.w.Inventory.Slots[slot].Durability(); left < 0 || left >= spareBelow {
		return nil
	}
	mark := s.mark()
	sub, err := s.obtain(item, s.w.Inventory.Count(tm)+1, depth+1)
	if err != nil || sub == nil {
		s.rollback(mark)
		return nil
	}
	return sub
}
