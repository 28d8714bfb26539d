package chain

import (
	"fmt"
	"math"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// The night's hunt: string comes from spiders (config/mobs.yaml: 0 to 2
// a kill), and spiders, like every hostile mob, spawn only in the dark.
// When the goal wants an item that only such a mob drops and none is in
// the world model, the planner waits for the night as a player does —
// with a wait (a skill tagged passes_time: wait_for), which the goal's
// other work goes before (plan: a wait comes when nothing else has work)
// — and says in the decision which hunt the wait is for
// (loop.Decision.Awaits): the hunt reflex runs it at night when a mob
// comes near the shelter, and by day a mob left in sight is hunted as
// planned. Where the day does not turn (a world whose time of day stays
// put), the wait would be for ever: the item cannot be had.

// nightWait bounds one wait for the night, in ticks (30 s, as one wait in
// the shelter): the loop looks between two, so the defend and eat
// reflexes act and the night's reflexes take over at dusk.
const nightWait = 600

// huntStep is the hunting skill asked for the missing items from the
// producer's kind: as many items as the mobs in range give is the
// skill's to find out; it is asked for what is missing, within its
// count's maximum.
func (s *search) huntStep(p producer, item string, missing int) *loop.Invocation {
	n := missing
	if pd, ok := p.desc.Params["count"]; ok && pd.Max != nil {
		n = int(math.Min(float64(n), *pd.Max))
	}
	inv := &loop.Invocation{Skill: p.desc.Name, Params: map[string]any{"target": p.hunt, p.param: item, "count": n}}
	if p.radius > 0 {
		inv.Params["radius"] = p.radius
	}
	return inv
}

// awaitNight plans the wait for the night (or, with mobs of the kind in
// range but others near them, for those to go) for a hunt: a wait of up
// to nightWait ticks, to the dark when it is day; the hunt it is for goes
// into s.awaits.
func (s *search) awaitNight(p producer, item string, missing int) (*loop.Invocation, error) {
	radius := 32
	if pd, ok := p.desc.Params["radius"]; ok {
		if v, ok := number(pd.Default); ok {
			radius = v
		}
	}
	none := fmt.Sprintf("no %s within %d blocks", p.hunt, radius)
	ticks, why := nightWait, ""
	switch until := s.Mobs.TicksToDark(s.w.TimeOfDay); {
	case p.guard != "":
		none = fmt.Sprintf("the %ss within %d blocks are guarded: %s", p.hunt, radius, p.guard)
		why = "waiting for it to go"
	case until > 0:
		ticks = min(ticks, until)
		why = fmt.Sprintf("a %s spawns only in the dark: waiting for the night (in %d ticks)", p.hunt, until)
	default:
		why = fmt.Sprintf("night: waiting for a %s to spawn in the dark", p.hunt)
	}
	if l := s.last; p.guard == "" && l != nil && l.After != nil && l.After.Tick > l.Before.Tick && l.After.TimeOfDay == l.Before.TimeOfDay {
		return nil, fmt.Errorf("%s, and the day does not turn here (the time of day stayed at %d over the last step's %d ticks): a %s spawns only in the dark",
			none, l.After.TimeOfDay, l.After.Tick-l.Before.Tick, p.hunt)
	}
	if inv, why := s.leaveGuard(p); inv != nil {
		s.awaits = s.huntStep(p, item, missing)
		if s.node != nil {
			s.node.Note += "; " + none + ": " + why
		}
		return inv, nil
	}
	var waits []*loop.Invocation // walled in first, where no mob reaches or sees the bot (a creeper walks up to one waiting in the open)
	if sh := s.shelterWaiter(); sh != nil {
		waits = append(waits, &loop.Invocation{Skill: sh.Name, Params: map[string]any{shelterWaitParam: ticks}})
	}
	if waiter := s.tagged("passes_time"); waiter != nil {
		inv := &loop.Invocation{Skill: waiter.Name}
		if param := durationParam(waiter); param != "" {
			inv.Params = map[string]any{param: ticks}
		}
		waits = append(waits, inv)
	}
	if len(waits) == 0 {
		return nil, fmt.Errorf("%s, and no available skill passes time until the night brings one", none)
	}
	i := slices.IndexFunc(waits, func(inv *loop.Invocation) bool { return !s.blocked[inv.String()] })
	if i < 0 {
		return nil, fmt.Errorf("%s, and the wait, %s, is blocked", none, waits[len(waits)-1])
	}
	inv := waits[i]
	if s.waitsWalledIn(inv) {
		why += ", walled in"
	}
	s.awaits = s.huntStep(p, item, missing)
	if s.node != nil {
		s.node.Note += "; " + none + ": " + why
	}
	return inv, nil
}

// shelterWaitParam is the int parameter of a sheltering skill (tagged
// shelters: shelter) that makes it wait walled in.
const shelterWaitParam = "wait"

// shelterWaiter is the best-ranked available skill tagged shelters that
// waits walled in (an int wait parameter), or nil.
func (s *search) shelterWaiter() *registry.Description {
	for _, d := range s.ranked(s.catalog) {
		if pd, ok := d.Params[shelterWaitParam]; ok && pd.Type == action.TypeInt && slices.Contains(d.Effects.Tags, "shelters") {
			return d
		}
	}
	return nil
}

// waitsWalledIn reports whether an invocation is a sheltering skill asked
// to wait walled in: a step that passes time, as wait_for's.
func (s *search) waitsWalledIn(inv *loop.Invocation) bool {
	d := s.find(inv.Skill)
	if d == nil || !slices.Contains(d.Effects.Tags, "shelters") {
		return false
	}
	n, ok := number(inv.Params[shelterWaitParam])
	return ok && n > 0
}

// leaveMargin is how many blocks past despawn_near a move away from a
// guard ends: the mobs beside it, a few blocks nearer, are past it too.
const leaveMargin = 8

// leaveGuard plans, by day, the move away from the hostile mob that
// guards the prey when it is within despawn_near of the bot: a mob that
// near never despawns (1.7.10 EntityLiving.despawnEntity, config/mobs.yaml
// despawn_near), and one still there by day keeps to the dark (a cave: a
// zombie or skeleton under the sky burns), where the night's mobs gather
// round it. Such a den guards every hunt near it, and its mobs fill the
// monster cap (SpawnerAnimals counts them all), so the night spawns no
// other spider: a player moves the camp away, the den despawns, and the
// nights bring new mobs. The move is a skill that travels from a mob by an
// entity and a distance (flee), as far as passes despawn_near by
// leaveMargin; nil when none applies (night, a far guard, no such skill or
// it is blocked), and the wait walled in follows.
func (s *search) leaveGuard(p producer) (*loop.Invocation, string) {
	g := p.guardedBy
	near := float64(s.Mobs.Spawning.DespawnNear)
	if p.guard == "" || near <= 0 || !s.Mobs.IsDaytime(s.w.TimeOfDay) {
		return nil, ""
	}
	d := math.Sqrt(g.Pos.DistSq(s.w.Player.Pos))
	if d > near {
		return nil, ""
	}
	for _, sk := range s.ranked(s.catalog) {
		ent, okE := sk.Params["entity"]
		dist, okD := sk.Params["distance"]
		if !okE || !okD || ent.Type != action.TypeInt || dist.Type != action.TypeInt || !slices.Contains(sk.Effects.Tags, "travels") {
			continue
		}
		n := int(math.Ceil(near-d)) + leaveMargin
		if dist.Min != nil {
			n = max(n, int(*dist.Min))
		}
		if dist.Max != nil {
			n = min(n, int(*dist.Max))
		}
		inv := &loop.Invocation{Skill: sk.Name, Params: map[string]any{"entity": g.ID, "distance": n}}
		if s.blocked[inv.String()] {
			continue
		}
		return inv, fmt.Sprintf("the %s is %.0f blocks away by day, within %.0f, where a mob never despawns: a den whose mobs fill the night's monster cap; moving %d blocks away from it so they despawn and the night brings others",
			g.Name, d, near, n)
	}
	return nil, ""
}
