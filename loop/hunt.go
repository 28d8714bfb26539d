package loop

import (
	"fmt"
	"math"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// PlanWatcher is a Reflex that follows what the planner decides: Run
// calls Planned after each decision a planner made, done included (not
// after a reflex's step, nor after a planner error), before the step runs.
type PlanWatcher interface {
	Planned(w *world.Snapshot, dec Decision)
}

// Defaults of the hunt reflex.
const (
	// DefaultHuntRadius: spiders within 32 blocks are hunted at night.
	// Hostile mobs spawn 24 blocks or more from the player
	// (config/mobs.yaml, min_player_distance), and one within 32 never
	// despawns (despawn_near), so the ones a night brings near the
	// shelter stay there for the taking.
	DefaultHuntRadius = 32
	// DefaultHuntHealth: the bot leaves its shelter for a hunt only at 16
	// health or more: a spider bites for 2 a second, and a zombie met on
	// the way hits for 3, so it has eight hits to spare before the defend
	// reflex's flee_health (8) sends it running.
	DefaultHuntHealth = 16
	// huntDanger: a hostile mob of another kind within 16 blocks of the
	// way from the bot to its prey (the spider's, skeleton's and
	// creeper's follow range), or within its own follow range when that
	// is farther (a zombie's 40), keeps the bot in.
	huntDanger = 16
)

// GuardRange is how near the way to a hunt's prey a hostile mob of another
// kind makes the hunt wait: its follow range (config/mobs.yaml: it sees
// and chases a player that near), and at least 16 blocks.
func GuardRange(k rules.MobKind) float64 { return max(huntDanger, k.FollowRange) }

// HuntReflex hunts, in the dark, the mobs the plan waits for: when the
// planner's last decision awaited a hunt (Decision.Awaits: string from
// spiders, which spawn only in the dark) and it is night, it runs that
// hunt for one mob of the kind within Radius blocks as soon as one is
// there — the bot leaves its shelter with its sword, kills it, picks up
// the drop, and the shelter reflex walls it in again. It acts only while
// it is safe: health at MinHealth or more, a sword in the inventory, and
// no hostile mob of another kind within GuardRange of the way from the
// bot to the prey. A drop of the item lying within Radius (a spider the defend
// reflex killed) is picked up first (recover_drops). By day it leaves the
// hunt to the planner, which plans it when the mob is in sight.
//
// A HuntReflex remembers the awaited hunt between steps: use one per run,
// by pointer.
type HuntReflex struct {
	// Radius is how far (in blocks, horizontally) a mob may be.
	Radius float64
	// MinHealth is the least health the bot hunts with.
	MinHealth float64
	// Mobs are the mob and weapon tables (nil = the shipped ones).
	Mobs *rules.Mobs

	want *awaitedHunt
}

// awaitedHunt is the hunt the plan waits for.
type awaitedHunt struct {
	skill, kind, item string
	match             world.ItemMatcher
	until             int // the item's count in the inventory that ends it
}

var (
	_ Reflex      = (*HuntReflex)(nil)
	_ PlanWatcher = (*HuntReflex)(nil)
)

// Name implements Reflex.
func (*HuntReflex) Name() string { return "hunt" }

// Planned implements PlanWatcher: the decision's awaited hunt (target,
// item, count) is the one to run at night, until the inventory holds
// count more of the item than now; a decision without one ends it.
func (r *HuntReflex) Planned(w *world.Snapshot, dec Decision) {
	r.want = nil
	a := dec.Awaits
	if a == nil {
		return
	}
	kind, _ := a.Params["target"].(string)
	item, _ := a.Params["item"].(string)
	m, err := world.ParseItemMatcher(item)
	if kind == "" || err != nil {
		return
	}
	count := 1
	switch n := a.Params["count"].(type) {
	case int:
		count = n
	case float64:
		count = int(n)
	}
	r.want = &awaitedHunt{skill: a.Skill, kind: kind, item: item, match: m, until: w.Inventory.Count(m) + max(count, 1)}
}

// Fire implements Reflex.
func (r *HuntReflex) Fire(w *world.Snapshot) (Invocation, string, bool) {
	h := r.want
	if h == nil {
		return Invocation{}, "", false
	}
	have := w.Inventory.Count(h.match)
	if have >= h.until {
		r.want = nil
		return Invocation{}, "", false
	}
	mobs := r.Mobs
	if mobs == nil {
		mobs = rules.Default().Mobs
	}
	if mobs.IsDaytime(w.TimeOfDay) || w.Player.Health < r.MinHealth {
		return Invocation{}, "", false
	}
	if w.Inventory.BestTool(world.MustItem("tool:sword"), 1) < 0 {
		return Invocation{}, "", false
	}
	feet := w.Player.Pos
	safe := func(at world.Vec3) bool {
		for _, e := range w.EntitiesOfKind(world.EntityMob) {
			k, ok := mobs.Kind(e.Name)
			if !ok || k.Passive() || e.Name == h.kind {
				continue
			}
			if FromWay(e.Pos, feet, at) <= GuardRange(k) {
				return false
			}
		}
		return true
	}
	var prey, drop world.Entity
	preyAt, dropAt := math.Inf(1), math.Inf(1)
	for _, e := range w.Entities {
		d := math.Hypot(e.Pos.X-feet.X, e.Pos.Z-feet.Z)
		if d > r.Radius {
			continue
		}
		switch {
		case e.Kind == world.EntityItem && e.Item != nil && h.match.Matches(*e.Item) && d < dropAt:
			drop, dropAt = e, d
		case e.Kind == world.EntityMob && e.Name == h.kind && d < preyAt && standsOnKnownGround(w, e.Pos):
			prey, preyAt = e, d
		}
	}
	if !math.IsInf(dropAt, 1) {
		if safe(drop.Pos) {
			at := drop.Pos.Block()
			return Invocation{Skill: "recover_drops", Params: map[string]any{"x": at.X, "y": at.Y, "z": at.Z}},
				fmt.Sprintf("night, and %s the plan waits for (%d of %d held) lies %.1f blocks away: picking it up", h.item, have, h.until, dropAt), true
		}
	}
	if math.IsInf(preyAt, 1) || !safe(prey.Pos) {
		return Invocation{}, "", false
	}
	return Invocation{Skill: h.skill, Params: map[string]any{"target": h.kind, "item": h.item, "count": 1, "radius": int(math.Ceil(r.Radius))}},
		fmt.Sprintf("night, and a %s (entity %d) is %.1f blocks away: hunting it for %s the plan waits for (%d of %d held), health %g, no other hostile mob near the way",
			h.kind, prey.ID, preyAt, h.item, have, h.until, w.Player.Health), true
}

// standsOnKnownGround reports whether the block under a position is one
// the bot knows (not air): a mob over the edge of the world the bot has
// seen is one no walk leads to.
func standsOnKnownGround(w *world.Snapshot, at world.Vec3) bool {
	return w.Blocks == nil || !w.Blocks.BlockAt(at.Block().Add(0, -1, 0)).IsAir()
}

// FromWay is how far a point is from the way between two others (the
// segment from a to b), horizontally: what a walk from a to b passes
// nearest it.
func FromWay(p, a, b world.Vec3) float64 { return path.FromWay(p, a, b) }
