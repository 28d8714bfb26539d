package mapview

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/world"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		block   world.Block
		machine string
		kind    string
		label   string
	}{
		{world.NewBlock("minecraft:grass", 0), "", KindGrass, KindGrass},
		{world.NewBlock("minecraft:dirt", 0), "", KindDirt, KindDirt},
		{world.NewBlock("minecraft:stone", 0), "", KindStone, KindStone},
		{world.NewBlock("minecraft:cobblestone", 0), "", KindStone, KindStone},
		{world.NewBlock("minecraft:sand", 0), "", KindSand, KindSand},
		{world.NewBlock("minecraft:gravel", 0), "", KindGravel, KindGravel},
		{world.NewBlock("minecraft:clay", 0), "", KindClay, KindClay},
		{world.NewBlock("minecraft:log", 0), "", KindLog, KindLog},
		{world.NewBlock("minecraft:leaves", 0), "", KindLeaves, KindLeaves},
		{world.NewBlock("minecraft:tallgrass", 1), "", KindPlant, KindPlant},
		{world.NewBlock("minecraft:water", 0), "", KindWater, KindWater},
		{world.NewBlock("minecraft:flowing_lava", 0), "", KindLava, KindLava},
		{world.NewBlock("minecraft:snow_layer", 0), "", KindSnow, KindSnow},
		{world.NewBlock("minecraft:ice", 0), "", KindIce, KindIce},
		{world.NewBlock("minecraft:bedrock", 0), "", KindBedrock, KindBedrock},
		{world.NewBlock("minecraft:coal_ore", 0), "", KindOre, "Coal ore"},
		{world.NewBlock("minecraft:lit_redstone_ore", 0), "", KindOre, "Redstone ore"},
		{world.Block{ID: "gregtech:gt.blockores", Tags: []string{"ore:oreSmallGreenSapphire"}}, "", KindOre, "Green Sapphire ore"},
		{world.Block{ID: "gregtech:gt.blockores2", Tags: []string{"ore:oreBasaltTin"}}, "", KindOre, "Tin ore"},
		{world.Block{ID: "gregtech:gt.blockores"}, "", KindOre, "ore"},
		{world.NewBlock("minecraft:chest", 0), "", KindContainer, "chest"},
		{world.NewBlock("Railcraft:machine.alpha", 7), "", KindMachine, "machine.alpha"},
		{world.Air, "steam_boiler", KindMachine, "steam_boiler"},
		{world.NewBlock("minecraft:crafting_table", 0), "", KindBlock, "minecraft:crafting_table"},
		{world.Block{ID: "ore:plankWood"}, "", KindBlock, "ore:plankWood"},
	} {
		l := Classify(tc.block, tc.machine)
		assert.Equal(t, tc.kind, l.Kind, "%s", tc.block.ID)
		assert.Equal(t, tc.label, l.Label, "%s", tc.block.ID)
		assert.Equal(t, l.RGBA(), (Look{Color: l.Color}).RGBA())
	}
	assert.Equal(t, hex(oreColors["Coal"]), Classify(world.NewBlock("minecraft:coal_ore", 0), "").Color)
	assert.Equal(t, hex(KindColor(KindOre)), Classify(world.Block{ID: "x:y", Tags: []string{"ore:oreMonazite"}}, "").Color)
}

func TestOreTagPrefixesFromConfig(t *testing.T) {
	for tag, want := range map[string]string{
		"ore:oreCopper": "Copper", "ore:oreNetherrackCopper": "Copper", "ore:oreEndstoneIron": "Iron",
		"ore:oreBlackgraniteTin": "Tin", "ore:oreSmallCoal": "Coal", "ore:oreMarbleGold": "Gold",
	} {
		got, ok := materialOfOreTag(tag)
		assert.True(t, ok, tag)
		assert.Equal(t, want, got, tag)
	}
	for _, tag := range []string{"ore:logWood", "ore:ore", "ore:oreSmall", "oreCopper", "ore:orex"} {
		_, ok := materialOfOreTag(tag)
		assert.False(t, ok, tag)
	}
	assert.Contains(t, orePrefixes(), "oreNetherrack")
	assert.Contains(t, orePrefixes(), "oreSmall")
}

func TestShade(t *testing.T) {
	assert.Equal(t, 1.0, Shade(64, 64))
	assert.InDelta(t, 1.06, Shade(65, 64), 1e-9)
	assert.InDelta(t, 0.94, Shade(63, 64), 1e-9)
	assert.Equal(t, 1.3, Shade(100, 64))
	assert.Equal(t, 0.7, Shade(0, 64))
}

func TestKindsLegend(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range Kinds() {
		assert.False(t, seen[l.Kind], "%s once", l.Kind)
		seen[l.Kind] = true
		assert.Equal(t, KindColor(l.Kind), l.RGBA())
	}
	assert.Len(t, seen, len(palette), "every kind of the palette in the legend")
}
