package base

import (
	"sort"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(ChopTree{}) }

// Limits of the tree search.
const (
	// treeMaxLogs bounds the flood fill of one tree (a big GTNH jungle or
	// dark oak tree has well under 200 logs).
	treeMaxLogs = 256
	// treeMargin is how far beyond the search radius a tree's logs may reach
	// and still be followed: a trunk found at the edge of the radius is
	// felled whole.
	treeMargin = 8
)

// ChopTree fells whole trees for logs.
//
// GTNH behaviour: logs can be broken by hand, only slowly, so an axe is
// preferred but not required (require_axe makes it mandatory). Wood is the
// first bottleneck of a GTNH game: planks, sticks, the crafting table (two
// flint and two logs) and charcoal all start from logs, and hand-crafting
// gives only two planks per log.
//
// The skill finds the nearest block tagged "log" within radius of the
// player's feet and follows every log connected to it (the 26 neighbours,
// so diagonal branches count) to get the whole tree, bounded to 256 logs and
// to radius+8 blocks. When that tree has fewer than min_logs logs the next
// nearest trees are added until min_logs is reached or no log is left in
// range; whatever is in range is chopped even if it falls short, and the
// loop verifies the declared inventory effect.
//
// Each tree is felled bottom-up (by Y, then Z, then X), since the agent
// cannot fly: stand on the ground next to the trunk base (the side facing
// the player first; a spot whose feet and head blocks are free, preferably
// with solid ground below) and break every log within reach (4.5 blocks from
// the eyes, 1.62 above the feet). A log out of reach gets a new standing
// spot once the logs below it are gone: under it in its own column or in the
// trunk column, on the ground when that is within reach, else up to four
// blocks below the log (for tall trunks the body has to pillar up to such a
// spot), or, for a low branch far from the trunk, on the ground next to it.
// Every move is an exact move_to (radius 0) so the reach of each break can be
// checked when the plan is made.
type ChopTree struct{}

// Name implements skills.Implementation.
func (ChopTree) Name() string { return "chop_tree" }

// SuggestActions implements skills.Implementation.
func (ChopTree) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	radius := intParam(p, "radius", 16)
	minLogs := intParam(p, "min_logs", 4)
	requireAxe := boolParam(p, "require_axe", false)

	inv := w.Inventory
	axe := inv.BestTool(world.MustItem("tool:axe"), 1)
	if axe < 0 && requireAxe {
		return nil, skills.Failf(skills.CodeMissingTool,
			"require_axe is set but the inventory holds no axe with durability left (any tool:axe will do, even a flint axe)")
	}

	hits := w.NearestBlocks(radius, 0, "log")
	if len(hits) == 0 {
		return nil, skills.Failf(skills.CodeNoTarget, "no log within %d blocks of %s", radius, w.Feet())
	}
	// The trees no hostile mob guards first: not back to the creeper
	// the bot just fled.
	hits = skills.AwayFromMobs(w, rules.Default().Mobs, hits)

	feet := w.Feet()
	bound := (radius + treeMargin) * (radius + treeMargin)
	claimed := map[world.BlockPos]bool{}
	var trees [][]world.BlockPos
	total := 0
	for _, h := range hits {
		if total >= minLogs {
			break
		}
		if claimed[h.Pos] {
			continue
		}
		tree := floodLogs(w, h.Pos, feet, bound, claimed)
		trees = append(trees, tree)
		total += len(tree)
	}

	var acts []action.Action
	if axe >= 0 && axe != inv.Held {
		acts = append(acts, action.Equip{Item: itemRef(inv, inv.Slots[axe])})
	}
	from := feet
	for _, tree := range trees {
		var felled []action.Action
		felled, from = fellTree(w, tree, from)
		acts = append(acts, felled...)
	}
	return acts, nil
}

// floodLogs collects the logs connected to start (26-neighbourhood), within
// bound (squared distance from feet) and at most treeMaxLogs, sorted
// bottom-up. Visited logs are marked in claimed.
func floodLogs(w *world.Snapshot, start, feet world.BlockPos, bound int, claimed map[world.BlockPos]bool) []world.BlockPos {
	claimed[start] = true
	queue := []world.BlockPos{start}
	for i := 0; i < len(queue) && len(queue) < treeMaxLogs; i++ {
		p := queue[i]
	neighbours:
		for dy := -1; dy <= 1; dy++ {
			for dz := -1; dz <= 1; dz++ {
				for dx := -1; dx <= 1; dx++ {
					if dx == 0 && dy == 0 && dz == 0 {
						continue
					}
					n := p.Add(dx, dy, dz)
					if claimed[n] || n.DistSq(feet) > bound || !w.BlockAt(n).HasTag("log") {
						continue
					}
					claimed[n] = true
					queue = append(queue, n)
					if len(queue) >= treeMaxLogs {
						break neighbours
					}
				}
			}
		}
	}
	sort.Slice(queue, func(i, j int) bool { return queue[i].Less(queue[j]) })
	return queue
}

// fellTree emits the moves and breaks for one tree; logs are sorted
// bottom-up and from is where the player stands now. It returns the actions
// and where the player ends up.
func fellTree(w *world.Snapshot, logs []world.BlockPos, from world.BlockPos) ([]action.Action, world.BlockPos) {
	base := logs[0]
	broken := map[world.BlockPos]bool{}
	// clear reports whether the player fits with feet in p: feet and head
	// blocks are air, replaceable plants or logs already broken.
	clear := func(p world.BlockPos) bool {
		for _, q := range []world.BlockPos{p, p.Up()} {
			b := w.BlockAt(q)
			if !(b.IsAir() || b.HasTag("replaceable") || broken[q]) {
				return false
			}
		}
		return true
	}
	grounded := func(p world.BlockPos) bool { return isSolid(w.BlockAt(p.Down())) && !broken[p.Down()] }
	// leafy reports whether only leaves stand where the feet and head go:
	// a player breaks them (the body's route digs through them).
	leafy := func(p world.BlockPos) bool {
		for _, q := range []world.BlockPos{p, p.Up()} {
			b := w.BlockAt(q)
			if !(b.IsAir() || b.HasTag("replaceable") || b.HasTag("leaves") || broken[q]) {
				return false
			}
		}
		return true
	}

	// Beside the trunk at its base's level first; then a block lower, for
	// a tree on a step of the ground whose side at the base's level is
	// leaves, a table or air over a drop: a player stands on the lower
	// ground and reaches up.
	spots := approachSpots(base, from)
	for _, c := range approachSpots(base, from) {
		spots = append(spots, c.Down())
	}
	// A block higher: a trunk in a dip, the ground beside it level with
	// its base log.
	for _, c := range approachSpots(base, from) {
		spots = append(spots, c.Up())
	}
	// Last, two blocks out (the base still in reach), when nothing beside
	// the trunk is clear ground: leaves all round a trunk on a rise.
	for dz := -2; dz <= 2; dz++ {
		for dx := -2; dx <= 2; dx++ {
			if max(abs(dx), abs(dz)) == 2 {
				for _, dy := range []int{0, -1} {
					if c := base.Add(dx, dy, dz); canReach(c, base) {
						spots = append(spots, c)
					}
				}
			}
		}
	}
	// Clear ground first; then clear air (the body pillars up); last,
	// ground whose feet and head cells hold leaves, the tree's own down to
	// the ground all round (the body breaks them on its way in).
	score := func(c world.BlockPos) int {
		switch {
		case clear(c) && grounded(c):
			return 3
		case clear(c):
			return 2
		case leafy(c) && grounded(c):
			return 1
		}
		return 0
	}
	stand := pickStand(spots, score)
	// Where the bot stands, when the base is within reach from there and
	// no spot is clear ground (or the one found stands on leaves, which
	// no walk may lead to): a tree grown on the pillar beside the one it
	// stands on, the ground around both far below.
	if canReach(from, base) && score(from) == 3 && (score(stand) < 3 || w.BlockAt(stand.Down()).HasTag("leaves")) {
		stand = from
	}
	// A trunk whose lowest logs are gone (a tree half felled before a
	// reconnect) floats, its base maybe among the leaves: stand on the
	// ground under it, beside the trunk column or in it, when that reaches
	// the lowest log.
	if foot, ok := floatingFoot(w, base); ok {
		for _, c := range append(approachSpots(foot, from), foot) {
			if canReach(c, base) && clear(c) && grounded(c) {
				stand = c
				break
			}
		}
	}
	acts := []action.Action{action.MoveTo{Pos: stand, Radius: 0}}
	for _, l := range logs {
		if !canReach(stand, l) {
			stand = pickStand(standSpots(l, base), func(c world.BlockPos) int {
				switch {
				case !canReach(c, l) || !clear(c):
					return 0
				case !grounded(c):
					return 1
				}
				return 2
			})
			acts = append(acts, action.MoveTo{Pos: stand, Radius: 0})
		}
		acts = append(acts, action.BreakBlock{Pos: l})
		broken[l] = true
	}
	return acts, stand
}

// maxStandDrop is how far below a floating trunk's base the approach looks
// for the ground.
const maxStandDrop = 4

// floatingFoot is where the feet go on the ground under a trunk whose base
// has nothing solid below it: the lowest of the free blocks below the base
// in the trunk column, at most maxStandDrop down.
func floatingFoot(w *world.Snapshot, base world.BlockPos) (world.BlockPos, bool) {
	p := base
	for i := 0; i < maxStandDrop; i++ {
		below := p.Down()
		if isSolid(w.BlockAt(below)) {
			return p, p != base
		}
		p = below
	}
	return base, false
}

// horizontal lists the horizontal neighbour offsets in a fixed order: the
// four sides (north, south, west, east), then the diagonals.
var horizontal = [][2]int{{0, -1}, {0, 1}, {-1, 0}, {1, 0}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}}

// approachSpots lists standing spots next to the trunk base, the side facing
// the player first.
func approachSpots(base, from world.BlockPos) []world.BlockPos {
	dx, dz := from.X-base.X, from.Z-base.Z
	var first world.BlockPos
	if abs(dx) >= abs(dz) && dx != 0 {
		first = base.Add(sign(dx), 0, 0)
	} else if dz != 0 {
		first = base.Add(0, 0, sign(dz))
	} else {
		first = base.Add(0, 0, -1)
	}
	out := []world.BlockPos{first}
	for _, o := range horizontal {
		if c := base.Add(o[0], 0, o[1]); c != first {
			out = append(out, c)
		}
	}
	return out
}

// standSpots lists standing spots from which log l may be reached once every
// log below it is broken. For a log two or more blocks above the trunk base:
// below it in its own column, then in the trunk column, four blocks below
// the log first (a spot that also reaches the logs above it), then higher,
// then lower down to the ground; pickStand prefers a spot on solid ground,
// otherwise the body has to pillar up. For a low branch far from the trunk:
// on the ground next to it, the side towards the trunk first.
func standSpots(l, base world.BlockPos) []world.BlockPos {
	var out []world.BlockPos
	if l.Y >= base.Y+2 {
		var ys []int
		for y := max(base.Y, l.Y-4); y <= l.Y-2; y++ {
			ys = append(ys, y)
		}
		for y := l.Y - 5; y >= base.Y; y-- {
			ys = append(ys, y)
		}
		for _, y := range ys {
			out = append(out, world.Pos(l.X, y, l.Z))
		}
		if l.X != base.X || l.Z != base.Z {
			for _, y := range ys {
				out = append(out, world.Pos(base.X, y, base.Z))
			}
		}
		return out
	}
	toward := world.Pos(l.X-sign(l.X-base.X), base.Y, l.Z-sign(l.Z-base.Z))
	if toward.X != l.X || toward.Z != l.Z {
		out = append(out, toward)
	}
	for _, o := range horizontal {
		if c := world.Pos(l.X+o[0], base.Y, l.Z+o[1]); c != toward {
			out = append(out, c)
		}
	}
	return out
}

// pickStand returns the first candidate with the highest score (0 = unusable);
// when none is usable it returns the first, and the body has to make room.
func pickStand(cands []world.BlockPos, score func(world.BlockPos) int) world.BlockPos {
	best, bestScore := cands[0], 0
	for _, c := range cands {
		if s := score(c); s > bestScore {
			best, bestScore = c, s
		}
	}
	return best
}

// isSolid reports whether a block can be stood on.
func isSolid(b world.Block) bool {
	return !b.IsAir() && !b.HasTag("liquid") && !b.HasTag("replaceable") && !b.HasTag("plant")
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
