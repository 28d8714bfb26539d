package sim

import (
	"slices"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// limitView makes a snapshot see only what lies within radius of the
// player's feet: blocks farther away read as air and are never found, and
// machines farther away are not listed.
func limitView(snap *world.Snapshot, radius int) {
	feet := snap.Feet()
	if snap.Blocks != nil {
		snap.Blocks = viewLimited{src: snap.Blocks, feet: feet, r: radius}
	}
	snap.Machines = slices.DeleteFunc(snap.Machines, func(m world.Machine) bool { return m.Pos.DistSq(feet) > radius*radius })
}

type viewLimited struct {
	src  world.BlockSource
	feet world.BlockPos
	r    int
}

func (v viewLimited) in(p world.BlockPos) bool { return p.DistSq(v.feet) <= v.r*v.r }

// Known: only what is in view is known.
func (v viewLimited) Known(p world.BlockPos) bool {
	if !v.in(p) {
		return false
	}
	if k, ok := v.src.(interface{ Known(world.BlockPos) bool }); ok {
		return k.Known(p)
	}
	return true
}

func (v viewLimited) BlockAt(p world.BlockPos) world.Block {
	if !v.in(p) {
		return world.Air
	}
	return v.src.BlockAt(p)
}

// Nearest searches around center and keeps what is in view. Around the
// feet the radius is clipped to the view, so k is exact; around another
// center every hit is asked for, then filtered and cut to k.
func (v viewLimited) Nearest(center world.BlockPos, radius, k int, match func(world.Block) bool) []world.BlockHit {
	if center == v.feet {
		return v.src.Nearest(center, min(radius, v.r), k, match)
	}
	hits := slices.DeleteFunc(v.src.Nearest(center, radius, 0, match), func(h world.BlockHit) bool { return !v.in(h.Pos) })
	if k > 0 && len(hits) > k {
		hits = hits[:k]
	}
	return hits
}
