package loop_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// mobAt is a snapshot at midnight with the player at (0.5, 64, 0.5), the
// given health and inventory, and one mob of a kind dist blocks east.
func mobAt(kind string, dist, health float64, inv ...world.ItemStack) *world.Snapshot {
	w := snap(inv, nil)
	w.TimeOfDay = 18000
	w.Player.Health = health
	w.Entities = []world.Entity{{ID: 42, Kind: world.EntityMob, Name: kind, Pos: world.Vec3{X: 0.5 + dist, Y: 64, Z: 0.5}, Health: 20}}
	return w
}

// walledIn puts solid blocks around the player's feet and head, above and
// below.
func walledIn(w *world.Snapshot) *world.Snapshot {
	bs := world.NewSparseBlocks()
	for _, p := range []world.BlockPos{{X: 0, Y: 63}, {X: 0, Y: 66}, {X: 1, Y: 64}, {X: -1, Y: 64}, {Y: 64, Z: 1}, {Y: 64, Z: -1},
		{X: 1, Y: 65}, {X: -1, Y: 65}, {Y: 65, Z: 1}, {Y: 65, Z: -1}} {
		bs.SetID(p, "minecraft:stone", 0)
	}
	w.Blocks = bs
	return w
}

func TestDefendReflexFightsOrFlees(t *testing.T) {
	sword := world.NewStack("minecraft:stone_sword", 0, 1)   // hits for 6
	pick := world.NewStack("minecraft:wooden_pickaxe", 0, 1) // 3
	axe := world.NewStack("minecraft:wooden_axe", 0, 1)      // 4
	r := loop.DefendReflex{Range: loop.DefaultDefendRange, FleeHealth: loop.DefaultFleeHealth, MinWeaponDamage: loop.DefaultMinWeaponDamage}
	for _, c := range []struct {
		name  string
		w     *world.Snapshot
		skill string // "" = does not fire
	}{
		{"an armed healthy bot fights a zombie", mobAt("zombie", 5, 20, sword), "fight"},
		{"at the range", mobAt("zombie", 8, 20, sword), "fight"},
		{"beyond the range", mobAt("zombie", 8.1, 20, sword), ""},
		{"a creeper is fled, armed or not", mobAt("creeper", 5, 20, sword), "flee"},
		{"at the flee health", mobAt("zombie", 5, 8, sword), "flee"},
		{"above the flee health", mobAt("zombie", 5, 9, sword), "fight"},
		{"unarmed", mobAt("skeleton", 5, 20), "flee"},
		{"a weapon under the minimum", mobAt("zombie", 5, 20, pick), "flee"},
		{"a weapon at the minimum", mobAt("zombie", 5, 20, axe), "fight"},
		{"walled in: nothing reaches it", walledIn(mobAt("zombie", 2, 20, sword)), ""},
		{"a spider by day is left alone", func() *world.Snapshot { w := mobAt("spider", 3, 20, sword); w.TimeOfDay = 6000; return w }(), ""},
		{"a spider at night is fought", mobAt("spider", 3, 20, sword), "fight"},
		{"a zombie by day is still fought", func() *world.Snapshot { w := mobAt("zombie", 3, 20, sword); w.TimeOfDay = 6000; return w }(), "fight"},
		{"a pig is no danger", mobAt("pig", 3, 20, sword), ""},
		{"nor a cow at night (a passive mob of the table)", mobAt("cow", 2, 20, sword), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			inv, why, ok := r.Fire(c.w)
			assert.Equal(t, c.skill != "", ok, why)
			if ok {
				assert.Equal(t, c.skill, inv.Skill)
				assert.Equal(t, map[string]any{"entity": 42}, inv.Params)
				assert.Contains(t, why, "(entity 42)")
			}
		})
	}
	// The nearest of two mobs.
	w := mobAt("zombie", 6, 20, sword)
	w.Entities = append(w.Entities, world.Entity{ID: 7, Kind: world.EntityMob, Name: "zombie", Pos: world.Vec3{X: -2.5, Y: 64, Z: 0.5}})
	inv, _, ok := r.Fire(w)
	assert.True(t, ok)
	assert.Equal(t, 7, inv.Params["entity"])
}

func TestShelterReflexAtNight(t *testing.T) {
	r := loop.ShelterReflex{From: loop.DefaultShelterFrom, Until: loop.DefaultShelterUntil}
	at := func(tod int64) *world.Snapshot { w := snap(nil, nil); w.TimeOfDay = tod; return w }
	for _, c := range []struct {
		tod  int64
		want bool
	}{{0, false}, {6000, false}, {11999, false}, {12000, true}, {18000, true}, {23499, true}, {23500, false}} {
		inv, why, ok := r.Fire(at(c.tod))
		assert.Equal(t, c.want, ok, "time %d: %s", c.tod, why)
		if ok {
			assert.Equal(t, loop.Invocation{Skill: "shelter"}, inv)
			assert.Contains(t, why, "in the open")
		}
	}
	// Walled in: wait, at most a minute, up to the end of the night.
	w := walledIn(at(18000))
	inv, why, ok := r.Fire(w)
	assert.True(t, ok)
	assert.Equal(t, loop.Invocation{Skill: "shelter", Params: map[string]any{"wait": 600}}, inv)
	assert.Contains(t, why, "walled in")
	// Walls but no roof: still in the open.
	open := walledIn(at(18000))
	open.Blocks.(*world.SparseBlocks).SetID(world.Pos(0, 66, 0), "minecraft:air", 0)
	inv, _, _ = r.Fire(open)
	assert.Equal(t, loop.Invocation{Skill: "shelter"}, inv, "a pit without a roof is no shelter")
	inv, _, _ = r.Fire(walledIn(at(23000)))
	assert.Equal(t, 500, inv.Params["wait"], "the last wait ends at the night's end")
	// A night over midnight.
	wrap := loop.ShelterReflex{From: 20000, Until: 1000}
	for _, c := range []struct {
		tod  int64
		want bool
	}{{19999, false}, {20000, true}, {23999, true}, {0, true}, {999, true}, {1000, false}} {
		_, _, ok := wrap.Fire(at(c.tod))
		assert.Equal(t, c.want, ok, "time %d", c.tod)
	}
	inv, _, _ = wrap.Fire(walledIn(at(500)))
	assert.Equal(t, 500, inv.Params["wait"])

	// The morning: still walled in, the bot climbs out; in the open by
	// day, nothing.
	for _, tod := range []int64{23500, 0, 6000, 11999} {
		inv, why, ok = r.Fire(walledIn(at(tod)))
		assert.True(t, ok, "time %d", tod)
		assert.Equal(t, loop.Invocation{Skill: "unstuck", Params: map[string]any{"attempt": 0, "distance": loop.DefaultUnstuckDistance}}, inv, "time %d", tod)
		assert.Contains(t, why, "climbing out")
	}
	_, _, ok = wrap.Fire(walledIn(at(1000)))
	assert.True(t, ok, "the night over midnight ends at 1000")
	// In the first minute of the day a mob hostile by day near the pit
	// keeps the bot in, mining and waiting; one farther off, a spider (not
	// hostile by day), or a later hour does not.
	for _, c := range []struct {
		kind string
		dist float64
		tod  int64
		stay bool
	}{{"creeper", 6, 23500, true}, {"zombie", 32, 600, true}, {"zombie", 32.5, 600, false}, {"spider", 6, 600, false},
		{"creeper", 6, 699, true}, {"creeper", 6, 700, false}} {
		w := walledIn(mobAt(c.kind, c.dist, 20))
		w.TimeOfDay = c.tod
		inv, why, ok = r.Fire(w)
		assert.True(t, ok)
		if c.stay {
			assert.Equal(t, loop.Invocation{Skill: "shelter", Params: map[string]any{"wait": 600}}, inv, "%+v", c)
			assert.Contains(t, why, "a "+c.kind+" (entity 42)")
		} else {
			assert.Equal(t, "unstuck", inv.Skill, "%+v", c)
		}
	}
	_, _, ok = r.Fire(at(6000))
	assert.False(t, ok)
}
