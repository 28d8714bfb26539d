package path

import "github.com/gtnh-agent/gtnh-agent/world"

// corridorOf is the set of regions within RouteOptions.Corridor regions
// (Chebyshev) of a chain of portals and of the straight steps between
// them.
func (r *Router) corridorOf(chain []world.BlockPos) map[regionKey]bool {
	out := map[regionKey]bool{}
	w := r.opt.Corridor
	mark := func(k regionKey) {
		for dx := -w; dx <= w; dx++ {
			for dz := -w; dz <= w; dz++ {
				out[regionKey{k.cx + dx, k.cz + dz}] = true
			}
		}
	}
	for i, p := range chain {
		mark(regionOf(p.X, p.Z))
		if i == 0 {
			continue
		}
		// Consecutive portals of a chain are in one region or
		// neighbouring ones, except the start's edges; fill between.
		q := chain[i-1]
		n := max(abs(p.X-q.X), abs(p.Z-q.Z)) / regionSide
		for s := 1; s < n; s++ {
			mark(regionOf(q.X+(p.X-q.X)*s/n, q.Z+(p.Z-q.Z)*s/n))
		}
	}
	return out
}
