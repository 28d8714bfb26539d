package skills

import (
	"slices"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// awayFromMobs orders a search's hits so that the work goes where no
// hostile mob would come for the bot: the hits no mob guards
// (path.Guarded: neither the block nor the straight way to it within a
// hostile mob's follow range) first, in the order given; then the guarded
// ones, the farthest from its mob first. A player who fled a creeper
// digs the gravel on the other side of the field, not the gravel beside
// it; walking back to that would only bring the mob on again and end the
// step in another flight. Where every hit is guarded the nearest-to-safe
// is still tried: the mob may have gone by the time the bot gets there.
func awayFromMobs(w *world.Snapshot, mobs *rules.Mobs, hits []world.BlockHit) []world.BlockHit {
	if len(w.Entities) == 0 || len(hits) == 0 {
		return hits
	}
	guard := make(map[world.BlockPos]float64, len(hits))
	for _, h := range hits {
		if g, ok := path.Guarded(w, mobs, h.Pos); ok {
			guard[h.Pos] = g.Dist
		}
	}
	if len(guard) == 0 {
		return hits
	}
	out := slices.Clone(hits)
	slices.SortStableFunc(out, func(a, b world.BlockHit) int {
		ga, oka := guard[a.Pos]
		gb, okb := guard[b.Pos]
		switch {
		case oka != okb:
			if oka {
				return 1
			}
			return -1
		case !oka:
			return 0
		case ga > gb:
			return -1
		case ga < gb:
			return 1
		}
		return 0
	})
	return out
}
