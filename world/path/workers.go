package path

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// rowQueue bounds the regions waiting for a worker; a region built while the
// queue is full is left to the search (its rows are computed when it first
// expands one of its portals).
const rowQueue = 4096

// rowPool is the workers of one Find: goroutines that compute the rows of
// regions as the search builds them (Router.regionAt queues each new
// region), so the search finds them done when it first expands a portal
// there. A job is a region in state rowsQueued; whoever moves it to
// rowsRunning computes it (a worker, or the search taking it back), and the
// others skip it or wait on its ready channel.
type rowPool struct {
	jobs chan *region
	wg   sync.WaitGroup
	stop atomic.Bool // set when the Find ends: queued jobs go back to the search
	// What the workers did, added to the Router's stats when they stop.
	rows []int
	took []time.Duration
}

// queue hands region rg to the workers, unless the queue is full.
func (p *rowPool) queue(rg *region) {
	rg.ready = make(chan struct{})
	rg.rows.Store(rowsQueued)
	select {
	case p.jobs <- rg:
	default:
		rg.rows.Store(rowsNone)
	}
}

// startWorkers starts RouteOptions.Workers workers for one Find, each with
// its own rowBuilder over its own view of the grid; none when the grid has
// no views or one CPU runs the process.
func (r *Router) startWorkers() {
	n := min(r.opt.Workers, runtime.GOMAXPROCS(0)-1)
	views, ok := r.grid.(GridViews)
	if n <= 0 || !ok {
		return
	}
	p := &rowPool{jobs: make(chan *region, rowQueue), rows: make([]int, n), took: make([]time.Duration, n)}
	for len(r.workers) < n {
		r.workers = append(r.workers, &rowBuilder{gen: NewFinder()})
	}
	for w := range n {
		b := r.workers[w]
		// The worker's move generator: the search's rules and costs, over
		// a view of the grid.
		b.gen.grid, b.gen.ct, b.gen.maxDrop = views.View(), r.gen.ct, r.gen.maxDrop
		p.wg.Add(1)
		go p.work(b, w)
	}
	r.pool = p
}

// work computes the rows of the queued regions until the Find ends.
func (p *rowPool) work(b *rowBuilder, w int) {
	defer p.wg.Done()
	for rg := range p.jobs {
		if p.stop.Load() {
			// The Find is over: the region goes back to the search.
			rg.rows.CompareAndSwap(rowsQueued, rowsNone)
			continue
		}
		if !rg.rows.CompareAndSwap(rowsQueued, rowsRunning) {
			continue // the search took it back
		}
		t := time.Now()
		rg.dist = b.rows(rg.k, rg.portals)
		p.took[w] += time.Since(t)
		p.rows[w] += len(rg.portals)
		rg.rows.Store(rowsDone)
		close(rg.ready)
	}
}

// stopWorkers ends the Find's workers: a job being computed is finished,
// the queued ones go back to the search. No goroutine of the Router runs
// after it returns.
func (r *Router) stopWorkers() {
	p := r.pool
	if p == nil {
		return
	}
	r.pool = nil
	p.stop.Store(true)
	close(p.jobs)
	p.wg.Wait()
	for w := range p.rows {
		r.stats.Rows += p.rows[w]
		r.stats.WorkerRows += p.rows[w]
		r.stats.BuildTime += p.took[w]
		// Drop the view: the next Find takes a new one of the grid then.
		r.workers[w].gen.grid = nil
	}
}
