package chain

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/rulestest"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// gtOre is a GregTech ore block as the world model holds it: its harvest
// level as metadata, its material as an ore dictionary tag.
func gtOre(level int, tag string) world.Block {
	return world.Block{ID: "gregtech:gt.blockores", Meta: level, Tags: []string{tag}}
}

// oreField is a buried chalcopyrite ore (level 1) and, farther, a
// magnetite ore (level 2), with a standing furnace in reach.
func oreField() *world.SparseBlocks {
	return forest(20).
		Set(world.Pos(3, 50, 3), gtOre(1, "ore:oreChalcopyrite")).
		Set(world.Pos(-6, 45, 2), gtOre(2, "ore:oreMagnetite"))
}

// ironPickaxe is GregTech's pickaxe, level 3 in the test's mining table
// (rulestest.WithTestPickaxe).
func ironPickaxe() world.ItemStack {
	st := world.NewStack("gregtech:gt.metatool.01", 2, 1)
	st.MaxDamage = 250
	return st
}

func planOre(t *testing.T, reg *registry.Registry, goalText string, w *world.Snapshot) (loop.Decision, error) {
	t.Helper()
	set, err := rulestest.WithTestPickaxe()
	require.NoError(t, err)
	goal, err := loop.ParseGoal(goalText, reg.Tiers())
	require.NoError(t, err)
	catalog, err := reg.DescribeForTechState(w.TechState, reg.Packs().Names())
	require.NoError(t, err)
	obs := loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false)}
	return Planner{Mining: set.Mining}.Plan(context.Background(), goal, obs, catalog)
}

// TestRawOreFromGregTechOre: a raw ore comes from the nearest regular ore of
// its material (mine_gt_ore, by the ore's tag), with a pickaxe of the
// material's harvest level; a weaker pickaxe is a clear failure naming the
// level; an ingot is smelted from the raw ore whose ore is in sight.
func TestRawOreFromGregTechOre(t *testing.T) {
	reg := shipped(t)
	t.Run("level 3 pickaxe", func(t *testing.T) {
		dec, err := planOre(t, reg, "have 1 gregtech:gt.metaitem.03:5855", snapshot("stone_age", oreField(), ironPickaxe()))
		require.NoError(t, err)
		require.NotNil(t, dec.Invocation)
		assert.Equal(t, loop.Invocation{Skill: "mine_gt_ore", Params: map[string]any{"target": "ore:oreChalcopyrite", "drop": "gregtech:gt.metaitem.03:5855"}}, *dec.Invocation)
	})
	t.Run("wooden pickaxe", func(t *testing.T) {
		_, err := planOre(t, reg, "have 1 gregtech:gt.metaitem.03:5870", snapshot("stone_age", oreField(), pickaxe(59)))
		require.ErrorIs(t, err, loop.ErrStuck)
		assert.Contains(t, err.Error(), "ore:oreMagnetite drops nothing without a pickaxe of harvest level 2 or more, and the best in the inventory is level 0")
	})
	t.Run("wooden pickaxe, level 1 ore", func(t *testing.T) {
		_, err := planOre(t, reg, "have 1 gregtech:gt.metaitem.03:5855", snapshot("stone_age", oreField(), pickaxe(59)))
		require.ErrorIs(t, err, loop.ErrStuck)
		assert.Contains(t, err.Error(), "ore:oreChalcopyrite drops nothing without a pickaxe of harvest level 1 or more, and the best in the inventory is level 0")
	})
	t.Run("no ore in sight", func(t *testing.T) {
		_, err := planOre(t, reg, "have 1 gregtech:gt.metaitem.03:5917", snapshot("stone_age", oreField(), ironPickaxe()))
		require.ErrorIs(t, err, loop.ErrStuck)
		assert.Contains(t, err.Error(), "no available skill produces gregtech:gt.metaitem.03:5917")
	})
	t.Run("ingot from the ore in sight", func(t *testing.T) {
		// Iron ingots smelt from five raw ores; magnetite's ore is the one
		// in sight, so the plan smelts raw magnetite: a furnace first.
		w := snapshot("stone_age", oreField(), ironPickaxe(), stack("minecraft:furnace", 1), stack("minecraft:planks", 8))
		dec, err := planOre(t, reg, "have 1 minecraft:iron_ingot", w)
		require.NoError(t, err)
		require.NotNil(t, dec.Invocation)
		assert.Equal(t, loop.Invocation{Skill: "mine_gt_ore", Params: map[string]any{"target": "ore:oreMagnetite", "drop": "gregtech:gt.metaitem.03:5870"}}, *dec.Invocation)
	})
	t.Run("a raw ore at hand is smelted", func(t *testing.T) {
		w := snapshot("stone_age", oreField(), ironPickaxe(), stack("minecraft:furnace", 1), stack("minecraft:planks", 8),
			world.NewStack("gregtech:gt.metaitem.03", 5930, 1))
		dec, err := planOre(t, reg, "have 1 minecraft:iron_ingot", w)
		require.NoError(t, err)
		require.NotNil(t, dec.Invocation)
		assert.Equal(t, "smelt", dec.Invocation.Skill)
		assert.Equal(t, "minecraft:iron_ingot", dec.Invocation.Params["item"])
	})
}

// TestIronLeftInTheFurnace: a smelting step a mob cut short left its raw
// ores cooking (or their ingots made) in the furnace. The player holds 56
// raw magnetite and wants 60 ingots more, and no ore is in sight: the 4 in
// the furnace make up the rest, so the plan smelts instead of asking for
// raw ore nothing in reach gives (seed 3's quest run stopped "Getting
// Iron" so, 12 ingots and 4 cooking short of 72).
func TestIronLeftInTheFurnace(t *testing.T) {
	reg := shipped(t)
	raw := func(n int) world.ItemStack { return world.NewStack("gregtech:gt.metaitem.03", 5870, n) }
	for name, slots := range map[string]map[string]world.ItemStack{
		"cooking": {"input": raw(4), "fuel": stack("minecraft:planks", 3)},
		"made":    {"output": stack("minecraft:iron_ingot", 4)},
		"both":    {"input": raw(2), "output": stack("minecraft:iron_ingot", 2)},
	} {
		t.Run(name, func(t *testing.T) {
			w := snapshot("stone_age", forest(20), ironPickaxe(), raw(56), stack("minecraft:iron_ingot", 12), stack("minecraft:planks", 64))
			w.Machines = []world.Machine{{Kind: world.MachineFurnace, Pos: world.Pos(3, 64, 3), Slots: slots}}
			dec, err := planOre(t, reg, "have 72 minecraft:iron_ingot", w)
			require.NoError(t, err)
			require.NotNil(t, dec.Invocation)
			assert.Equal(t, "smelt", dec.Invocation.Skill)
			assert.NotContains(t, dec.Invocation.Params, "pos", "the skill takes that furnace by itself")
		})
	}
	t.Run("driven off 40 blocks, an empty furnace 5 blocks off: back to that furnace", func(t *testing.T) {
		w := snapshot("stone_age", forest(20), ironPickaxe(), raw(56), stack("minecraft:iron_ingot", 12), stack("minecraft:planks", 64))
		w.Machines = []world.Machine{
			{Kind: world.MachineFurnace, Pos: world.Pos(5, 64, 0), Slots: map[string]world.ItemStack{}},
			{Kind: world.MachineFurnace, Pos: world.Pos(40, 64, 0), Slots: map[string]world.ItemStack{"output": stack("minecraft:iron_ingot", 4)}},
		}
		dec, err := planOre(t, reg, "have 72 minecraft:iron_ingot", w)
		require.NoError(t, err)
		require.NotNil(t, dec.Invocation)
		assert.Equal(t, "smelt", dec.Invocation.Skill)
		assert.Equal(t, "40,64,0", dec.Invocation.Params["pos"], "the skill goes to the furnace the batch is in")
	})
	t.Run("another item in the furnace counts nothing", func(t *testing.T) {
		w := snapshot("stone_age", forest(20), ironPickaxe(), raw(56), stack("minecraft:iron_ingot", 12), stack("minecraft:planks", 64))
		w.Machines = []world.Machine{{Kind: world.MachineFurnace, Pos: world.Pos(3, 64, 3), Slots: map[string]world.ItemStack{"input": stack("minecraft:cobblestone", 4), "output": stack("minecraft:stone", 4)}}}
		_, err := planOre(t, reg, "have 72 minecraft:iron_ingot", w)
		require.ErrorIs(t, err, loop.ErrStuck)
		assert.Contains(t, err.Error(), "no available skill produces gregtech:gt.metaitem.03:5870")
	})
}

// TestPickaxeForTheOre: a pickaxe below the ore's level makes the plan
// build one that reaches it from a head the inventory holds (the iron head
// of "Upgrade 2.0": iron 3, one lower until its boost); without such a
// head the failure names the level and the head nothing makes; a Tinkers'
// pickaxe that carries its level in its NBT mines at that level.
func TestPickaxeForTheOre(t *testing.T) {
	reg := shipped(t)
	flint := world.NewStack("TConstruct:pickaxe", 0, 1)
	flint.Tinker = &world.TinkerTool{Head: 3, HarvestLevel: 0}
	tables := []world.ItemStack{flint, stack("TConstruct:ToolStationBlock", 1), stack("minecraft:stick", 2), stack("TConstruct:binding", 1)}
	t.Run("iron head held", func(t *testing.T) {
		w := snapshot("stone_age", oreField(), append(tables, world.NewStack("TConstruct:pickaxeHead", 2, 1))...)
		dec, err := planOre(t, reg, "have 1 gregtech:gt.metaitem.03:5870", w)
		require.NoError(t, err)
		require.NotNil(t, dec.Invocation)
		assert.Equal(t, "basic_crafting", dec.Invocation.Skill)
		assert.Equal(t, "TConstruct:pickaxe", dec.Invocation.Params["item"])
	})
	t.Run("only a flint head", func(t *testing.T) {
		w := snapshot("stone_age", oreField(), append(tables, world.NewStack("TConstruct:pickaxeHead", 3, 1))...)
		_, err := planOre(t, reg, "have 1 gregtech:gt.metaitem.03:5855", w)
		require.ErrorIs(t, err, loop.ErrStuck)
		assert.Contains(t, err.Error(), "ore:oreChalcopyrite drops nothing without a pickaxe of harvest level 1 or more, and the best in the inventory is level 0: a TConstruct:pickaxe of level 1: no available skill produces TConstruct:pickaxeHead:2")
	})
	t.Run("iron pickaxe built", func(t *testing.T) {
		iron := world.NewStack("TConstruct:pickaxe", 0, 1)
		iron.Tinker = &world.TinkerTool{Head: 2, HarvestLevel: 2}
		dec, err := planOre(t, reg, "have 1 gregtech:gt.metaitem.03:5870", snapshot("stone_age", oreField(), flint, iron))
		require.NoError(t, err)
		require.NotNil(t, dec.Invocation)
		assert.Equal(t, "mine_gt_ore", dec.Invocation.Skill)
	})
}

// TestToolFromTheHeadNothingMakes: a tool whose better recipe needs a head
// nothing makes (the quest's iron head) is planned by the next recipe, and
// when that one fails too the failure is its own, not the missing head's.
func TestToolFromTheHeadNothingMakes(t *testing.T) {
	reg := shipped(t)
	dec, err := planOre(t, reg, "have 1 TConstruct:pickaxe", snapshot("stone_age", oreField(),
		stack("TConstruct:ToolStationBlock", 1), world.NewStack("TConstruct:pickaxeHead", 3, 1), stack("minecraft:stick", 2), stack("TConstruct:binding", 1)))
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "TConstruct:pickaxe", dec.Invocation.Params["item"])

	// No flint head, no part builder, no tree: the flint recipe's own
	// failure is the one said.
	_, err = planOre(t, reg, "have 1 TConstruct:pickaxe", snapshot("stone_age", world.NewSparseBlocks()))
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "TConstruct:pickaxeHead:3")
	assert.NotContains(t, err.Error(), "no available skill produces TConstruct:pickaxeHead:2")
}
