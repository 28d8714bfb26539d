package gtnh

import "github.com/gtnh-agent/gtnh-agent/world/path"

// PlannedRoute is the route move_to planned last and is walking (or
// walked): the cells the feet pass from where the player stood when it was
// planned (the path's own slice: not to be changed), numbered by seq from
// 1 (0: none planned yet). A re-plan, or the next segment of a route into
// terrain that is still loading, is a new route. The web view draws it.
// Safe to call from any goroutine.
func (c *Client) PlannedRoute() (seq uint64, steps []path.Step) {
	return c.route.Last()
}
