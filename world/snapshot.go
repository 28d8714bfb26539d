package world

import (
	"sort"
)

// Dimension names used in specs and snapshots.
const (
	Overworld = "overworld"
	Nether    = "nether"
	End       = "end"
)

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

// NewBlock builds a block with tags from the shipped tag table.
func NewBlock(id string, meta int) Block {
	return Block{ID: id, Meta: meta, Tags: DefaultTags().BlockTags(id, meta)}
}

// BlockHit is a block found by a spatial query.
type BlockHit struct {
	Pos   BlockPos `json:"pos"`
	Block Block    `json:"block"`
	// DistSq is the squared distance from the query centre.
	DistSq int `json:"dist_sq"`
}

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

// SortHits orders hits nearest first, ties by position.
func SortHits(hits []BlockHit) {
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].DistSq != hits[j].DistSq {
			return hits[i].DistSq < hits[j].DistSq
		}
		return hits[i].Pos.Less(hits[j].Pos)
	})
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
}

// FluidTank is a machine's fluid tank, in millibuckets.
type FluidTank struct {
	Fluid    string `json:"fluid,omitempty"`
	Amount   int    `json:"amount"`
	Capacity int    `json:"capacity"`
}

// Machine kinds that the shipped skills know.
const (
	MachineCokeOven    = "coke_oven"
	MachineSteamBoiler = "steam_boiler"
	MachineWaterTank   = "water_tank"
	// MachineFluidTank is a tank that holds a fluid other than water (a
	// Railcraft iron or steel tank holds any one fluid).
	MachineFluidTank = "fluid_tank"
	MachineChest     = "chest"
)

// Machine is a block entity the agent works with: a coke oven, a boiler, a
// tank, a chest. Slots are named ("input", "output", "fuel", or "0".."26" for
// chests); Fluids likewise ("water", "steam", "creosote").
type Machine struct {
	Kind   string   `json:"kind"`
	Pos    BlockPos `json:"pos"`
	Formed bool     `json:"formed"` // multiblock structure complete
	Active bool     `json:"active,omitempty"`
	// Tier is the voltage tier of an electric machine ("lv", "mv", …), empty
	// for steam and unpowered ones. Tech inference reads it.
	Tier   string               `json:"tier,omitempty"`
	Slots  map[string]ItemStack `json:"slots,omitempty"`
	Fluids map[string]FluidTank `json:"fluids,omitempty"`
	// ContentsUnknown: the machine is known (its blocks, whether it is
	// formed) but its slots and tanks are not, so empty Slots and Fluids
	// say nothing. A live server sends a Railcraft coke oven's contents, and
	// a GregTech coal boiler's water and fuel slot, only to a player with
	// its window open; a player opens it to look. The simulator always
	// knows contents and never sets it.
	ContentsUnknown bool `json:"contents_unknown,omitempty"`
	// Temperature in °C. GT boilers make steam above 100 °C (bronze ones top
	// out at 500, steel at 1000), and explode when water is added while they
	// are above 100 °C and dry.
	Temperature float64 `json:"temperature,omitempty"`
	// Progress of the current operation, 0..1.
	Progress float64 `json:"progress,omitempty"`
	// Facing is the side the machine's front faces ("north", "south",
	// "west", "east", "up" or "down"), where the body can tell: a live
	// server sends it for GregTech machines. Empty when unknown.
	Facing string `json:"facing,omitempty"`
}

// Slot returns the named slot (empty when absent).
func (m Machine) Slot(name string) ItemStack { return m.Slots[name] }

// Fluid returns the named tank (zero when absent).
func (m Machine) Fluid(name string) FluidTank { return m.Fluids[name] }

// Player is the agent's own body.
type Player struct {
	Name      string  `json:"name,omitempty"`
	Pos       Vec3    `json:"pos"`
	Dimension string  `json:"dimension"`
	Health    float64 `json:"health"`
	Food      float64 `json:"food"`
}

// Snapshot is a consistent, read-only view of the world at one tick. Skills
// and planners receive snapshots; only the state owner mutates the world.
type Snapshot struct {
	Tick      int64       `json:"tick"`
	Player    Player      `json:"player"`
	Inventory Inventory   `json:"inventory"`
	Blocks    BlockSource `json:"-"`
	Entities  []Entity    `json:"entities,omitempty"`
	Machines  []Machine   `json:"machines,omitempty"`
	// TechState is the inferred GTNH tier (a name from the tiers table).
	TechState string `json:"tech_state"`
}

// BlockAt returns the block at p (air without a block source).
func (s *Snapshot) BlockAt(p BlockPos) Block {
	if s.Blocks == nil {
		return Air
	}
	return s.Blocks.BlockAt(p)
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
