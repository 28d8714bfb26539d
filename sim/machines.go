package sim

import (
	"sort"
	"strconv"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// advance runs the world for n ticks: the clock moves on and every machine
// works for that time, in position order.
func (s *Sim) advance(tx *world.Tx, n int64) {
	start := tx.Tick()
	tx.AdvanceTick(n)
	snap := s.machinesOf(tx)
	for _, m := range snap {
		switch m.Kind {
		case world.MachineCokeOven:
			s.runCokeOven(tx, m, start, n)
		case world.MachineSteamBoiler:
			s.runBoiler(tx, m, n)
		}
	}
}

func (s *Sim) machinesOf(tx *world.Tx) []world.Machine {
	var out []world.Machine
	for _, mm := range s.sc.Machines {
		if m, ok := tx.Machine(mm.Pos); ok {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos.Less(out[j].Pos) })
	return out
}

// runCokeOven: a formed oven cokes one input item per recipe time,
// producing the output and creosote (into a tank that stops the oven when
// full). Progress is kept as a fraction of the current item.
func (s *Sim) runCokeOven(tx *world.Tx, m world.Machine, _ int64, n int64) {
	if !m.Formed {
		return
	}
	left := n
	for left > 0 {
		in := m.Slots["input"]
		r, ok := cokeRecipeFor(in)
		if in.Empty() || !ok {
			m.Active, m.Progress = false, 0
			break
		}
		out := m.Slots["output"]
		if !out.Empty() && (out.ID != r.output || out.Meta != r.meta || out.Count >= stackMax) {
			m.Active = false
			break
		}
		tank := m.Fluids["creosote"]
		if tank.Capacity > 0 && tank.Amount+r.creosote > tank.Capacity {
			m.Active = false
			break
		}
		m.Active = true
		need := int64((1 - m.Progress) * float64(r.ticks))
		if left < need {
			m.Progress += float64(left) / float64(r.ticks)
			left = 0
			break
		}
		left -= need
		m.Progress = 0
		in.Count--
		if in.Count == 0 {
			delete(m.Slots, "input")
		} else {
			m.Slots["input"] = in
		}
		if out.Empty() {
			out = world.NewStack(r.output, r.meta, 0)
		}
		out.Count++
		m.Slots["output"] = out
		if tank.Capacity > 0 {
			tank.Fluid = "creosote"
			tank.Amount += r.creosote
			m.Fluids["creosote"] = tank
		}
	}
	tx.PutMachine(m)
}

// runBoiler: a small coal boiler burns its fuel slot item by item; while it
// burns it heats up, otherwise it cools; above 100 °C it boils water into
// steam (160 mB of steam per mB of water). A boiler that runs dry stays hot:
// adding water then makes it explode (see useItem).
func (s *Sim) runBoiler(tx *world.Tx, m world.Machine, n int64) {
	burn := int64(m.Progress) // remaining burn ticks of the current item
	for t := int64(0); t < n; t++ {
		if burn <= 0 {
			fuel := m.Slots["fuel"]
			if bt, ok := burnTicks[fuel.ID]; ok && !fuel.Empty() {
				fuel.Count--
				if fuel.Count == 0 {
					delete(m.Slots, "fuel")
				} else {
					m.Slots["fuel"] = fuel
				}
				burn = int64(bt)
			}
		}
		if burn > 0 {
			burn--
			if t%heatTicks == 0 && m.Temperature < maxBoilerC {
				m.Temperature++
			}
		} else if t%coolTicks == 0 && m.Temperature > 20 {
			m.Temperature--
		}
		if m.Temperature > 100 && t%20 == 0 {
			water := m.Fluids["water"]
			used := min(water.Amount, waterPerSecond)
			if used > 0 {
				water.Amount -= used
				m.Fluids["water"] = water
				steam := m.Fluids["steam"]
				steam.Fluid = "steam"
				steam.Amount = min(steam.Capacity, steam.Amount+used*steamPerWater)
				m.Fluids["steam"] = steam
			}
		}
	}
	m.Active = burn > 0
	m.Progress = float64(burn)
	tx.PutMachine(m)
}

// sortSlots orders slot names: numbers numerically, then names.
func sortSlots(names []string) {
	sort.Slice(names, func(i, j int) bool {
		a, errA := strconv.Atoi(names[i])
		b, errB := strconv.Atoi(names[j])
		switch {
		case errA == nil && errB == nil:
			return a < b
		case errA == nil:
			return true
		case errB == nil:
			return false
		}
		return names[i] < names[j]
	})
}
