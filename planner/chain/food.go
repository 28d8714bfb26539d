package chain

import (
	"fmt"
	"math"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// The food reserve: a player who eats keeps food in the inventory, and
// when it runs low hunts the farm animals around for meat (pigs, cows and
// chickens drop porkchops, beef and raw chicken: config/mobs.yaml), as
// the first hours of GTNH go. It is a standing need of any goal, as a
// full inventory is: the planner hunts before the goal's next step while
// the food bar is not full (a world with hunger) and the food held
// restores fewer than foodReserve points (config/food.yaml's values), an
// animal that drops food stands near enough, and a slot is free for its
// meat. Before it hunts, it cooks the raw meat held when a furnace
// stands near (or is held) and fuel is held (cookFood): a cooked meat
// restores twice a raw one under GTNH's values. A hostile mob guards a
// hunt's way only when it could come for the bot (guard.go). With no
// animal in reach the goal goes on; the eat and cook reflexes eat and
// cook what is held. With none left at all, the reserve thins the other
// animals while they are too many for new ones to spawn (animals.go).

// foodReserve is the food held, in the food points it restores, below
// which the planner hunts: enough to fill the bar from the eat reflex's
// default threshold (20 − 6 = 14). Under GTNH's food values (Hunger
// Overhaul) that is fourteen raw porkchops, seven cooked ones or five
// loaves: several animals' drops.
const foodReserve = 20 - loop.DefaultEatThreshold

// animalRise is how far above or below the feet (in blocks) an animal may
// be for the reserve's hunt: as a tree for walk_to, farther up than that
// is another level of the world (a pig on the grass over a mine), which
// the walk to it would have to dig through.
const animalRise = 8

// heldFood is the food points the inventory's food restores, each item
// as it is (raw meat at its raw value).
func (s *search) heldFood() int {
	n := 0
	for _, st := range s.w.Inventory.Slots {
		if fi, ok := s.Food.Of(st); ok && st.Count > 0 {
			n += fi.Hunger * st.Count
		}
	}
	return n
}

// foodAnimals are the passive mob kinds that drop a food, in the mob
// table's order.
func (s *search) foodAnimals() []string {
	var out []string
	for _, k := range s.Mobs.Kinds() {
		if !k.Passive() {
			continue
		}
		for _, d := range k.Drops {
			id, meta := d.Item.ID()
			if _, ok := s.Food.Of(world.NewStack(id, max(meta, 0), 1)); ok && d.Max > 0 {
				out = append(out, k.Name)
				break
			}
		}
	}
	return out
}

// reserveFood plans the hunt that tops up the food reserve: the animal
// kind whose nearest one (horizontally, the one a hunt goes for) is
// nearest, within animalRise blocks of the feet's height and with no
// hostile mob near the way there, killed once for its food (its tools
// first: a sword). ok is false when the reserve needs nothing or no
// animal can be hunted for it; why says which.
func (s *search) reserveFood(goal loop.Goal) (inv *loop.Invocation, why string, ok bool) {
	if s.w.Player.Food >= float64(s.Food.Stats.MaxFood) {
		return nil, "", false // a full bar: no hunger here, or just fed
	}
	held := s.heldFood()
	if inv, why, ok := s.cookFood(held, goal); ok {
		return inv, why, true
	}
	if held >= foodReserve {
		return nil, "", false
	}
	if !slices.ContainsFunc(s.w.Inventory.Slots, func(st world.ItemStack) bool { return st.Empty() }) {
		// No slot for the meat: it would lie where the animal died, and
		// the animals are few. The full inventory is storing's to solve.
		return nil, fmt.Sprintf("the food held restores %d points, under the reserve of %d, but the inventory has no free slot for meat", held, foodReserve), false
	}
	feet := s.w.Player.Pos
	type prey struct {
		kind string
		e    world.Entity
		dist float64
	}
	var cands []prey
	known := false // a food animal in the world model, huntable or not
	for _, kind := range s.foodAnimals() {
		best := prey{dist: math.Inf(1)}
		for _, e := range s.w.EntitiesOfKind(world.EntityMob) {
			if e.Name != kind {
				continue
			}
			known = true
			if d := math.Hypot(e.Pos.X-feet.X, e.Pos.Z-feet.Z); d < best.dist || d == best.dist && e.ID < best.e.ID {
				best = prey{kind: kind, e: e, dist: d}
			}
		}
		if math.IsInf(best.dist, 1) || math.Abs(best.e.Pos.Y-feet.Y) > animalRise || s.guard(best.e) != "" {
			continue
		}
		cands = append(cands, best)
	}
	var whyNot []string
	for len(cands) > 0 {
		i := 0
		for j, c := range cands {
			if c.dist < cands[i].dist {
				i = j
			}
		}
		c := cands[i]
		cands = append(cands[:i], cands[i+1:]...)
		mark := s.mark()
		step, err := s.kill(c.kind, 1)
		if err != nil {
			s.rollback(mark)
			whyNot = append(whyNot, err.Error())
			continue
		}
		if s.blocked[step.String()] {
			s.rollback(mark)
			whyNot = append(whyNot, step.String()+" is blocked")
			continue
		}
		return step, fmt.Sprintf("the food held restores %d points, under the reserve of %d, with the food bar at %g: hunting a %s (entity %d) %.0f blocks away for its meat",
			held, foodReserve, s.w.Player.Food, c.kind, c.e.ID, c.dist), true
	}
	if len(whyNot) > 0 {
		return nil, fmt.Sprintf("the food held restores %d points, under the reserve of %d, but %v", held, foodReserve, whyNot), false
	}
	if !known {
		// None left: the animals' pass brings new ones while few remain
		// (animals.go); over its cap the other animals are thinned. The
		// goal goes on meanwhile rather than wait.
		step, why, _, ok := s.animalsBack(s.foodAnimals(), false)
		why = fmt.Sprintf("the food held restores %d points, under the reserve of %d, and no %s is left: %s", held, foodReserve, kindsText(s.foodAnimals()), why)
		return step, why, ok
	}
	return nil, "", false
}

// cookFood plans cooking the raw food held when a furnace stands within
// furnaceRadius blocks or is held and fuel is held: under GTNH's food values
// a cooked meat restores twice a raw one (config/food.yaml: 2 against 1),
// and the farm animals are few, so a player cooks every piece. The food a
// goal asks for as it is (a quest's raw meat) stays raw. The cooking is the
// planner's chain for the cooked item (smelt, with its fuel).
func (s *search) cookFood(held int, goal loop.Goal) (*loop.Invocation, string, bool) {
	furnace := false
	fuel := false
	for _, st := range s.w.Inventory.Slots {
		if st.Count > 0 {
			furnace = furnace || st.ID == "minecraft:furnace"
			fuel = fuel || s.Smelt.BurnTicks(st) > 0
		}
	}
	for _, m := range s.w.Machines {
		if m.Kind == world.MachineFurnace && m.Pos.Center().DistSq(s.w.Player.Pos) <= furnaceRadius*furnaceRadius {
			furnace = true
		}
	}
	if !furnace || !fuel {
		return nil, "", false
	}
	for _, st := range s.w.Inventory.Slots {
		raw, ok := s.Food.Of(st)
		if !ok || st.Count <= 0 || goalWants(goal, st) {
			continue
		}
		rec, cooks := s.Smelt.Recipe(st)
		if !cooks {
			continue
		}
		id, meta, err := world.SplitID(rec.Output)
		if err != nil {
			id, meta = rec.Output, 0
		}
		cooked, isFood := s.Food.Of(world.NewStack(id, meta, 1))
		if !isFood || cooked.Hunger <= raw.Hunger {
			continue
		}
		m, err := world.ParseItemMatcher(rec.Output)
		if err != nil {
			continue
		}
		n := min(st.Count, 64)
		mark := s.mark()
		inv, err := s.obtain(rec.Output, s.w.Inventory.Count(m)+n, 0)
		if err != nil || inv == nil || inv.Skill != "smelt" {
			// Only the furnace's own step: a chain that would first
			// gather or craft is the goal's business, not the meal's.
			s.rollback(mark)
			continue
		}
		return inv, fmt.Sprintf("the food held restores %d points; the %d %s held cooked into %s restore %d more (%d a piece instead of %d)",
			held, n, st.ID, rec.Output, n*(cooked.Hunger-raw.Hunger), cooked.Hunger, raw.Hunger), true
	}
	return nil, "", false
}

// goalWants reports whether a goal asks for the item
// as it is (a quest's raw meat): the reserve does not cook it away.
func goalWants(goal loop.Goal, st world.ItemStack) bool {
	for _, ig := range goal.Items {
		if m, err := world.ParseItemMatcher(ig.Item); err == nil && m.Matches(st) {
			return true
		}
	}
	return false
}
