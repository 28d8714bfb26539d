package path

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// RunNodes bounds the places RunFrom looks at: open ground 38 blocks every
// way (a run of 16 blocks farther from a mob 8 away takes 24), or a few
// thousand blocks of tunnel.
const RunNodes = 3000

// runMargin is how near a hostile mob's feet the way out may not pass: a
// zombie's arm reaches about 2 blocks, so running past a mob in a tunnel
// is running into it. Inside it, a step that takes the bot farther from
// the mob is a step out of its reach, not past it: a bot with a zombie at
// its elbow backs away from it (the zombie walks 2.3 blocks a second, the
// bot 4.3) instead of counting itself cornered.
const runMargin = 3

// StandAt reports whether a body can stand with its feet in p, as seen in
// the snapshot: the feet's and the head's cells open (Passable) and a solid
// floor, all of them known.
func StandAt(w *world.Snapshot, p world.BlockPos) bool {
	cell := func(q world.BlockPos) Cell {
		if !w.Known(q) {
			return Unknown
		}
		return ClassifyByTags(w.BlockAt(q))
	}
	return cell(p) == Passable && cell(p.Up()) == Passable && cell(p.Down()) == Solid
}

// RunFrom finds where a body with its feet in feet can run to, walking,
// away from a mob at mob: the place to stand nearest by the walk (a step
// to the side, or one block up or down) that is at least dist blocks from
// the mob, never passing within runMargin blocks of it (within it, every
// step leads farther from the mob). It looks at no
// more than RunNodes places; ok is false in a tunnel the mob blocks, a
// pit, or a room too small to get that far.
func RunFrom(w *world.Snapshot, feet world.BlockPos, mob world.Vec3, dist float64) (world.BlockPos, bool) {
	far := func(p world.BlockPos) float64 {
		c := world.Vec3{X: float64(p.X) + 0.5, Y: float64(p.Y), Z: float64(p.Z) + 0.5}
		return math.Sqrt(c.DistSq(mob))
	}
	seen := map[world.BlockPos]bool{feet: true}
	queue := []world.BlockPos{feet}
	for i := 0; i < len(queue) && i < RunNodes; i++ {
		p := queue[i]
		if i > 0 && far(p) >= dist {
			return p, true
		}
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			for _, dy := range []int{0, 1, -1} {
				n := p.Add(d[0], dy, d[1])
				if seen[n] || !StandAt(w, n) || far(n) < runMargin && far(n) <= far(p) {
					continue
				}
				// A step up needs room over the head where it starts; a
				// step down, room over the head where it lands.
				if dy == 1 && !open(w, p.Add(0, 2, 0)) || dy == -1 && !open(w, n.Add(0, 2, 0)) {
					continue
				}
				seen[n] = true
				queue = append(queue, n)
				break
			}
		}
	}
	return world.BlockPos{}, false
}

// open reports whether a known cell lets a body through.
func open(w *world.Snapshot, p world.BlockPos) bool {
	return w.Known(p) && ClassifyByTags(w.BlockAt(p)) == Passable
}
