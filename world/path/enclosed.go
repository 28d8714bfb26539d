package path

import "github.com/gtnh-agent/gtnh-agent/world"

// Enclosed reports whether a body with its feet in cell feet is walled in:
// the cells beside the feet and the head, the one above the head and the
// one below the feet are all solid, so nothing that walks reaches it and
// nothing sees it. Unknown blocks count as open.
func Enclosed(w *world.Snapshot, feet world.BlockPos) bool {
	solid := func(p world.BlockPos) bool { return w.Known(p) && ClassifyByTags(w.BlockAt(p)) == Solid }
	if !solid(feet.Down()) || !solid(feet.Add(0, 2, 0)) {
		return false
	}
	for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		if !solid(feet.Add(d[0], 0, d[1])) || !solid(feet.Add(d[0], 1, d[1])) {
			return false
		}
	}
	return true
}
