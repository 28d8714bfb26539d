package gtnh

import (
	"strconv"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// defaultBlock is assumed for blocks the shared mining table
// (config/mining.yaml) does not know — most mod blocks: a medium block that
// any tool or the hand breaks. A wrong guess costs time, not the block: a
// finish sent early makes the server break the block itself at the full
// time.
var defaultBlock = rules.BlockRule{Hardness: 2, Tool: "pickaxe"}

func blockInfoOf(m *rules.MiningRules, b world.Block) rules.BlockRule {
	if r, ok := m.Block(b.ID); ok {
		return r
	}
	if strings.HasPrefix(b.ID, "gregtech:gt.blockores") {
		return rules.BlockRule{Hardness: 3, Tool: "pickaxe", NeedsTool: true}
	}
	return defaultBlock
}

// toolSpeed is the mining speed of a stack against a tool class (1 = hand),
// Efficiency included: vanilla materials from the shared table, other tools
// of the class (GregTech's, Tinkers') taken as stone-grade so the wait errs
// long.
func toolSpeed(m *rules.MiningRules, st world.ItemStack, raw proto17.Slot, tool string) float64 {
	speed := m.ToolSpeed(st, tool, 4)
	if speed > 1 {
		if e := efficiency(raw); e > 0 {
			speed += float64(e*e + 1)
		}
	}
	return speed
}

// otherDurability is the durability of the vanilla damageable items that
// are not tools of a material (those come from config/mining.yaml).
var otherDurability = map[string]int{
	"minecraft:shears": 238, "minecraft:flint_and_steel": 64, "minecraft:fishing_rod": 64, "minecraft:bow": 384,
}

// vanillaDurability is an item's vanilla durability (0: it does not wear).
func vanillaDurability(m *rules.MiningRules, id string) int {
	if d, ok := otherDurability[id]; ok {
		return d
	}
	for _, class := range []string{"_sword", "_shovel", "_pickaxe", "_axe", "_hoe"} {
		if strings.HasSuffix(id, class) {
			if mat, ok := m.Material(id); ok {
				return mat.Durability
			}
		}
	}
	return 0
}

// stack16 are the vanilla items that stack to 16.
var stack16 = map[string]bool{
	"minecraft:bucket": true, "minecraft:ender_pearl": true, "minecraft:snowball": true,
	"minecraft:egg": true, "minecraft:sign": true,
}

// maxStackOf is an item's stack limit, from its registry name.
func maxStackOf(ids *rules.IDMap, m *rules.MiningRules) func(proto17.Slot) int {
	return func(s proto17.Slot) int {
		name, _ := ids.ItemName(int(s.ID))
		switch {
		case vanillaDurability(m, name) > 0, strings.HasPrefix(name, "gregtech:gt.metatool"),
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
