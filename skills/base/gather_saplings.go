package base

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(GatherSaplings{}) }

// standDrop is how far below a leaf block the skill looks for ground to
// stand on: a crown starts at most three blocks over a 4-log trunk's
// base, and a leaf is within reach (4.5 blocks from the eyes) of ground up
// to about five below it.
const standDrop = 8

// GatherSaplings breaks leaves for the saplings they drop.
//
// GTNH behaviour: saplings are how wood comes back (vanilla 1.7.10
// BlockLeaves drops a sapling for 1 leaf block in 20, whether broken or
// decayed, config/drops.yaml), and a player starting a tree farm breaks the
// leaves of the trees it felled rather than waiting for them to decay.
// Leaves break by hand in a moment (hardness 0.2).
//
// The skill takes the leaf blocks within radius of the feet, nearest
// first, up to `leaves` of them, and breaks each from a standing spot on
// the ground that reaches it (the current one when it does; else, in the
// columns around the leaf, nearest the leaf's column first, a spot with
// free feet and head and solid ground below, at most eight blocks under
// the leaf). A leaf no such spot reaches is left, and so is the one the
// player stands on (a player on a crown would fall out of reach). How many saplings that
// gives is chance: 60 leaves give 3 on average and none 1 time in 22.
// No leaves within radius is no_target.
//
// A step is bounded by time as well: it stops taking leaves once the
// walks and the breaking would pass `ticks` of game time (600 unless
// given: 30 s), each walk reckoned at walking pace over half again the
// straight way (the way around a trunk or up a rise), each leaf at the
// six ticks a hand breaks it in. The first leaf is always taken. A long
// gathering is then several steps, each ending with what it gathered,
// and the reflexes look around between them.
type GatherSaplings struct{}

// leafBreakTicks is how long a hand breaks a leaf block: hardness 0.2,
// harvested without a tool (1.7.10 Block.getPlayerRelativeBlockHardness:
// 1 / 0.2 / 30 a tick).
var leafBreakTicks = rules.BreakTicks(0.2, 1, true)

// wayAround is how much longer than the straight line a walk between two
// standing spots is reckoned.
const wayAround = 1.5

// gatherTicks is the default bound of one step's work, in ticks.
const gatherTicks = 600

// Name implements skills.Implementation.
func (GatherSaplings) Name() string { return "gather_saplings" }

// SuggestActions implements skills.Implementation.
func (GatherSaplings) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	radius := intParam(p, "radius", 16)
	want := intParam(p, "leaves", 60)
	if want < 1 {
		return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"leaves\": must be at least 1, got %d", want)
	}
	budget := float64(intParam(p, "ticks", gatherTicks)) // at least 1 (the spec's minimum)
	hits := w.NearestBlocks(radius, 0, "leaves")
	if len(hits) == 0 {
		return nil, skills.Failf(skills.CodeNoTarget, "no leaves within %d blocks of %s", radius, w.Feet())
	}
	broken := map[world.BlockPos]bool{}
	free := func(q world.BlockPos) bool {
		b := w.BlockAt(q)
		return b.IsAir() || b.HasTag("replaceable") || broken[q]
	}
	standable := func(q world.BlockPos) bool {
		return free(q) && free(q.Up()) && isSolid(w.BlockAt(q.Down())) && !broken[q.Down()]
	}
	stand := w.Feet()
	var acts []action.Action
	spent := 0.0 // the ticks reckoned for the actions so far
	for _, h := range hits {
		if len(broken) == want {
			break
		}
		leaf := h.Pos
		if leaf == stand.Down() {
			continue // the player stands on it: breaking it drops the player out of reach of the rest
		}
		cost := leafBreakTicks
		next := stand
		if !canReach(stand, leaf) {
			var ok bool
			if next, ok = leafStand(leaf, standable); !ok {
				continue
			}
			cost += math.Sqrt(float64(next.DistSq(stand))) * walkTicksPerBlock * wayAround
		}
		if len(broken) > 0 && spent+cost > budget {
			break // the rest is the next step's
		}
		spent += cost
		if next != stand {
			stand = next
			acts = append(acts, action.MoveTo{Pos: stand, Radius: 0})
		}
		acts = append(acts, action.BreakBlock{Pos: leaf})
		broken[leaf] = true
	}
	if len(acts) == 0 {
		return nil, skills.Failf(skills.CodeNoTarget, "no ground within reach of the %d leaf blocks within %d blocks of %s", len(hits), radius, w.Feet())
	}
	return acts, nil
}

// leafStand finds a spot to break a leaf block from: in its own column
// and the columns around it, nearest first, the highest standable spot
// within standDrop below it that reaches it.
func leafStand(leaf world.BlockPos, standable func(world.BlockPos) bool) (world.BlockPos, bool) {
	cols := [][2]int{{0, 0}}
	for _, o := range horizontal {
		cols = append(cols, o)
	}
	for _, o := range horizontal {
		cols = append(cols, [2]int{2 * o[0], 2 * o[1]})
	}
	for _, c := range cols {
		for y := leaf.Y - 1; y >= leaf.Y-standDrop; y-- {
			q := world.Pos(leaf.X+c[0], y, leaf.Z+c[1])
			if canReach(q, leaf) && standable(q) {
				return q, true
			}
		}
	}
	return world.BlockPos{}, false
}
