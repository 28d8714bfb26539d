package sim

import (
	"strconv"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// unknownBlock is the simulator's guess for a block the mining table does
// not know: stone-like.
var unknownBlock = rules.BlockRule{Hardness: 1.5, Tool: "pickaxe", NeedsTool: true}

func (s *Sim) ruleOf(b world.Block) rules.BlockRule {
	if o := s.rules.Ores; o != nil && b.ID == o.Block {
		return o.BlockRule(b.Meta) // the metadata is the harvest level
	}
	if r, ok := s.rules.Mining.Block(b.ID); ok {
		return r
	}
	return unknownBlock
}

// gtToolLevel is the harvest level the simulator gives tools the mining
// table does not know (GregTech's, Tinkers'): iron-grade, as their speed.
const gtToolLevel = 2

// canHarvest reports whether the held stack makes a block drop (harvest
// levels included, config/mining.yaml).
func (s *Sim) canHarvest(rule rules.BlockRule, held world.ItemStack) bool {
	return s.rules.Mining.Harvests(rule, held, gtToolLevel)
}

// toolSpeed is the mining speed of a held item against a block's tool class
// (config/mining.yaml); GregTech and Tinkers' tools count as iron-grade.
func (s *Sim) toolSpeed(held world.ItemStack, tool string) float64 {
	return s.rules.Mining.ToolSpeed(held, tool, 6)
}

// blockItems maps an item id to the block it places (most block items share
// the block's name).
func blockForItem(item world.ItemStack) (string, int, bool) {
	switch item.ID {
	case "minecraft:sapling", "minecraft:log", "minecraft:log2", "minecraft:planks", "minecraft:dirt",
		"minecraft:cobblestone", "minecraft:crafting_table", "minecraft:chest", "minecraft:torch",
		"minecraft:sand", "minecraft:gravel", "minecraft:stone", "minecraft:furnace":
		return item.ID, item.Meta, true
	}
	return "", 0, false
}

// Sources of the machine constants below (the GTNH forks):
//   - GT5-Unofficial src/main/java/gregtech/common/tileentities/boilers/MTEBoiler.java
//     (tick order, heat-up, cool-down, steam, venting, the dry-boiler explosion,
//     right-click with a water bucket);
//   - GT5-Unofficial src/main/java/gregtech/common/tileentities/boilers/MTEBoilerBronze.java
//     (small coal boiler rates, fuel acceptance);
//   - GT5-Unofficial src/main/java/gregtech/api/metatileentity/implementations/MTEBasicTank.java
//     (the fluid input slot empties one container a tick);
//   - GT5-Unofficial src/main/java/gregtech/api/enums/GTValues.java (STEAM_PER_WATER);
//   - GTNewHorizons/Railcraft src/main/java/mods/railcraft/common/blocks/machine/alpha/TileCokeOven.java
//     (output checks; its recipes, step and tank are config/coke_oven.yaml);
//   - GTNewHorizons/Railcraft src/main/java/mods/railcraft/common/plugins/forge/FuelPlugin.java
//     (coke burn times);
//   - vanilla 1.7.10 net.minecraft.tileentity.TileEntityFurnace.getItemBurnTime
//     (every other burn time).

// fuel is what the simulator knows of a furnace fuel: its burn time in ticks
// (TileEntityFurnace.getItemBurnTime, which Railcraft's and GregTech's fuel
// handlers extend) and whether GregTech's coal boilers count it among the
// coal-like fuels they take whatever its burn time.
type fuel struct {
	burn int
	// coalLike: MTEBoilerBronze.getCombustionPotential accepts materials
	// Coal, Lignite and Charcoal, coke (ore fuelCoke, blocks named …coke,
	// Railcraft's cube) and compressed coal, besides anything burning at
	// least boilerMinBurn ticks.
	coalLike bool
}

// fuels by "id:meta" (exact) or "id" (any metadata). Logs and planks burn
// 300 ticks, sticks and saplings 100, wooden tools 200, so coal boilers
// refuse them all.
var fuels = map[string]fuel{
	"minecraft:coal:0":         {1600, true},  // material Coal
	"minecraft:coal:1":         {1600, true},  // charcoal: material Charcoal
	"minecraft:coal_block":     {16000, true}, // material Coal
	"Railcraft:fuel.coke":      {3200, true},  // FuelPlugin COKE_HEAT; ore fuelCoke
	"Railcraft:cube:0":         {32000, true}, // FuelPlugin COKE_HEAT * 10; tile.railcraft.cube
	"minecraft:blaze_rod":      {2400, false},
	"minecraft:log":            {300, false},
	"minecraft:log2":           {300, false},
	"minecraft:planks":         {300, false},
	"minecraft:crafting_table": {300, false},
	"minecraft:wooden_axe":     {200, false},
	"minecraft:stick":          {100, false},
	"minecraft:sapling":        {100, false},
}

// fuelOf looks a stack up in fuels.
func fuelOf(s world.ItemStack) (fuel, bool) {
	if f, ok := fuels[s.ID+":"+itoa(s.Meta)]; ok {
		return f, true
	}
	f, ok := fuels[s.ID]
	return f, ok
}

// boilerMinBurn is the burn time from which a GregTech coal boiler takes any
// solid fuel (MTEBoilerBronze.couldProduceRegularAshes: burnTime >= 2000).
const boilerMinBurn = 2000

// boilerAccepts is MTEBoilerBronze.isItemValidFuel: a solid fuel with a burn
// time of at least 10 ticks (burnTime / 10 > 0) that is coal-like or burns at
// least boilerMinBurn ticks. Filled fluid containers (a lava bucket) are not
// in fuels, so they are refused as GregTech refuses them.
func boilerAccepts(s world.ItemStack) bool {
	f, ok := fuelOf(s)
	return ok && f.burn/10 > 0 && (f.coalLike || f.burn >= boilerMinBurn)
}

func itoa(i int) string { return strconv.Itoa(i) }

// boilerSpec holds the rates of one GregTech coal boiler, as its class
// returns them.
type boilerSpec struct {
	maxTemp          int // getMaxTemperature, °C
	heatUpRate       int // getHeatUpRate: a heat step on every tick divisible by it
	energyPerStep    int // getEnergyConsumption: fuel energy a heat step uses
	cooldownInterval int // getCooldownInterval: one degree lost after this many ticks + 1
	steamPerSecond   int // getProductionPerSecond, mB; half of it every 10 ticks
	capacity         int // getCapacity = getSteamCapacity, mB of water and of steam
}

// smallCoalBoiler is the bronze small coal boiler (MTEBoilerBronze: 120 mB of
// steam a second, 500 °C, one energy a step, a degree lost every 46 ticks;
// MTEBoiler: a heat step every 12 ticks, tanks of 16 000 mB).
var smallCoalBoiler = boilerSpec{
	maxTemp:          500,
	heatUpRate:       12,
	energyPerStep:    1,
	cooldownInterval: 45,
	steamPerSecond:   120,
	capacity:         16000,
}

// Other GregTech boiler constants (MTEBoiler, GTValues).
const (
	ambientC        = 20  // mTemperature's start and floor
	boilingC        = 100 // steam (and the dry-boiler flag) only above this
	steamCheckTicks = 10  // canNotCreateSteam runs on ticks divisible by 10
	steamPerWater   = 160 // GTValues.STEAM_PER_WATER
	fuelEnergyDiv   = 10  // updateFuel: mProcessingEnergy += burnTime / 10
)

// creosoteTankMB is the coke oven's creosote tank (TileCokeOven
// TANK_CAPACITY, config/coke_oven.yaml), which a scenario's oven must have.
var creosoteTankMB = rules.Default().Coke.TankMB

// The blast of an exploding boiler is the simulator's stand-in for
// MetaTileEntity.doExplosion (which makes a vanilla explosion): the player
// loses explosionDamage health within explosionHurtRadius blocks.
const (
	explosionDamage     = 12
	explosionHurtRadius = 8
)

const (
	bucketMB  = 1000
	stackMax  = 64
	reach     = 4.5
	eyeHeight = 1.62
)
