package sim

import (
	"strconv"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// blockInfo is what the simulator knows about breaking a block: its 1.7.10
// hardness (< 0 = unbreakable), the tool class that mines it fast, and
// whether that tool is needed for the block to drop anything.
type blockInfo struct {
	hardness  float64
	tool      string // "axe", "pickaxe", "shovel" or ""
	needsTool bool
}

// blockTable holds vanilla 1.7.10 hardness values and harvest tools, and the
// modded machine blocks the scenarios use.
var blockTable = map[string]blockInfo{
	"minecraft:log":            {2, "axe", false},
	"minecraft:log2":           {2, "axe", false},
	"minecraft:planks":         {2, "axe", false},
	"minecraft:leaves":         {0.2, "", false},
	"minecraft:leaves2":        {0.2, "", false},
	"minecraft:sapling":        {0, "", false},
	"minecraft:tallgrass":      {0, "", false},
	"minecraft:grass":          {0.6, "shovel", false},
	"minecraft:dirt":           {0.5, "shovel", false},
	"minecraft:sand":           {0.5, "shovel", false},
	"minecraft:gravel":         {0.6, "shovel", false},
	"minecraft:clay":           {0.6, "shovel", false},
	"minecraft:stone":          {1.5, "pickaxe", true},
	"minecraft:cobblestone":    {2, "pickaxe", true},
	"minecraft:coal_ore":       {3, "pickaxe", true},
	"minecraft:iron_ore":       {3, "pickaxe", true},
	"minecraft:crafting_table": {2.5, "axe", false},
	"minecraft:chest":          {2.5, "axe", false},
	"minecraft:torch":          {0, "", false},
	"minecraft:bedrock":        {-1, "", false},
	"minecraft:water":          {-1, "", false},
	"minecraft:flowing_water":  {-1, "", false},
	"minecraft:lava":           {-1, "", false},
	// Machines are taken apart with a wrench in GTNH, not mined: the
	// simulator refuses to break them.
	"Railcraft:machine.alpha":      {-1, "", false},
	"gregtech:gt.blockmachines":    {-1, "", false},
	"BuildCraft|Factory:tankBlock": {-1, "", false},
}

func infoOf(b world.Block) blockInfo {
	if info, ok := blockTable[b.ID]; ok {
		return info
	}
	return blockInfo{hardness: 1.5, tool: "pickaxe"}
}

// toolSpeed is the mining speed of a held item against a block's tool class
// (1 = hand). Vanilla materials: wood 2, stone 4, iron 6, diamond 8, gold 12;
// GregTech and Tinkers' tools are taken as iron-grade.
func toolSpeed(held world.ItemStack, tool string) float64 {
	if tool == "" || held.Empty() || !held.HasTag("tool:"+tool) {
		return 1
	}
	switch {
	case strings.HasPrefix(held.ID, "minecraft:wooden_"):
		return 2
	case strings.HasPrefix(held.ID, "minecraft:stone_"):
		return 4
	case strings.HasPrefix(held.ID, "minecraft:iron_"):
		return 6
	case strings.HasPrefix(held.ID, "minecraft:diamond_"):
		return 8
	case strings.HasPrefix(held.ID, "minecraft:golden_"):
		return 12
	}
	return 6
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
