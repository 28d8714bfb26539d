package loop_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

// walledInWith walls the player in a closed room of the open cells
// given (the feet's and head's cells with them): stone on every face.
func walledInWith(w *world.Snapshot, open ...world.BlockPos) *world.Snapshot {
	open = append(open, world.Pos(0, 64, 0), world.Pos(0, 65, 0))
	bs := world.NewSparseBlocks()
	for _, c := range open {
		for _, d := range []world.BlockPos{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {Z: 1}, {Z: -1}} {
			bs.SetID(c.Add(d.X, d.Y, d.Z), "minecraft:stone", 0)
		}
	}
	for _, c := range open {
		bs.SetID(c, "minecraft:air", 0)
	}
	w.Blocks = bs
	return w
}

// onField lays a stone floor under the player, 25 blocks every way, with
// air above it: room to run.
func onField(w *world.Snapshot) *world.Snapshot {
	bs := world.NewSparseBlocks()
	for x := -25; x <= 25; x++ {
		for z := -25; z <= 25; z++ {
			bs.SetID(world.Pos(x, 63, z), "minecraft:stone", 0)
			for y := 64; y <= 67; y++ {
				bs.SetID(world.Pos(x, y, z), "minecraft:air", 0)
			}
		}
	}
	w.Blocks = bs
	return w
}

// inTunnel puts the player in a tunnel of stone running along x from
// x = back to x = 12 (feet at y 64, head at 65), the mob's side; the
// stone around it known.
func inTunnel(w *world.Snapshot, back int) *world.Snapshot {
	bs := world.NewSparseBlocks()
	for x := back - 2; x <= 14; x++ {
		for y := 62; y <= 67; y++ {
			for z := -2; z <= 2; z++ {
				id := "minecraft:stone"
				if x >= back && x <= 12 && z == 0 && (y == 64 || y == 65) {
					id = "minecraft:air"
				}
				bs.SetID(world.Pos(x, y, z), id, 0)
			}
		}
	}
	w.Blocks = bs
	return w
}

func TestDefendReflexFightsOrFlees(t *testing.T) {
	sword := world.NewStack("minecraft:stone_sword", 0, 1)   // hits for 6
	pick := world.NewStack("minecraft:wooden_pickaxe", 0, 1) // 3
	axe := world.NewStack("minecraft:wooden_axe", 0, 1)      // 4
	dirt := world.NewStack("minecraft:dirt", 0, 8)
	r := loop.DefendReflex{Range: loop.DefaultDefendRange, FleeHealth: loop.DefaultFleeHealth, MinWeaponDamage: loop.DefaultMinWeaponDamage}
	byDay := func(w *world.Snapshot) *world.Snapshot { w.TimeOfDay = 6000; return w }
	for _, c := range []struct {
		name  string
		w     *world.Snapshot
		skill string // "" = does not fire
	}{
		{"an armed healthy bot fights a zombie that came near", mobAt("zombie", 4, 20, sword), "fight"},
		{"and lets one farther off come", mobAt("zombie", 4.1, 20, sword), ""},
		{"a skeleton shoots: it is fought at the range", mobAt("skeleton", 8, 20, sword), "fight"},
		{"and at its own range beyond", mobAt("skeleton", 15, 20, sword), "fight"},
		{"but not beyond that", mobAt("skeleton", 15.1, 20, sword), ""},
		{"a creeper beyond the range", onField(mobAt("creeper", 8.1, 20, sword)), ""},
		{"a creeper at the range", onField(mobAt("creeper", 8, 20, sword)), "flee"},
		{"a creeper is fled, armed or not", onField(mobAt("creeper", 5, 20, sword)), "flee"},
		{"at the flee health", onField(mobAt("zombie", 5, 8, sword)), "flee"},
		{"above the flee health", onField(mobAt("zombie", 4, 9, sword)), "fight"},
		{"unarmed", onField(mobAt("skeleton", 5, 20)), "flee"},
		{"a weapon under the minimum", onField(mobAt("zombie", 5, 20, pick)), "flee"},
		{"a weapon at the minimum", onField(mobAt("zombie", 4, 20, axe)), "fight"},
		{"cornered in a tunnel by a creeper: walls in", inTunnel(mobAt("creeper", 5, 20, sword, dirt), -3), "wall_in"},
		{"a creeper, no blocks: backs off beyond its 7 blocks along the tunnel", inTunnel(mobAt("creeper", 5, 20, sword), -4), "flee"},
		{"a creeper, no blocks, no room to back off out of its range: lets it come", inTunnel(mobAt("creeper", 5, 20, sword), -2), ""},
		{"a creeper at 3, no blocks, no room: hit back", inTunnel(mobAt("creeper", 3, 20, sword), -2), "fight"},
		{"a creeper at 2, no blocks: backs off 6, to 8 blocks from it", inTunnel(mobAt("creeper", 2, 20, sword), -12), "flee"},
		{"a run 16 blocks farther, not 16 from the mob", inTunnel(mobAt("zombie", 5, 20, pick, dirt), -13), "wall_in"},
		{"cornered and weak: walls in", inTunnel(mobAt("zombie", 5, 20, pick, dirt), -3), "wall_in"},
		{"cornered, weak and no blocks: fights back", inTunnel(mobAt("zombie", 4, 20, pick), -3), "fight"},
		{"cornered and hurt, no blocks: fights back with the fist", inTunnel(mobAt("zombie", 3, 6), -3), "fight"},
		{"cornered, no blocks: lets one farther off come", inTunnel(mobAt("zombie", 4.1, 6), -3), ""},
		{"a tunnel long enough behind: runs back along it", inTunnel(mobAt("zombie", 5, 20, pick, dirt), -24), "flee"},
		{"armed in a tunnel: fights", inTunnel(mobAt("zombie", 4, 20, sword, dirt), -3), "fight"},
		{"walled in: nothing reaches it", walledIn(mobAt("zombie", 2, 20, sword)), ""},
		{"walled in with a skeleton shut in a pocket of the room: fought", walledInWith(mobAt("skeleton", 2, 20, sword), world.Pos(1, 65, 0), world.Pos(2, 65, 0), world.Pos(2, 64, 0)), "fight"},
		{"walled in with a skeleton behind the room's wall: left alone", walledInWith(mobAt("skeleton", 2, 20, sword), world.Pos(1, 65, 0)), ""},
		{"a spider by day in the open is left alone", byDay(mobAt("spider", 3, 20, sword)), ""},
		{"a spider by day in a tunnel is fought", byDay(inTunnel(mobAt("spider", 3, 20, sword), -3)), "fight"},
		{"a spider at night is fought", mobAt("spider", 3, 20, sword), "fight"},
		{"a zombie by day is still fought", byDay(mobAt("zombie", 3, 20, sword)), "fight"},
		{"a pig is no danger", mobAt("pig", 3, 20, sword), ""},
		{"nor a cow at night (a passive mob of the table)", mobAt("cow", 2, 20, sword), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			inv, why, ok := r.Fire(c.w)
			assert.Equal(t, c.skill != "", ok, why)
			if ok {
				assert.Equal(t, c.skill, inv.Skill, why)
				assert.Contains(t, why, "(entity 42)")
				switch c.skill {
				case "flee":
					if strings.Contains(why, "backing off") {
						want := 4 // 5 + 4 blocks: beyond 8
						if strings.Contains(why, "2.0 blocks away") {
							want = 6
						}
						assert.Equal(t, map[string]any{"entity": 42, "distance": want}, inv.Params)
						break
					}
					assert.Equal(t, map[string]any{"entity": 42, "distance": loop.DefaultFleeDistance}, inv.Params)
				case "wall_in":
					assert.Empty(t, inv.Params)
					assert.Contains(t, why, "cornered")
				default:
					assert.Equal(t, map[string]any{"entity": 42}, inv.Params)
				}
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
		kind         string
		dist         float64
		tod          int64
		stay         bool
		health, food float64
	}{{"creeper", 6, 23500, true, 20, 20}, {"zombie", 32, 600, true, 20, 20}, {"zombie", 32.5, 600, false, 20, 20}, {"spider", 6, 600, false, 20, 20},
		{"creeper", 6, 699, true, 20, 20}, {"creeper", 6, 700, false, 20, 20},
		// The last minute before the night, a mob near: it stays; a
		// minute and a tick before, it climbs out.
		{"skeleton", 6, 10800, true, 20, 20}, {"skeleton", 6, 11999, true, 20, 20}, {"skeleton", 6, 10799, false, 20, 20}, {"spider", 6, 11000, false, 20, 20},
		// Later in the day, hurt and healing (food 8 or more in GTNH)
		// with a mob near: it heals behind its walls; not hurt enough, or
		// not healing, or the mob gone, it climbs out.
		{"zombie", 3, 6000, true, 13, 8}, {"zombie", 3, 6000, false, 14, 8}, {"zombie", 3, 6000, false, 13, 7},
		{"zombie", 32.5, 6000, false, 13, 8}} {
		w := walledIn(mobAt(c.kind, c.dist, c.health))
		w.Player.Food = c.food
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

// TestDefendGuardFacing: the defend reflex's fight runs guarded with its
// mob left out; its flight and its wall put up run unguarded.
func TestDefendGuardFacing(t *testing.T) {
	r := loop.DefendReflex{}
	for _, c := range []struct {
		inv     loop.Invocation
		facing  []int
		guarded bool
	}{
		{loop.Invocation{Skill: "fight", Params: map[string]any{"entity": 7}}, []int{7}, true},
		{loop.Invocation{Skill: "fight", Params: map[string]any{"entity": 7.0}}, []int{7}, true},
		{loop.Invocation{Skill: "flee", Params: map[string]any{"entity": 7, "distance": 16}}, nil, false},
		{loop.Invocation{Skill: "wall_in"}, nil, false},
	} {
		facing, guarded := r.GuardFacing(c.inv)
		assert.Equal(t, c.facing, facing, "%+v", c.inv)
		assert.Equal(t, c.guarded, guarded, "%+v", c.inv)
	}
}

// TestDefendReflexBreaksOffALostFight: with more than one mob near, the
// bot fights only when it would end the fight above its flee health by
// what the mobs deal while it kills them one by one (10 ticks a full hit,
// a zombie's 3 every 20 ticks, a skeleton's arrow every shot interval);
// otherwise it breaks off (flees, or walls in when cornered) before the
// fight, instead of fighting on until it must run hurt with two mobs at
// its elbow.
func TestDefendReflexBreaksOffALostFight(t *testing.T) {
	sword := world.NewStack("minecraft:stone_sword", 0, 1) // 6
	dirt := world.NewStack("minecraft:dirt", 0, 8)
	r := loop.DefendReflex{Range: loop.DefaultDefendRange, FleeHealth: loop.DefaultFleeHealth, MinWeaponDamage: loop.DefaultMinWeaponDamage}
	byDay := func(w *world.Snapshot) *world.Snapshot { w.TimeOfDay = 6000; return w }
	// with puts a second mob of a kind at x (east of the bot at 0.5) with
	// the given health; the first (entity 42) gets health first.
	with := func(w *world.Snapshot, first float64, kind string, x, health float64) *world.Snapshot {
		w.Entities[0].Health = first
		w.Entities = append(w.Entities, world.Entity{ID: 7, Kind: world.EntityMob, Name: kind, Pos: world.Vec3{X: x, Y: 64, Z: 0.5}, Health: health})
		return w
	}
	for _, c := range []struct {
		name  string
		w     *world.Snapshot
		skill string
	}{
		{"one zombie: fought (4 hits, 2 of its: 14 left)", onField(mobAt("zombie", 3, 20, sword)), "fight"},
		{"two zombies at full health: 18 to take, broken off", onField(with(mobAt("zombie", 3, 20, sword), 20, "zombie", -3, 20)), "flee"},
		{"a nearly dead one and a hurt one: 1 and 3 hits, 9 to take: fought at 18", onField(with(mobAt("zombie", 3, 18, sword), 5, "zombie", -3, 15)), "fight"},
		{"the same at 17: it would end at 8, the flee health", onField(with(mobAt("zombie", 3, 17, sword), 5, "zombie", -3, 15)), "flee"},
		{"a skeleton shooting from 12 joins a zombie: 12 to take", onField(with(mobAt("zombie", 3, 20, sword), 20, "skeleton", 12.5, 20)), "flee"},
		{"and at 16 blocks it is out of the fight", onField(with(mobAt("zombie", 3, 20, sword), 20, "skeleton", 16.5, 20)), "fight"},
		{"a second zombie beyond the defend range does not join", onField(with(mobAt("zombie", 3, 20, sword), 20, "zombie", -8, 20)), "fight"},
		{"a spider by day does not join", onField(with(byDay(mobAt("zombie", 3, 20, sword)), 20, "spider", -3, 16)), "fight"},
		{"a creeper coming while it fights a zombie: its blast (10) before its turn", onField(with(mobAt("zombie", 3, 20, sword), 20, "creeper", 6.5, 20)), "flee"},
		{"a creeper whose walk and fuse outlast a zombie nearly dead: the zombie is fought", onField(with(mobAt("zombie", 3, 20, sword), 5, "creeper", -7.5, 20)), "fight"},
		{"cornered in a tunnel by two: walls in", inTunnel(with(mobAt("zombie", 3, 20, sword, dirt), 20, "zombie", 5.5, 20), -3), "wall_in"},
	} {
		t.Run(c.name, func(t *testing.T) {
			inv, why, ok := r.Fire(c.w)
			require.True(t, ok)
			assert.Equal(t, c.skill, inv.Skill, why)
			assert.Equal(t, c.skill == "fight", !strings.Contains(why, "breaks off"), why)
		})
	}
}
