package loop_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// huntWorld is a snapshot at the time of day tod with the player at (0.5,
// 64, 0.5), health 20, holding inv, and mobs standing on stone (name at
// x, z east and south of the player, ids from 100).
func huntWorld(tod int64, inv []world.ItemStack, mobs ...world.Entity) *world.Snapshot {
	w := snap(inv, nil)
	w.TimeOfDay = tod
	w.Player.Health = 20
	bs := w.Blocks.(*world.SparseBlocks)
	for i, m := range mobs {
		if m.ID == 0 {
			m.ID = 100 + i
		}
		m.Kind = world.EntityMob
		m.Pos.Y = 64
		w.Entities = append(w.Entities, m)
		bs.SetID(m.Pos.Block().Add(0, -1, 0), "minecraft:stone", 0)
	}
	return w
}

func beast(name string, x, z float64) world.Entity {
	return world.Entity{Name: name, Pos: world.Vec3{X: x, Y: 64, Z: z}}
}

// awaiting is a decision that waits for the night's hunt for n string.
func awaiting(n int) loop.Decision {
	return loop.Decision{
		Invocation: &loop.Invocation{Skill: "shelter", Params: map[string]any{"wait": 600}},
		Awaits:     &loop.Invocation{Skill: "hunt", Params: map[string]any{"target": "spider", "item": "minecraft:string", "count": n}},
	}
}

// TestHuntReflexHuntsWhatThePlanAwaits: at night, a spider within the
// radius is hunted (one at a time) when the plan waits for string, the bot
// holds a sword, its health is at the minimum or more and no hostile mob
// of another kind is within its follow range (16 at least) of its way; by day, without an
// awaited hunt, at low health, without a sword, with a zombie by the way,
// beyond the radius or over ground the bot does not know, it stays put.
func TestHuntReflexHuntsWhatThePlanAwaits(t *testing.T) {
	sword := world.NewStack("minecraft:wooden_sword", 0, 1)
	sword.MaxDamage = 59
	armed := []world.ItemStack{sword}
	night := int64(18000)
	for _, c := range []struct {
		name string
		dec  *loop.Decision // planned before the look (nil: none)
		w    *world.Snapshot
		want bool
	}{
		{"a spider at night", ptr(awaiting(2)), huntWorld(night, armed, beast("spider", 20.5, 0.5)), true},
		{"at the radius", ptr(awaiting(2)), huntWorld(night, armed, beast("spider", 32.5, 0.5)), true},
		{"beyond the radius", ptr(awaiting(2)), huntWorld(night, armed, beast("spider", 33, 0.5)), false},
		{"by day the planner hunts", ptr(awaiting(2)), huntWorld(6000, armed, beast("spider", 20.5, 0.5)), false},
		{"nothing awaited", nil, huntWorld(night, armed, beast("spider", 20.5, 0.5)), false},
		{"a decision without a hunt", &loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree"}}, huntWorld(night, armed, beast("spider", 20.5, 0.5)), false},
		{"no sword", ptr(awaiting(2)), huntWorld(night, stacks("minecraft:wooden_pickaxe", 1), beast("spider", 20.5, 0.5)), false},
		{"no spider", ptr(awaiting(2)), huntWorld(night, armed, beast("zombie", 60.5, 0.5)), false},
		{"a zombie by the way", ptr(awaiting(2)), huntWorld(night, armed, beast("spider", 30.5, 0.5), beast("zombie", 15.5, 15.5)), false},
		{"a zombie that sees the way (its follow range is 40)", ptr(awaiting(2)), huntWorld(night, armed, beast("spider", 30.5, 0.5), beast("zombie", 15.5, 40.5)), false},
		{"a zombie off the way", ptr(awaiting(2)), huntWorld(night, armed, beast("spider", 30.5, 0.5), beast("zombie", 15.5, 40.6)), true},
		{"a skeleton by the way (16)", ptr(awaiting(2)), huntWorld(night, armed, beast("spider", 30.5, 0.5), beast("skeleton", 15.5, 16.5)), false},
		{"a skeleton off the way", ptr(awaiting(2)), huntWorld(night, armed, beast("spider", 30.5, 0.5), beast("skeleton", 15.5, 16.6)), true},
		{"a creeper near the bot", ptr(awaiting(2)), huntWorld(night, armed, beast("spider", 30.5, 0.5), beast("creeper", -10.5, 0.5)), false},
		{"another spider is prey, not danger", ptr(awaiting(2)), huntWorld(night, armed, beast("spider", 30.5, 0.5), beast("spider", 5.5, 0.5)), true},
		{"a pig is no danger", ptr(awaiting(2)), huntWorld(night, armed, beast("spider", 30.5, 0.5), beast("pig", 5.5, 0.5)), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &loop.HuntReflex{Radius: loop.DefaultHuntRadius, MinHealth: loop.DefaultHuntHealth}
			if c.dec != nil {
				r.Planned(c.w, *c.dec)
			}
			inv, why, ok := r.Fire(c.w)
			require.Equal(t, c.want, ok, why)
			if ok {
				assert.Equal(t, "hunt", inv.Skill)
				assert.Equal(t, map[string]any{"target": "spider", "item": "minecraft:string", "count": 1, "radius": 32}, inv.Params, "one spider a step: the reflexes look between two")
				assert.Contains(t, why, "night")
				assert.Contains(t, why, "(0 of 2 held)")
			}
		})
	}

	t.Run("health", func(t *testing.T) {
		w := huntWorld(night, armed, beast("spider", 20.5, 0.5))
		r := &loop.HuntReflex{Radius: loop.DefaultHuntRadius, MinHealth: loop.DefaultHuntHealth}
		r.Planned(w, awaiting(1))
		w.Player.Health = 16
		_, _, ok := r.Fire(w)
		assert.True(t, ok, "at the minimum health")
		w.Player.Health = 15
		_, _, ok = r.Fire(w)
		assert.False(t, ok, "under it the bot stays in")
	})

	t.Run("over ground it does not know", func(t *testing.T) {
		w := huntWorld(night, armed, beast("spider", 20.5, 0.5))
		w.Blocks.(*world.SparseBlocks).SetID(world.Pos(20, 63, 0), "minecraft:air", 0)
		r := &loop.HuntReflex{Radius: loop.DefaultHuntRadius, MinHealth: loop.DefaultHuntHealth}
		r.Planned(w, awaiting(1))
		_, _, ok := r.Fire(w)
		assert.False(t, ok, "a spider over the edge of the known world is out of reach")
	})

	t.Run("until the count is held", func(t *testing.T) {
		w := huntWorld(night, armed, beast("spider", 20.5, 0.5))
		r := &loop.HuntReflex{Radius: loop.DefaultHuntRadius, MinHealth: loop.DefaultHuntHealth}
		r.Planned(w, awaiting(2))
		w.Inventory = world.NewInventory(sword, world.NewStack("minecraft:string", 0, 1))
		_, why, ok := r.Fire(w)
		assert.True(t, ok)
		assert.Contains(t, why, "(1 of 2 held)")
		w.Inventory = world.NewInventory(sword, world.NewStack("minecraft:string", 0, 2))
		_, _, ok = r.Fire(w)
		assert.False(t, ok, "two more than at the plan: done")
		w.Inventory = world.NewInventory(sword)
		_, _, ok = r.Fire(w)
		assert.False(t, ok, "a hunt done is forgotten until the plan awaits another")
		r.Planned(w, loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree"}})
		_, _, ok = r.Fire(w)
		assert.False(t, ok)
	})

	t.Run("a drop lying near is picked up first", func(t *testing.T) {
		str := world.NewStack("minecraft:string", 0, 1)
		w := huntWorld(night, armed, beast("spider", 20.5, 0.5))
		w.Entities = append(w.Entities, world.Entity{ID: 9, Kind: world.EntityItem, Item: &str, Pos: world.Vec3{X: 4.5, Y: 64, Z: 3.5}})
		r := &loop.HuntReflex{Radius: loop.DefaultHuntRadius, MinHealth: loop.DefaultHuntHealth}
		r.Planned(w, awaiting(2))
		inv, why, ok := r.Fire(w)
		require.True(t, ok)
		assert.Equal(t, loop.Invocation{Skill: "recover_drops", Params: map[string]any{"x": 4, "y": 64, "z": 3}}, inv)
		assert.Contains(t, why, "picking it up")
		// Another item is not picked up.
		dirt := world.NewStack("minecraft:dirt", 0, 1)
		w.Entities[len(w.Entities)-1].Item = &dirt
		inv, _, _ = r.Fire(w)
		assert.Equal(t, "hunt", inv.Skill)
	})
}

func ptr[T any](v T) *T { return &v }

func TestFromWay(t *testing.T) {
	a, b := world.Vec3{X: 0, Z: 0}, world.Vec3{X: 10, Z: 0}
	for _, c := range []struct {
		p    world.Vec3
		want float64
	}{
		{world.Vec3{X: 5, Z: 3}, 3},
		{world.Vec3{X: -4, Z: 3}, 5},  // behind the start
		{world.Vec3{X: 13, Z: 4}, 5},  // past the end
		{world.Vec3{X: 5, Y: 40}, 0},  // height does not count
		{world.Vec3{X: 10, Z: -2}, 2}, // at the end
	} {
		assert.InDelta(t, c.want, loop.FromWay(c.p, a, b), 1e-9, "%v", c.p)
	}
	assert.InDelta(t, 5, loop.FromWay(world.Vec3{X: 3, Z: 4}, a, a), 1e-9, "a way of no length is a point")
}

// TestShelterReflexStaysWhenThePlanWaitsThere: by day a bot walled in
// climbs out, unless the planner's last step was to wait walled in (the
// plan waits for the night's spiders): then the planner decides.
func TestShelterReflexStaysWhenThePlanWaitsThere(t *testing.T) {
	w := walledIn(snap(nil, nil))
	w.TimeOfDay = 6000
	r := &loop.ShelterReflex{From: loop.DefaultShelterFrom, Until: loop.DefaultShelterUntil}
	inv, _, ok := r.Fire(w)
	require.True(t, ok)
	assert.Equal(t, "unstuck", inv.Skill, "by day, walled in: climb out")
	r.Planned(w, awaiting(2))
	_, _, ok = r.Fire(w)
	assert.False(t, ok, "the plan waits walled in: the planner says when to go out")
	w.TimeOfDay = 18000
	inv, _, ok = r.Fire(w)
	assert.True(t, ok, "at night it is the shelter's again")
	assert.Equal(t, "shelter", inv.Skill)
	w.TimeOfDay = 6000
	r.Planned(w, loop.Decision{Invocation: &loop.Invocation{Skill: "shelter", Params: map[string]any{"wait": 0}}})
	inv, _, _ = r.Fire(w)
	assert.Equal(t, "unstuck", inv.Skill, "a shelter step that does not wait is no wait")
	r.Planned(w, loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree"}})
	inv, _, _ = r.Fire(w)
	assert.Equal(t, "unstuck", inv.Skill, "the plan went back to work: climb out")
}

// planSeer records what the loop tells it the planner decided.
type planSeer struct {
	seen []string
}

func (*planSeer) Name() string { return "seer" }
func (*planSeer) Fire(*world.Snapshot) (loop.Invocation, string, bool) {
	return loop.Invocation{}, "", false
}
func (p *planSeer) Planned(_ *world.Snapshot, dec loop.Decision) {
	if dec.Done {
		p.seen = append(p.seen, "done")
		return
	}
	p.seen = append(p.seen, dec.Invocation.String())
}

// TestPlanWatcherSeesEveryDecision: the loop tells a reflex that follows
// the plan each decision the planner made, in order.
func TestPlanWatcherSeesEveryDecision(t *testing.T) {
	seer := &planSeer{}
	steps := []loop.Invocation{{Skill: "wait_for", Params: map[string]any{"duration": 5}}, {Skill: "wait_for", Params: map[string]any{"duration": 7}}}
	out, _, _ := runWithReflexes(t, forest(t, 20, "[]"), "collect 8 minecraft:log", nil, []loop.Reflex{seer}, steps...)
	assert.Equal(t, 2, out.Steps)
	assert.Equal(t, []string{"wait_for duration=5", "wait_for duration=7", "done"}, seer.seen)
}

// TestUnstuckReflexQuietWhileThePlanWaits: a plan that waits on purpose
// for a hunt it names (walled in, or with wait_for) is not stuck; the same
// stillness after any other decision is.
func TestUnstuckReflexQuietWhileThePlanWaits(t *testing.T) {
	at := func(tick int64) *world.Snapshot { w := snap(nil, nil); w.Tick = tick; return w }
	for _, c := range []struct {
		name string
		dec  loop.Decision
		fire bool
	}{
		{"waiting walled in for a hunt", awaiting(2), false},
		{"wait_for for a hunt", loop.Decision{Invocation: &loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": 600}}, Awaits: awaiting(2).Awaits}, false},
		{"other work while a hunt waits", loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree"}, Awaits: awaiting(2).Awaits}, true},
		{"a wait for nothing named", loop.Decision{Invocation: &loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": 600}}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &loop.UnstuckReflex{Seconds: 30}
			_, _, ok := r.Fire(at(0))
			require.False(t, ok)
			r.Planned(at(0), c.dec)
			_, _, ok = r.Fire(at(700))
			assert.Equal(t, c.fire, ok)
		})
	}
}

// TestEatReflexEatsToHeal: hurt under HealBelow, the bot eats while its
// food level is under the 8 a GTNH player needs to heal at all; not when the
// food level already heals it, not unhurt, not with HealBelow 0.
func TestEatReflexEatsToHeal(t *testing.T) {
	bread := world.NewStack("minecraft:bread", 0, 2)
	hurt := func(health, food float64, inv ...world.ItemStack) *world.Snapshot {
		w := fed(food, inv...)
		w.Player.Health = health
		return w
	}
	r := loop.EatReflex{Threshold: loop.DefaultEatThreshold, HealBelow: loop.DefaultEatHealBelow}
	for _, c := range []struct {
		name string
		w    *world.Snapshot
		want bool
	}{
		{"hurt, food 7", hurt(13, 7, bread), true},
		{"hurt, food 8 heals already", hurt(10, 8, bread), false},
		{"hurt, food 10 heals already", hurt(10, 10, bread), false},
		{"at the heal line", hurt(14, 7, bread), false},
		{"hurt without food", hurt(10, 7), false},
		{"health unknown", hurt(0, 7, bread), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			inv, why, ok := r.Fire(c.w)
			require.Equal(t, c.want, ok, why)
			if ok {
				assert.Equal(t, loop.Invocation{Skill: "eat"}, inv)
				assert.Contains(t, why, "eating to heal")
			}
		})
	}
	_, _, ok := loop.EatReflex{Threshold: 6}.Fire(hurt(5, 10, bread))
	assert.False(t, ok, "HealBelow 0: only the threshold")
	_, why, ok := r.Fire(hurt(5, 6, bread))
	assert.True(t, ok)
	assert.Contains(t, why, "at or below 6", "hungry and hurt: the hunger reason")
}
