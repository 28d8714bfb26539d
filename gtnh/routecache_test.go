package gtnh

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// TestRouteCacheFollowsSnapshots: the route cache rebuilds the regions of
// columns that were edited, loaded or unloaded between two snapshots, and
// only those.
func TestRouteCacheFollowsSnapshots(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := chunk.NewChunkStore(chunk.NewResolver(rules.Default().IDs, rules.Default().Tags))
		stone, ok := store.Resolver().State("minecraft:stone", 0)
		require.True(t, ok)
		loaded := map[[2]int]bool{}
		for cx := 0; cx < 6; cx++ {
			for cz := 0; cz < 3; cz++ {
				loaded[[2]int{cx, cz}] = true
				for x := 0; x < 16; x++ {
					for z := 0; z < 16; z++ {
						store.SetState(cx*16+x, 63, cz*16+z, stone)
					}
				}
			}
		}
		rc, err := newRouteCache()
		require.NoError(t, err)
		from, to := world.Pos(2, 64, 20), world.Pos(90, 64, 20)
		plan := func() path.Route {
			rc.sync(&world.Snapshot{Blocks: store.View()}, loaded)
			rt, err := rc.router.Find(from, path.At(to))
			require.NoError(t, err)
			require.True(t, rt.Complete, "%s", rt.Reason)
			return rt
		}
		plan()
		built := rc.router.Stats().Regions
		plan()
		assert.Equal(t, built, rc.router.Stats().Regions, "nothing changed: nothing is rebuilt")

		// A wall across the middle of column (2, 1): that region (and only a
		// few around it) is rebuilt, and the route goes around the wall.
		for z := 16; z < 32; z++ {
			store.SetState(40, 64, z, stone)
			store.SetState(40, 65, z, stone)
		}
		from = world.Pos(34, 64, 24) // beside the wall, in the edited column
		rt := plan()
		assert.Greater(t, rc.router.Stats().Regions, built, "the edited column's region is rebuilt")
		for _, s := range rt.Steps {
			assert.False(t, s.Pos.X == 40 && s.Pos.Z >= 16 && s.Pos.Z < 32, "the route walks through the new wall at %v", s.Pos)
		}

		built = rc.router.Stats().Regions
		plan()
		assert.Equal(t, built, rc.router.Stats().Regions, "the edit is accounted for once")

		// Unloading a column on the route makes the planner go around it.
		delete(loaded, [2]int{3, 1})
		rt = plan()
		for _, s := range rt.Steps {
			assert.False(t, s.Pos.X>>4 == 3 && s.Pos.Z>>4 == 1, "the route enters the unloaded column at %v", s.Pos)
		}
	})
}

// TestMoveToSharesTheRouteCache: the session's move_to actions share one
// route cache. A route planned again over unchanged terrain builds no
// region; a
// wall that closes the gap the first route took (and a gap opened
// elsewhere) between two actions rebuilds the regions it touches, and the
// third route goes through the new gap without a correction. A respawn in
// another dimension drops the cache.
func TestMoveToSharesTheRouteCache(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const wallX = 40
		var wall []fakeserver.Block
		for z := -48; z < 64; z++ {
			if z == 8 || z == 9 {
				continue
			}
			for y := 64; y < 66; y++ {
				wall = append(wall, fakeserver.Block{X: wallX, Y: y, Z: z, Name: "minecraft:stone"})
			}
		}
		srv, err := fakeserver.New(inMemory(fakeserver.Options{ViewRadius: 3, TickDuration: 5 * time.Millisecond, Trees: []fakeserver.Tree{}, Blocks: wall}))
		require.NoError(t, err)
		defer srv.Close()
		c, err := New(Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: time.Millisecond,
			Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
		require.NoError(t, err)
		defer c.Close()
		require.NoError(t, c.Open(context.Background()))

		var shared *routeCache
		built := func() int {
			c.mu.Lock()
			defer c.mu.Unlock()
			require.NotNil(t, c.sess.routes, "the session keeps the route cache between actions")
			if shared == nil {
				shared = c.sess.routes
			}
			assert.Same(t, shared, c.sess.routes, "every action uses the session's one cache")
			return c.sess.routes.router.Stats().Regions
		}
		move := func(to world.BlockPos) ipc.Result {
			res := c.Execute(context.Background(), action.MoveTo{Pos: to})
			require.Equal(t, ipc.OK, res.Code, res.Error)
			require.Equal(t, to, c.State().Snapshot().Feet())
			assert.Zero(t, res.Details["replans"], "the plan was walked as planned")
			return res
		}
		far, home := world.Pos(60, 64, 8), world.Pos(8, 64, 8)
		move(far)
		require.Positive(t, built(), "a route of 52 blocks goes through the portals")
		move(home)
		first := built()
		move(far)
		assert.Equal(t, first, built(), "the terrain did not change: the same route again builds nothing")

		var edit []fakeserver.Block
		for y := 64; y < 66; y++ {
			for _, z := range []int{8, 9} {
				edit = append(edit, fakeserver.Block{X: wallX, Y: y, Z: z, Name: "minecraft:stone"})
			}
			for _, z := range []int{40, 41} {
				edit = append(edit, fakeserver.Block{X: wallX, Y: y, Z: z, Name: "minecraft:air"})
			}
		}
		require.NoError(t, srv.SetBlocks(edit...))
		require.Eventually(t, func() bool {
			return c.State().Snapshot().BlockAt(world.Pos(wallX, 64, 40)).IsAir()
		}, 5*time.Second, time.Millisecond)
		before := len(srv.Corrections())
		move(home)
		assert.Greater(t, built(), first, "the edited columns' regions are rebuilt")
		assert.Len(t, srv.Corrections(), before, "no step walked into the new wall")

		srv.Send(&proto17.Respawn{Dimension: -1, Difficulty: 2, LevelType: "default"})
		require.Eventually(t, func() bool { return c.State().Snapshot().Player.Dimension == world.Nether }, 5*time.Second, time.Millisecond)
		c.mu.Lock()
		assert.Nil(t, c.sess.routes, "a dimension change drops the route cache")
		c.mu.Unlock()
	})
}

// TestRouteCacheOfALeftWorld: a cache taken by a move_to while the player
// respawns is not handed back to the session; the next action builds a
// new one.
func TestRouteCacheOfALeftWorld(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Client{}
		s := &session{}
		x := &act{c: c, s: s}
		rc, err := x.takeRoutes(s.worldGen)
		require.NoError(t, err)
		x.putRoutes(rc)
		again, err := x.takeRoutes(s.worldGen)
		require.NoError(t, err)
		assert.Same(t, rc, again, "the same world: the cache is shared")
		assert.Nil(t, s.routes, "an action in progress holds the cache")

		s.worldGen++ // a respawn while the action runs
		x.putRoutes(again)
		assert.Nil(t, s.routes, "a cache of the world left is not kept")
		s.routes = again
		fresh, err := x.takeRoutes(s.worldGen)
		require.NoError(t, err)
		assert.NotSame(t, again, fresh, "a cache of an older world is not reused")
	})
}
