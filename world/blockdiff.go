package world

import "github.com/gtnh-agent/gtnh-agent/world/chunk"

// CountBlocks returns how many non-air blocks within radius of center
// satisfy match: len(src.Nearest(center, radius, 0, match)), counted
// without listing them where the source can (a chunk view).
func CountBlocks(src BlockSource, center BlockPos, radius int, match func(Block) bool) int {
	if c, ok := src.(*chunk.Chunks); ok && c != nil {
		return c.CountWithin(center, radius, match)
	}
	if v, ok := src.(*taggedView); ok && v != nil {
		if c, ok := v.base.(*chunk.Chunks); ok && c != nil {
			return v.countWithin(c, center, radius, match)
		}
	}
	return len(src.Nearest(center, radius, 0, match))
}

// ChangedBlocks calls fn for every position within radius of center where
// the blocks of a and b may differ (every position where they differ, and
// perhaps a few where they do not), and reports whether it could tell.
// Two views of one chunk store compare section by section, skipping the
// sections they share, so comparing the world before and after a step
// costs what the step changed. For other sources it returns false without
// calling fn: the caller compares the blocks itself.
func ChangedBlocks(a, b BlockSource, center BlockPos, radius int, fn func(BlockPos)) bool {
	switch av := a.(type) {
	case *chunk.Chunks:
		bv, ok := b.(*chunk.Chunks)
		return ok && av != nil && bv != nil && av.ChangedWithin(bv, center, radius, fn)
	case *taggedView:
		bv, ok := b.(*taggedView)
		if !ok {
			return false
		}
		seen := map[BlockPos]bool{}
		if !ChangedBlocks(av.base, bv.base, center, radius, func(p BlockPos) {
			seen[p] = true
			fn(p)
		}) {
			return false
		}
		// A position tag may come or go while the state stays: every
		// tagged position within the radius may have changed.
		r2 := radius * radius
		for _, tags := range []map[BlockPos]posTag{av.tags, bv.tags} {
			for p := range tags {
				if !seen[p] && radius >= 0 && p.DistSq(center) <= r2 {
					seen[p] = true
					fn(p)
				}
			}
		}
		return true
	}
	return false
}
