package sim

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Machine rules run tick by tick on the world clock: a periodic event
// happens on the absolute ticks the game would run it on (GregTech's and
// Railcraft's tile entities test their tick counter modulo the period), so
// how actions chop time (1,200 waits of one tick or one of 1,200) never
// changes a machine.

// boilerCore is the part of a GregTech boiler's tile entity a player does
// not see (MTEBoiler's fields of the same names).
type boilerCore struct {
	processingEnergy int  // mProcessingEnergy: fuel energy left
	lossTimer        int  // mLossTimer: ticks towards the next degree lost
	hadNoWater       bool // mHadNoWater: it was above 100 °C with no water
	excessWater      int  // mExcessWater: steam made but not yet paid in water
}

// ovenCore is the hidden state of a Railcraft coke oven (TileMultiBlockOven).
type ovenCore struct {
	cookTime int // cookTime: ticks cooked of the current item
}

// furnaceCore is a vanilla furnace's hidden state (TileEntityFurnace's
// fields of the same names).
type furnaceCore struct {
	burnTime        int // furnaceBurnTime: ticks of fuel left
	currentBurnTime int // currentItemBurnTime: the burning item's full time
	cookTime        int // furnaceCookTime: ticks cooked of the current item
}

// runFurnace runs a furnace over ticks start+1 … start+n as vanilla
// 1.7.10's TileEntityFurnace.updateEntity does each tick: burning fuel
// counts down; when nothing burns and the input can smelt (a recipe, and
// an output slot that can take the product), one fuel item is taken and
// burns for its burn time; while it burns and the input can smelt the item
// cooks a tick and is done at CookTicks; otherwise the cooking is lost
// (cookTime = 0). Progress is the current item's share cooked; Active is
// burning.
func (s *Sim) runFurnace(tx *world.Tx, m world.Machine, start, n int64) {
	c := s.furnaces[m.Pos]
	sm := s.rules.Smelt
	canSmelt := func() (rules.SmeltRecipe, bool) {
		in := m.Slots["input"]
		if in.Empty() {
			return rules.SmeltRecipe{}, false
		}
		r, ok := sm.Recipe(in)
		if !ok {
			return r, false
		}
		out := m.Slots["output"]
		id, meta, _ := world.SplitID(r.Output)
		return r, out.Empty() || out.ID == id && out.Meta == max(meta, 0) && out.Count+r.Count <= stackMax
	}
	for t := int64(0); t < n; t++ {
		if c.burnTime > 0 {
			c.burnTime--
		}
		r, ok := canSmelt()
		if c.burnTime == 0 && ok {
			if fuel := m.Slots["fuel"]; !fuel.Empty() {
				if ticks := sm.BurnTicks(fuel); ticks > 0 {
					c.burnTime, c.currentBurnTime = ticks, ticks
					fuel.Count--
					if fuel.Count == 0 {
						delete(m.Slots, "fuel")
					} else {
						m.Slots["fuel"] = fuel
					}
				}
			}
		}
		if c.burnTime > 0 && ok {
			c.cookTime++
			if c.cookTime == sm.CookTicks {
				c.cookTime = 0
				in := m.Slots["input"]
				in.Count--
				if in.Count == 0 {
					delete(m.Slots, "input")
				} else {
					m.Slots["input"] = in
				}
				out := m.Slots["output"]
				if out.Empty() {
					id, meta, _ := world.SplitID(r.Output)
					out = s.rules.Stack(id, max(meta, 0), 0)
				}
				out.Count += r.Count
				m.Slots["output"] = out
			}
		} else {
			c.cookTime = 0
		}
	}
	m.Active = c.burnTime > 0
	m.Progress = float64(c.cookTime) / float64(sm.CookTicks)
	tx.PutMachine(m)
}

// advance runs the world for n ticks: the clock moves on, saplings get
// their random ticks (saplings.go) and every machine works each tick, in
// position order. It returns what happened that the
// action's result should tell (an explosion).
func (s *Sim) advance(tx *world.Tx, n int64) []string {
	start := tx.Tick()
	tx.AdvanceTick(n)
	var events []string
	if s.sc.Mobs || len(s.danger.drops) > 0 || len(s.danger.mobs) > 0 || s.inLiquidDanger(tx) {
		events = s.dangerTicks(tx, start, n)
	} else {
		events = s.tickHunger(tx, n)
		if s.danger.died != "" {
			events = append(events, s.danger.died)
			s.danger.diedIn, s.danger.died = s.danger.died, ""
		}
	}
	tx.SetTimeOfDay(s.timeAt(start + n))
	s.growSaplings(tx, start, n)
	for _, m := range s.machinesOf(tx) {
		switch m.Kind {
		case world.MachineCokeOven:
			s.runCokeOven(tx, m, start, n)
		case world.MachineSteamBoiler:
			if ev := s.runBoiler(tx, m, start, n); ev != "" {
				events = append(events, ev)
			}
		case world.MachineFurnace:
			s.runFurnace(tx, m, start, n)
		}
	}
	return events
}

func (s *Sim) machinesOf(tx *world.Tx) []world.Machine {
	var out []world.Machine
	for _, mm := range s.sc.Machines {
		if m, ok := tx.Machine(mm.Pos); ok {
			out = append(out, m)
		}
	}
	for p := range s.furnaces {
		if m, ok := tx.Machine(p); ok {
			out = append(out, m)
		}
	}
	for p := range s.structures {
		if m, ok := tx.Machine(p); ok {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos.Less(out[j].Pos) })
	return out
}

func (s *Sim) ovenCore(p world.BlockPos) *ovenCore {
	c, ok := s.ovens[p]
	if !ok {
		c = &ovenCore{}
		s.ovens[p] = c
	}
	return c
}

func (s *Sim) boilerCore(p world.BlockPos) *boilerCore {
	c, ok := s.boilers[p]
	if !ok {
		c = &boilerCore{}
		s.boilers[p] = c
	}
	return c
}

// runCokeOven runs a formed oven over ticks start+1 … start+n as
// TileCokeOven.updateEntity does, by the rules' coke oven table
// (config/coke_oven.yaml): on every tick divisible by its step, with
// input that has a recipe, an output slot that can take the product and a
// creosote tank with room for the recipe's creosote, the item cooks one
// more step and is done once it has cooked the recipe's time. A full output
// slot or creosote tank stops the oven and loses the item's progress
// (cookTime = 0), as does an empty input. Progress shows the current item's
// share cooked.
func (s *Sim) runCokeOven(tx *world.Tx, m world.Machine, start, n int64) {
	if !m.Formed {
		return
	}
	c := s.ovenCore(m.Pos)
	co := s.rules.Coke
	for t := start + 1; t <= start+n; t++ {
		in := m.Slots["input"]
		if in.Empty() {
			c.cookTime, m.Active = 0, false
			continue
		}
		if t%int64(co.CookStep) != 0 {
			continue
		}
		r, ok := co.Recipe(in)
		if !ok {
			// Railcraft drops an input it has no recipe for; the
			// simulator's input slot never takes one (accepts).
			c.cookTime, m.Active = 0, false
			continue
		}
		out := m.Slots["output"]
		tank := m.Fluids["creosote"]
		id, meta, _ := world.SplitID(r.Output)
		meta = max(meta, 0)
		outputFits := out.Empty() || out.ID == id && out.Meta == meta && out.Count+1 <= stackMax
		if !outputFits || tank.Amount+r.Creosote > tank.Capacity {
			c.cookTime, m.Active = 0, false
			continue
		}
		c.cookTime += co.CookStep
		m.Active = true
		if c.cookTime < r.Ticks {
			continue
		}
		c.cookTime = 0
		in.Count--
		if in.Count == 0 {
			delete(m.Slots, "input")
		} else {
			m.Slots["input"] = in
		}
		if out.Empty() {
			out = s.rules.Stack(id, meta, 0)
		}
		out.Count++
		m.Slots["output"] = out
		tank.Fluid = "creosote"
		tank.Amount += r.Creosote
		m.Fluids["creosote"] = tank
	}
	m.Progress = 0
	if r, ok := co.Recipe(m.Slots["input"]); ok && c.cookTime > 0 {
		m.Progress = float64(c.cookTime) / float64(r.Ticks)
	}
	tx.PutMachine(m)
}

// runBoiler runs a small coal boiler over ticks start+1 … start+n, each
// tick in the order of MTEBasicTank.onPreTick and MTEBoiler.onPostTick:
//
//  1. one water container in "fluid_in" is emptied into the water tank and
//     its empty container goes to "fluid_out" (if all of it fits);
//  2. cool-down: a hot boiler loses a degree after cooldownInterval+1 ticks,
//     burning or not;
//  3. on ticks divisible by 10, above 100 °C: with no water the boiler
//     notes it ran dry; with water it explodes if it had run dry, and
//     otherwise makes half its steam per second, paying one mB of water per
//     160 mB of steam (the remainder carried over); at 100 °C or below the
//     dry note is cleared;
//  4. a steam tank above capacity vents down to three quarters of it;
//  5. out of fuel energy, it takes one accepted fuel item from "fuel" and
//     gains burn time / 10 energy;
//  6. on ticks divisible by heatUpRate, below its maximum and with energy,
//     it spends energyPerStep and gains a degree.
//
// It returns a description of the explosion, if the boiler exploded.
func (s *Sim) runBoiler(tx *world.Tx, m world.Machine, start, n int64) string {
	spec := smallCoalBoiler
	c := s.boilerCore(m.Pos)
	for t := start + 1; t <= start+n; t++ {
		s.emptyWaterContainer(&m, spec)
		if m.Temperature <= ambientC {
			m.Temperature, c.lossTimer = ambientC, 0
		} else if c.lossTimer++; c.lossTimer > spec.cooldownInterval {
			m.Temperature--
			c.lossTimer = 0
		}
		if t%steamCheckTicks == 0 {
			water := m.Fluids["water"]
			switch {
			case m.Temperature <= boilingC:
				c.hadNoWater = false
			case water.Amount <= 0:
				c.hadNoWater = true
			case c.hadNoWater:
				return s.explode(tx, m, t)
			default:
				produceSteam(&m, c, spec.steamPerSecond/2)
			}
		}
		if steam := m.Fluids["steam"]; steam.Amount > spec.capacity {
			steam.Amount = spec.capacity * 3 / 4
			m.Fluids["steam"] = steam
		}
		if c.processingEnergy <= 0 {
			if f := m.Slots["fuel"]; !f.Empty() && boilerAccepts(f) {
				fv, _ := fuelOf(f)
				if f.Count--; f.Count == 0 {
					delete(m.Slots, "fuel")
				} else {
					m.Slots["fuel"] = f
				}
				c.processingEnergy += fv.burn / fuelEnergyDiv
			}
		}
		if int(m.Temperature) < spec.maxTemp && c.processingEnergy > 0 && t%int64(spec.heatUpRate) == 0 {
			c.processingEnergy -= spec.energyPerStep
			m.Temperature++
		}
		m.Active = c.processingEnergy > 0
	}
	tx.PutMachine(m)
	return ""
}

// produceSteam is MTEBoiler.produceSteam: the steam is made at once, the
// water it costs is paid in whole mB as the debt reaches 160 mB of steam.
func produceSteam(m *world.Machine, c *boilerCore, amount int) {
	c.excessWater -= amount
	if c.excessWater < 0 {
		pay := -c.excessWater / steamPerWater
		water := m.Fluids["water"]
		water.Amount = max(0, water.Amount-pay)
		m.Fluids["water"] = water
		c.excessWater += steamPerWater * pay
	}
	steam := m.Fluids["steam"]
	steam.Fluid = "steam"
	steam.Amount += amount
	m.Fluids["steam"] = steam
}

// emptyWaterContainer is MTEBasicTank.onPreTick for a boiler's fluid input
// slot: one water container whose water fits into the tank is emptied per
// tick, its empty form going to the fluid output slot (which must be able to
// take it).
func (s *Sim) emptyWaterContainer(m *world.Machine, spec boilerSpec) {
	in := m.Slots["fluid_in"]
	if in.Empty() || !in.HasTag("container_water") {
		return
	}
	water := m.Fluids["water"]
	if water.Amount+bucketMB > spec.capacity {
		return
	}
	_, empty := s.waterContainer(in)
	out := m.Slots["fluid_out"]
	if !out.Empty() && (!sameItem(out, empty) || out.Count >= stackLimit(empty)) {
		return
	}
	if out.Empty() {
		out = empty
		out.Count = 0
	}
	out.Count++
	m.Slots["fluid_out"] = out
	if in.Count--; in.Count == 0 {
		delete(m.Slots, "fluid_in")
	} else {
		m.Slots["fluid_in"] = in
	}
	water.Fluid = "water"
	water.Amount += bucketMB
	m.Fluids["water"] = water
}

// explode is MTEBoiler.onDangerousWaterLack: the boiler blows up (doExplosion)
// and is gone; the player, if near, is hurt.
func (s *Sim) explode(tx *world.Tx, m world.Machine, t int64) string {
	tx.RemoveMachine(m.Pos)
	_ = tx.SetBlock(m.Pos, "minecraft:air", 0)
	delete(s.boilers, m.Pos)
	p := tx.Player()
	if p.Pos.DistSq(m.Pos.Center()) <= explosionHurtRadius*explosionHurtRadius {
		p.Health = max(0, p.Health-explosionDamage)
		tx.SetPlayer(p)
	}
	return fmt.Sprintf("the boiler at %v had run dry above %d °C and exploded when water reached it (tick %d)", m.Pos, boilingC, t)
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

// machineTanks are the fluid tanks of a machine kind with their capacities
// in mB: a small coal boiler's water and steam (MTEBoiler.getCapacity), a
// coke oven's creosote (TileCokeOven TANK_CAPACITY). Other kinds take the
// tanks a scenario gives them.
func machineTanks(kind string) map[string]int {
	switch kind {
	case world.MachineSteamBoiler:
		return map[string]int{"water": smallCoalBoiler.capacity, "steam": smallCoalBoiler.capacity}
	case world.MachineCokeOven:
		return map[string]int{"creosote": creosoteTankMB}
	}
	return nil
}

// addTanks gives a scenario machine the tanks of the real machine that the
// scenario left out, empty (the parser has checked the ones it names).
func addTanks(m *world.Machine) {
	for name, c := range machineTanks(m.Kind) {
		if _, ok := m.Fluids[name]; !ok {
			m.Fluids[name] = world.FluidTank{Fluid: name, Capacity: c}
		}
	}
}
