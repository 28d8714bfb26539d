package path

import (
	"runtime"
	"sync"
	"time"
)

// rowPool is the workers of one Find: goroutines that compute the rows of
// regions as the search builds them (Router.regionAt queues each new
// region), so the search finds them done when it first expands a portal
// there. A job is a region in state rowsQueued; whoever moves it to
// rowsRunning computes it (a worker, or the search taking it back), and the
// others skip it or wait on its ready channel. The workers take the region
// queued last first: the search goes on from the portals it reached last,
// so those are the regions it needs soonest.
//
// After a region's rows, a worker builds the borders of its four
// neighbours that no one has built yet: the search, expanding the region's
// portals next, reaches those neighbours and needs their portals, which
// come from their borders. The search takes a border a worker built
// (take) instead of building it; while the workers run, the Router's
// border map is written under mu, and the workers read it under mu.
type rowPool struct {
	r      *Router
	mu     sync.Mutex
	more   sync.Cond // signalled when a region is queued or the Find ends
	stack  []*region
	closed bool
	wg     sync.WaitGroup
	// Borders the workers built and the search has not taken, and those
	// a worker is building.
	built    map[borderKey]*border
	building map[borderKey]bool
	// What the workers did, added to the Router's stats when they stop.
	rows    []int
	borders []int
	took    []time.Duration
}

// take hands the search the border bk if a worker built it.
func (p *rowPool) take(bk borderKey) *border {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.built[bk]
	if b != nil {
		delete(p.built, bk)
	}
	return b
}

// prefetch builds, with worker b, the borders of the four neighbours of
// region k that are not built, being built or cached.
func (p *rowPool) prefetch(b *rowBuilder, w int, k regionKey) {
	for _, n := range [4]regionKey{{k.cx - 1, k.cz}, {k.cx + 1, k.cz}, {k.cx, k.cz - 1}, {k.cx, k.cz + 1}} {
		if !p.r.isLoaded(n) {
			continue
		}
		for _, bk := range [4]borderKey{{n, 0}, {n, 1}, {regionKey{n.cx - 1, n.cz}, 0}, {regionKey{n.cx, n.cz - 1}, 1}} {
			p.mu.Lock()
			_, cached := p.r.borders[bk]
			skip := p.closed || cached || p.built[bk] != nil || p.building[bk]
			if !skip {
				p.building[bk] = true
			}
			p.mu.Unlock()
			if skip {
				continue
			}
			t := time.Now()
			bd := p.r.borderWith(b.gen, bk)
			p.took[w] += time.Since(t)
			p.borders[w]++
			p.mu.Lock()
			delete(p.building, bk)
			p.built[bk] = bd
			p.mu.Unlock()
		}
	}
}

// queue hands region rg to the workers.
func (p *rowPool) queue(rg *region) {
	rg.ready = make(chan struct{})
	rg.rows.Store(rowsQueued)
	p.mu.Lock()
	p.stack = append(p.stack, rg)
	p.mu.Unlock()
	p.more.Signal()
}

// next returns the region queued last, nil when the Find is over.
func (p *rowPool) next() *region {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.stack) == 0 && !p.closed {
		p.more.Wait()
	}
	if p.closed {
		return nil
	}
	rg := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	return rg
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
	p := &rowPool{r: r, rows: make([]int, n), borders: make([]int, n), took: make([]time.Duration, n),
		built: map[borderKey]*border{}, building: map[borderKey]bool{}}
	p.more.L = &p.mu
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
	for {
		rg := p.next()
		if rg == nil {
			return
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
		p.prefetch(b, w, rg.k)
	}
}

// stopWorkers ends the Find's workers: a job being computed is finished,
// the queued ones go back to the search, the borders they built are cached. No goroutine of the Router runs
// after it returns.
func (r *Router) stopWorkers() {
	p := r.pool
	if p == nil {
		return
	}
	r.pool = nil
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.more.Broadcast()
	p.wg.Wait()
	// The regions still queued go back to the search.
	for _, rg := range p.stack {
		rg.rows.CompareAndSwap(rowsQueued, rowsNone)
	}
	// The borders built and not taken are kept: the grid has not changed
	// since, and a later route may need them.
	for bk, b := range p.built {
		if _, ok := r.borders[bk]; !ok {
			r.borders[bk] = b
		}
	}
	for w := range p.rows {
		r.stats.Rows += p.rows[w]
		r.stats.WorkerRows += p.rows[w]
		r.stats.Borders += p.borders[w]
		r.stats.BuildTime += p.took[w]
		// Drop the view: the next Find takes a new one of the grid then.
		r.workers[w].gen.grid = nil
	}
}
