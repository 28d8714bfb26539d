package gtnh

import (
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// GregTech ores in the metadata format (GregTech 5.09.52.25 on,
// modnet.OreSourceMetadata): the ore blocks gregtech:gt.blockores2-7 carry
// their material in their block metadata, so the client tags them by ore
// dictionary name (config/gregtech.yaml) as chunks and block changes arrive,
// where the older format waits for GregTech's ORES message.

// metaOres reports whether the server's ores are read from block metadata.
func (c *Client) metaOres(s *session) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return s.mods.gt != nil && s.mods.gt.Ores == modnet.OreSourceMetadata
}

// oreFinder finds named ore blocks inside one world update.
type oreFinder struct {
	d     *modnet.Data
	res   *chunk.Resolver
	names map[chunk.StateID]string // per state: its ore name, "" for none
	found []foundOre
}

// foundOre is an ore block found at a position, in the state it had.
type foundOre struct {
	pos   world.BlockPos
	state chunk.StateID
	name  string
}

// name is the ore dictionary name of a state, "" when it is not a named
// GregTech ore (another block, a stone without a name in the data, an
// unknown material).
func (t *oreFinder) name(st chunk.StateID) string {
	if n, ok := t.names[st]; ok {
		return n
	}
	n := ""
	if b := t.res.Block(st); !b.IsAir() {
		if _, ok := modnet.OreBlockSeries(b.ID); ok {
			if ob, err := modnet.OreFromBlock(b.ID, b.Meta); err == nil {
				n, _ = t.d.OreBlockName(ob)
			}
		}
	}
	t.names[st] = n
	return n
}

// check notes the block at p when it is a named ore.
func (t *oreFinder) check(p world.BlockPos, st chunk.StateID) {
	if n := t.name(st); n != "" {
		t.found = append(t.found, foundOre{pos: p, state: st, name: n})
	}
}

// tagOres, when the server's ores are in the metadata format, finds ores
// with fn, records them in the session's ore table (up to its bound) and
// tags each that still has the state it was found in.
func (c *Client) tagOres(s *session, fn func(tx *world.Tx, t *oreFinder)) {
	if !c.metaOres(s) {
		return
	}
	md := modData()
	if md.d == nil {
		return
	}
	t := &oreFinder{d: md.d, names: map[chunk.StateID]string{}}
	c.state.Update(func(tx *world.Tx) {
		t.res = tx.Resolver()
		fn(tx, t)
	})
	if len(t.found) == 0 {
		return
	}
	keep := t.found[:0]
	c.mu.Lock()
	for _, o := range t.found {
		if _, had := s.mods.ores[o.pos]; !had && len(s.mods.ores) >= maxModEntries {
			countName(c.stats.Skipped, "mod state over limit")
			continue
		}
		s.mods.ores[o.pos] = o.name
		keep = append(keep, o)
	}
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) {
		for _, o := range keep {
			if tx.StateAt(o.pos) == o.state {
				tx.SetBlockTags(o.pos, []string{o.name})
			}
		}
	})
	c.notify()
}

// tagOreColumns tags the ores of the sections that arrived.
func (c *Client) tagOreColumns(s *session, cols []proto17.ChunkColumn) {
	c.tagOres(s, func(_ *world.Tx, t *oreFinder) {
		var states [chunk.SectionVolume]chunk.StateID
		for _, col := range cols {
			if col.Unload || col.Column == nil {
				continue
			}
			for cy := 0; cy < chunk.ColumnSections; cy++ {
				sec := col.Column.Section(cy)
				if col.Mask&(1<<cy) == 0 || sec == nil || !t.anyOre(sec.Palette()) {
					continue
				}
				sec.States(&states)
				for i, st := range states {
					if t.name(st) != "" {
						// SectionIndex is y<<8 | z<<4 | x.
						t.check(world.Pos(col.X*16+(i&15), cy*16+(i>>8), col.Z*16+(i>>4&15)), st)
					}
				}
			}
		}
	})
}

// anyOre reports whether a section's palette holds a named ore.
func (t *oreFinder) anyOre(palette []chunk.StateID) bool {
	for _, st := range palette {
		if t.name(st) != "" {
			return true
		}
	}
	return false
}

// tagOreBlocks tags the ores among changed blocks.
func (c *Client) tagOreBlocks(s *session, ps []world.BlockPos) {
	c.tagOres(s, func(tx *world.Tx, t *oreFinder) {
		for _, p := range ps {
			t.check(p, tx.StateAt(p))
		}
	})
}
