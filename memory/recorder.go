package memory

import (
	"sort"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// DefaultTags are the kinds of block a Recorder remembers: what the
// gathering skills look for and a player walks back to.
var DefaultTags = []string{"ore", "log", "water_source", "lava", "gravel", "sand", "clay"}

// Recorder turns what the bot observes into a world's memory.
type Recorder struct {
	Store *Store
	Place Place
	// Tags are the block tags to remember (DefaultTags when empty).
	Tags []string
	// Radius is how far around the player a look counts as seen in full
	// (default 24: within the 3 chunks every 1.7.10 server sends around a
	// player at its smallest view distance).
	Radius int
	// PerTag is how many blocks of each tag one look remembers at most,
	// nearest first (default 64).
	PerTag int
}

// Observe records one snapshot: the tagged blocks around the player, the
// remembered blocks around it that are gone, the machines and what they
// hold, and the chunk columns in reach.
func (r *Recorder) Observe(snap *world.Snapshot) (Changes, error) {
	return r.Store.Record(r.Place, r.observation(snap))
}

func (r *Recorder) observation(snap *world.Snapshot) Observation {
	radius, per, tags := r.Radius, r.PerTag, r.Tags
	if radius <= 0 {
		radius = 24
	}
	if per <= 0 {
		per = 64
	}
	if len(tags) == 0 {
		tags = DefaultTags
	}
	o := Observation{Tick: snap.Tick}
	seen := map[game.BlockPos]bool{}
	for _, t := range tags {
		for _, h := range snap.NearestBlocks(radius, per, t) {
			if seen[h.Pos] {
				continue
			}
			seen[h.Pos] = true
			o.Seen = append(o.Seen, Sighting{Block: h.Block.ID, Meta: h.Block.Meta, Pos: h.Pos})
		}
	}
	sort.Slice(o.Seen, func(i, j int) bool { return o.Seen[i].Pos.Less(o.Seen[j].Pos) })
	if snap.Blocks != nil {
		o.View = &View{Center: snap.Feet(), Radius: radius, Holds: func(p game.BlockPos, id string, meta int) bool {
			if !snap.Known(p) {
				return true // not loaded: nothing can be said, it stays
			}
			b := snap.BlockAt(p)
			return b.ID == id && b.Meta == meta
		}}
	}
	for _, m := range snap.Machines {
		c := Container{Kind: m.Kind, Pos: m.Pos}
		if !m.ContentsUnknown {
			names := make([]string, 0, len(m.Slots))
			for n := range m.Slots {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				if st := m.Slots[n]; !st.Empty() {
					c.Items = append(c.Items, Item{ID: st.ID, Meta: st.Meta, Count: st.Count})
				}
			}
		}
		o.Containers = append(o.Containers, c)
	}
	feet := snap.Feet()
	cx, cz := feet.X>>4, feet.Z>>4
	rc := (radius + 15) >> 4
	for dx := -rc; dx <= rc; dx++ {
		for dz := -rc; dz <= rc; dz++ {
			o.Chunks = append(o.Chunks, [2]int{cx + dx, cz + dz})
		}
	}
	return o
}
