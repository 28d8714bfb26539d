package sim

import (
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// routeCache keeps one long-route planner (path.Router) for all the
// move_to actions of a simulation, so a route reuses the regions earlier
// ones built. The store writes in place into columns no snapshot shares,
// so a changed column keeps its pointer: the cache compares each column's
// pointer and its edit count (chunk.Column.Edits) with those it saw, and
// rebuilds the regions of the columns that differ.
type routeCache struct {
	router   *path.Router
	maxNodes int
	cols     map[[2]int]columnStamp
}

// columnStamp is what a column was when the cache last looked: nil when
// none was loaded.
type columnStamp struct {
	col   *chunk.Column
	edits uint64
}

// routerFor returns the simulation's planner, whose exact searches expand
// at most maxNodes nodes each, pointed at tx's world with the regions of
// changed columns dropped; another budget starts a new one.
func (s *Sim) routerFor(tx *world.Tx, maxNodes int) (*path.Router, error) {
	g := grid{s, tx}
	if s.routes == nil || s.routes.maxNodes != maxNodes {
		r, err := path.NewRouter(g, path.RouteOptions{Options: path.Options{MaxNodes: maxNodes}})
		if err != nil {
			return nil, err
		}
		s.routes = &routeCache{router: r, maxNodes: maxNodes, cols: map[[2]int]columnStamp{}}
	}
	rc := s.routes
	rc.router.SetGrid(g)
	for cx := 0; cx <= (s.sc.SizeX-1)>>4; cx++ {
		for cz := 0; cz <= (s.sc.SizeZ-1)>>4; cz++ {
			k := [2]int{cx, cz}
			now := columnStamp{col: tx.Column(cx, cz)}
			if now.col != nil {
				now.edits = now.col.Edits()
			}
			if rc.cols[k] == now {
				continue
			}
			rc.router.InvalidateColumn(cx, cz)
			if now.col == nil {
				delete(rc.cols, k)
			} else {
				rc.cols[k] = now
			}
		}
	}
	return rc.router, nil
}

// PlannedRoute is the route the latest move_to planned and walked: the
// cells the feet pass from where the player stood (the path's own slice:
// not to be changed), numbered by seq from 1 (0: no move_to planned one
// yet). The web view draws it. Safe to call while actions run.
func (s *Sim) PlannedRoute() (seq uint64, steps []path.Step) {
	return s.route.Last()
}
