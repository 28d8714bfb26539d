package skills

import (
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// AwayFromMobs orders a search's hits so that the work goes where no
// hostile mob would come for the bot: the hits no mob guards
// (path.Guarded: neither the block nor the straight way to it within a
// hostile mob's follow range) first, then the guarded ones, each group in
// the order given. A player who fled a creeper digs the gravel on the
// other side of the field, not the gravel beside it; walking back to that
// would only bring the mob on again and end the step in another flight.
// Where every hit is guarded the order stands (the nearest first): the
// mob may have gone by the time the bot gets there.
func AwayFromMobs(w *world.Snapshot, mobs *rules.Mobs, hits []world.BlockHit) []world.BlockHit {
	if len(w.Entities) == 0 {
		return hits
	}
	out := make([]world.BlockHit, 0, len(hits))
	var guarded []world.BlockHit
	for _, h := range hits {
		if _, ok := path.Guarded(w, mobs, h.Pos); ok {
			guarded = append(guarded, h)
			continue
		}
		out = append(out, h)
	}
	return append(out, guarded...)
}
