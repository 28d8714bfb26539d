package gtnh

import (
	"context"
	"os"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestMoveToIntoStreamedTerrain walks to a point far outside the columns
// the server sent at the join, through walls whose gaps come into view only
// as the server streams columns around the moving player: move_to plans to
// the edge of the loaded terrain, walks, and plans again, segment by
// segment, without a correction. GTNH_LONG_ROUTE=1 walks 5,000 blocks
// (about 22 min of game time, a few seconds in its synctest bubble); the default is 400,
// and 240 with -short.
func TestMoveToIntoStreamedTerrain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dist := 400
		if testing.Short() {
			dist = 240 // two segments at least (CI's race detector run)
		}
		if os.Getenv("GTNH_LONG_ROUTE") != "" {
			dist = 5000
		}
		srv, c := joinedClient(t, fakeserver.Options{TickDuration: DefaultTick, Stream: true, ViewRadius: 3, Trees: []fakeserver.Tree{}},
			func(cfg *Config) { cfg.ActionTimeout = time.Hour }) // 5,000 blocks at a walk are about 20 min of game time

		goal := world.Pos(8+dist, 64, 8+dist/10)
		c.mu.Lock()
		require.False(t, c.sess.loaded[[2]int{goal.X >> 4, goal.Z >> 4}], "the goal must start outside the loaded terrain")
		c.mu.Unlock()
		began := time.Now()
		res := c.Execute(context.Background(), action.MoveTo{Pos: goal, Radius: 1})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		feet := c.State().Snapshot().Feet()
		assert.LessOrEqual(t, feet.DistSq(goal), 1)
		segments := res.Details["segments"].(int)
		// A segment ends at the edge of the columns in view: at most 2·3+1
		// columns of a view radius 3 away.
		assert.GreaterOrEqual(t, segments, dist/(16*7), "the walk is planned in segments as the columns arrive")
		walls := 0
		for x := 9; x < goal.X; x++ {
			if fakeserver.StreamWall(x, 0) && x >= 16*4 {
				walls++
			}
		}
		assert.Positive(t, walls, "the route crosses streamed walls")
		c.mu.Lock()
		loaded := len(c.sess.loaded)
		c.mu.Unlock()
		assert.LessOrEqual(t, loaded, (2*(3+2)+1)*(2*(3+2)+1), "the columns left behind were unloaded")
		assert.Empty(t, srv.Corrections(), "every step the server saw was legal")
		assert.Empty(t, srv.Kicks())
		// Planning time is not measured here: a bubble's clock stands still while
		// the planner computes (the world/path benchmarks measure it).
		assert.LessOrEqual(t, res.Details["longest_plan_ms"], res.Details["planning_ms"])
		t.Logf("%d blocks in %d segments, %d steps, %d re-plans, %d walls, %v of game time",
			dist, segments, res.Details["steps"], res.Details["replans"], walls, time.Since(began))

	})
}

// TestMoveToWaitsForALaggingServersColumns: a server that sends the
// columns coming into view 800 ms late (a lagging server) still gets the
// walk there: each wait at the edge of the loaded terrain lasts its
// columnWaitTicks of the client's clock (3 s at the game's tick), which
// the late columns come within.
func TestMoveToWaitsForALaggingServersColumns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const late = 800 * time.Millisecond
		require.Less(t, late, columnWaitTicks*DefaultTick)
		srv, c := joinedClient(t, fakeserver.Options{TickDuration: DefaultTick, Stream: true, StreamDelay: late, ViewRadius: 3, Trees: []fakeserver.Tree{}})
		goal := world.Pos(8+120, 64, 8)
		res := c.Execute(context.Background(), action.MoveTo{Pos: goal, Radius: 1})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.LessOrEqual(t, c.State().Snapshot().Feet().DistSq(goal), 1)
		assert.GreaterOrEqual(t, res.Details["segments"].(int), 1, "the walk waited at the edge for the late columns")
		assert.Empty(t, srv.Corrections())
	})
}
