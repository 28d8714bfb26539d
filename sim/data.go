package sim

import (
	"strconv"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// unknownBlock is the simulator's guess for a block the mining table does
// not know: stone-like.
var unknownBlock = world.BlockRule{Hardness: 1.5, Tool: "pickaxe", NeedsTool: true}

func ruleOf(b world.Block) world.BlockRule {
	if r, ok := world.DefaultMiningRules().Block(b.ID); ok {
		return r
	}
	return unknownBlock
}

// gtToolLevel is the harvest level the simulator gives tools the mining
// table does not know (GregTech's, Tinkers'): iron-grade, as their speed.
const gtToolLevel = 2

// canHarvest reports whether the held stack makes a block drop (harvest
// levels included, config/mining.yaml).
func canHarvest(rule world.BlockRule, held world.ItemStack) bool {
	return world.DefaultMiningRules().Harvests(rule, held, gtToolLevel)
}

// toolSpeed is the mining speed of a held item against a block's tool class
// (config/mining.yaml); GregTech and Tinkers' tools count as iron-grade.
func toolSpeed(held world.ItemStack, tool string) float64 {
	return world.DefaultMiningRules().ToolSpeed(held, tool, 6)
}

// blockItems maps an item id to the block it places (most block items share
// the block's name).
func blockForItem(item world.ItemStack) (string, int, bool) {
	switch item.ID {
	case "minecraft:sapling", "minecraft:log", "minecraft:log2", "minecraft:planks", "minecraft:dirt",
		"minecraft:cobblestone", "minecraft:crafting_table", "minecraft:chest", "minecraft:torch",
		"minecraft:sand", "minecraft:gravel", "minecraft:stone":
		return item.ID, item.Meta, true
	}
	return "", 0, false
}

// Fuel burn times in ticks (vanilla furnace values; GT boilers use the same
// fuel values).
var burnTicks = map[string]int{
	"minecraft:coal":           1600,
	"minecraft:coal_block":     16000,
	"minecraft:log":            300,
	"minecraft:log2":           300,
	"minecraft:planks":         300,
	"Railcraft:fuel.coke":      3200,
	"Railcraft:cube":           32000,
	"minecraft:stick":          100,
	"minecraft:wooden_axe":     200,
	"minecraft:sapling":        100,
	"minecraft:crafting_table": 300,
}

// Coke oven recipes (Railcraft, as configured in GTNH): input → output, the
// time in ticks and the creosote made, in mB.
type cokeRecipe struct {
	output   string
	meta     int
	ticks    int64
	creosote int
}

var cokeRecipes = map[string]cokeRecipe{
	"minecraft:coal:0":       {"Railcraft:fuel.coke", 0, 1800, 500},
	"minecraft:coal_block:0": {"Railcraft:cube", 0, 16200, 4500},
	"minecraft:log":          {"minecraft:coal", 1, 1800, 250},
	"minecraft:log2":         {"minecraft:coal", 1, 1800, 250},
}

func cokeRecipeFor(s world.ItemStack) (cokeRecipe, bool) {
	if r, ok := cokeRecipes[s.ID]; ok {
		return r, true
	}
	r, ok := cokeRecipes[s.ID+":"+itoa(s.Meta)]
	return r, ok
}

func itoa(i int) string { return strconv.Itoa(i) }

// Boiler constants (GregTech 5 small coal boiler, simplified): it heats by
// one degree every heatTicks while burning, up to maxBoilerC, cools by one
// degree every coolTicks otherwise, and above 100 °C turns water into steam.
const (
	heatTicks      = 12
	coolTicks      = 45
	maxBoilerC     = 500
	steamPerWater  = 160
	waterPerSecond = 6 // mB of water boiled per 20 ticks at full heat
	bucketMB       = 1000
	stackMax       = 64
	reach          = 4.5
	eyeHeight      = 1.62
)
