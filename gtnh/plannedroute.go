package gtnh

import (
	"sync/atomic"

	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// plannedRoute is a route move_to planned, numbered.
type plannedRoute struct {
	seq   uint64
	steps []path.Step
}

// lastRoute holds the route move_to planned last (a walking route, a
// segment to the edge of the loaded terrain, or a digging route), for
// PlannedRoute.
type lastRoute struct {
	count atomic.Uint64
	route atomic.Pointer[plannedRoute]
}

func (l *lastRoute) set(steps []path.Step) {
	l.route.Store(&plannedRoute{seq: l.count.Add(1), steps: steps})
}

// PlannedRoute is the route move_to planned last and is walking (or
// walked): the cells the feet pass from where the player stood when it was
// planned (the path's own slice: not to be changed), numbered by seq from
// 1 (0: none planned yet). A re-plan, or the next segment of a route into
// terrain that is still loading, is a new route. The web view draws it.
// Safe to call from any goroutine.
func (c *Client) PlannedRoute() (seq uint64, steps []path.Step) {
	r := c.route.route.Load()
	if r == nil {
		return 0, nil
	}
	return r.seq, r.steps
}
