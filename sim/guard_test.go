package sim_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func guarded(r float64) context.Context {
	return ipc.WithGuard(context.Background(), ipc.Guard{Range: r})
}

// TestGuardEndsAWaitWhenAZombieComesNear: a zombie 14 blocks off walks at
// the player; a wait guarded at 8 blocks ends when it comes within 8
// (about 2.6 s of its walk), Interrupted, naming it; the time taken is
// the part waited. Unguarded, the wait runs its 400 ticks and the zombie
// hits.
func TestGuardEndsAWaitWhenAZombieComesNear(t *testing.T) {
	race.SkipOneGoroutine(t, "a zombie walking at a waiting bot, twice, in two 96×96 worlds on one goroutine")
	s := dangerWorld(t, 1, 6000, "")
	id, err := s.Summon("zombie", world.Vec3{X: 34.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	r := s.Execute(guarded(8), action.Wait{Ticks: 400})
	require.Equal(t, ipc.Interrupted, r.Code, "%+v", r)
	th, ok := ipc.ThreatOf(r)
	require.True(t, ok, "%+v", r)
	assert.Equal(t, id, th.Entity)
	assert.Equal(t, "zombie", th.Mob)
	assert.LessOrEqual(t, th.Dist, 8.0)
	assert.Greater(t, th.Dist, 7.0, "caught within a slice of crossing 8 blocks")
	assert.False(t, th.Hurt)
	assert.Contains(t, r.Error, "a zombie (entity")
	assert.Greater(t, r.Ticks, int64(40))
	assert.Less(t, r.Ticks, int64(140))
	snap := look(t, s)
	assert.Equal(t, 20.0, snap.Player.Health, "it has not hit yet")
	assert.Equal(t, r.Ticks, snap.Tick, "the world went on only as long as the wait")

	// The same zombie, within 8 blocks already, does not end the next
	// wait again until it crosses the next line (3 blocks).
	r = s.Execute(guarded(8), action.Wait{Ticks: 400})
	require.Equal(t, ipc.Interrupted, r.Code)
	th, _ = ipc.ThreatOf(r)
	assert.LessOrEqual(t, th.Dist, 3.0, "ended at the close line: %+v", th)
	assert.Greater(t, th.Dist, 2.0)

	plain := dangerWorld(t, 1, 6000, "")
	_, err = plain.Summon("zombie", world.Vec3{X: 34.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	r = plain.Execute(context.Background(), action.Wait{Ticks: 400})
	assert.Equal(t, int64(400), r.Ticks, "unguarded, the wait runs to its end")
	_, ok = ipc.ThreatOf(r)
	assert.False(t, ok)
	assert.Contains(t, events(r), "damage from zombie", "and the zombie hits")
}

// TestGuardRangeIsTheGuards: a guard of 4 blocks lets the zombie come
// nearer before the wait ends than one of 8.
func TestGuardRangeIsTheGuards(t *testing.T) {
	race.SkipOneGoroutine(t, "a zombie walking at a waiting bot in a 96×96 world on one goroutine")
	s := dangerWorld(t, 1, 6000, "")
	_, err := s.Summon("zombie", world.Vec3{X: 34.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	r := s.Execute(guarded(5), action.Wait{Ticks: 400})
	require.Equal(t, ipc.Interrupted, r.Code)
	th, _ := ipc.ThreatOf(r)
	assert.LessOrEqual(t, th.Dist, 5.0)
	assert.Greater(t, th.Dist, 4.0)
}

// TestGuardLeavesPassiveMobsAndCalmSpiders: a cow walking nowhere and a
// spider in the daylight never end a guarded wait; with no mobs in the
// world's rules nothing is watched.
func TestGuardLeavesPassiveMobsAndCalmSpiders(t *testing.T) {
	race.SkipOneGoroutine(t, "a wait of 200 ticks in a 96×96 world on one goroutine")
	s := dangerWorld(t, 1, 6000, "")
	_, err := s.Summon("spider", world.Vec3{X: 44.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	_, err = s.Summon("cow", world.Vec3{X: 46.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	r := s.Execute(guarded(8), action.Wait{Ticks: 200})
	assert.Equal(t, ipc.OK, r.Code, "%+v", r)
	assert.Equal(t, int64(200), r.Ticks)
}

// TestGuardedWalkStopsPartWay: a guarded walk of 30 blocks east towards a
// zombie that comes the other way stops where the player had got to when
// the zombie came within 8 blocks: short of the goal, on the way; the
// time is what it walked. Unguarded, the same walk ends at the goal.
func TestGuardedWalkStopsPartWay(t *testing.T) {
	race.SkipOneGoroutine(t, "two walks of 30 blocks in two 96×96 worlds on one goroutine")
	s := dangerWorld(t, 1, 6000, "")
	_, err := s.Summon("zombie", world.Vec3{X: 90.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	goal := world.Pos(78, 65, 48)
	r := s.Execute(guarded(8), action.MoveTo{Pos: goal})
	require.Equal(t, ipc.Interrupted, r.Code, "%+v", r)
	th, ok := ipc.ThreatOf(r)
	require.True(t, ok)
	assert.Equal(t, "zombie", th.Mob)
	snap := look(t, s)
	feet := snap.Feet()
	assert.Greater(t, feet.X, 48, "it walked some of the way")
	assert.Less(t, feet.X, goal.X, "and stopped short of the goal")
	assert.Equal(t, 48, feet.Z)
	assert.Equal(t, feet, r.Details["to"])
	// About 4.6 ticks a block walked (4.3 blocks a second).
	assert.InDelta(t, float64(feet.X-48)*4.63, float64(r.Ticks), 6)
	assert.Less(t, r.Ticks, int64(30*4.6))

	plain := dangerWorld(t, 1, 6000, "")
	_, err = plain.Summon("zombie", world.Vec3{X: 90.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	r = plain.Execute(context.Background(), action.MoveTo{Pos: goal})
	require.Equal(t, ipc.OK, r.Code)
	assert.Equal(t, goal, look(t, plain).Feet())
}

// TestGuardedDigFinishesTheBlock: a block being broken is finished before
// the threat is told (a block half broken is no block); the result is OK
// with the threat in its details.
func TestGuardedDigFinishesTheBlock(t *testing.T) {
	race.SkipOneGoroutine(t, "a dig of 150 ticks in a 96×96 world on one goroutine")
	s := dangerWorld(t, 1, 6000, `blocks:
  - {block: "minecraft:stone", from: [49, 65, 48], to: [49, 65, 48]}
`)
	_, err := s.Summon("zombie", world.Vec3{X: 34.5, Y: 65, Z: 48.5})
	require.NoError(t, err)
	r := s.Execute(guarded(8), action.BreakBlock{Pos: world.Pos(49, 65, 48)})
	require.Equal(t, ipc.OK, r.Code, "%+v", r)
	assert.Greater(t, r.Ticks, int64(100), "stone by hand: the zombie has time to come")
	_, ok := ipc.ThreatOf(r)
	assert.True(t, ok, "the zombie came near while it dug: %+v", r)
	assert.True(t, look(t, s).BlockAt(world.Pos(49, 65, 48)).IsAir())
}

// TestGuardedWalkDigsOnlyWhereItGot: a guarded walk through a wall it must
// dig, cut short before the wall, leaves the wall standing.
func TestGuardedWalkDigsOnlyWhereItGot(t *testing.T) {
	race.SkipOneGoroutine(t, "a walk through a wall in a 96×96 world on one goroutine")
	s := dangerWorld(t, 1, 6000, `  inventory:
    - {item: "minecraft:dirt", count: 16}
blocks:
  - {block: "minecraft:dirt", from: [70, 65, 0], to: [70, 90, 95]}
`)
	_, err := s.Summon("zombie", world.Vec3{X: 66.5, Y: 65, Z: 40.5})
	require.NoError(t, err)
	r := s.Execute(guarded(8), action.MoveTo{Pos: world.Pos(74, 65, 48)})
	require.Equal(t, ipc.Interrupted, r.Code, "%+v", r)
	snap := look(t, s)
	assert.Less(t, snap.Feet().X, 70)
	for y := 65; y <= 66; y++ {
		assert.Equal(t, "minecraft:dirt", snap.BlockAt(world.Pos(70, y, 48)).ID, "the wall ahead is not dug")
	}
	assert.False(t, strings.Contains(r.Error, "move_to:"), r.Error)
}

// TestGuardFacingLeavesTheFacedMob: a walk up to a skeleton (a fight's
// walk) guarded with the skeleton faced is not ended by it, nor by its
// arrows; a zombie coming from the side ends it. Not faced, the skeleton
// itself ends the walk as it comes within 8 blocks.
func TestGuardFacingLeavesTheFacedMob(t *testing.T) {
	race.SkipOneGoroutine(t, "three walks in three 96×96 worlds on one goroutine")
	walk := func(facing, zombie bool, far ...bool) (ipc.Result, int) {
		var a action.Action = action.MoveTo{Pos: world.Pos(48, 65, 60), Radius: 2}
		if len(far) > 0 {
			a = action.Wait{Ticks: 100} // the skeleton shoots meanwhile
		}
		s := dangerWorld(t, 1, 18000, "")
		sk, err := s.Summon("skeleton", world.Vec3{X: 48.5, Y: 65, Z: 62.5})
		require.NoError(t, err)
		if zombie {
			_, err = s.Summon("zombie", world.Vec3{X: 38.5, Y: 65, Z: 56.5})
			require.NoError(t, err)
		}
		if len(far) > 0 {
			// Within its follow range (40), far beyond the guard's 8.
			_, err = s.Summon("zombie", world.Vec3{X: 48.5, Y: 65, Z: 20.5})
			require.NoError(t, err)
		}
		g := ipc.Guard{Range: 8}
		if facing {
			g.Facing = []int{sk}
		}
		return s.Execute(ipc.WithGuard(context.Background(), g), a), sk
	}
	r, _ := walk(true, false)
	assert.Equal(t, ipc.OK, r.Code, "the faced skeleton ends nothing: %+v", r)
	_, ok := ipc.ThreatOf(r)
	assert.False(t, ok, "%+v", r)

	// A zombie 28 blocks behind, the skeleton shooting through a wait:
	// its arrows (the fight's own) do not end it for the zombie.
	r, _ = walk(true, false, true)
	assert.Equal(t, ipc.OK, r.Code, "%+v", r)
	assert.Contains(t, events(r), "skeleton's arrow", "it was hit: %+v", r)

	// The faced skeleton 6 blocks off, within the guard's range,
	// shooting through a wait: its own hits end nothing.
	near := dangerWorld(t, 1, 18000, "")
	sk6, err := near.Summon("skeleton", world.Vec3{X: 48.5, Y: 65, Z: 54.5})
	require.NoError(t, err)
	r = near.Execute(ipc.WithGuard(context.Background(), ipc.Guard{Range: 8, Facing: []int{sk6}}), action.Wait{Ticks: 100})
	assert.Equal(t, ipc.OK, r.Code, "%+v", r)
	assert.Contains(t, events(r), "skeleton's arrow", "it was hit: %+v", r)

	r, sk := walk(false, false)
	require.Equal(t, ipc.Interrupted, r.Code, "%+v", r)
	th, _ := ipc.ThreatOf(r)
	assert.Equal(t, sk, th.Entity)

	r, _ = walk(true, true)
	require.Equal(t, ipc.Interrupted, r.Code, "%+v", r)
	th, _ = ipc.ThreatOf(r)
	assert.Equal(t, "zombie", th.Mob, "%+v", th)
}
