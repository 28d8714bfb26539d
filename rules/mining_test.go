package rules

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

func TestShippedMiningRules(t *testing.T) {
	r := loadMiningRules()
	log, ok := r.Block("minecraft:log")
	require.True(t, ok)
	assert.Equal(t, BlockRule{Hardness: 2, Tool: "axe"}, log)
	stone, _ := r.Block("minecraft:stone")
	assert.True(t, stone.NeedsTool)
	_, ok = r.Block("gregtech:gt.blockores")
	assert.False(t, ok, "mod blocks are left to the caller's guess")

	axe := newTool("minecraft:iron_axe", 0, 250, 250)
	assert.Equal(t, 6.0, r.ToolSpeed(axe, "axe", 4))
	assert.Equal(t, 1.0, r.ToolSpeed(axe, "pickaxe", 4), "the wrong class mines like a hand")
	assert.Equal(t, 1.0, r.ToolSpeed(game.ItemStack{}, "axe", 4))
	gt := newStack("gregtech:gt.metatool.01", 6, 1)
	assert.Equal(t, 4.0, r.ToolSpeed(gt, "axe", 4), "unknown materials take the caller's guess")
	m, ok := r.Material("minecraft:diamond_pickaxe")
	require.True(t, ok)
	assert.Equal(t, 1561, m.Durability)

	assert.False(t, r.Harvests(stone, newTool("minecraft:stone_pickaxe", 0, 131, 131), 0), "GTNH's stone pickaxe mines nothing")
	assert.True(t, r.Harvests(stone, newTool("minecraft:wooden_pickaxe", 0, 59, 59), 0))
	assert.False(t, r.Harvests(stone, game.ItemStack{}, 3))
	assert.False(t, r.Harvests(stone, newTool("minecraft:iron_axe", 0, 250, 250), 3), "the wrong class")
	assert.True(t, r.Harvests(log, game.ItemStack{}, 0))
}

// TestHarvestLevels: GTNH's levels (IguanaTinkerTweaks' HarvestLevelTweaks
// over Forge's ForgeHooks.initTools) against its re-tiered vanilla tools:
// stone drops to wood's 0, iron rises to 3, diamond to 5. The levels are
// the tools' own (the table's want); only the wooden pickaxe digs in GTNH
// 2.8.4, and the others harvest nothing (TestToolsThatMineNothing).
func TestHarvestLevels(t *testing.T) {
	r := loadMiningRules()
	type pickaxe struct {
		id    string
		level int
	}
	pick := func(material string) pickaxe {
		m, ok := r.Material("minecraft:" + material + "_pickaxe")
		require.True(t, ok, material)
		return pickaxe{"minecraft:" + material + "_pickaxe", m.Level}
	}
	for _, c := range []struct {
		block string
		held  pickaxe
		want  bool
	}{
		{"minecraft:diamond_ore", pick("wooden"), false},
		{"minecraft:diamond_ore", pick("stone"), false},
		{"minecraft:diamond_ore", pick("iron"), false},
		{"minecraft:diamond_ore", pick("diamond"), true},
		{"minecraft:diamond_ore", pick("golden"), false},
		{"minecraft:iron_ore", pick("wooden"), false},
		{"minecraft:iron_ore", pick("stone"), false},
		{"minecraft:iron_ore", pick("iron"), true},
		{"minecraft:lapis_ore", pick("stone"), false},
		{"minecraft:lapis_ore", pick("iron"), true},
		{"minecraft:gold_ore", pick("iron"), true},
		{"minecraft:redstone_ore", pick("iron"), true},
		{"minecraft:emerald_ore", pick("iron"), false},
		{"minecraft:gold_block", pickaxe{"", -1}, false},
		{"minecraft:gold_block", pick("iron"), true},
		{"minecraft:obsidian", pick("iron"), false},
		{"minecraft:obsidian", pick("diamond"), true},
		{"minecraft:coal_ore", pick("wooden"), false},
		{"minecraft:coal_ore", pick("stone"), false},
		{"minecraft:coal_ore", pick("iron"), true},
		{"minecraft:stone", pick("wooden"), true},
		{"minecraft:cobblestone", pick("stone"), true},
	} {
		rule, ok := r.Block(c.block)
		require.True(t, ok, c.block)
		assert.Equal(t, c.want, c.held.level >= rule.Level, "%s with %s", c.block, c.held.id)
		if c.held.id == "minecraft:wooden_pickaxe" || c.held.id == "" {
			held := game.ItemStack{}
			if c.held.id != "" {
				held = newTool(c.held.id, 0, 64, 64)
			}
			assert.Equal(t, c.want, r.Harvests(rule, held, 0), "%s with %s", c.block, c.held.id)
		}
	}
	gt := newStack("gregtech:gt.metatool.01", 2, 1)
	diamond, _ := r.Block("minecraft:diamond_ore")
	assert.Equal(t, 2, r.ToolLevel(gt, "pickaxe", 2), "unknown materials take the caller's level")
	assert.True(t, r.Harvests(diamond, gt, 4))
	assert.False(t, r.Harvests(diamond, gt, 3))
	assert.Equal(t, -1, r.ToolLevel(gt, "axe", 2), "not a tool of the class")
}

// TestToolsThatMineNothing: GTNH 2.8.4's stone, iron, golden and diamond
// pickaxes and shovels dig nothing while held (IguanaTinkerTweaks'
// VanillaToolNerfHandler: speed 0 whatever the block), so they harvest
// nothing and break nothing, not even dirt or a sapling; the wooden ones,
// the axes and the hoes dig.
func TestToolsThatMineNothing(t *testing.T) {
	r := loadMiningRules()
	tags := loadTags()
	stone, _ := r.Block("minecraft:stone")
	dirt, _ := r.Block("minecraft:dirt")
	for _, id := range []string{
		"minecraft:stone_pickaxe", "minecraft:stone_shovel", "minecraft:iron_pickaxe", "minecraft:iron_shovel",
		"minecraft:golden_pickaxe", "minecraft:golden_shovel", "minecraft:diamond_pickaxe", "minecraft:diamond_shovel",
	} {
		held := tags.Stack(id, 0, 1)
		assert.True(t, r.MinesNothing(id), id)
		for _, class := range []string{"pickaxe", "shovel", "axe", ""} {
			assert.Zero(t, r.ToolSpeed(held, class, 4), "%s against %q", id, class)
		}
		assert.False(t, r.Harvests(stone, held, 9), id)
		assert.Equal(t, -1, r.ToolLevel(held, "pickaxe", 9), id)
		// Even carrying its class's tag (a tag table that still names it a
		// pickaxe or shovel), it digs nothing.
		tagged := held
		tagged.Tags = []string{"tool:pickaxe", "tool:shovel"}
		assert.Equal(t, -1, r.ToolLevel(tagged, "pickaxe", 9), id)
		assert.False(t, r.Harvests(stone, tagged, 9), id)
		assert.Zero(t, r.ToolSpeed(tagged, "pickaxe", 4), id)
		assert.True(t, math.IsInf(BreakTicks(dirt.Hardness, r.ToolSpeed(held, dirt.Tool, 4), true), 1), "%s breaks no dirt", id)
		assert.True(t, math.IsInf(BreakTicks(0, r.ToolSpeed(held, "", 4), true), 1), "%s breaks no sapling", id)
	}
	for _, id := range []string{"minecraft:wooden_pickaxe", "minecraft:wooden_shovel", "minecraft:stone_axe", "minecraft:iron_axe", "minecraft:diamond_axe", "minecraft:iron_hoe", "minecraft:iron_sword"} {
		assert.False(t, r.MinesNothing(id), id)
	}
	assert.Equal(t, 2.0, r.ToolSpeed(tags.Stack("minecraft:wooden_pickaxe", 0, 1), "pickaxe", 4))
	assert.Equal(t, 6.0, r.ToolSpeed(tags.Stack("minecraft:iron_axe", 0, 1), "axe", 4))
	assert.True(t, r.Harvests(stone, tags.Stack("minecraft:wooden_pickaxe", 0, 1), 0))
}

// TestTinkersFlintTools: a flint head's numbers (config/mining.yaml names
// the sources), matched by the tool's exact id and not by its head's.
func TestTinkersFlintTools(t *testing.T) {
	r := loadMiningRules()
	tags := loadTags()
	stone, _ := r.Block("minecraft:stone")
	cobble, _ := r.Block("minecraft:cobblestone")
	iron, _ := r.Block("minecraft:iron_ore")
	pick := tags.Stack("TConstruct:pickaxe", 0, 1)
	assert.Equal(t, 0, r.ToolLevel(pick, "pickaxe", 2), "a new flint pickaxe mines a level lower until boosted")
	assert.Equal(t, 4.0, r.ToolSpeed(pick, "pickaxe", 6))
	assert.True(t, r.Harvests(stone, pick, 2))
	assert.True(t, r.Harvests(cobble, pick, 2))
	assert.False(t, r.Harvests(iron, pick, 2), "no iron ore with a stone-level pickaxe")
	shovel := tags.Stack("TConstruct:shovel", 0, 1)
	assert.Equal(t, 1, r.ToolLevel(shovel, "shovel", 2))
	hatchet := tags.Stack("TConstruct:hatchet", 0, 1)
	assert.Equal(t, 1, r.ToolLevel(hatchet, "axe", 2))
	m, ok := r.Material("TConstruct:pickaxe")
	require.True(t, ok)
	assert.Equal(t, 113, m.Durability, "151 × IguanaTweaks' 75 %")
	_, ok = r.Material("TConstruct:pickaxeHead")
	assert.False(t, ok, "the head is no pickaxe")
	head := tags.Stack("TConstruct:pickaxeHead", 3, 1)
	assert.Equal(t, 1.0, r.ToolSpeed(head, "pickaxe", 6))
}

// TestWear: ItemTool and ItemSword.onBlockDestroyed, and
// ItemStack.attemptDamageItem's "damage above the maximum breaks".
func TestWear(t *testing.T) {
	wood, ok := loadMiningRules().Material("minecraft:wooden_pickaxe")
	require.True(t, ok)
	pick := newTool("minecraft:wooden_pickaxe", 0, wood.Durability, wood.Durability)
	assert.Equal(t, 1, Wear(pick, 1.5))
	assert.Equal(t, 1, Wear(pick, 0.5), "any block with hardness, not only the tool's own")
	assert.Equal(t, 0, Wear(pick, 0), "instant blocks do not wear")
	assert.Equal(t, 2, Wear(newTool("minecraft:iron_sword", 0, 250, 250), 2))
	assert.Equal(t, 0, Wear(newTool("minecraft:iron_hoe", 0, 250, 250), 2))
	assert.Equal(t, 0, Wear(newStack("minecraft:stick", 0, 1), 2), "not damageable")
	assert.Equal(t, 0, Wear(game.ItemStack{}, 2))

	uses := 0
	for st := pick; !st.Empty(); st = Worn(st, Wear(st, 1.5)) {
		uses++
		require.Less(t, uses, 100)
	}
	assert.Equal(t, 65, uses, "a GTNH wooden pickaxe (max damage 64) breaks on its 65th block")
	last := newTool("minecraft:iron_sword", 0, 1, 250)
	assert.True(t, Worn(last, 2).Empty(), "a sword with one use left breaks on a block")
	assert.Equal(t, last, Worn(last, 0))
}

// TestWearByToolClass: ItemTool.onBlockDestroyed covers pickaxes, axes and
// shovels alike; a tool whose durability is unknown (MaxDamage 0) is not
// worn, and no wear (n <= 0) leaves a stack as it is.
func TestWearByToolClass(t *testing.T) {
	assert.Equal(t, 1, Wear(newTool("minecraft:wooden_shovel", 0, 64, 64), 0.5))
	assert.Equal(t, 1, Wear(newTool("minecraft:stone_axe", 0, 131, 131), 2))
	assert.Equal(t, 0, Wear(newStack("minecraft:iron_pickaxe", 0, 1), 1.5), "no maximum damage known")
	pick := newTool("minecraft:iron_pickaxe", 0, 100, 250)
	assert.Equal(t, pick, Worn(pick, -1))
}

// TestShippedLevelsMatchForge pins every harvest level in mining.yaml to
// GTNH's: Forge 1.7.10's ForgeHooks.initTools as IguanaTinkerTweaks'
// HarvestLevelTweaks re-tiers it (modifyVanillaBlocks, the ore
// dictionary's Coal at 1), and every tool material to Item.ToolMaterial
// (WOOD 2/59, STONE 4/131, IRON 6/250, EMERALD 8/1561, GOLD 12/32) with
// the levels getUpdatedHarvestLevel gives (0, 0, 3, 5, 0) and GTNH's
// wooden maximum damage of 64 (GT5-Unofficial
// GTPostLoad.changeWoodenVanillaTools).
func TestShippedLevelsMatchForge(t *testing.T) {
	r := loadMiningRules()
	for id, level := range map[string]int{
		"minecraft:obsidian":    5,
		"minecraft:emerald_ore": 4, "minecraft:emerald_block": 4, "minecraft:diamond_ore": 4,
		"minecraft:diamond_block": 4, "minecraft:gold_ore": 3, "minecraft:gold_block": 3,
		"minecraft:redstone_ore": 3, "minecraft:lit_redstone_ore": 3,
		"minecraft:iron_ore": 2, "minecraft:iron_block": 2, "minecraft:lapis_ore": 2, "minecraft:lapis_block": 2,
		"minecraft:coal_ore": 1, "minecraft:stone": 0, "minecraft:cobblestone": 0,
	} {
		rule, ok := r.Block(id)
		require.True(t, ok, id)
		assert.Equal(t, level, rule.Level, id)
		assert.Equal(t, "pickaxe", rule.Tool, id)
		assert.True(t, rule.NeedsTool, id)
	}
	for prefix, want := range map[string]ToolMaterial{
		"minecraft:wooden_":  {Prefix: "minecraft:wooden_", Speed: 2, Durability: 64, Level: 0},
		"minecraft:stone_":   {Prefix: "minecraft:stone_", Speed: 4, Durability: 131, Level: 0},
		"minecraft:iron_":    {Prefix: "minecraft:iron_", Speed: 6, Durability: 250, Level: 3},
		"minecraft:diamond_": {Prefix: "minecraft:diamond_", Speed: 8, Durability: 1561, Level: 5},
		"minecraft:golden_":  {Prefix: "minecraft:golden_", Speed: 12, Durability: 32, Level: 0},
	} {
		m, ok := r.Material(prefix + "axe")
		require.True(t, ok, prefix)
		assert.Equal(t, want, m)
		// The pickaxe (which mines nothing but the wooden one) keeps the
		// material's numbers.
		p, ok := r.Material(prefix + "pickaxe")
		require.True(t, ok, prefix)
		assert.Equal(t, []any{want.Speed, want.Durability, want.Level}, []any{p.Speed, p.Durability, p.Level}, prefix)
	}
}

func TestBreakTicks(t *testing.T) {
	assert.Equal(t, 60.0, BreakTicks(2, 1, true), "a log by hand")
	assert.Equal(t, 10.0, BreakTicks(2, 6, true), "with an iron axe")
	assert.Equal(t, 150.0, BreakTicks(1.5, 1, false), "stone by hand: no harvest")
	assert.Equal(t, 1.0, BreakTicks(0, 1, true))
	assert.True(t, math.IsInf(BreakTicks(-1, 1, true), 1))
}

func TestParseMiningRulesErrors(t *testing.T) {
	_, err := ParseMiningRules("m.yaml", []byte("blocks:\n  minecraft:log: {hardness: 2, tool: spoon}\n  stone: {hardness: 1}\n  minecraft:dirt: {tool: shovel}\n  minecraft:x: {hardness: 1, needs_tool: true}\n  minecraft:y: {hardness: 1, tool: axe, harvest_level: 1}\n  minecraft:z: {hardness: 1, tool: axe, needs_tool: true, harvest_level: -1}\ntools:\n  - {prefix: \"minecraft:wooden_\", speed: 0.5, durability: 0, harvest_level: -2}\n"))
	var list strictyaml.Errors
	require.True(t, errors.As(err, &list))
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	assert.Contains(t, got, `m.yaml:2:38: blocks.minecraft:log.tool: unknown tool class "spoon" (pickaxe, axe, shovel, hoe, sword, shears)`)
	assert.Contains(t, got, `m.yaml:3:3: blocks.stone: "stone" is not an id of the form modid:name or modid:name:meta`)
	assert.Contains(t, got, `m.yaml:4:19: blocks.minecraft:dirt.hardness: required field is missing`)
	assert.Contains(t, got, `m.yaml:5:42: blocks.minecraft:x.needs_tool: needs_tool requires a tool class`)
	assert.Contains(t, got, `m.yaml:6:56: blocks.minecraft:y.harvest_level: harvest_level requires needs_tool: true`)
	assert.Contains(t, got, `m.yaml:7:74: blocks.minecraft:z.harvest_level: must be at least 0`)
	assert.Contains(t, got, `m.yaml:9:42: tools[0].speed: must be at least 1 (the hand)`)
	assert.Contains(t, got, `m.yaml:9:59: tools[0].durability: must be at least 1`)
	assert.Contains(t, got, `m.yaml:9:77: tools[0].harvest_level: must be at least 0`)

	_, err = ParseMiningRules("m.yaml", []byte("tools:\n  - {prefix: \"a:b\", id: \"a:b\", speed: 2, durability: 1}\n  - {speed: 2, durability: 1}\n  - {id: \"nope\", speed: 2, durability: 1}\n"))
	require.True(t, errors.As(err, &list))
	got = nil
	for _, e := range list {
		got = append(got, e.Error())
	}
	assert.Contains(t, got, `m.yaml:2:5: tools[0]: give prefix or id, not both`)
	assert.Contains(t, got, `m.yaml:3:5: tools[1]: prefix or id is required`)
	assert.Contains(t, got, `m.yaml:4:10: tools[2].id: "nope" is not an id of the form modid:name or modid:name:meta`)
}

func FuzzParseMiningRules(f *testing.F) {
	f.Add([]byte("blocks:\n  minecraft:log: {hardness: 2, tool: axe}\ntools:\n  - {prefix: \"minecraft:iron_\", speed: 6, durability: 250}\n"))
	f.Add([]byte("blocks: {minecraft:x: {hardness: -1}}\n"))
	f.Add([]byte("tools:\n  - {id: \"TConstruct:pickaxe\", speed: 4, durability: 113, harvest_level: 0}\n"))
	f.Add([]byte("tinkers:\n  materials:\n    - {id: 2, name: Iron, harvest_level: 3, speed: 6, durability: 188}\n  heads: [\"TConstruct:pickaxeHead\"]\n  boosted: [\"TConstruct:pickaxe\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseMiningRules("m.yaml", data)
		if err != nil {
			var list strictyaml.Errors
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is not a located list: %T %v", err, err)
			}
			return
		}
		for _, m := range r.materials {
			if m.Speed < 1 || m.Durability < 1 || m.Level < 0 || m.ID != "" && m.Prefix != "" {
				t.Fatalf("accepted a bad material %+v", m)
			}
		}
		for id, m := range r.tinker.Materials {
			if id != m.ID || id < 0 || m.Speed < 1 || m.Durability < 1 || m.Level < 0 {
				t.Fatalf("accepted a bad Tinkers' material %+v", m)
			}
		}
		for _, h := range append(append([]string(nil), r.tinker.Heads...), r.tinker.Boosted...) {
			if _, meta, err := game.SplitID(h); err != nil || meta >= 0 {
				t.Fatalf("accepted a bad item id %q", h)
			}
		}
	})
}

// TestTinkerTools: a Tinkers' tool takes its level and speed from the
// head in its NBT; a pickaxe is one level lower until its boost, a
// hatchet or shovel is not; a level-0 head stays 0.
func TestTinkerTools(t *testing.T) {
	r := loadMiningRules()
	head := func(id string, meta int) game.ItemStack { return game.ItemStack{ID: id, Meta: meta, Count: 1} }
	for _, c := range []struct {
		tool string
		head game.ItemStack
		want int
	}{
		{"TConstruct:pickaxe", head("TConstruct:pickaxeHead", 2), 2}, // iron 3, boost pending
		{"TConstruct:pickaxe", head("TConstruct:pickaxeHead", 3), 0}, // flint 1
		{"TConstruct:hatchet", head("TConstruct:hatchetHead", 2), 3},
		{"TConstruct:shovel", head("TConstruct:shovelHead", 3), 1},
	} {
		got, ok := r.TinkerTool(c.tool, c.head)
		require.True(t, ok, "%s on %v", c.tool, c.head)
		assert.Equal(t, game.TinkerTool{Head: c.head.Meta, HarvestLevel: c.want}, *got, "%s on %v", c.tool, c.head)
	}
	for _, h := range []game.ItemStack{head("TConstruct:pickaxeHead", 14), head("TConstruct:binding", 3), head("minecraft:flint", 0), {}} {
		_, ok := r.TinkerTool("TConstruct:pickaxe", h)
		assert.False(t, ok, "%v", h)
	}

	// A level-0 material is not lowered (addBoostTags: hlvl == 0 returns).
	r0, err := ParseMiningRules("m.yaml", []byte("tinkers:\n  materials:\n    - {id: 0, name: Wood, harvest_level: 0, speed: 2, durability: 50}\n  heads: [\"TConstruct:pickaxeHead\"]\n  boosted: [\"TConstruct:pickaxe\"]\n"))
	require.NoError(t, err)
	got, ok := r0.TinkerTool("TConstruct:pickaxe", head("TConstruct:pickaxeHead", 0))
	require.True(t, ok)
	assert.Equal(t, 0, got.HarvestLevel)

	tagged := func(tinker *game.TinkerTool) game.ItemStack {
		return game.ItemStack{ID: "TConstruct:pickaxe", Count: 1, Tags: []string{"tool:pickaxe"}, Tinker: tinker}
	}
	iron := tagged(&game.TinkerTool{Head: 2, HarvestLevel: 2})
	assert.Equal(t, 2, r.ToolLevel(iron, "pickaxe", -1))
	assert.Equal(t, 6.0, r.ToolSpeed(iron, "pickaxe", 1))
	assert.Equal(t, 0, r.ToolLevel(tagged(nil), "pickaxe", -1), "no NBT shown: the table's flint numbers")
	assert.Equal(t, 4.0, r.ToolSpeed(tagged(nil), "pickaxe", 1))
	assert.True(t, r.Harvests(BlockRule{Tool: "pickaxe", NeedsTool: true, Level: 2}, iron, -1))
	assert.False(t, r.Harvests(BlockRule{Tool: "pickaxe", NeedsTool: true, Level: 3}, iron, -1))
	m, ok := r.TinkerMaterial(2)
	require.True(t, ok)
	assert.Equal(t, TinkerMaterial{ID: 2, Name: "Iron", Level: 3, Speed: 6, Durability: 188}, m)
}

// TestParseTinkersErrors: the tinkers section's mistakes, each located.
func TestParseTinkersErrors(t *testing.T) {
	_, err := ParseMiningRules("m.yaml", []byte(`tinkers:
  materials:
    - {id: 2, name: Iron, harvest_level: 3, speed: 6, durability: 188}
    - {id: 2, name: Again, harvest_level: -1, speed: 0, durability: 0}
    - {id: 5, name: Short}
  heads: ["TConstruct:pickaxeHead:2", "ore:x", "nope"]
  boosted: [1]
  other: 1
`))
	var list strictyaml.Errors
	require.True(t, errors.As(err, &list))
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	for _, want := range []string{
		`m.yaml:4:12: tinkers.materials[1].id: material 2 is listed twice`,
		`m.yaml:4:43: tinkers.materials[1].harvest_level: must be at least 0`,
		`m.yaml:4:54: tinkers.materials[1].speed: must be at least 1 (the hand)`,
		`tinkers.materials[1].durability: must be at least 1`,
		`m.yaml:5:7: tinkers.materials[2].harvest_level: required field is missing`,
		`m.yaml:6:11: tinkers.heads[0]: "TConstruct:pickaxeHead:2": an item id without metadata expected (modid:name)`,
		`tinkers.heads[1]: "ore:x": an item id without metadata expected`,
		`tinkers.heads[2]: "nope": an item id without metadata expected`,
		`tinkers.boosted[0]`,
		`other`,
	} {
		assert.True(t, slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, want) }), "want %q in\n%s", want, strings.Join(got, "\n"))
	}
}
