package rules

import (
	"sync"

	"github.com/gtnh-agent/gtnh-agent/game"
)

// Set is one consistent set of the game's rule tables: the tech evidence is
// read against the tier table, and the names know every table. Code at the
// top of the program (the command, a simulation's set-up, tests) takes the
// shipped set from [Default] and hands it down; the packages in between
// receive it and never load tables themselves. A Set and its tables are
// immutable.
type Set struct {
	IDs     *IDMap         // block and item ids of vanilla 1.7.10, frozen
	Tags    *TagTable      // block tags, ore-dictionary names, tool classes
	Recipes *Recipes       // the crafting-grid recipe book
	Mining  *MiningRules   // how blocks break, tool materials
	Drops   *Drops         // what a harvested block gives
	Smelt   *Smelting      // the furnace's recipes and fuels
	Coke    *CokeOven      // the Railcraft coke oven's recipes
	Grid    *CraftingTools // the tools that wear in the crafting grid
	Food    *Food          // the food bar, what actions cost it, what foods give
	Mobs    *Mobs          // the day, light, hostile mobs, combat and death
	Tiers   *Tiers         // the GTNH tech tiers, in order
	Tech    *TechRules     // the evidence that shows each tier
	Builds  *Blueprints    // the structures the agent builds block by block
	Ores    *Ores          // GregTech's ore veins, ore blocks and raw ores
	Names   *Names         // every name the tables know; Clone before adding
}

var (
	defaultSetOnce sync.Once
	defaultSet     *Set
)

// Default returns the shipped rule set (the data files of package config),
// parsed once and shared. It panics when a shipped file is invalid: that is
// a defect of the build, which this package's tests catch.
func Default() *Set {
	defaultSetOnce.Do(func() {
		defaultSet = &Set{
			IDs:     loadVanillaIDs(),
			Tags:    loadTags(),
			Recipes: loadRecipes(),
			Mining:  loadMiningRules(),
			Drops:   loadDrops(),
			Smelt:   loadSmelting(),
			Coke:    loadCokeOven(),
			Grid:    loadCraftingTools(),
			Food:    loadFood(),
			Mobs:    loadMobs(),
			Tiers:   loadTiers(),
			Tech:    loadTech(),
			Builds:  loadBlueprints(),
			Ores:    loadOres(),
			Names:   loadNames(),
		}
	})
	return defaultSet
}

// StartIDs is the id map a world starts with, before a server sends its
// own registry: vanilla 1.7.10's.
func (s *Set) StartIDs() *IDMap { return s.IDs }

// BlockTags returns the semantic tags of a block (see [TagTable.BlockTags]).
func (s *Set) BlockTags(id string, meta int) []string { return s.Tags.BlockTags(id, meta) }

// InferTier returns the highest tech tier the inventory or the known
// machines show (see [TechRules.Infer]).
func (s *Set) InferTier(inv game.Inventory, machines []game.Machine) string {
	return s.Tech.Infer(inv, machines)
}

// Stack builds a stack of an item with its tags from this set's tag table.
func (s *Set) Stack(id string, meta, count int) game.ItemStack { return s.Tags.Stack(id, meta, count) }

// Stack builds a stack of an item with its tags from the table.
func (t *TagTable) Stack(id string, meta, count int) game.ItemStack {
	return game.ItemStack{ID: id, Meta: meta, Count: count, Tags: t.ItemTags(id, meta)}
}

// Block builds a block with its tags from the table.
func (t *TagTable) Block(id string, meta int) game.Block {
	return game.Block{ID: id, Meta: meta, Tags: t.BlockTags(id, meta)}
}
