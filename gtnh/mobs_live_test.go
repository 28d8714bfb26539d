package gtnh_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// nightServer is a flat world at the given world time with a zombie four
// blocks east of the spawn (8.5, 64, 8.5), the player holding an iron axe.
func nightServer(t *testing.T, start int64) *fakeserver.Server {
	t.Helper()
	srv, err := fakeserver.New(fakeserver.Options{Addr: fakeserver.MemoryAddr(), TickDuration: liveTick, StartTime: start,
		Mobs:  []fakeserver.Mob{{Kind: "zombie", X: 12.5, Y: 64, Z: 8.5}},
		Trees: []fakeserver.Tree{}, Blocks: []fakeserver.Block{}, Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

func zombies(c *gtnh.Client) []world.Entity {
	var out []world.Entity
	for _, e := range c.State().Snapshot().EntitiesOfKind(world.EntityMob) {
		if e.Name == "zombie" {
			out = append(out, e)
		}
	}
	return out
}

// TestZombieAtNightLive: at midnight the test server's zombie appears
// (Spawn Mob type 54 with its health in the metadata), walks to the player
// (relative moves the client follows) and hits it for 3 every 20 ticks
// (Update Health, Entity Status 2); the client's world has the time of day,
// the zombie near the player and the player's falling health.
func TestZombieAtNightLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := nightServer(t, 18000)
		c := joinLive(t, srv)
		gtnh.Eventually(t, "the zombie", func() bool { return len(zombies(c)) == 1 })
		z := zombies(c)[0]
		assert.Equal(t, 20.0, z.Health, "its health from the Spawn Mob metadata")
		snap := c.State().Snapshot()
		assert.GreaterOrEqual(t, snap.TimeOfDay, int64(18000))
		assert.Less(t, snap.TimeOfDay, int64(19000))

		gtnh.Eventually(t, "a hit", func() bool { return c.State().Snapshot().Player.Health < 20 })
		assert.Equal(t, 17.0, c.State().Snapshot().Player.Health, "a zombie hits for 3")
		z = zombies(c)[0]
		me := c.State().Snapshot().Player.Pos
		assert.LessOrEqual(t, me.DistSq(z.Pos), 1.43*1.43+1e-6, "the client sees the zombie within its reach: %v", z.Pos)
		gtnh.Eventually(t, "a second hit", func() bool { return c.State().Snapshot().Player.Health <= 14 })
		hits := srv.Hits()
		require.GreaterOrEqual(t, len(hits), 2)
		assert.Equal(t, 20, hits[1].Tick-hits[0].Tick, "a hit every 20 ticks")
		assert.Equal(t, 3.0, hits[0].Damage)
		assert.GreaterOrEqual(t, c.Stats().Hurts, 2, "Entity Status 2 for the player")
		p, _ := srv.Player("Bot")
		assert.Equal(t, c.State().Snapshot().Player.Health, p.Health)
	})
}

// TestNoZombieByDay: in the morning the zombie waits for the night; the
// time of day the client keeps runs with the server's Time Updates.
func TestNoZombieByDay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := nightServer(t, 1000)
		c := joinLive(t, srv)
		tod := c.State().Snapshot().TimeOfDay
		gtnh.Eventually(t, "a Time Update", func() bool { return c.State().Snapshot().TimeOfDay >= tod+40 })
		assert.Empty(t, zombies(c))
		assert.Empty(t, srv.Mobs())
		assert.Empty(t, srv.Hits())
		assert.Equal(t, 20.0, c.State().Snapshot().Player.Health)
	})
}

// TestKilledByAZombieLive: a player who does nothing is killed (seven
// hits), drops its inventory where it died, and the client asks to
// respawn: the server sends Respawn, and the client's world has the player
// at the spawn with full health and an empty inventory, and the dropped
// axe lying where it died.
func TestKilledByAZombieLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := nightServer(t, 18000)
		c := joinLive(t, srv)
		require.NoError(t, srv.WaitFor(context.Background(), func() bool { return srv.Respawns() == 1 }))
		deaths := srv.Deaths()
		require.Len(t, deaths, 1)
		assert.Contains(t, deaths[0].Cause, "zombie")
		gtnh.Eventually(t, "the respawn", func() bool {
			s := c.State().Snapshot()
			return s.Player.Health == 20 && c.Stats().Deaths == 1
		})
		snap := c.State().Snapshot()
		assert.Equal(t, world.Vec3{X: 8.5, Y: 64, Z: 8.5}, snap.Player.Pos)
		assert.Equal(t, 36, snap.Inventory.FreeSlots(), "the inventory was dropped")
		items := srv.DroppedItems()
		require.Len(t, items, 1)
		assert.Equal(t, "minecraft:iron_axe", items[0].Item.Name)
		assert.Equal(t, deaths[0].Pos.Block(), items[0].Pos.Block())
		gtnh.Eventually(t, "the dropped axe in the client's world", func() bool {
			return len(c.State().Snapshot().EntitiesOfKind(world.EntityItem)) == 1
		})
		hits := srv.Hits()
		require.Len(t, hits, 7, "20 health, 3 a hit")
		assert.Equal(t, 0.0, hits[6].HealthAfter)
	})
}

// TestKillAZombieLive: the player hits the zombie with the iron axe (6 a
// hit, one every 10 ticks counts): the server lowers its health (Entity
// Status 2 and the health in its metadata, which the client follows), and
// at 0 it dies (Entity Status 3: the client forgets it) and is destroyed
// 20 ticks later. A hit within the hurt resistance is not counted again.
func TestKillAZombieLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := nightServer(t, 18000)
		c := joinLive(t, srv)
		gtnh.Eventually(t, "the zombie", func() bool { return len(zombies(c)) == 1 })
		id := int32(zombies(c)[0].ID)
		require.NoError(t, gtnh.RawAttack(c, id))
		gtnh.Eventually(t, "the first hit", func() bool { z := zombies(c); return len(z) == 1 && z[0].Health == 14 })
		require.NoError(t, gtnh.RawAttack(c, id)) // within the hurt resistance: nothing
		for range 3 {
			waitTicks(t, srv, 11)
			require.NoError(t, gtnh.RawAttack(c, id))
		}
		gtnh.Eventually(t, "the zombie gone from the client's world", func() bool { return len(zombies(c)) == 0 })
		var mine []fakeserver.Hit
		for _, h := range srv.Hits() {
			if h.Attacker == "Bot" {
				mine = append(mine, h)
			}
		}
		require.Len(t, mine, 4, "the hit in the hurt resistance is not one")
		assert.Equal(t, []float64{14, 8, 2, 0}, []float64{mine[0].HealthAfter, mine[1].HealthAfter, mine[2].HealthAfter, mine[3].HealthAfter})
		// The body lies 20 ticks after the last hit, then it is destroyed.
		require.NoError(t, srv.WaitFor(context.Background(), func() bool { return srv.WorldTime() >= 18000+int64(mine[3].Tick)+18 }))
		if ms := srv.Mobs(); assert.Len(t, ms, 1, "the body lies") {
			assert.True(t, ms[0].Dead)
		}
		require.NoError(t, srv.WaitFor(context.Background(), func() bool { return srv.WorldTime() >= 18000+int64(mine[3].Tick)+22 }))
		assert.Empty(t, srv.Mobs(), "the body is removed")

		assert.Empty(t, srv.Refusals())
	})
}

// waitTicks waits until n more server ticks have passed (the server's
// events come every tick while a mob moves).
func waitTicks(t *testing.T, srv *fakeserver.Server, n int64) {
	t.Helper()
	from := srv.WorldTime()
	require.NoError(t, srv.WaitFor(context.Background(), func() bool { return srv.WorldTime() >= from+n }))
}

// TestDeathEndsTheActionLive: the player dies during a wait; the action's
// result says so, with where, as the simulator's does, and why, as the
// server's death message in chat tells it (death.attack.mob).
func TestDeathEndsTheActionLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := nightServer(t, 18000)
		c := joinLive(t, srv)
		res := c.Execute(context.Background(), action.Wait{Ticks: 200})
		require.Len(t, srv.Deaths(), 1, "seven hits, the first after the zombie's walk")
		assert.Equal(t, ipc.Rejected, res.Code)
		assert.Contains(t, res.Error, "the player died at (8, 64, 8) during the wait")
		assert.Equal(t, true, res.Details["died"])
		assert.Equal(t, srv.Deaths()[0].Pos, res.Details["died_at"])
		assert.Equal(t, "Bot was slain by Zombie", res.Details["death_cause"], "the server's death message")
		assert.Equal(t, "death.attack.mob", res.Details["death_message"])
		assert.Contains(t, res.Error, "during the wait: Bot was slain by Zombie")

		res = c.Execute(context.Background(), action.Wait{Ticks: 5})
		assert.Equal(t, ipc.OK, res.Code, "no death, no mark")
		assert.Nil(t, res.Details["died"])
	})
}
