package path

import "sync/atomic"

// RouteLog keeps the route a body's move_to planned last, numbered, for
// readers on other goroutines (the web view draws it). The zero value is
// ready: no route yet.
type RouteLog struct {
	count atomic.Uint64
	route atomic.Pointer[loggedRoute]
}

type loggedRoute struct {
	seq   uint64
	steps []Step
}

// Set records a newly planned route (the path's own slice, kept as is: not
// to be changed afterwards) under the next number.
func (l *RouteLog) Set(steps []Step) {
	l.route.Store(&loggedRoute{seq: l.count.Add(1), steps: steps})
}

// Last is the latest route and its number, from 1 (0 and nil: none set
// yet). Safe to call from any goroutine.
func (l *RouteLog) Last() (seq uint64, steps []Step) {
	r := l.route.Load()
	if r == nil {
		return 0, nil
	}
	return r.seq, r.steps
}
