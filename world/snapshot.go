package world

import (
	"sort"

	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Dimension names used in specs and snapshots.
const (
	Overworld = "overworld"
	Nether    = "nether"
	End       = "end"
)

// BlockSource answers block queries for a snapshot. Implementations must be
// safe for concurrent readers and must not change while a snapshot holds them.
type BlockSource interface {
	// BlockAt returns the block at p (air when unknown or empty).
	BlockAt(p BlockPos) Block
	// Nearest returns up to k non-air blocks satisfying match within radius
	// (Euclidean, in blocks) of center, nearest first; ties are broken by
	// BlockPos.Less so results are deterministic. k <= 0 means no limit; a
	// nil match takes every non-air block. match sees only the block, never
	// its position, so implementations may evaluate it once per distinct
	// block state (a chunk section's palette) rather than once per block.
	Nearest(center BlockPos, radius int, k int, match func(Block) bool) []BlockHit
}

// SparseBlocks is a BlockSource backed by a map of the non-air blocks; it is
// what tests and mocked world states use. Build it, then treat it as
// read-only once a snapshot references it.
type SparseBlocks struct {
	m map[BlockPos]Block
}

var _ BlockSource = (*SparseBlocks)(nil)

// NewSparseBlocks returns an empty block map.
func NewSparseBlocks() *SparseBlocks { return &SparseBlocks{m: map[BlockPos]Block{}} }

// Set places b at p; air removes the entry.
func (s *SparseBlocks) Set(p BlockPos, b Block) *SparseBlocks {
	if b.IsAir() {
		delete(s.m, p)
	} else {
		s.m[p] = b
	}
	return s
}

// SetID places the block id:meta at p with tags from the shipped tag table.
func (s *SparseBlocks) SetID(p BlockPos, id string, meta int) *SparseBlocks {
	return s.Set(p, NewBlock(id, meta))
}

// Len is the number of non-air blocks.
func (s *SparseBlocks) Len() int { return len(s.m) }

// BlockAt implements BlockSource.
func (s *SparseBlocks) BlockAt(p BlockPos) Block { return s.m[p] }

// Nearest implements BlockSource by scanning every stored block.
func (s *SparseBlocks) Nearest(center BlockPos, radius, k int, match func(Block) bool) []BlockHit {
	r2 := radius * radius
	var hits []BlockHit
	for p, b := range s.m {
		d := p.DistSq(center)
		if d > r2 || (match != nil && !match(b)) {
			continue
		}
		hits = append(hits, BlockHit{Pos: p, Block: b, DistSq: d})
	}
	SortHits(hits)
	if k > 0 && len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

// Entity kinds.
const (
	EntityItem   = "item"   // a dropped item stack
	EntityMob    = "mob"    // a living non-player entity
	EntityPlayer = "player" // another player
)

// Entity is an entity near the player.
type Entity struct {
	ID   int        `json:"id"`
	Kind string     `json:"kind"`
	Name string     `json:"name,omitempty"` // mob type or player name
	Pos  Vec3       `json:"pos"`
	Item *ItemStack `json:"item,omitempty"` // for dropped items
	// Health is a mob's health when known (the simulator knows it; a
	// server sends it in the mob's metadata); 0 when not.
	Health float64 `json:"health,omitempty"`
}

// Player is the agent's own body.
type Player struct {
	Name      string  `json:"name,omitempty"`
	Pos       Vec3    `json:"pos"`
	Dimension string  `json:"dimension"`
	Health    float64 `json:"health"`
	Food      float64 `json:"food"`
	// Air is the air supply in ticks while the eyes are under water
	// (FullAir out of it; a 1.7.10 player drowns a little each time it
	// reaches -20). A body that does not know it leaves it 0.
	Air int `json:"air,omitempty"`
}

// FullAir is a 1.7.10 player's air supply out of water, in ticks
// (EntityLivingBase.getAir; config/mobs.yaml's max_air).
const FullAir = 300

// Snapshot is a consistent, read-only view of the world at one tick. Skills
// and planners receive snapshots; only the state owner mutates the world.
type Snapshot struct {
	Tick int64 `json:"tick"`
	// WorldAge is the server's world age in ticks (its Time Update): unlike
	// Tick, which counts from the body's start, it goes on across runs on
	// one server. 0 when the body does not know it (the simulator, whose
	// world is made anew each run).
	WorldAge int64 `json:"world_age,omitempty"`
	// TimeOfDay is the ticks since sunrise, 0..23999: 6000 is noon, 12000
	// sunset, 18000 midnight (a Minecraft day is 24000 ticks; the sky's
	// light and where hostile mobs spawn follow it, config/mobs.yaml).
	TimeOfDay int64       `json:"time_of_day"`
	Player    Player      `json:"player"`
	Inventory Inventory   `json:"inventory"`
	Blocks    BlockSource `json:"-"`
	Entities  []Entity    `json:"entities,omitempty"`
	Machines  []Machine   `json:"machines,omitempty"`
	// TechState is the inferred GTNH tier (a name from the tiers table).
	TechState string `json:"tech_state"`
	// Recall answers from what the bot remembers of this world beyond what
	// it sees now (nil: it remembers nothing; see package memory).
	Recall Recaller `json:"-"`
}

// Recaller answers from a memory of the world.
type Recaller interface {
	// RecallBlocks returns up to k remembered positions of a block id (meta
	// -1: any metadata) within maxDist of from, nearest first.
	RecallBlocks(id string, meta int, from BlockPos, maxDist, k int) []BlockPos
}

// ShelterRecaller is a Recaller that also remembers where the bot was
// walled in for a night (package memory's does).
type ShelterRecaller interface {
	// RecallShelters returns up to k remembered shelters (the position of
	// the feet walled in) within maxDist of from, nearest first.
	RecallShelters(from BlockPos, maxDist, k int) []BlockPos
}

// BlockAt returns the block at p (air without a block source).
func (s *Snapshot) BlockAt(p BlockPos) Block {
	if s.Blocks == nil {
		return Air
	}
	return s.Blocks.BlockAt(p)
}

// Known reports whether the snapshot knows the block at p: false where its
// block source says nothing is loaded there (an unloaded chunk, a block
// beyond the view), so that air read there is not taken for air.
func (s *Snapshot) Known(p BlockPos) bool {
	if s.Blocks == nil {
		return false
	}
	if k, ok := s.Blocks.(interface{ Known(BlockPos) bool }); ok {
		return k.Known(p)
	}
	return true
}

// Feet is the block position of the player's feet.
func (s *Snapshot) Feet() BlockPos { return s.Player.Pos.Block() }

// NearestBlocks returns up to k blocks carrying any of the tags within radius
// of the player's feet, nearest first.
func (s *Snapshot) NearestBlocks(radius, k int, tags ...string) []BlockHit {
	if s.Blocks == nil {
		return nil
	}
	return s.Blocks.Nearest(s.Feet(), radius, k, func(b Block) bool {
		for _, t := range tags {
			if b.HasTag(t) {
				return true
			}
		}
		return false
	})
}

// MachinesOfKind returns the machines of a kind within radius of the player,
// nearest first (ties by position).
func (s *Snapshot) MachinesOfKind(kind string, radius int) []Machine {
	feet := s.Feet()
	var out []Machine
	for _, m := range s.Machines {
		if m.Kind == kind && m.Pos.DistSq(feet) <= radius*radius {
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		di, dj := out[i].Pos.DistSq(feet), out[j].Pos.DistSq(feet)
		if di != dj {
			return di < dj
		}
		return out[i].Pos.Less(out[j].Pos)
	})
	return out
}

// EntitiesOfKind returns entities of a kind, in snapshot order.
func (s *Snapshot) EntitiesOfKind(kind string) []Entity {
	var out []Entity
	for _, e := range s.Entities {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

var _ BlockSource = (*chunk.Chunks)(nil)
