package path

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// withProcs runs the test with at least n Ps, so that workers run on a
// machine of fewer CPUs too.
func withProcs(t *testing.T, n int) {
	t.Helper()
	if prev := runtime.GOMAXPROCS(0); prev < n {
		runtime.GOMAXPROCS(n)
		t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
	}
}

// shared is a grid whose reads may run at once, as views of itself.
type shared struct{ Grid }

func (s shared) View() Grid { return s }

// TestRouterWorkersSameRoutes: with workers computing the costs between
// portals, the routes are the very same (steps, cost, regions built) as
// the search's alone, first through new terrain and then over the cache;
// the workers computed some of the rows and borders, and the rows and
// borders they computed are those the search computes.
func TestRouterWorkersSameRoutes(t *testing.T) {
	withProcs(t, 3)
	g := tiled()
	alone, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	helped, err := NewRouter(g, RouteOptions{Workers: 2})
	require.NoError(t, err)
	worked := 0
	for _, c := range []struct {
		x, z, dist int
		bearing    float64
	}{
		{20, 30, 1000, 0.35},
		{20, 30, 1000, 0.35}, // again, over the cache
		{100, 200, 260, 0},
		{600, 700, 600, 4.2},
		{300, 40, 220, 1.3},
	} {
		from, to := routeFrom(c.x, c.z, c.dist, c.bearing)
		a, err := alone.Find(from, At(to))
		require.NoError(t, err)
		b, err := helped.Find(from, At(to))
		require.NoError(t, err)
		require.True(t, b.Complete, "%s", b.Reason)
		assert.Equal(t, a.Steps, b.Steps, "%v→%v", from, to)
		assert.Equal(t, a.Cost, b.Cost)
		assert.Equal(t, a.RegionsBuilt, b.RegionsBuilt)
		assert.Equal(t, a.AbstractExpanded, b.AbstractExpanded)
		assert.GreaterOrEqual(t, b.RowsBuilt, a.RowsBuilt, "the workers compute rows the search would, and maybe a few more")
		assert.Zero(t, a.WorkerRows)
		assert.LessOrEqual(t, b.WorkerRows, b.RowsBuilt)
		worked += b.WorkerRows
	}
	assert.Positive(t, worked, "the workers computed rows")
	assert.Equal(t, worked, helped.Stats().WorkerRows)
	assert.Positive(t, helped.bordersTaken, "the search took borders the workers built")
	same := 0
	for bk, b := range helped.borders {
		if ab, ok := alone.borders[bk]; ok {
			require.Equal(t, ab.links, b.links, "border %v", bk)
			same++
		}
	}
	assert.Greater(t, same, 100)
	checked := 0
	for k, hrg := range helped.regions {
		arg := alone.regions[k]
		if arg == nil || hrg.rows.Load() != rowsDone || arg.rows.Load() != rowsDone {
			continue
		}
		require.Equal(t, arg.portals, hrg.portals)
		require.Equal(t, arg.dist, hrg.dist, "region %v", k)
		checked++
	}
	assert.Greater(t, checked, 100)
}

// TestRouterWorkersCacheInvalidation: random block changes and columns
// loading and unloading between routes planned with workers leave a cache
// equal to one built afresh, with no region left queued or running
// (TestRouterCacheInvalidation's rounds, with two workers).
func TestRouterWorkersCacheInvalidation(t *testing.T) {
	withProcs(t, 3)
	assert.Positive(t, cacheRounds(t, 2), "the workers computed rows")
}

// gatedViews is a grid whose views block every read until the gate opens;
// the Router's own reads go through.
type gatedViews struct {
	Grid
	gate chan struct{}
}

func (g gatedViews) View() Grid { return gatedView(g) }

type gatedView gatedViews

func (g gatedView) Cell(x, y, z int) Cell {
	<-g.gate
	return g.Grid.Cell(x, y, z)
}

// TestRouterWorkersTakeBack: with the worker stuck on a region until the
// search waits for it, the search computes the queued regions it needs
// itself or waits for the one the worker holds, and plans the same route
// as alone.
func TestRouterWorkersTakeBack(t *testing.T) {
	withProcs(t, 2)
	g := flatWorld(160)
	from, to := world.Pos(5, 1, 5), world.Pos(150, 1, 120)
	solo, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	want, err := solo.Find(from, At(to))
	require.NoError(t, err)
	require.True(t, want.Complete)

	gv := gatedViews{Grid: g, gate: make(chan struct{})}
	var open sync.Once
	release := func() { open.Do(func() { close(gv.gate) }) }
	// Should the search never wait, the worker holding a region keeps
	// Find from returning: let it go in the end.
	stop := time.AfterFunc(10*time.Second, release)
	defer stop.Stop()
	r, err := NewRouter(gv, RouteOptions{Workers: 1})
	require.NoError(t, err)
	r.onWait = release
	got, err := r.Find(from, At(to))
	require.NoError(t, err)
	assert.Equal(t, want.Steps, got.Steps)
	assert.GreaterOrEqual(t, got.RowsBuilt, want.RowsBuilt)
	assert.Positive(t, r.steals+r.waits, "the search took regions back or waited for one")
}

// TestDistRowTakesBackAQueuedRegion: a region still queued for the workers
// is computed by the search itself, which marks it done and wakes any
// waiter.
func TestDistRowTakesBackAQueuedRegion(t *testing.T) {
	g := flatWorld(48)
	ref, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	r, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	k := regionKey{1, 1}
	rg := r.regionAt(k)
	require.NotEmpty(t, rg.portals)
	rg.ready = make(chan struct{})
	rg.rows.Store(rowsQueued)
	assert.Equal(t, ref.distRow(ref.regionAt(k), 2), r.distRow(rg, 2))
	assert.Equal(t, 1, r.steals)
	assert.Zero(t, r.waits)
	assert.Equal(t, int32(rowsDone), rg.rows.Load())
	select {
	case <-rg.ready:
	default:
		t.Fatal("ready is not closed")
	}
	assert.Equal(t, len(rg.portals), r.Stats().Rows)
}

// TestDistRowWaitsForTheWorker: a region a worker is computing is waited
// for, and its rows are the worker's, not computed again.
func TestDistRowWaitsForTheWorker(t *testing.T) {
	r, err := NewRouter(flatWorld(48), RouteOptions{})
	require.NoError(t, err)
	rg := r.regionAt(regionKey{1, 1})
	n := len(rg.portals)
	rg.ready = make(chan struct{})
	rg.rows.Store(rowsRunning)
	theirs := make([][]int64, n)
	for i := range theirs {
		theirs[i] = []int64{int64(1000 + i)}
	}
	r.onWait = func() {
		go func() {
			rg.dist = theirs
			rg.rows.Store(rowsDone)
			close(rg.ready)
		}()
	}
	assert.Equal(t, []int64{1001}, r.distRow(rg, 1))
	assert.Equal(t, 1, r.waits)
	assert.Zero(t, r.steals)
	assert.Zero(t, r.Stats().Rows, "the search computed nothing")
}

// TestRouterWorkersNeedViewsAndCPUs: over a grid without views, or with one
// CPU, the search computes every row itself.
func TestRouterWorkersNeedViewsAndCPUs(t *testing.T) {
	from, to := routeFrom(20, 30, 300, 0.35)
	withProcs(t, 2)
	plain := struct{ Grid }{tiled()}
	r, err := NewRouter(plain, RouteOptions{Workers: 2})
	require.NoError(t, err)
	rt, err := r.Find(from, At(to))
	require.NoError(t, err)
	require.True(t, rt.Complete)
	assert.Positive(t, rt.RowsBuilt)
	assert.Zero(t, rt.WorkerRows, "a grid without views is read by the search alone")

	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	r, err = NewRouter(tiled(), RouteOptions{Workers: 2})
	require.NoError(t, err)
	rt, err = r.Find(from, At(to))
	require.NoError(t, err)
	require.True(t, rt.Complete)
	assert.Zero(t, rt.WorkerRows, "one CPU: no workers")
}

// workersRunning counts the goroutines running a rowPool's work.
func workersRunning() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return strings.Count(string(buf), "path.(*rowPool).work(")
}

// TestRouterWorkersEndWithFind: no worker outlives Find.
func TestRouterWorkersEndWithFind(t *testing.T) {
	withProcs(t, 3)
	r, err := NewRouter(tiled(), RouteOptions{Workers: 2})
	require.NoError(t, err)
	r.onWait = func() {
		assert.Positive(t, workersRunning(), "the workers run while Find does")
	}
	from, to := routeFrom(20, 30, 500, 0.35)
	rt, err := r.Find(from, At(to))
	require.NoError(t, err)
	require.Positive(t, rt.WorkerRows)
	// A worker's goroutine ends just after it says it is done (its
	// deferred wg.Done): yield to it until it has; a worker that outlived
	// Find for good is still there after any number of yields.
	for i := 0; workersRunning() > 0 && i < 10000; i++ {
		runtime.Gosched()
	}
	assert.Zero(t, workersRunning())
	assert.Nil(t, r.pool)
}

// TestNewRouterWorkers: Workers outside 0..MaxWorkers is refused, naming
// the option.
func TestNewRouterWorkers(t *testing.T) {
	for _, n := range []int{-1, MaxWorkers + 1} {
		_, err := NewRouter(tiled(), RouteOptions{Workers: n})
		require.Error(t, err, "%d", n)
		assert.Contains(t, err.Error(), fmt.Sprintf("Workers %d", n))
	}
	_, err := NewRouter(tiled(), RouteOptions{Workers: MaxWorkers})
	require.NoError(t, err)
}

// newPool is a rowPool with no workers running, for the tests that drive
// its queue by hand.
func newPool() *rowPool {
	p := &rowPool{}
	p.more.L = &p.mu
	return p
}

// TestWorkersTakeTheLastQueuedFirst: the workers take the region queued
// last first, each once; once the Find is over they take none, even with
// regions still queued (those go back to the search).
func TestWorkersTakeTheLastQueuedFirst(t *testing.T) {
	p := newPool()
	rgs := make([]*region, 4)
	for i := range rgs {
		rgs[i] = &region{k: regionKey{i, 0}}
		p.queue(rgs[i])
		assert.Equal(t, int32(rowsQueued), rgs[i].rows.Load())
	}
	assert.Same(t, rgs[3], p.next())
	assert.Same(t, rgs[2], p.next())
	p.queue(&region{k: regionKey{9, 9}})
	assert.Equal(t, regionKey{9, 9}, p.next().k, "queued after the others, taken before them")
	assert.Same(t, rgs[1], p.next())
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	assert.Nil(t, p.next(), "the Find is over: %v stays queued for the search", rgs[0].k)
	assert.Equal(t, []*region{rgs[0]}, p.stack)
}

// TestStopWorkersGivesBackOnlyQueuedRegions: as the Find ends, the regions
// still queued go back to the search (rowsNone), while the rows of one the
// search took back and computed stay done in the cache.
func TestStopWorkersGivesBackOnlyQueuedRegions(t *testing.T) {
	r, err := NewRouter(flatWorld(48), RouteOptions{})
	require.NoError(t, err)
	r.pool = newPool()
	taken, left := r.regionAt(regionKey{1, 1}), r.regionAt(regionKey{1, 2})
	require.NotEmpty(t, taken.portals)
	require.NotEmpty(t, left.portals)
	require.Equal(t, []*region{taken, left}, r.pool.stack, "regionAt queues the regions it builds")
	r.distRow(taken, 0)
	require.Equal(t, 1, r.steals)
	r.stopWorkers()
	assert.Nil(t, r.pool)
	assert.Equal(t, int32(rowsDone), taken.rows.Load(), "the rows the search computed stay")
	assert.NotNil(t, taken.dist)
	assert.Equal(t, int32(rowsNone), left.rows.Load(), "a queued region goes back to the search")
	rows := r.Stats().Rows
	r.distRow(taken, 1)
	assert.Equal(t, rows, r.Stats().Rows, "not computed again")
}

// countedViews is a grid whose views count their reads.
type countedViews struct {
	Grid
	reads *atomic.Int64
}

func (g countedViews) View() Grid { return countedView(g) }

type countedView countedViews

func (g countedView) Cell(x, y, z int) Cell {
	g.reads.Add(1)
	return g.Grid.Cell(x, y, z)
}

// TestRouterWorkerRowsAndStats: a worker computes a queued region's rows
// through a view of the grid of its own, the same rows the search would;
// when the workers stop, its rows and its time are in the Router's stats
// (Rows, WorkerRows, BuildTime) and the worker lets go of its view.
func TestRouterWorkerRowsAndStats(t *testing.T) {
	withProcs(t, 2)
	g := flatWorld(48)
	k := regionKey{1, 1}
	ref, err := NewRouter(g, RouteOptions{})
	require.NoError(t, err)
	want := ref.regionAt(k)
	ref.distRow(want, 0)

	views := countedViews{Grid: g, reads: new(atomic.Int64)}
	r, err := NewRouter(views, RouteOptions{Workers: 1})
	require.NoError(t, err)
	r.startWorkers()
	require.NotNil(t, r.pool, "a worker runs")
	rg := r.regionAt(k)
	require.NotEmpty(t, rg.portals)
	select {
	case <-rg.ready:
	case <-testdeadline.After(t):
		t.Fatal("the worker did not compute the queued region")
	}
	r.stopWorkers()
	require.Equal(t, int32(rowsDone), rg.rows.Load())
	assert.Equal(t, want.dist, rg.dist)
	assert.Positive(t, views.reads.Load(), "the worker reads through a view")
	st := r.Stats()
	assert.Equal(t, len(rg.portals), st.Rows)
	assert.Equal(t, len(rg.portals), st.WorkerRows)
	assert.Positive(t, st.BuildTime, "the worker's time counts")
	assert.Zero(t, r.steals+r.waits)
	require.Len(t, r.workers, 1)
	assert.Nil(t, r.workers[0].gen.grid, "the worker keeps no view after the Find")
}
