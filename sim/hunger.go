package sim

import (
	"fmt"
	"math"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// The food bar (rules.Food, config/food.yaml). The simulator always keeps
// the bar, so eating works in every scenario; a scenario with hunger: true
// also drains it: move_to costs walking exhaustion per metre and a jump
// per block climbed, each harvested block (break_block, a dug route) costs
// its exhaustion, and the passing time runs FoodStats.onUpdate (saturation
// and food lost, regeneration at a full enough bar, starvation at none).

// exhaust adds the exhaustion an action cost, when hunger is on.
func (s *Sim) exhaust(x float64) {
	if s.sc.Hunger {
		s.rules.Food.Exhaust(&s.hunger, x)
	}
}

// walkExhaustion is what walking a path costs: the horizontal distance
// at walking exhaustion per metre (EntityPlayer.addMovementStat on the
// ground) and a jump for every step up.
func (s *Sim) walkExhaustion(start world.BlockPos, steps []path.Step) float64 {
	e := s.rules.Food.Exhaustion
	metres, jumps := 0.0, 0
	prev := start
	for _, st := range steps {
		dx, dz := float64(st.Pos.X-prev.X), float64(st.Pos.Z-prev.Z)
		metres += math.Hypot(dx, dz)
		if st.Pos.Y > prev.Y {
			jumps++
		}
		prev = st.Pos
	}
	return metres*e.WalkPerMetre + float64(jumps)*e.Jump
}

// pullBody reads the player's food level and health into the bar: the
// player is their owner (a fall hurts the player, a respawn fills both);
// the bar keeps saturation, exhaustion and its timers.
func (s *Sim) pullBody(tx *world.Tx) {
	p := tx.Player()
	s.hunger.Food, s.hunger.Health = int(p.Food), p.Health
}

// syncBody writes the bar's food level and health into the player.
func (s *Sim) syncBody(tx *world.Tx) {
	p := tx.Player()
	p.Food, p.Health = float64(s.hunger.Food), s.hunger.Health
	tx.SetPlayer(p)
}

// tickHunger runs n ticks of the food bar, when hunger is on, and reports
// starvation.
func (s *Sim) tickHunger(tx *world.Tx, n int64) []string {
	if !s.sc.Hunger {
		return nil
	}
	s.pullBody(tx)
	before := s.hunger
	starved := s.rules.Food.Tick(&s.hunger, n)
	if s.hunger.Food == before.Food && s.hunger.Health == before.Health {
		return nil
	}
	s.syncBody(tx)
	if starved > 0 {
		ev := []string{fmt.Sprintf("starving: lost %g health (food 0, health %g)", starved, s.hunger.Health)}
		if s.hunger.Health <= 0 {
			// Starving hurts by 2 (Hunger Overhaul's damageOnStarve) while
			// health is above 1 on normal difficulty: from 2 or 1.5 it
			// kills.
			s.danger.died = s.dieHere(tx, "starved to death")
		}
		return ev
	}
	return nil
}

// eat is ItemFood in 1.7.10: right-clicking the air with a food starts
// eating when the bar is not full (EntityPlayer.canEat(false)); after
// its eating time (Hunger Overhaul's hunger × 8 + 8 ticks: rules.Food.
// EatTicksOf) one item is gone and its hunger and saturation are added
// (FoodStats.addStats), with its Well Fed time. A full bar eats nothing.
func (s *Sim) eat(tx *world.Tx, inv world.Inventory, slot int) (ipc.Result, bool) {
	st := inv.Slots[slot]
	fi, ok := s.rules.Food.Of(st)
	if !ok {
		return ipc.Result{}, false
	}
	s.pullBody(tx)
	if s.hunger.Food >= s.rules.Food.Stats.MaxFood {
		return ipc.Failf(ipc.Rejected, 0, "not hungry: the food bar is full (%d), and a full player does not eat %s", s.hunger.Food, describeStack(st)), true
	}
	before := s.hunger.Food
	st.Count--
	if st.Count <= 0 {
		st = world.ItemStack{}
	}
	inv.Slots[slot] = st
	tx.SetInventory(inv)
	s.rules.Food.Feed(&s.hunger, fi)
	s.syncBody(tx)
	return ipc.Result{Code: ipc.OK, Ticks: int64(s.rules.Food.EatTicksOf(fi)), Details: map[string]any{
		"ate": fi.Item.String(), "food": s.hunger.Food, "restored": s.hunger.Food - before,
		"saturation": math.Round(s.hunger.Saturation*100) / 100,
	}}, true
}
