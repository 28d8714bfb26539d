package chain

import (
	"fmt"
	"math"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Animals come back (config/mobs.yaml, spawning: creature_*): every 400
// ticks of world time the server spawns new animals on lit grass round
// the player, but only while the animals it holds number at most
// creature_cap (10) per cap_chunks (256) of the chunks within
// chunk_radius (8) of the player's chunk: 11 in a full 17×17 square, 1 in
// the simulator's 96-block fresh_start. So a hunt with no animal of its
// kind in the world model is not given up:
//   - with the animals known at or under that cap, the next pass may
//     bring one: the planner waits for it (a wait that other work goes
//     before);
//   - over it, no pass runs until fewer remain: the planner hunts the
//     nearest other animal (its drops, wool or meat, are not wasted),
//     thinning the herd to the cap.
// The world model knows the animals of the chunks it holds, as the server
// counts those it has loaded; on a server, others' herds and chunks out
// of view make this an estimate.

// knownAnimals counts the animals (passive mobs with a spawn weight) in
// the world model.
func (s *search) knownAnimals() int {
	n := 0
	for _, e := range s.w.EntitiesOfKind(world.EntityMob) {
		if k, ok := s.Mobs.Kind(e.Name); ok && k.Passive() && k.Weight > 0 {
			n++
		}
	}
	return n
}

// animalCap is the animals' cap as the server computes it for a player
// here: creature_cap × the chunks within chunk_radius of the player's
// chunk / cap_chunks, counting the chunks the world model holds.
func (s *search) animalCap() int {
	sp := s.Mobs.Spawning
	feet := s.w.Feet()
	pcx, pcz := feet.X>>4, feet.Z>>4
	chunks := 0
	for cz := pcz - sp.ChunkRadius; cz <= pcz+sp.ChunkRadius; cz++ {
		for cx := pcx - sp.ChunkRadius; cx <= pcx+sp.ChunkRadius; cx++ {
			if s.w.Known(world.Pos(cx<<4, feet.Y, cz<<4)) {
				chunks++
			}
		}
	}
	return sp.CreatureCap * chunks / sp.CapChunks
}

// ticksToAnimals is how many ticks until the next animals' pass, by the
// world's age (the server's when known, else the ticks since the start,
// which are the simulator's world time).
func (s *search) ticksToAnimals() int {
	iv := int64(s.Mobs.Spawning.CreatureInterval)
	age := s.w.WorldAge
	if age == 0 {
		age = s.w.Tick
	}
	return int(iv - age%iv)
}

// spawningAnimal reports whether a mob kind is an animal the animals'
// pass brings (a passive mob with a spawn weight).
func spawningAnimal(k rules.MobKind) bool { return k.Passive() && k.Weight > 0 }

// animalsBack plans what brings an animal of one of the kinds back when
// none is in the world model (see above): a wait for the next pass (wait
// is true) or the hunt of the nearest other animal. ok is false when
// neither can be planned; why says what was found in either case.
func (s *search) animalsBack(kinds []string, waitOK bool) (inv *loop.Invocation, why string, wait, ok bool) {
	n, limit := s.knownAnimals(), s.animalCap()
	if n <= limit {
		why = fmt.Sprintf("the %d animals known are within the cap of %d: the animals' pass in %d ticks may bring one", n, limit, s.ticksToAnimals())
		if !waitOK {
			return nil, why, false, false
		}
		inv, err := s.waitTicks(s.ticksToAnimals())
		if err != nil {
			return nil, why + ", but " + err.Error(), false, false
		}
		return inv, why + ": waiting for it", true, true
	}
	// Over the cap: thin the herd, the nearest animal first (none of the
	// kinds wanted is known, so it is of another kind).
	feet := s.w.Player.Pos
	var best world.Entity
	bestDist := math.Inf(1)
	guarded := "" // why the nearest guarded one is left alone
	for _, e := range s.w.EntitiesOfKind(world.EntityMob) {
		k, ok := s.Mobs.Kind(e.Name)
		if !ok || !spawningAnimal(k) || math.Abs(e.Pos.Y-feet.Y) > animalRise {
			continue
		}
		if g := s.guard(e); g != "" {
			if guarded == "" {
				guarded = g
			}
			continue
		}
		if d := math.Hypot(e.Pos.X-feet.X, e.Pos.Z-feet.Z); d < bestDist || d == bestDist && e.ID < best.ID {
			best, bestDist = e, d
		}
	}
	why = fmt.Sprintf("the %d animals known are over the cap of %d, so none spawns", n, limit)
	if math.IsInf(bestDist, 1) {
		if guarded == "" {
			return nil, why + ", and none stands on this level of the world to thin them", false, false
		}
		why += ", and those that could be hunted to thin them are guarded: " + guarded
		if !waitOK {
			return nil, why, false, false
		}
		// A guard goes (by day, or away): as the night's hunt waits.
		inv, err := s.waitTicks(nightWait)
		if err != nil {
			return nil, why + ", and " + err.Error(), false, false
		}
		return inv, why + "; waiting for it to go", true, true
	}
	mark := s.mark()
	step, err := s.kill(best.Name, 1)
	if err == nil && s.blocked[step.String()] {
		err = fmt.Errorf("%s is blocked", step)
	}
	if err != nil {
		s.rollback(mark)
		return nil, why + ", and thinning them fails: " + err.Error(), false, false
	}
	return step, fmt.Sprintf("%s: hunting a %s (entity %d) %.0f blocks away to bring the %s back", why, best.Name, best.ID, bestDist, kindsText(kinds)), false, true
}

// killBack is animalsBack for a kill goal's mob: for an animal the pass
// brings, with none of its kind in the world model (a wait may be
// planned); ok is false otherwise, with why empty.
func (s *search) killBack(mob string) (inv *loop.Invocation, why string, wait, ok bool) {
	k, found := s.Mobs.Kind(mob)
	if !found || !spawningAnimal(k) {
		return nil, "", false, false
	}
	for _, e := range s.w.EntitiesOfKind(world.EntityMob) {
		if e.Name == mob {
			return nil, "", false, false // known, out of reach: not the pass's to mend
		}
	}
	return s.animalsBack([]string{mob}, true)
}

// waitTicks is the wait of a skill that passes time (wait_for) for a
// number of ticks.
func (s *search) waitTicks(ticks int) (*loop.Invocation, error) {
	waiter := s.tagged("passes_time")
	if waiter == nil {
		return nil, fmt.Errorf("no available skill passes time")
	}
	inv := &loop.Invocation{Skill: waiter.Name}
	if param := durationParam(waiter); param != "" {
		inv.Params = map[string]any{param: ticks}
	}
	if s.blocked[inv.String()] {
		return nil, fmt.Errorf("the wait, %s, is blocked", inv)
	}
	return inv, nil
}

// kindsText names the kinds: "cows", "pigs, cows or chickens".
func kindsText(kinds []string) string {
	out := ""
	for i, k := range kinds {
		switch {
		case i == 0:
		case i == len(kinds)-1:
			out += " or "
		default:
			out += ", "
		}
		out += k + "s"
	}
	return out
}
