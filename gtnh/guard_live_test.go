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

// zombieFar is the test server at midnight with a zombie 14 blocks east of
// the spawn (8.5, 64, 8.5) and a block of stone beside the player, which
// its iron axe (the wrong tool) takes about 7.5 s to dig.
func zombieFar(t *testing.T) *fakeserver.Server {
	t.Helper()
	srv, err := fakeserver.New(fakeserver.Options{Addr: fakeserver.MemoryAddr(), TickDuration: liveTick, StartTime: 18000,
		Mobs:  []fakeserver.Mob{{Kind: "zombie", X: 22.5, Y: 64, Z: 8.5}},
		Trees: []fakeserver.Tree{}, Blocks: []fakeserver.Block{{X: 7, Y: 64, Z: 8, Name: "minecraft:stone"}}, Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

// TestGuardedDigLive: a long dig under a guard of 8 blocks ends when the
// server's zombie, walking at the player, comes within 8 blocks: the
// result is Interrupted, names the zombie, and the stone is still there;
// the zombie has not hit. Unguarded, the dig goes on while it hits.
func TestGuardedDigLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := zombieFar(t)
		c := joinLive(t, srv)
		gtnh.Eventually(t, "the zombie", func() bool { return len(zombies(c)) == 1 })
		ctx := ipc.WithGuard(context.Background(), ipc.Guard{Range: 8})
		res := c.Execute(ctx, action.BreakBlock{Pos: world.Pos(7, 64, 8)})
		require.Equal(t, ipc.Interrupted, res.Code, "%+v", res)
		th, ok := ipc.ThreatOf(res)
		require.True(t, ok, "%+v", res)
		assert.Equal(t, "zombie", th.Mob)
		assert.LessOrEqual(t, th.Dist, 8.0)
		assert.Greater(t, th.Dist, 6.0, "seen within a quarter of a second of crossing 8 blocks")
		assert.Contains(t, res.Error, "break_block interrupted: a zombie (entity")
		assert.Less(t, res.Ticks, int64(120), "well before the dig's 150 ticks")
		name, _ := srv.BlockAt(7, 64, 8)
		assert.Equal(t, "minecraft:stone", name, "the dig was left")
		assert.Equal(t, 20.0, c.State().Snapshot().Player.Health)
		assert.Empty(t, srv.Hits())

		// The zombie, within 8 blocks now, ends the next guarded dig when
		// it comes within 3, before it hits.
		res = c.Execute(ctx, action.BreakBlock{Pos: world.Pos(7, 64, 8)})
		require.Equal(t, ipc.Interrupted, res.Code, "%+v", res)
		th, ok = ipc.ThreatOf(res)
		require.True(t, ok, "%+v", res)
		assert.LessOrEqual(t, th.Dist, 3.0)
		assert.Greater(t, th.Dist, 1.5, "before its arm reaches")
		assert.False(t, th.Hurt)
		assert.Empty(t, srv.Hits())

		// Unguarded, the same dig runs on and the zombie hits.
		srv2 := zombieFar(t)
		c2 := joinLive(t, srv2)
		gtnh.Eventually(t, "the zombie", func() bool { return len(zombies(c2)) == 1 })
		res = c2.Execute(context.Background(), action.BreakBlock{Pos: world.Pos(7, 64, 8)})
		_, ok = ipc.ThreatOf(res)
		assert.False(t, ok)
		assert.NotEmpty(t, srv2.Hits(), "the zombie hit while the bot dug")
	})
}

// TestGuardFacingLive: the same long dig guarded with the zombie faced
// (ipc.Guard.Facing, a fight's own mob) is not ended by it, though it
// comes near and hits: no other mob is within the guard's range.
func TestGuardFacingLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := zombieFar(t)
		c := joinLive(t, srv)
		gtnh.Eventually(t, "the zombie", func() bool { return len(zombies(c)) == 1 })
		ctx := ipc.WithGuard(context.Background(), ipc.Guard{Range: 8, Facing: []int{zombies(c)[0].ID}})
		res := c.Execute(ctx, action.BreakBlock{Pos: world.Pos(7, 64, 8)})
		require.Equal(t, ipc.OK, res.Code, "%+v", res)
		_, ok := ipc.ThreatOf(res)
		assert.False(t, ok, "%+v", res)
		name, _ := srv.BlockAt(7, 64, 8)
		assert.Equal(t, "minecraft:air", name, "the dig ran to its end")
		assert.NotEmpty(t, srv.Hits(), "while the faced zombie hit")
	})
}
