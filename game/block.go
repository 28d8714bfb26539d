package game

import "sort"

// Block is the content of one block position. The zero Block is air.
type Block struct {
	ID   string   `json:"id"`
	Meta int      `json:"meta,omitempty"`
	Tags []string `json:"tags,omitempty"`
}

// Air is the empty block.
var Air = Block{}

// IsAir reports whether the block is empty.
func (b Block) IsAir() bool { return b.ID == "" || b.ID == "minecraft:air" }

// HasTag reports whether the block carries a semantic tag.
func (b Block) HasTag(tag string) bool { return hasString(b.Tags, tag) }

// BlockHit is a block found by a spatial query.
type BlockHit struct {
	Pos   BlockPos `json:"pos"`
	Block Block    `json:"block"`
	// DistSq is the squared distance from the query centre.
	DistSq int `json:"dist_sq"`
}

// SortHits orders hits nearest first, ties by position.
func SortHits(hits []BlockHit) {
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].DistSq != hits[j].DistSq {
			return hits[i].DistSq < hits[j].DistSq
		}
		return hits[i].Pos.Less(hits[j].Pos)
	})
}
