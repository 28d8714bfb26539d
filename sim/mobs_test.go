package sim_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// dangerWorld: a flat 96×96 plain (grass at 64) with the player at
// (48, 65, 48), mobs on, the day running from time, extra scenario lines
// appended (blocks, inventory).
func dangerWorld(t *testing.T, seed int64, time int, extra string) *sim.Sim {
	t.Helper()
	sc, err := sim.ParseScenario("danger.yaml", []byte(fmt.Sprintf(`name: danger
seed: %d
size: {x: 96, z: 96}
generator: flat
ground_y: 64
mobs: true
night: true
time: %d
player:
  pos: [48, 65, 48]
%s`, seed, time, extra)))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

func look(t *testing.T, s *sim.Sim) *world.Snapshot {
	t.Helper()
	snap, err := s.Observe(context.Background())
	require.NoError(t, err)
	return snap
}

func mobs(snap *world.Snapshot) []world.Entity { return snap.EntitiesOfKind(world.EntityMob) }

// monsters are the hostile mobs of a snapshot: the animals' pass brings
// animals to a plain with none (animals.go).
func monsters(snap *world.Snapshot) []world.Entity {
	var out []world.Entity
	for _, e := range mobs(snap) {
		if k, ok := rules.Default().Mobs.Kind(e.Name); ok && !k.Passive() {
			out = append(out, e)
		}
	}
	return out
}

func wait(t *testing.T, s *sim.Sim, ticks int) ipc.Result {
	t.Helper()
	return s.Execute(context.Background(), action.Wait{Ticks: action.Ticks(ticks)})
}

func events(r ipc.Result) string {
	ev, _ := r.Details["events"].([]string)
	return strings.Join(ev, "\n")
}

// TestTimeOfDay: with night on, the time of day runs with the ticks and
// wraps at 24000; the snapshot shows it.
func TestTimeOfDay(t *testing.T) {
	s := dangerWorld(t, 1, 23000, "")
	assert.Equal(t, int64(23000), look(t, s).TimeOfDay)
	wait(t, s, 1500)
	assert.Equal(t, int64(500), look(t, s).TimeOfDay)
}

// TestMobsSpawnInTheDarkOnly: at midnight hostile mobs spawn around the
// player, none within 24 blocks of it, and none while they number more
// than the cap (70 per 256 chunks: 36 chunks give 9; the cap is checked
// once a tick, so one tick's packs may pass it); under a noon that does
// not end, none.
func TestMobsSpawnInTheDarkOnly(t *testing.T) {
	night := dangerWorld(t, 1, 12500, "")
	run(t, night, action.MoveTo{Pos: world.Pos(90, 65, 90)}) // away from the spawn, to tell the two apart
	wait(t, night, int(13100-look(t, night).TimeOfDay))      // light 8 or more until about 13250
	require.Empty(t, monsters(look(t, night)), "nothing spawns before the sky is dark")
	cap := 70 * 36 / 256
	seen := map[string]bool{}
	for i := 0; i < 300; i++ {
		before := map[int]bool{}
		for _, e := range monsters(look(t, night)) {
			before[e.ID] = true
		}
		wait(t, night, 1)
		snap := look(t, night)
		for _, e := range monsters(snap) {
			seen[e.Name] = true
			if !before[e.ID] {
				// New this tick: it spawned at least 24 blocks away and
				// walked one tick.
				assert.GreaterOrEqual(t, e.Pos.DistSq(snap.Player.Pos), (24-0.2)*(24-0.2), "%+v spawned too near", e)
				assert.LessOrEqual(t, len(before), cap, "a mob spawned while %d were about", len(before))
			}
			assert.Greater(t, e.Health, 0.0)
		}
	}
	assert.NotEmpty(t, seen, "nothing spawned in 300 ticks of the night")
	noon := dangerWorld(t, 1, 6000, "")
	// A world whose time stands still at noon.
	sc, err := sim.ParseScenario("noon.yaml", []byte("name: noon\nseed: 1\nsize: {x: 96, z: 96}\ngenerator: flat\nground_y: 64\nmobs: true\ntime: 6000\nplayer:\n  pos: [48, 65, 48]\n"))
	require.NoError(t, err)
	still, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	wait(t, still, 3000)
	assert.Empty(t, monsters(look(t, still)), "a mob spawned at noon in the open")
	wait(t, noon, 3000) // 6000 → 9000: still day
	assert.Empty(t, monsters(look(t, noon)))
}

// TestMobsAreDeterministic: a seed and the same actions give the same
// mobs; another seed other mobs.
func TestMobsAreDeterministic(t *testing.T) {
	runIt := func(seed int64) []world.Entity {
		s := dangerWorld(t, seed, 18000, "")
		for i := 0; i < 5; i++ {
			wait(t, s, 100)
		}
		return look(t, s).Entities
	}
	a, b := runIt(7), runIt(7)
	require.NotEmpty(t, a)
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, runIt(8))
}

// TestZombieHitsAndAWallStopsIt: a zombie walks to the player and hits
// for 3 every 20 ticks; a player walled in (a 1×2 hole with a roof) is
// not reached.
func TestZombieHitsAndAWallStopsIt(t *testing.T) {
	s := dangerWorld(t, 1, 6000, "")
	_, err := s.Summon("zombie", world.Vec3{X: 44.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	// 4 blocks off, it walks 2.57 blocks (to its reach of 1.43) at 2.33
	// blocks a second: 22 ticks; then a hit every 20 ticks.
	r := wait(t, s, 60)
	assert.Contains(t, events(r), "6 damage from zombie (2 hits)")
	assert.Equal(t, 14.0, look(t, s).Player.Health)

	// Two zombies hitting at once: the second hit, within 10 ticks of the
	// first and no stronger, counts nothing.
	two := dangerWorld(t, 1, 6000, "")
	for _, x := range []float64{47.5, 49.5} {
		_, err = two.Summon("zombie", world.Vec3{X: x, Y: 65, Z: 48.5})
		require.NoError(t, err)
	}
	r = wait(t, two, 5)
	assert.Contains(t, events(r), "3 damage from zombie (1 hits)")

	// Glass: the zombie sees the player through it but cannot pass.
	glass := dangerWorld(t, 1, 6000, `blocks:
  - {block: "minecraft:glass", from: [46, 65, 46], to: [50, 67, 50]}
  - {block: "minecraft:air", from: [47, 65, 47], to: [49, 66, 49]}
`)
	_, err = glass.Summon("zombie", world.Vec3{X: 42.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	wait(t, glass, 200)
	assert.Equal(t, 20.0, look(t, glass).Player.Health)
	assert.Empty(t, glass.Deaths())
	gz := mobs(look(t, glass))
	require.Len(t, gz, 1)
	assert.InDelta(t, 45.7, gz[0].Pos.X, 0.01, "it stands against the glass")

	walled := dangerWorld(t, 1, 6000, `blocks:
  - {block: "minecraft:cobblestone", from: [47, 65, 47], to: [49, 67, 49]}
  - {block: "minecraft:air", from: [48, 65, 48], to: [48, 66, 48]}
`)
	_, err = walled.Summon("zombie", world.Vec3{X: 44.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	wait(t, walled, 400)
	assert.Equal(t, 20.0, look(t, walled).Player.Health)
	assert.Empty(t, walled.Deaths())
	z := mobs(look(t, walled))
	require.Len(t, z, 1)
	assert.Greater(t, z[0].Pos.DistSq(world.Vec3{X: 48.5, Y: 65, Z: 48.5}), 1.43*1.43, "the zombie stands outside the wall")
}

// TestSkeletonShootsInSight: a skeleton 10 blocks away hits for
// ceil(1.6 × (2·10/15 + 0.22)) = 3; behind a wall it does not.
func TestSkeletonShootsInSight(t *testing.T) {
	s := dangerWorld(t, 1, 18000, "")
	_, err := s.Summon("skeleton", world.Vec3{X: 38.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	r := wait(t, s, 60)
	assert.Contains(t, events(r), "3 damage from skeleton's arrow (1 hits)")
	assert.Equal(t, 17.0, look(t, s).Player.Health)

	walled := dangerWorld(t, 1, 18000, `blocks:
  - {block: "minecraft:cobblestone", from: [47, 65, 47], to: [49, 67, 49]}
  - {block: "minecraft:air", from: [48, 65, 48], to: [48, 66, 48]}
`)
	_, err = walled.Summon("skeleton", world.Vec3{X: 38.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	wait(t, walled, 300)
	assert.Equal(t, 20.0, look(t, walled).Player.Health)
	assert.Empty(t, walled.Deaths())
}

// TestCreeperKillsAndTheItemsLie: a creeper a block from the player
// swells 30 ticks and explodes for 19 (25 point blank): a player at 10
// health dies, its items lie
// where it died, it respawns at the start; walking back picks them up,
// and items left alone are gone after 6000 ticks.
func TestCreeperKillsAndTheItemsLie(t *testing.T) {
	s := dangerWorld(t, 1, 6000, `  health: 10
  inventory:
    - {item: "minecraft:cobblestone", count: 10}
    - {item: "minecraft:apple", count: 2}
`)
	run(t, s, action.MoveTo{Pos: world.Pos(70, 65, 48)})
	_, err := s.Summon("creeper", world.Vec3{X: 71.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	r := wait(t, s, 40)
	assert.Equal(t, ipc.Rejected, r.Code)
	assert.Contains(t, r.Error, "was killed by a creeper's explosion")
	snap := look(t, s)
	assert.Equal(t, world.Pos(48, 65, 48), snap.Feet(), "respawned at the start")
	assert.Equal(t, 20.0, snap.Player.Health)
	assert.Zero(t, snap.Inventory.CountID("minecraft:cobblestone"))
	assert.Empty(t, mobs(snap), "the creeper is gone with its explosion")
	items := snap.EntitiesOfKind(world.EntityItem)
	require.Len(t, items, 2)
	for _, it := range items {
		assert.InDelta(t, 70.5, it.Pos.X, 1e-9)
	}
	require.Len(t, s.Deaths(), 1)
	assert.Contains(t, s.Deaths()[0].Cause, "creeper")

	run(t, s, action.MoveTo{Pos: world.Pos(70, 65, 48)})
	wait(t, s, 1)
	snap = look(t, s)
	assert.Equal(t, 10, snap.Inventory.CountID("minecraft:cobblestone"), "picked up where it died")
	assert.Equal(t, 2, snap.Inventory.CountID("minecraft:apple"))
	assert.Empty(t, snap.EntitiesOfKind(world.EntityItem))
}

// TestCreeperSwellsOnlyNear: a creeper 5 blocks away that sees the
// player through glass but cannot come nearer never swells (it needs 3).
func TestCreeperSwellsOnlyNear(t *testing.T) {
	s := dangerWorld(t, 1, 6000, `blocks:
  - {block: "minecraft:glass", from: [44, 65, 40], to: [44, 67, 56]}
`)
	_, err := s.Summon("creeper", world.Vec3{X: 43.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	wait(t, s, 200)
	assert.Equal(t, 20.0, look(t, s).Player.Health)
	assert.Len(t, mobs(look(t, s)), 1, "it did not explode")
}

func TestDroppedItemsDespawn(t *testing.T) {
	s := dangerWorld(t, 1, 6000, `  health: 10
  inventory:
    - {item: "minecraft:cobblestone", count: 10}
`)
	run(t, s, action.MoveTo{Pos: world.Pos(70, 65, 48)})
	_, err := s.Summon("creeper", world.Vec3{X: 71.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	wait(t, s, 40)
	require.Len(t, look(t, s).EntitiesOfKind(world.EntityItem), 1)
	wait(t, s, 5900)
	require.Len(t, look(t, s).EntitiesOfKind(world.EntityItem), 1, "still there before 6000 ticks")
	wait(t, s, 100)
	assert.Empty(t, look(t, s).EntitiesOfKind(world.EntityItem), "gone at 6000 ticks")
}

// TestSpiderIsCalmInTheLight: a spider by day does nothing; at night it
// bites for 2.
func TestSpiderIsCalmInTheLight(t *testing.T) {
	day := dangerWorld(t, 1, 6000, "")
	_, err := day.Summon("spider", world.Vec3{X: 46.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	wait(t, day, 200)
	assert.Equal(t, 20.0, look(t, day).Player.Health)
	assert.Empty(t, day.Deaths())
	night := dangerWorld(t, 1, 18000, "")
	_, err = night.Summon("spider", world.Vec3{X: 46.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	r := wait(t, night, 10)
	assert.Contains(t, events(r), "2 damage from spider (1 hits)")
}

// TestZombieBurnsByDay: in the open at noon a zombie catches fire and
// dies; under a roof it does not.
func TestZombieBurnsByDay(t *testing.T) {
	s := dangerWorld(t, 1, 1000, "")
	_, err := s.Summon("zombie", world.Vec3{X: 10.5, Y: 65, Z: 10.5})
	require.NoError(t, err)
	wait(t, s, 200)
	z := monsters(look(t, s))
	require.Len(t, z, 1)
	assert.Less(t, z[0].Health, 20.0, "burning")
	wait(t, s, 1000)
	assert.Empty(t, monsters(look(t, s)), "the zombie burned")
	// One plank over its head: bright enough to burn (14), but no sky
	// (glass around keeps it from wandering out into the sun; within 32
	// of the player it does not despawn).
	var box strings.Builder
	box.WriteString("blocks:\n  - {block: \"minecraft:planks\", pos: [30, 67, 30]}\n")
	for _, c := range [][2]int{{29, 30}, {31, 30}, {30, 29}, {30, 31}} {
		for y := 65; y <= 66; y++ {
			fmt.Fprintf(&box, "  - {block: \"minecraft:glass\", pos: [%d, %d, %d]}\n", c[0], y, c[1])
		}
	}
	roofed := dangerWorld(t, 1, 1000, box.String())
	_, err = roofed.Summon("zombie", world.Vec3{X: 30.5, Y: 65, Z: 30.5})
	require.NoError(t, err)
	wait(t, roofed, 1200)
	z = monsters(look(t, roofed))
	require.Len(t, z, 1)
	assert.Equal(t, 20.0, z[0].Health)
}

// TestMobsWander: a mob with no target walks about (EntityAIWander): a
// creeper out of its follow range, in the daylight, moves; one farther
// than despawn_near from the player wanders only in its first 100 ticks
// (getAge() >= 100 stops it), so it stands from then on until the
// despawn rules take it; an animal stands still.
func TestMobsWander(t *testing.T) {
	s := dangerWorld(t, 1, 1000, "")
	id, err := s.Summon("creeper", world.Vec3{X: 48.5, Y: 65, Z: 26.5}) // 21.5 away: beyond its 16
	require.NoError(t, err)
	sheep, err := s.Summon("sheep", world.Vec3{X: 60.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	start := map[int]world.Vec3{}
	for _, m := range mobs(look(t, s)) {
		start[m.ID] = m.Pos
	}
	far := 0.0
	for range 20 {
		wait(t, s, 100)
		for _, m := range mobs(look(t, s)) {
			if m.ID == id {
				far = max(far, math.Hypot(m.Pos.X-start[id].X, m.Pos.Z-start[id].Z))
				assert.Equal(t, 65.0, m.Pos.Y, "on the flat ground")
			}
		}
	}
	assert.Greater(t, far, 2.0, "the creeper wandered")
	for _, m := range mobs(look(t, s)) {
		if m.ID == sheep {
			assert.Equal(t, start[sheep], m.Pos, "the sheep stands")
		}
	}

	// Beyond despawn_near (32): after its first 100 ticks it stands.
	old := dangerWorld(t, 1, 1000, "")
	id, err = old.Summon("creeper", world.Vec3{X: 48.5, Y: 65, Z: 8.5}) // 39.5 away
	require.NoError(t, err)
	wait(t, old, 100)
	var at world.Vec3
	for _, m := range mobs(look(t, old)) {
		if m.ID == id {
			at = m.Pos
		}
	}
	require.NotZero(t, at)
	wait(t, old, 60) // a wander started before 100 ends within 10/0.07 ticks
	for _, m := range mobs(look(t, old)) {
		if m.ID == id {
			at = m.Pos
		}
	}
	wait(t, old, 400)
	for _, m := range mobs(look(t, old)) {
		if m.ID == id {
			assert.Equal(t, at, m.Pos, "too old to wander")
		}
	}
}

// TestWanderSeeksTheDark: of its random cells a monster walks to the
// darkest (getBlockPathWeight: 0.5 − brightness), so a creeper on a glass
// floor in the daylight, beside a roofed hall, ends up under the roof.
// (The floor is high above the ground so that no cell it tries is in the
// ground, whose light 0 would win.)
func TestWanderSeeksTheDark(t *testing.T) {
	var sc strings.Builder
	sc.WriteString(`name: dark
seed: 1
size: {x: 96, z: 96}
generator: flat
ground_y: 40
mobs: true
night: true
time: 1000
player:
  pos: [44, 61, 30]
blocks:
`)
	for x := 0; x <= 70; x++ {
		for z := 0; z <= 60; z++ {
			fmt.Fprintf(&sc, "  - {block: \"minecraft:glass\", pos: [%d, 60, %d]}\n", x, z)
			if x <= 30 {
				fmt.Fprintf(&sc, "  - {block: \"minecraft:planks\", pos: [%d, 64, %d]}\n", x, z)
			}
		}
	}
	// The player stands walled in stone, unseen: the creeper never
	// chases, and within 32 of it the creeper stays young enough to
	// wander.
	for dx := -1; dx <= 1; dx++ {
		for dz := -1; dz <= 1; dz++ {
			for y := 61; y <= 63; y++ {
				if dx != 0 || dz != 0 || y == 63 {
					fmt.Fprintf(&sc, "  - {block: \"minecraft:stone\", pos: [%d, %d, %d]}\n", 44+dx, y, 30+dz)
				}
			}
		}
	}
	parsed, err := sim.ParseScenario("dark.yaml", []byte(sc.String()))
	require.NoError(t, err)
	s, err := sim.New(parsed, sim.Options{})
	require.NoError(t, err)
	id, err := s.Summon("creeper", world.Vec3{X: 38.5, Y: 61, Z: 30.5}) // the player, walled in, is never seen
	require.NoError(t, err)
	wait(t, s, 600) // it would despawn once deeper in than 32 from the player
	var cr *world.Entity
	for _, m := range mobs(look(t, s)) {
		if m.ID == id {
			cr = &m
		}
	}
	require.NotNil(t, cr)
	assert.Less(t, cr.Pos.X, 28.0, "it went in under the roof, away from the light of its edge")
}

// TestAttack: the fist hits for 1, a wooden sword for 5 (it wears by 1);
// a zombie dies in 4 sword hits; too far is unreachable, an unknown id
// invalid.
func TestAttack(t *testing.T) {
	s := dangerWorld(t, 1, 6000, `  inventory:
    - {item: "minecraft:wooden_sword", count: 1, durability: 59, max_durability: 59}
`)
	id, err := s.Summon("zombie", world.Vec3{X: 50.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	r := s.Execute(context.Background(), action.Attack{Entity: id})
	require.Equal(t, ipc.OK, r.Code, r.Error)
	assert.Equal(t, 5.0, r.Details["damage"])
	assert.Equal(t, int64(10), r.Ticks)
	z := mobs(look(t, s))
	require.Len(t, z, 1)
	// Knocked back 0.88 to 51.38, it walks 10 ticks back at 0.1165 a
	// tick: 50.2 (without the push it would stand at 49.1, against the
	// player).
	assert.InDelta(t, 50.22, z[0].Pos.X, 0.01, "knocked back about 0.88 blocks")
	for i := 0; i < 3; i++ {
		// The knockback carries it off; follow it.
		z := mobs(look(t, s))
		require.Len(t, z, 1)
		r = s.Execute(context.Background(), action.Attack{Entity: id})
		if r.Code == ipc.Unreachable {
			run(t, s, action.MoveTo{Pos: z[0].Pos.Block(), Radius: 1.5})
			r = s.Execute(context.Background(), action.Attack{Entity: id})
		}
		require.Equal(t, ipc.OK, r.Code, r.Error)
	}
	assert.Equal(t, true, r.Details["killed"])
	snap := look(t, s)
	assert.Empty(t, mobs(snap))
	assert.Equal(t, 4, snap.Inventory.HeldStack().Damage, "a sword wears by 1 a hit")

	far, err := s.Summon("zombie", world.Vec3{X: 90.5, Y: 65, Z: 90.5})
	require.NoError(t, err)
	assert.Equal(t, ipc.Unreachable, s.Execute(context.Background(), action.Attack{Entity: far}).Code)
	assert.Equal(t, ipc.InvalidParams, s.Execute(context.Background(), action.Attack{Entity: 9999}).Code)

	fist := dangerWorld(t, 1, 6000, "")
	id, err = fist.Summon("spider", world.Vec3{X: 50.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	r = fist.Execute(context.Background(), action.Attack{Entity: id})
	require.Equal(t, ipc.OK, r.Code, r.Error)
	assert.Equal(t, 1.0, r.Details["damage"])
	assert.Equal(t, 15.0, r.Details["health"])
	_, err = fist.Summon("dragon", world.Vec3{})
	assert.ErrorContains(t, err, "zombie")
}

// nightRun runs the loop from time 11400 through a night of mobs with a
// planner that only waits, with the given reflexes; it returns the steps
// and how many mobs the bot had around it at most.
func nightRun(t *testing.T, reflexes []loop.Reflex) (*sim.Sim, []loop.StepRecord, int) {
	t.Helper()
	s := dangerWorld(t, 3, 11400, `  inventory:
    - {item: "minecraft:stone_sword", count: 1, durability: 131, max_durability: 131}
`)
	var plan []loop.Invocation
	// Waits of 5 s: the reflexes look between steps, and since the
	// mobs wander, one comes by in the morning before the sun burns it.
	for i := 0; i < 240; i++ {
		plan = append(plan, loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": "5s"}})
	}
	reg := shipped(t)
	g, err := loop.ParseGoal("collect 1 minecraft:diamond", reg.Tiers())
	require.NoError(t, err)
	var steps []loop.StepRecord
	most := 0
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(s), Planner: script.New(plan...), Goal: g,
		MaxSteps: 400, Reflexes: reflexes, OnStep: func(r loop.StepRecord) {
			steps = append(steps, r)
			most = max(most, len(mobs(look(t, s))))
		}})
	require.NoError(t, err)
	_, err = l.Run(context.Background())
	require.NoError(t, err)
	return s, steps, most
}

// TestTheBotSurvivesTheNight: with the shelter and defend reflexes the bot
// walls itself in at sunset, waits out the night there while mobs roam,
// and goes back to its plan in the morning; without them the same night
// kills it.
func TestTheBotSurvivesTheNight(t *testing.T) {
	s, steps, most := nightRun(t, []loop.Reflex{
		loop.DefendReflex{Range: loop.DefaultDefendRange, FleeHealth: loop.DefaultFleeHealth, MinWeaponDamage: loop.DefaultMinWeaponDamage},
		&loop.ShelterReflex{From: loop.DefaultShelterFrom, Until: loop.DefaultShelterUntil},
	})
	assert.Empty(t, s.Deaths())
	assert.Greater(t, most, 0, "no mob came out: the night was not dangerous")
	var dug, waited, resumed bool
	for _, st := range steps {
		switch {
		case st.Reflex != nil && st.Reflex.Name == "shelter" && strings.Contains(st.Reflex.Reason, "in the open"):
			assert.Equal(t, loop.Success, st.Verdict, "%+v", st)
			dug = true
		case st.Reflex != nil && st.Reflex.Name == "shelter":
			assert.Contains(t, st.Reflex.Reason, "walled in")
			waited = true
		case st.Reflex == nil && dug && waited:
			resumed = true
		}
	}
	assert.True(t, dug, "the bot never walled itself in")
	assert.True(t, waited, "the bot never waited in its shelter")
	assert.True(t, resumed, "the plan did not resume in the morning")

	bare, _, _ := nightRun(t, nil)
	assert.NotEmpty(t, bare.Deaths(), "without reflexes the night should kill the bot")
}

// TestNoBlockIsPlacedInAMob: a block is not placed where a mob's body is
// (its feet's cell and, for a zombie 1.8 high, its head's), as 1.7.10's
// World.canPlaceEntityOnSide refuses it; beside the mob it is. Placed
// into the zombie, the wall would have it stand 1 block from the player,
// inside the wall, hitting through it.
func TestNoBlockIsPlacedInAMob(t *testing.T) {
	s := dangerWorld(t, 1, 6000, `  inventory:
    - {item: "minecraft:cobblestone", count: 8}
`)
	id, err := s.Summon("zombie", world.Vec3{X: 49.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	for _, y := range []int{65, 66} {
		r := s.Execute(context.Background(), action.PlaceBlock{Pos: world.Pos(49, y, 48), Item: "minecraft:cobblestone", Face: "auto"})
		assert.Equal(t, ipc.Rejected, r.Code, "%+v", r)
		assert.Contains(t, r.Error, fmt.Sprintf("a zombie (entity %d) stands in", id))
	}
	r := s.Execute(context.Background(), action.PlaceBlock{Pos: world.Pos(48, 65, 49), Item: "minecraft:cobblestone", Face: "auto"})
	assert.Equal(t, ipc.OK, r.Code, "%+v", r)
}
