package world

import (
	"slices"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Position tags: tags a block has because of what the server said about it,
// not because of its id and metadata. A GregTech ore (gregtech:gt.blockores
// up to GTNH 2.8.4) is a tile entity whose metadata is only its harvest
// level; its material arrives in a GregTech message, and the client tags the
// block with its ore dictionary name ("ore:oreCopper") at its position.
//
// A position tag holds only while the block keeps the state it had when it
// was tagged: a mined ore (air now) or a block placed there loses it.

// posTag is the tags of one position and the state they belong to, with
// the block of that state without and with them (made once: a snapshot's
// searches read them for every tagged position).
type posTag struct {
	state    chunk.StateID
	tags     []string
	untagged Block
	tagged   Block
}

// SetBlockTags adds tags to the block now at p, for as long as the block
// keeps its current state; nil tags remove them.
func (tx *Tx) SetBlockTags(p BlockPos, tags []string) {
	s := tx.st()
	if s.posTagsShared || s.posTags == nil {
		s.posTags = clonePosTags(s.posTags)
		s.posTagsShared = false
	}
	if tags == nil {
		delete(s.posTags, p)
	} else {
		st := s.chunks.StateAt(p.X, p.Y, p.Z)
		b := s.chunks.Resolver().Block(st)
		s.posTags[p] = posTag{state: st, tags: slices.Clone(tags), untagged: b, tagged: withTags(b, tags)}
	}
	tx.changed()
}

func clonePosTags(m map[BlockPos]posTag) map[BlockPos]posTag {
	out := make(map[BlockPos]posTag, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// taggedView is a BlockSource that adds position tags to a chunk view.
type taggedView struct {
	base BlockSource
	st   func(p BlockPos) chunk.StateID
	tags map[BlockPos]posTag // read-only
	// tagged are the blocks at the tagged positions whose state still
	// holds, with their tags, made once per view: a planner asks a
	// snapshot for the nearest blocks many times, and a world's ores are
	// thousands of tagged positions.
	taggedOnce sync.Once
	tagged     []BlockHit
	untagged   []Block  // tagged[i]'s block without its position tags
	taggedIDs  []string // the block ids at tagged positions
}

// taggedBlocks returns the blocks at the view's tagged positions whose
// state still holds (DistSq unset), gathered on first use.
func (v *taggedView) taggedBlocks() []BlockHit {
	v.taggedOnce.Do(func() {
		v.tagged = make([]BlockHit, 0, len(v.tags))
		v.untagged = make([]Block, 0, len(v.tags))
		for p, t := range v.tags {
			if t.untagged.IsAir() || v.st(p) != t.state {
				continue
			}
			v.tagged = append(v.tagged, BlockHit{Pos: p, Block: t.tagged})
			v.untagged = append(v.untagged, t.untagged)
			if !slices.Contains(v.taggedIDs, t.untagged.ID) {
				v.taggedIDs = append(v.taggedIDs, t.untagged.ID)
			}
		}
	})
	return v.tagged
}

// Known is the base's (see Snapshot.Known).
func (v *taggedView) Known(p BlockPos) bool {
	if k, ok := v.base.(interface{ Known(BlockPos) bool }); ok {
		return k.Known(p)
	}
	return true
}

func (v *taggedView) extra(p BlockPos) ([]string, bool) {
	t, ok := v.tags[p]
	if !ok || v.st(p) != t.state {
		return nil, false
	}
	return t.tags, true
}

func withTags(b Block, extra []string) Block {
	tags := make([]string, 0, len(b.Tags)+len(extra))
	tags = append(tags, b.Tags...)
	for _, t := range extra {
		if !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	b.Tags = slices.Clip(tags) // hits share it: an append copies
	return b
}

// BlockAt implements BlockSource.
func (v *taggedView) BlockAt(p BlockPos) Block {
	b := v.base.BlockAt(p)
	if extra, ok := v.extra(p); ok {
		return withTags(b, extra)
	}
	return b
}

// Nearest implements BlockSource: the base view's hits, with the tagged
// positions checked one by one (their blocks carry their position tags).
func (v *taggedView) Nearest(center BlockPos, radius, k int, match func(Block) bool) []BlockHit {
	if match == nil {
		return v.base.Nearest(center, radius, k, nil)
	}
	tagged := v.taggedBlocks()
	hits := v.base.Nearest(center, radius, k, func(b Block) bool { return match(b) })
	var seen map[BlockPos]bool // the tagged positions among the base's hits
	out := hits[:0:0]
	for _, h := range hits {
		if slices.Contains(v.taggedIDs, h.Block.ID) {
			if extra, ok := v.extra(h.Pos); ok {
				h.Block = withTags(h.Block, extra)
				if seen == nil {
					seen = map[BlockPos]bool{}
				}
				seen[h.Pos] = true
			}
		}
		out = append(out, h)
	}
	// Position tags only add, so every hit of the base view still matches;
	// the tagged positions it did not return are checked one by one.
	r2 := radius * radius
	for _, h := range tagged {
		d := h.Pos.DistSq(center)
		if d > r2 || seen[h.Pos] {
			continue
		}
		if match(h.Block) {
			h.DistSq = d
			out = append(out, h)
		}
	}
	slices.SortFunc(out, func(a, b BlockHit) int {
		if a.DistSq != b.DistSq {
			return a.DistSq - b.DistSq
		}
		if a.Pos.Less(b.Pos) {
			return -1
		}
		if b.Pos.Less(a.Pos) {
			return 1
		}
		return 0
	})
	if k > 0 && len(out) > k {
		out = out[:k]
	}
	return out
}

// ChunksOf returns the chunk view behind a snapshot's block source (a
// *Chunks, or one with position tags over it), for the readers that need
// the chunks themselves (the pathfinder, a mirror of the world).
func ChunksOf(src BlockSource) (*chunk.Chunks, bool) {
	switch b := src.(type) {
	case *chunk.Chunks:
		return b, b != nil
	case *taggedView:
		return ChunksOf(b.base)
	}
	return nil, false
}

// PositionTags returns the position tags of the block now at p (nil when
// it has none or its state changed since they were set).
func (tx *Tx) PositionTags(p BlockPos) []string {
	s := tx.st()
	t, ok := s.posTags[p]
	if !ok || s.chunks.StateAt(p.X, p.Y, p.Z) != t.state {
		return nil
	}
	return slices.Clone(t.tags)
}

// Chunks returns the chunk store a snapshot reads, under the position tags
// it adds (false for a snapshot of another block source).
func (s *Snapshot) Chunks() (*chunk.Chunks, bool) {
	switch b := s.Blocks.(type) {
	case *chunk.Chunks:
		return b, true
	case *taggedView:
		c, ok := b.base.(*chunk.Chunks)
		return c, ok
	}
	return nil, false
}

// countWithin counts the blocks within radius of center that match: the
// base's count, corrected at the tagged positions (a block that matches
// only with its tags, or only without them).
func (v *taggedView) countWithin(c *chunk.Chunks, center BlockPos, radius int, match func(Block) bool) int {
	n := c.CountWithin(center, radius, match)
	tagged := v.taggedBlocks()
	r2 := radius * radius
	for i, h := range tagged {
		if h.Pos.DistSq(center) > r2 {
			continue
		}
		with, without := match(h.Block), match(v.untagged[i])
		switch {
		case with && !without:
			n++
		case without && !with:
			n--
		}
	}
	return n
}
