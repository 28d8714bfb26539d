package path

import (
	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Classifier decides the cell class of a block.
type Classifier func(b world.Block) Cell

// passableIDs are 1.7.10 blocks without a collision box that the shipped
// tag table does not mark "replaceable" or "plant".
var passableIDs = map[string]bool{
	"minecraft:air": true, "minecraft:tallgrass": true, "minecraft:deadbush": true,
	"minecraft:yellow_flower": true, "minecraft:red_flower": true, "minecraft:double_plant": true,
	"minecraft:brown_mushroom": true, "minecraft:red_mushroom": true, "minecraft:sapling": true,
	"minecraft:torch": true, "minecraft:redstone_torch": true, "minecraft:unlit_redstone_torch": true,
	"minecraft:redstone_wire": true, "minecraft:wheat": true, "minecraft:carrots": true,
	"minecraft:potatoes": true, "minecraft:nether_wart": true, "minecraft:reeds": true,
	"minecraft:vine": true, "minecraft:snow_layer": true, "minecraft:rail": true,
	"minecraft:golden_rail": true, "minecraft:detector_rail": true, "minecraft:activator_rail": true,
	"minecraft:lever": true, "minecraft:stone_button": true, "minecraft:wooden_button": true,
	"minecraft:stone_pressure_plate": true, "minecraft:wooden_pressure_plate": true,
	"minecraft:light_weighted_pressure_plate": true, "minecraft:heavy_weighted_pressure_plate": true,
	"minecraft:standing_sign": true, "minecraft:wall_sign": true, "minecraft:tripwire": true,
	"minecraft:tripwire_hook": true, "minecraft:ladder": true,
}

// dangerIDs hurt on contact or trap the player.
var dangerIDs = map[string]bool{
	"minecraft:lava": true, "minecraft:flowing_lava": true, "minecraft:fire": true,
	"minecraft:cactus": true, "minecraft:web": true, "minecraft:portal": true,
}

// ClassifyByTags is the default Classifier. It reads the block's semantic
// tags (config/tags.yaml): "lava" or "hazard" is Danger, "water" or another
// "liquid" is Water, "replaceable" or "plant" is Passable. Air and the
// vanilla blocks without a collision box (torches, flowers, rails, …) are
// Passable, fire, cactus and cobweb are Danger, and every other block —
// including blocks the tag table does not know, such as most mod blocks — is
// Solid, the safe guess for pathing.
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
		case "replaceable", "plant":
			return Passable
		}
	}
	if dangerIDs[b.ID] {
		return Danger
	}
	if passableIDs[b.ID] {
		return Passable
	}
	return Solid
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

// LegacyCell classifies a vanilla 1.7.10 numeric block id (metadata does
// not matter for any vanilla block's collision class). Ids it does not know
// — mod blocks — are Solid.
func LegacyCell(id int) Cell {
	switch id {
	case 0, // air
		6,      // sapling
		27, 28, // powered, detector rail
		31, 32, // tall grass, dead bush
		37, 38, 39, 40, // flowers, mushrooms
		50,     // torch
		55,     // redstone wire
		59,     // wheat
		63, 68, // signs
		65,     // ladder
		66,     // rail
		69,     // lever
		70, 72, // pressure plates
		75, 76, // redstone torches
		77,       // stone button
		78,       // snow layer
		83,       // sugar cane
		106,      // vine
		115,      // nether wart
		131, 132, // tripwire hook, tripwire
		141, 142, // carrots, potatoes
		143,      // wooden button
		147, 148, // weighted pressure plates
		157, // activator rail
		175: // double plant
		return Passable
	case 8, 9: // water
		return Water
	case 10, 11, // lava
		30, // cobweb
		51, // fire
		81, // cactus
		90: // nether portal
		return Danger
	}
	return Solid
}

// BenchGrid is a Grid over the shared benchmark world: a 256×256×256 block
// array of legacy states. Outside x, z 0..255 and below y 0 is Unknown,
// above the world is Passable.
type BenchGrid struct {
	w   []uint16
	lut [4096]Cell
}

var _ Grid = (*BenchGrid)(nil)

// NewBenchGrid returns a grid over w, classified with LegacyCell.
func NewBenchGrid(w *benchworld.World) *BenchGrid {
	g := &BenchGrid{w: w.W}
	for id := range g.lut {
		g.lut[id] = LegacyCell(id)
	}
	return g
}

// Cell implements Grid.
func (g *BenchGrid) Cell(x, y, z int) Cell {
	if uint(x) >= benchworld.SX || uint(z) >= benchworld.SZ || uint(y) >= benchworld.SY {
		if y >= benchworld.SY && uint(x) < benchworld.SX && uint(z) < benchworld.SZ {
			return Passable
		}
		return Unknown
	}
	return g.lut[g.w[(y*benchworld.SZ+z)*benchworld.SX+x]>>4]
}
