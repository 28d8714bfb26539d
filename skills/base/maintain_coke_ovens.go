package base

import (
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(MaintainCokeOvens{}) }

// MaintainCokeOvens empties the output and creosote tanks of nearby coke ovens.
//
// GTNH behaviour: a Railcraft coke oven stops working when its output slot
// is full (64 coal coke or charcoal) or when its creosote tank (64 buckets)
// cannot take the creosote of the next item, so a coke oven line has to be
// emptied regularly. Creosote can be drained by right-clicking the oven with
// an empty bucket or cell; each takes exactly 1000 mB.
//
// For each formed oven within radius, nearest first:
//   - when its output slot holds at least min_output items, withdraw them:
//     move_to (radius 3), open_container, transfer_items{withdraw, slot
//     "output"}, close_container. The item is whatever the slot holds
//     ("Railcraft:fuel.coke" for coal coke, "minecraft:coal:1" for charcoal
//     from logs), as many as the inventory has room for;
//   - when its creosote tank is fuller than drain_threshold of its capacity,
//     use_item an empty bucket or cell (ore:bucketEmpty, ore:cellEmpty) on
//     the oven once per full 1000 mB, while empty containers last. Each use
//     is counted as needing one free inventory slot for the filled container
//     (a filled bucket does not stack), a deliberately safe estimate.
//
// An oven whose contents the body does not know (world.Machine's
// ContentsUnknown: a live server sends a Railcraft oven's slots and tank
// only to a player with its window open) is looked into: move_to,
// open_container, close_container. Opening it makes its contents known, so
// the next invocation collects what it holds; the look alone collects
// nothing and so does not meet the skill's declared effects.
//
// Nothing to collect or drain is no actions and no error; no formed oven in
// range is no_target; output to collect with no inventory room at all (no
// free slot and no partial stack of that item) is missing_items ("inventory
// full"), as is creosote to drain with no empty container. When part of the
// work is possible, the skill does that part.
type MaintainCokeOvens struct{}

// Name implements skills.Implementation.
func (MaintainCokeOvens) Name() string { return "maintain_coke_ovens" }

// SuggestActions implements skills.Implementation.
func (MaintainCokeOvens) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	radius := intParam(p, "radius", 24)
	minOutput := max(1, intParam(p, "min_output", 1))
	threshold := floatParam(p, "drain_threshold", 0.75)

	ovens, unformed := formedOnly(w.MachinesOfKind(world.MachineCokeOven, radius))
	if len(ovens) == 0 {
		if len(unformed) > 0 {
			return nil, skills.Failf(skills.CodeNoTarget,
				"%d coke oven(s) within %d blocks but none is formed (at %s)", len(unformed), radius, positions(unformed))
		}
		return nil, skills.Failf(skills.CodeNoTarget, "no coke oven within %d blocks of %s", radius, w.Feet())
	}

	inv := w.Inventory
	space := newInvSpace(inv)
	empties := newContainers(inv, world.MustItem("ore:bucketEmpty"), world.MustItem("ore:cellEmpty"))

	var acts []action.Action
	var full, dry []string // what could not be done, for the failure message
	for _, oven := range ovens {
		var visit []action.Action
		if oven.ContentsUnknown {
			acts = append(acts, action.MoveTo{Pos: oven.Pos, Radius: workRadius},
				action.OpenContainer{Pos: oven.Pos}, action.CloseContainer{})
			continue
		}
		if out := oven.Slot("output"); !out.Empty() && out.Count >= minOutput {
			if n := space.fit(keyOf(out), out.Count); n > 0 {
				visit = append(visit,
					action.OpenContainer{Pos: oven.Pos},
					action.TransferItems{Pos: oven.Pos, Item: plainRef(out), Count: n, Direction: action.Withdraw, Slot: "output"},
					action.CloseContainer{},
				)
			} else {
				full = append(full, out.String()+" at "+oven.Pos.String())
			}
		}
		if tank := oven.Fluid("creosote"); tank.Capacity > 0 && tank.Amount >= bucketMB &&
			float64(tank.Amount) > threshold*float64(tank.Capacity) {
			uses := 0
			for k := tank.Amount / bucketMB; k > 0 && space.free > 0; k-- {
				ref, ok := empties.take()
				if !ok {
					break
				}
				space.free--
				uses++
				visit = append(visit, action.UseItem{Item: ref, Target: ptr(oven.Pos)})
			}
			if uses == 0 {
				dry = append(dry, "creosote "+fraction(tank)+" at "+oven.Pos.String())
			}
		}
		if len(visit) > 0 {
			acts = append(acts, action.MoveTo{Pos: oven.Pos, Radius: workRadius})
			acts = append(acts, visit...)
		}
	}
	switch {
	case len(acts) > 0:
		return acts, nil
	case len(full) > 0:
		return nil, skills.Failf(skills.CodeMissingItems, "inventory full: no room to collect %s", strings.Join(full, ", "))
	case len(dry) > 0 && empties.total == 0:
		return nil, skills.Failf(skills.CodeMissingItems,
			"no empty bucket or cell in the inventory to drain %s", strings.Join(dry, ", "))
	case len(dry) > 0:
		return nil, skills.Failf(skills.CodeMissingItems,
			"inventory full: no free slot for a filled container to drain %s", strings.Join(dry, ", "))
	}
	return nil, nil
}

// invSpace is a local estimate of the inventory's room: free slots and the
// room left in partial stacks, by item kind.
type invSpace struct {
	free int
	room map[itemKey]int
}

func newInvSpace(inv world.Inventory) *invSpace {
	s := &invSpace{free: inv.FreeSlots(), room: map[itemKey]int{}}
	for _, st := range inv.Slots {
		if !st.Empty() && st.Count < stackSize {
			s.room[keyOf(st)] += stackSize - st.Count
		}
	}
	return s
}

// fit reserves room for up to n items of kind k (partial stacks first, then
// free slots) and returns how many fit.
func (s *invSpace) fit(k itemKey, n int) int {
	n = min(n, s.room[k]+s.free*stackSize)
	fromRoom := min(n, s.room[k])
	s.room[k] -= fromRoom
	if rest := n - fromRoom; rest > 0 {
		slots := ceilDiv(rest, stackSize)
		s.free -= slots
		s.room[k] += slots*stackSize - rest
	}
	return n
}

// containers counts fluid containers in the inventory, in slot order, and
// hands them out one at a time.
type containers struct {
	refs  []string
	left  []int
	total int
}

func newContainers(inv world.Inventory, ms ...world.ItemMatcher) *containers {
	c := &containers{}
	for _, s := range inv.Slots {
		for _, m := range ms {
			if m.Matches(s) {
				c.refs = append(c.refs, itemRef(inv, s))
				c.left = append(c.left, s.Count)
				c.total += s.Count
				break
			}
		}
	}
	return c
}

// take returns the item of the next container, or false when none is left.
func (c *containers) take() (string, bool) {
	for i := range c.left {
		if c.left[i] > 0 {
			c.left[i]--
			c.total--
			return c.refs[i], true
		}
	}
	return "", false
}
