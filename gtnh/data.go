package gtnh

import (
	"strconv"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// blockInfo is how a block breaks: its 1.7.10 hardness (< 0 unbreakable),
// the tool class that mines it fast, and whether that tool is needed for
// the block to drop anything (and so for the fast break formula).
type blockInfo struct {
	hardness  float64
	tool      string
	needsTool bool
}

// blockTable holds vanilla 1.7.10 hardness values (Block.setHardness) and
// harvest tools of the blocks a bot meets early.
var blockTable = map[string]blockInfo{
	"minecraft:stone": {1.5, "pickaxe", true}, "minecraft:grass": {0.6, "shovel", false},
	"minecraft:dirt": {0.5, "shovel", false}, "minecraft:cobblestone": {2, "pickaxe", true},
	"minecraft:planks": {2, "axe", false}, "minecraft:sapling": {0, "", false},
	"minecraft:bedrock": {-1, "", false}, "minecraft:sand": {0.5, "shovel", false},
	"minecraft:gravel": {0.6, "shovel", false}, "minecraft:gold_ore": {3, "pickaxe", true},
	"minecraft:iron_ore": {3, "pickaxe", true}, "minecraft:coal_ore": {3, "pickaxe", true},
	"minecraft:log": {2, "axe", false}, "minecraft:log2": {2, "axe", false},
	"minecraft:leaves": {0.2, "", false}, "minecraft:leaves2": {0.2, "", false},
	"minecraft:sandstone": {0.8, "pickaxe", true}, "minecraft:tallgrass": {0, "", false},
	"minecraft:deadbush": {0, "", false}, "minecraft:yellow_flower": {0, "", false},
	"minecraft:red_flower": {0, "", false}, "minecraft:brown_mushroom": {0, "", false},
	"minecraft:red_mushroom": {0, "", false}, "minecraft:wool": {0.8, "", false},
	"minecraft:brick_block": {2, "pickaxe", true}, "minecraft:mossy_cobblestone": {2, "pickaxe", true},
	"minecraft:obsidian": {50, "pickaxe", true}, "minecraft:torch": {0, "", false},
	"minecraft:chest": {2.5, "axe", false}, "minecraft:diamond_ore": {3, "pickaxe", true},
	"minecraft:crafting_table": {2.5, "axe", false}, "minecraft:furnace": {3.5, "pickaxe", true},
	"minecraft:lit_furnace": {3.5, "pickaxe", true}, "minecraft:redstone_ore": {3, "pickaxe", true},
	"minecraft:snow_layer": {0.1, "shovel", false}, "minecraft:ice": {0.5, "pickaxe", false},
	"minecraft:snow": {0.2, "shovel", false}, "minecraft:cactus": {0.4, "", false},
	"minecraft:clay": {0.6, "shovel", false}, "minecraft:reeds": {0, "", false},
	"minecraft:pumpkin": {1, "axe", false}, "minecraft:netherrack": {0.4, "pickaxe", true},
	"minecraft:lapis_ore": {3, "pickaxe", true}, "minecraft:emerald_ore": {3, "pickaxe", true},
	"minecraft:vine": {0.2, "", false}, "minecraft:water": {-1, "", false},
	"minecraft:flowing_water": {-1, "", false}, "minecraft:lava": {-1, "", false},
	"minecraft:flowing_lava": {-1, "", false}, "minecraft:double_plant": {0, "", false},
	"minecraft:hardened_clay": {1.25, "pickaxe", true}, "minecraft:stained_hardened_clay": {1.25, "pickaxe", true},
	"minecraft:melon_block": {1, "axe", false}, "minecraft:glass": {0.3, "", false},
	"minecraft:mycelium": {0.6, "shovel", false}, "minecraft:soul_sand": {0.5, "shovel", false},
	"minecraft:stonebrick": {1.5, "pickaxe", true}, "minecraft:fence": {2, "axe", false},
	"minecraft:wooden_slab": {2, "axe", false}, "minecraft:stone_slab": {2, "pickaxe", true},
}

// defaultBlock is assumed for blocks the table does not know (most mod
// blocks): a medium block that any tool or the hand breaks. A wrong guess
// costs time, not the block: a finish sent early makes the server break the
// block itself at the full time.
var defaultBlock = blockInfo{hardness: 2, tool: "pickaxe", needsTool: false}

func blockInfoOf(b world.Block) blockInfo {
	if info, ok := blockTable[b.ID]; ok {
		return info
	}
	if strings.HasPrefix(b.ID, "gregtech:gt.blockores") {
		return blockInfo{hardness: 3, tool: "pickaxe", needsTool: true}
	}
	return defaultBlock
}

// toolSpeed is the mining speed of a stack against a tool class (1 = hand),
// Efficiency included. Vanilla materials: wood 2, stone 4, iron 6, diamond
// 8, gold 12; other tools of the class (GregTech's, Tinkers') are taken as
// stone-grade so the wait errs long.
func toolSpeed(st world.ItemStack, raw proto17.Slot, tool string) float64 {
	if tool == "" || st.Empty() || !st.HasTag("tool:"+tool) {
		return 1
	}
	speed := 4.0
	switch {
	case strings.HasPrefix(st.ID, "minecraft:wooden_"):
		speed = 2
	case strings.HasPrefix(st.ID, "minecraft:stone_"):
		speed = 4
	case strings.HasPrefix(st.ID, "minecraft:iron_"):
		speed = 6
	case strings.HasPrefix(st.ID, "minecraft:diamond_"):
		speed = 8
	case strings.HasPrefix(st.ID, "minecraft:golden_"):
		speed = 12
	}
	if e := efficiency(raw); e > 0 {
		speed += float64(e*e + 1)
	}
	return speed
}

// maxDurability of the vanilla damageable items (Item.setMaxDamage).
var maxDurability = map[string]int{
	"minecraft:wooden_sword": 59, "minecraft:wooden_shovel": 59, "minecraft:wooden_pickaxe": 59, "minecraft:wooden_axe": 59, "minecraft:wooden_hoe": 59,
	"minecraft:stone_sword": 131, "minecraft:stone_shovel": 131, "minecraft:stone_pickaxe": 131, "minecraft:stone_axe": 131, "minecraft:stone_hoe": 131,
	"minecraft:iron_sword": 250, "minecraft:iron_shovel": 250, "minecraft:iron_pickaxe": 250, "minecraft:iron_axe": 250, "minecraft:iron_hoe": 250,
	"minecraft:diamond_sword": 1561, "minecraft:diamond_shovel": 1561, "minecraft:diamond_pickaxe": 1561, "minecraft:diamond_axe": 1561, "minecraft:diamond_hoe": 1561,
	"minecraft:golden_sword": 32, "minecraft:golden_shovel": 32, "minecraft:golden_pickaxe": 32, "minecraft:golden_axe": 32, "minecraft:golden_hoe": 32,
	"minecraft:shears": 238, "minecraft:flint_and_steel": 64, "minecraft:fishing_rod": 64, "minecraft:bow": 384,
}

// stack16 are the vanilla items that stack to 16.
var stack16 = map[string]bool{
	"minecraft:bucket": true, "minecraft:ender_pearl": true, "minecraft:snowball": true,
	"minecraft:egg": true, "minecraft:sign": true,
}

// maxStackOf is an item's stack limit, from its registry name.
func maxStackOf(ids *world.IDMap) func(proto17.Slot) int {
	return func(s proto17.Slot) int {
		name, _ := ids.ItemName(int(s.ID))
		switch {
		case maxDurability[name] > 0, strings.HasPrefix(name, "gregtech:gt.metatool"),
			strings.HasSuffix(name, "_bucket"), strings.HasPrefix(name, "TConstruct:"):
			return 1
		case stack16[name]:
			return 16
		}
		return 64
	}
}

// mobNames are the 1.7.10 entity type ids of Spawn Mob.
var mobNames = map[uint8]string{
	50: "creeper", 51: "skeleton", 52: "spider", 53: "giant", 54: "zombie", 55: "slime",
	56: "ghast", 57: "zombie_pigman", 58: "enderman", 59: "cave_spider", 60: "silverfish",
	61: "blaze", 62: "magma_cube", 63: "ender_dragon", 64: "wither", 65: "bat", 66: "witch",
	90: "pig", 91: "sheep", 92: "cow", 93: "chicken", 94: "squid", 95: "wolf", 96: "mooshroom",
	97: "snow_golem", 98: "ocelot", 99: "iron_golem", 100: "horse", 120: "villager",
}

func mobName(t uint8) string {
	if n, ok := mobNames[t]; ok {
		return n
	}
	return "mob:" + strconv.Itoa(int(t))
}

// dimensionName names a dimension id as the world model does.
func dimensionName(dim int32) string {
	switch dim {
	case 0:
		return world.Overworld
	case -1:
		return world.Nether
	case 1:
		return world.End
	}
	return "dim" + strconv.Itoa(int(dim))
}
