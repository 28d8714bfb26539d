package world

import "github.com/gtnh-agent/gtnh-agent/game"

// The game's nouns live in package game, below the rule tables and the chunk
// engine that speak them too; the world model re-exports them so code built
// on snapshots reads one package. Each name is an alias: world.BlockPos and
// game.BlockPos are one type.
type (
	BlockPos    = game.BlockPos
	Vec3        = game.Vec3
	Block       = game.Block
	BlockHit    = game.BlockHit
	ItemStack   = game.ItemStack
	TinkerTool  = game.TinkerTool
	ItemMatcher = game.ItemMatcher
	Inventory   = game.Inventory
	Machine     = game.Machine
	FluidTank   = game.FluidTank
)

// Machine kinds that the shipped skills know (see package game).
const (
	MachineCokeOven    = game.MachineCokeOven
	MachineSteamBoiler = game.MachineSteamBoiler
	MachineWaterTank   = game.MachineWaterTank
	MachineFluidTank   = game.MachineFluidTank
	MachineChest       = game.MachineChest
	MachineFurnace     = game.MachineFurnace
)

// Air is the empty block.
var Air = game.Air

// Pos returns the block position (x, y, z).
func Pos(x, y, z int) BlockPos { return game.Pos(x, y, z) }

// NewInventory returns an inventory holding the given stacks in the first
// slots of a 36-slot main inventory.
func NewInventory(stacks ...ItemStack) Inventory { return game.NewInventory(stacks...) }

// ParseItemMatcher parses an item matcher (see game.ParseItemMatcher).
func ParseItemMatcher(s string) (ItemMatcher, error) { return game.ParseItemMatcher(s) }

// MustItem parses an item matcher and panics on error; for literals in code.
func MustItem(s string) ItemMatcher { return game.MustItem(s) }

// SplitID splits "modid:name[:meta]" into the id and metadata (-1 when absent).
func SplitID(s string) (id string, meta int, err error) { return game.SplitID(s) }

// SortHits orders hits nearest first, ties by position.
func SortHits(hits []BlockHit) { game.SortHits(hits) }
