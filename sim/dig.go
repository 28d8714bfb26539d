package sim

import (
	"fmt"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
	"github.com/gtnh-agent/gtnh-agent/world/path/digroute"
)

// tooling is how the simulator judges tools (config/mining.yaml; tools the
// table does not know count as iron-grade).
func (s *Sim) tooling() digroute.Tooling {
	return digroute.Tooling{
		Harvests: s.canHarvest,
		Speed:    func(_ int, st world.ItemStack, class string) float64 { return s.toolSpeed(st, class) },
	}
}

// digPlanner plans digging routes over the simulated world: machines (the
// furnace the player placed among them) and the blocks in keep (a move's
// keep list) stay standing by position.
func (s *Sim) digPlanner(tx *world.Tx, keep ...world.BlockPos) *digroute.Planner {
	kept := make(map[world.BlockPos]bool, len(keep))
	for _, p := range keep {
		kept[p] = true
	}
	return &digroute.Planner{
		Finder: s.finder,
		Grid:   grid{s, tx},
		State:  tx.StateAt,
		Block:  tx.BlockAt,
		Rule:   s.ruleOf,
		Keep: func(p world.BlockPos) bool {
			_, ok := tx.Machine(p)
			return ok || kept[p]
		},
		Rules:     s.rules,
		Tools:     s.tooling(),
		Inventory: tx.Inventory(),
		Weight:    digroute.Weight,
	}
}

// digRoute plans a route that digs (and places scaffold blocks, while the
// inventory has enough for the whole route): the fallback of move_to when
// no walking path exists, which is how a player reaches a buried block or
// climbs out of a pit (a staircase cut into its wall, or a pillar).
// byHand reports a route that breaks by hand what nothing held harvests
// (digroute.Planner.Route's last way out).
func (s *Sim) digRoute(tx *world.Tx, start world.BlockPos, goal path.Target, keep []world.BlockPos) (r path.Result, why string, byHand bool, err error) {
	p := s.digPlanner(tx, keep...)
	r, why, err = p.Route(start, goal)
	return r, why, p.ByHand, err
}

// followDigRoute carries out a digging route step by step: every block
// listed to break is broken with the inventory's fastest harvesting tool
// (which wears as break_block wears it) and its drops go to the
// inventory (by hand, on a route planned so, a block nothing held
// harvests: it drops nothing); every block listed to place is a scaffold
// block from the inventory. It returns the ticks the breaks and placements took beyond
// walking, and what was broken and placed.
func (s *Sim) followDigRoute(tx *world.Tx, r path.Result, byHand bool) (dug, placed int, err error) {
	for _, st := range r.Steps {
		d, p, err := s.digStep(tx, st, byHand)
		dug, placed = dug+d, placed+p
		if err != nil {
			return dug, placed, err
		}
	}
	return dug, placed, nil
}

// digStep breaks and places what one step of a dig route needs.
func (s *Sim) digStep(tx *world.Tx, st path.Step, byHand bool) (dug, placed int, err error) {
	breaks := append([]world.BlockPos(nil), st.Break...)
	for _, cell := range []world.BlockPos{st.Pos, st.Pos.Add(0, 1, 0)} {
		// Sand or gravel that fell into the body's way since the
		// route was planned (the refill of a dug cell): dig it out
		// too, as a player digs up through a gravel column.
		if rules.Falls(tx.BlockAt(cell).ID) && !slices.Contains(breaks, cell) {
			breaks = append(breaks, cell)
		}
	}
	for i := 0; i < len(breaks); i++ {
		p := breaks[i]
		b := tx.BlockAt(p)
		if b.IsAir() {
			continue
		}
		if rules.Falls(tx.BlockAt(p.Add(0, 1, 0)).ID) && len(breaks) < maxRefills+len(st.Break)+2 {
			breaks = append(breaks, p) // what falls in is dug next
		}
		inv := tx.Inventory()
		rule := s.ruleOf(b)
		slot, ok := digroute.BreakTool(inv, rule, s.tooling(), byHand)
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
		if slot >= 0 || s.canHarvest(rule, world.ItemStack{}) {
			for _, d := range s.drops(b) {
				s.give(&inv, d)
			}
		}
		tx.SetInventory(inv)
		dug++
	}
	for _, p := range st.Place {
		inv := tx.Inventory()
		var block string
		for _, id := range digroute.ScaffoldItems {
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
	return dug, placed, nil
}

// maxRefills bounds how many blocks falling into one step's cells are dug
// out again (a gravel column is rarely taller).
const maxRefills = 32

// digFailure is move_to's error when neither walking nor digging reaches
// the goal.
func digFailure(a action.MoveTo, start world.BlockPos, res path.Result, why string) ipc.Result {
	return ipc.Failf(ipc.Unreachable, 0, "no path from %v to within %.1f of %v, walking or digging (%s after %d nodes)%s",
		start, a.Radius, a.Pos, res.Reason, res.Expanded, why)
}
