package base

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Player geometry and container sizes of Minecraft 1.7.10.
const (
	// reach is the survival block reach, eye to block.
	reach = 4.5
	// eyeHeight is the height of the player's eyes above the feet.
	eyeHeight = 1.62
	// workRadius is the move_to radius used to work at a machine or a block:
	// close enough that the block stays within reach wherever the body stops.
	workRadius = 3.0
	// bucketMB is the fluid in one bucket or cell, in millibuckets.
	bucketMB = 1000
	// stackSize is the stack limit of the bulk items the skills move (coal,
	// coke, logs, charcoal); machine slots hold one stack.
	stackSize = 64
	// hotBoilerC is the temperature above which a dry GregTech boiler
	// explodes when water reaches it.
	hotBoilerC = 100.0
)

// Parameter getters that fall back to the spec default when the parameter is
// absent, so skills can be driven with a bare Params map in tests. The
// registry resolves parameters against the spec, so at run time every
// declared parameter is present.

func intParam(p skills.Params, name string, def int) int {
	if p.Has(name) {
		return p.Int(name)
	}
	return def
}

func floatParam(p skills.Params, name string, def float64) float64 {
	if p.Has(name) {
		return p.Float(name)
	}
	return def
}

func boolParam(p skills.Params, name string, def bool) bool {
	if p.Has(name) {
		return p.Bool(name)
	}
	return def
}

// itemParam returns an item_id parameter as a matcher and its text.
func itemParam(p skills.Params, name, def string) (world.ItemMatcher, string, error) {
	raw := def
	if p.Has(name) {
		raw = p.String(name)
	}
	if raw == "" {
		return world.ItemMatcher{}, "", skills.Failf(skills.CodeInvalidParams, "parameter %q: an item id is required", name)
	}
	m, err := world.ParseItemMatcher(raw)
	if err != nil {
		return world.ItemMatcher{}, "", skills.Failf(skills.CodeInvalidParams, "parameter %q: %v", name, err)
	}
	return m, raw, nil
}

// itemKey identifies one kind of item: id and metadata.
type itemKey struct {
	id   string
	meta int
}

func keyOf(s world.ItemStack) itemKey { return itemKey{s.ID, s.Meta} }

// plainRef writes a stack's item as an exact id: "modid:name" for metadata 0,
// "modid:name:meta" otherwise.
func plainRef(s world.ItemStack) string {
	if s.Meta != 0 {
		return s.ID + ":" + strconv.Itoa(s.Meta)
	}
	return s.ID
}

// itemRef writes a stack's item as an exact id for an action that picks the
// item from inv. Metadata 0 is written as a bare id unless inv also holds
// another metadata of that id (coal next to charcoal, an empty cell next to
// a water cell), where a bare id would match both.
func itemRef(inv world.Inventory, s world.ItemStack) string {
	if s.Meta != 0 {
		return plainRef(s)
	}
	for _, o := range inv.Slots {
		if !o.Empty() && o.ID == s.ID && o.Meta != 0 {
			return s.ID + ":0"
		}
	}
	return s.ID
}

// withTags returns s with tags from the shipped table when the body sent
// none, so ore-dictionary matchers work on machine slot contents too. s is a
// copy; the snapshot is not touched.
func withTags(s world.ItemStack) world.ItemStack {
	if len(s.Tags) == 0 && !s.Empty() {
		s.Tags = rules.Default().Tags.ItemTags(s.ID, s.Meta)
	}
	return s
}

// canReach reports whether a player whose feet are in block stand can reach
// the centre of block target.
func canReach(stand, target world.BlockPos) bool {
	eye := world.Vec3{X: float64(stand.X) + 0.5, Y: float64(stand.Y) + eyeHeight, Z: float64(stand.Z) + 0.5}
	return eye.DistSq(target.Center()) <= reach*reach
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func ptr(p world.BlockPos) *world.BlockPos { return &p }

// positions formats block positions for messages.
func positions(ms []world.Machine) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.Pos.String()
	}
	return strings.Join(parts, ", ")
}

// pool is a local, mutable count of the inventory items matching a matcher,
// by item kind in inventory slot order. Planning consumes from the pool; the
// snapshot's inventory is never touched.
type pool struct {
	order []itemKey
	left  map[itemKey]int
	ref   map[itemKey]string
}

func newPool(inv world.Inventory, m world.ItemMatcher) *pool {
	p := &pool{left: map[itemKey]int{}, ref: map[itemKey]string{}}
	for _, s := range inv.Slots {
		if !m.Matches(s) {
			continue
		}
		k := keyOf(s)
		if _, seen := p.left[k]; !seen {
			p.order = append(p.order, k)
			p.ref[k] = itemRef(inv, s)
		}
		p.left[k] += s.Count
	}
	return p
}

// first returns the first item kind (in slot order) with items left.
func (p *pool) first() (itemKey, bool) {
	for _, k := range p.order {
		if p.left[k] > 0 {
			return k, true
		}
	}
	return itemKey{}, false
}

func (p *pool) total() int {
	n := 0
	for _, k := range p.order {
		n += p.left[k]
	}
	return n
}

// take removes up to n items of kind k and returns how many it removed.
func (p *pool) take(k itemKey, n int) int {
	n = min(n, p.left[k])
	p.left[k] -= n
	return n
}

// depositPlan is the result of planning deposits into machine slots.
type depositPlan struct {
	acts []action.Action
	// needy counts machines whose slot is below the target and could take
	// the fuel (empty, or holding a matching item).
	needy int
	// blocked lists machines below the target whose slot holds another item.
	blocked []world.Machine
}

// planDeposits tops up the named slot of each machine, in the given order, to
// target items of fuel taken from the pool: move_to, open_container,
// transfer_items (deposit), close_container per machine. A slot that already
// holds an item can only take more of the same item; a slot holding a
// different item is reported as blocked.
func planDeposits(ms []world.Machine, slot string, target int, fuel world.ItemMatcher, fp *pool) depositPlan {
	var plan depositPlan
	for _, m := range ms {
		cur := withTags(m.Slot(slot))
		have := 0
		if !cur.Empty() {
			have = cur.Count
		}
		limit := min(target, stackSize)
		if have >= limit {
			continue
		}
		var k itemKey
		if have > 0 {
			if !fuel.Matches(cur) {
				plan.blocked = append(plan.blocked, m)
				continue
			}
			k = keyOf(cur)
		} else {
			var ok bool
			if k, ok = fp.first(); !ok {
				plan.needy++
				continue
			}
		}
		plan.needy++
		n := fp.take(k, limit-have)
		if n <= 0 {
			continue
		}
		plan.acts = append(plan.acts,
			action.MoveTo{Pos: m.Pos, Radius: workRadius},
			action.OpenContainer{Pos: m.Pos},
			action.TransferItems{Pos: m.Pos, Item: fp.ref[k], Count: n, Direction: action.Deposit, Slot: slot},
			action.CloseContainer{},
		)
	}
	return plan
}

// formedOnly splits machines into formed multiblocks and the rest.
func formedOnly(ms []world.Machine) (formed, unformed []world.Machine) {
	for _, m := range ms {
		if m.Formed {
			formed = append(formed, m)
		} else {
			unformed = append(unformed, m)
		}
	}
	return formed, unformed
}

// fraction formats a fill level for messages.
func fraction(t world.FluidTank) string {
	if t.Capacity <= 0 {
		return fmt.Sprintf("%d mB", t.Amount)
	}
	return fmt.Sprintf("%d/%d mB (%.0f%%)", t.Amount, t.Capacity, math.Floor(100*float64(t.Amount)/float64(t.Capacity)))
}
