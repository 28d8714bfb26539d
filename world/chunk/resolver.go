package chunk

import (
	"strconv"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// Tagger gives a block its semantic tags; *rules.TagTable is one, and so
// is a *rules.Set.
type Tagger interface {
	BlockTags(id string, meta int) []string
}

var _ Tagger = (*rules.TagTable)(nil)

// Resolver turns block states into Blocks (registry name, metadata and tags)
// and names into states. It caches each state's Block, so a state is resolved
// once however often it is seen. Safe for concurrent use.
type Resolver struct {
	ids   *rules.IDMap
	tags  Tagger
	cache sync.Map // StateID → Block
}

// NewResolver returns a resolver over an id map (frozen by this call) and a
// tagger. Both are required: the chunk engine has no tables of its own.
func NewResolver(ids *rules.IDMap, tags Tagger) *Resolver {
	if ids == nil || tags == nil {
		panic("chunk: NewResolver needs an id map and a tagger")
	}
	ids.Freeze()
	return &Resolver{ids: ids, tags: tags}
}

// IDs returns the id map.
func (r *Resolver) IDs() *rules.IDMap { return r.ids }

// Tags returns the tagger.
func (r *Resolver) Tags() Tagger { return r.tags }

// Block converts a state into a Block. Air is the zero Block; an id missing
// from the map becomes "unknown:<id>" so the block is still non-air and
// distinct. The returned Tags slice is shared and must not be modified.
func (r *Resolver) Block(s StateID) game.Block {
	if s.IsAir() {
		return game.Air
	}
	if b, ok := r.cache.Load(s); ok {
		return b.(game.Block)
	}
	name, ok := r.ids.BlockName(s.ID())
	if !ok {
		name = "unknown:" + strconv.Itoa(s.ID())
	}
	b := game.Block{ID: name, Meta: s.Meta(), Tags: r.tags.BlockTags(name, s.Meta())}
	r.cache.Store(s, b)
	return b
}

// State converts a block name and metadata into a state.
func (r *Resolver) State(name string, meta int) (StateID, bool) {
	if name == "minecraft:air" {
		return AirState, true
	}
	id, ok := r.ids.BlockID(name)
	if !ok || meta < 0 || meta > 0xFFFF {
		return AirState, false
	}
	return MakeState(id, meta), true
}
