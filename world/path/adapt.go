package path

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Classifier decides the cell class of a block.
type Classifier func(b world.Block) Cell

// dangerIDs hurt on contact or trap the player.
var dangerIDs = map[string]bool{
	"minecraft:lava": true, "minecraft:flowing_lava": true, "minecraft:fire": true,
	"minecraft:cactus": true, "minecraft:web": true, "minecraft:portal": true,
}

// ClassifyByTags is the default Classifier. It reads the block's semantic
// tags (config/tags.yaml): "lava" or "hazard" is Danger, "water" or another
// "liquid" is Water. Fire, cactus and cobweb are Danger. Blocks the shared
// shape table knows (rules.KnownShape: air, plants, torches, slabs, snow,
// carpets, trapdoors, doors, fences, walls, gates) take the class of their
// shape (CellOf); of the rest, "replaceable" or "plant" is Passable and
// everything else — including blocks nothing knows, such as most mod
// blocks — is Solid, the safe guess for pathing. A door's upper half is
// classified as open and its lower half decides: open, Passable; closed,
// Fence (two blocks high with the upper half: not stood on or jumped).
func ClassifyByTags(b world.Block) Cell {
	if b.IsAir() {
		return Passable
	}
	for _, t := range b.Tags {
		switch t {
		case "lava", "hazard":
			return Danger
		}
	}
	for _, t := range b.Tags {
		switch t {
		case "water", "liquid":
			return Water
		}
	}
	if dangerIDs[b.ID] {
		return Danger
	}
	if (b.ID == "minecraft:wooden_door" || b.ID == "minecraft:iron_door") && b.Meta&(8|4) == 0 {
		// The lower half of a closed door: with the upper half above it,
		// an obstacle two blocks high that no one stands on (its upper
		// half alone reads as open, see below).
		return Fence
	}
	if s, ok := rules.KnownShape(b, nil); ok {
		return CellOf(s)
	}
	for _, t := range b.Tags {
		switch t {
		case "replaceable", "plant":
			return Passable
		}
	}
	return Solid
}

// FeetCell is the cell of a body whose feet are at height y in column
// (x, z), as the pathfinder counts positions: the cell holding the feet, or
// the one above when the feet rest inside a cell the grid takes as a full
// block — on a chest, farmland or soul sand, whose tops are below 1, the
// player stands in the cell above, as on any Solid cell.
func FeetCell(g Grid, x int, y float64, z int) world.BlockPos {
	cy := int(math.Floor(y + 1e-3))
	if c := g.Cell(x, cy, z); c == Solid || c == Fence {
		cy++
	}
	return world.Pos(x, cy, z)
}

// LoadedReporter is optionally implemented by a world.BlockSource that knows
// which positions are loaded; NewBlockGrid uses it to report Unknown cells.
type LoadedReporter interface {
	// Loaded reports whether the block at p is known.
	Loaded(p world.BlockPos) bool
}

// BlockGrid is a Grid over any world.BlockSource, as fast as the source's
// BlockAt plus the classifier. A store with a cheaper numeric lookup (block
// states in chunk sections) is better served by a GridFunc that classifies
// states directly, e.g. with LegacyCell.
type BlockGrid struct {
	// Source answers BlockAt.
	Source world.BlockSource
	// Classify maps a block to its cell class.
	Classify Classifier
	// Loaded, when set, reports which positions are known; others are
	// Unknown. NewBlockGrid fills it from a LoadedReporter source.
	Loaded func(p world.BlockPos) bool
	// MinY and MaxY bound the world vertically: below MinY is Unknown
	// (the void), above MaxY is Passable (open sky).
	MinY, MaxY int
}

var _ Grid = (*BlockGrid)(nil)

// NewBlockGrid returns a grid over src classified by classify (nil means
// ClassifyByTags), bounded to the 1.7.10 build height 0..255.
func NewBlockGrid(src world.BlockSource, classify Classifier) *BlockGrid {
	if classify == nil {
		classify = ClassifyByTags
	}
	g := &BlockGrid{Source: src, Classify: classify, MinY: 0, MaxY: 255}
	if lr, ok := src.(LoadedReporter); ok {
		g.Loaded = lr.Loaded
	}
	return g
}

// Cell implements Grid.
func (g *BlockGrid) Cell(x, y, z int) Cell {
	if y < g.MinY {
		return Unknown
	}
	if y > g.MaxY {
		return Passable
	}
	p := world.BlockPos{X: x, Y: y, Z: z}
	if g.Loaded != nil && !g.Loaded(p) {
		return Unknown
	}
	return g.Classify(g.Source.BlockAt(p))
}

// LegacyCell classifies a vanilla 1.7.10 numeric block id at metadata 0
// (see LegacyStateCell). Ids it does not know — mod blocks — are Solid.
func LegacyCell(id int) Cell { return LegacyStateCell(id, 0) }

// LegacyStateCell classifies a vanilla 1.7.10 block state by its name in
// the shipped id table (config/vanilla_ids.yaml) and ClassifyByTags, so a
// numeric world and a named one agree. Ids the table does not know — mod
// blocks — are Solid.
func LegacyStateCell(id, meta int) Cell {
	name, ok := rules.Default().IDs.BlockName(id)
	if !ok {
		return Solid
	}
	if name == "minecraft:air" {
		return Passable
	}
	return ClassifyByTags(world.NewBlock(name, meta))
}
