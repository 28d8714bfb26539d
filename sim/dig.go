package sim

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// scaffoldItems are the blocks a digging route places to pillar up or
// bridge a gap, in the order they are used: blocks a player has plenty of
// and that stand where they are put (sand and gravel fall).
var scaffoldItems = []string{"minecraft:dirt", "minecraft:cobblestone"}

// digTool is the inventory slot that breaks a block fastest while still
// harvesting it, and the ticks it takes; ok is false when no slot (the
// empty hand included) harvests a block that needs a tool: a route does
// not dig through stone with bare hands (150 ticks a block, and nothing to
// show for it).
func (s *Sim) digTool(inv world.Inventory, rule rules.BlockRule) (slot int, ticks float64, ok bool) {
	if rule.Hardness < 0 {
		return -1, 0, false
	}
	slot, ticks = -1, math.Inf(1)
	try := func(i int, st world.ItemStack) {
		if !s.canHarvest(rule, st) {
			return
		}
		t := 0.0
		if rule.Hardness > 0 {
			t = rules.BreakTicks(rule.Hardness, s.toolSpeed(st, rule.Tool), true)
		}
		if t < ticks {
			slot, ticks = i, t
		}
	}
	try(-1, world.ItemStack{})
	for i, st := range inv.Slots {
		if !st.Empty() {
			try(i, st)
		}
	}
	return slot, ticks, !math.IsInf(ticks, 1)
}

// keepKind reports whether a digging route must leave a block of this
// kind standing wherever it is: containers, crafting tables and a
// blueprint's blocks are the player's own. (Machines, the furnace the
// player placed among them, and the move's destination are kept by
// position.)
func (s *Sim) keepKind(b world.Block) bool {
	if b.HasTag("container") || b.HasTag("liquid") || b.ID == "minecraft:crafting_table" {
		return true
	}
	return len(s.rules.Builds.Using(b.ID, b.Meta)) > 0
}

// digBlocker records, for the failure message, the blocks a digging
// search could not break for want of a tool.
type digBlocker map[string]string

func (d digBlocker) String() string {
	if len(d) == 0 {
		return ""
	}
	ids := make([]string, 0, len(d))
	for id := range d {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id + " needs " + d[id]
	}
	return "; " + strings.Join(parts, ", ")
}

// digOptions are the search options of a route that may break blocks
// (each costed by the fastest harvesting tool in the inventory and the
// block's hardness, config/mining.yaml) and, when the inventory holds
// scaffold blocks, place them to pillar up or bridge.
func (s *Sim) digOptions(tx *world.Tx, dest world.BlockPos, place bool, blocked digBlocker) path.Options {
	inv := tx.Inventory()
	// The time depends on the block's state and the inventory only, and
	// the search asks for the same kinds of block again and again.
	byState := map[chunk.StateID]float64{}
	return path.Options{
		MaxNodes: digMaxNodes,
		Dig:      true,
		Place:    place,
		DigTicks: func(x, y, z int) float64 {
			p := world.Pos(x, y, z)
			if p == dest {
				return -1
			}
			if _, ok := tx.Machine(p); ok {
				return -1
			}
			st := tx.StateAt(p)
			if t, ok := byState[st]; ok {
				return t
			}
			t := s.stateDigTicks(tx.BlockAt(p), inv, blocked)
			byState[st] = t
			return t
		},
	}
}

// stateDigTicks is the time to break a block (of any position) with the
// inventory's best harvesting tool, -1 when a route must not break it.
func (s *Sim) stateDigTicks(b world.Block, inv world.Inventory, blocked digBlocker) float64 {
	if s.keepKind(b) {
		return -1
	}
	rule := s.ruleOf(b)
	_, t, ok := s.digTool(inv, rule)
	if !ok {
		if rule.Hardness >= 0 {
			blocked[b.ID] = "a " + rule.Tool
			if rule.Level > 0 {
				blocked[b.ID] = fmt.Sprintf("a %s of harvest level %d", rule.Tool, rule.Level)
			}
		}
		return -1
	}
	return t
}

// digMaxNodes bounds a digging search: digging is for the way out of a
// pit or down to a nearby block, and a search that finds no way (no
// pickaxe for the stone) stops here instead of digging through the
// whole countryside's soil in its head.
const digMaxNodes = 20000

// scaffoldCount is how many scaffold blocks the inventory holds.
func scaffoldCount(inv world.Inventory) int {
	n := 0
	for _, id := range scaffoldItems {
		n += inv.Count(world.MustItem(id))
	}
	return n
}

// digRoute plans a route that digs (and places scaffold blocks, while the
// inventory has enough for the whole route): the fallback of move_to when
// no walking path exists, which is how a player reaches a buried block or
// climbs out of a pit (a staircase cut into its wall, or a pillar).
func (s *Sim) digRoute(tx *world.Tx, start world.BlockPos, goal path.Target) (path.Result, string, error) {
	blocked := digBlocker{}
	have := scaffoldCount(tx.Inventory())
	var res path.Result
	for _, place := range []bool{true, false} {
		if place && have == 0 {
			continue
		}
		r, err := s.finder.Find(grid{s, tx}, start, goal, s.digOptions(tx, goal.Pos, place, blocked))
		if err != nil {
			return r, "", err
		}
		res = r
		if r.Complete && placements(r) <= have {
			return r, "", nil
		}
	}
	why := blocked.String()
	if have == 0 {
		why += "; no dirt or cobblestone to pillar or bridge with"
	}
	res.Complete = false
	return res, why, nil
}

func placements(r path.Result) int {
	n := 0
	for _, st := range r.Steps {
		n += len(st.Place)
	}
	return n
}

// followDigRoute carries out a digging route step by step: every block
// listed to break is broken with the inventory's fastest harvesting tool
// (which wears as break_block wears it) and its drops go to the
// inventory; every block listed to place is a scaffold block from the
// inventory. It returns the ticks the breaks and placements took beyond
// walking, and what was broken and placed.
func (s *Sim) followDigRoute(tx *world.Tx, r path.Result) (dug, placed int, err error) {
	for _, st := range r.Steps {
		for _, p := range st.Break {
			b := tx.BlockAt(p)
			if b.IsAir() {
				continue
			}
			inv := tx.Inventory()
			rule := s.ruleOf(b)
			slot, _, ok := s.digTool(inv, rule)
			if !ok {
				return dug, placed, fmt.Errorf("cannot break %s at %v with anything in the inventory", b.ID, p)
			}
			if err := tx.SetBlock(p, "minecraft:air", 0); err != nil {
				return dug, placed, err
			}
			s.blockChanged(tx, p)
			if slot >= 0 {
				inv.Slots[slot] = rules.Worn(inv.Slots[slot], rules.Wear(inv.Slots[slot], rule.Hardness))
			}
			for _, d := range s.drops(b) {
				s.give(&inv, d)
			}
			tx.SetInventory(inv)
			dug++
		}
		for _, p := range st.Place {
			inv := tx.Inventory()
			var block string
			for _, id := range scaffoldItems {
				if _, ok := take(&inv, world.MustItem(id), 1); ok {
					block = id
					break
				}
			}
			if block == "" {
				return dug, placed, fmt.Errorf("no dirt or cobblestone left to place at %v", p)
			}
			if err := tx.SetBlock(p, block, 0); err != nil {
				return dug, placed, err
			}
			tx.SetInventory(inv)
			s.blockChanged(tx, p)
			placed++
		}
	}
	return dug, placed, nil
}

// digFailure is move_to's error when neither walking nor digging reaches
// the goal.
func digFailure(a action.MoveTo, start world.BlockPos, res path.Result, why string) ipc.Result {
	return ipc.Failf(ipc.Unreachable, 0, "no path from %v to within %.1f of %v, walking or digging (%s after %d nodes)%s",
		start, a.Radius, a.Pos, res.Reason, res.Expanded, why)
}
