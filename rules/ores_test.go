package rules

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShippedOreMaterials: the harvest levels GregTech gives the ores of
// the Stone Age's metals (tool quality: Copper, Tin, Chalcopyrite, Pyrite,
// Cassiterite, Cassiterite Sand and Brown Limonite 1; Iron, Magnetite, Banded Iron and Gold
// 2; a small ore one less) and the raw ore items the quest book names.
func TestShippedOreMaterials(t *testing.T) {
	o := Default().Ores
	assert.Equal(t, "gregtech:gt.blockores", o.Block)
	for _, c := range []struct {
		name         string
		id, quality  int
		raw          int
		smelts       string
		count, small int
	}{
		{"Copper", 35, 1, 5035, "gregtech:gt.metaitem.01:11035", 1, 0},
		{"Chalcopyrite", 855, 1, 5855, "gregtech:gt.metaitem.01:11035", 1, 0},
		{"Tin", 57, 1, 5057, "gregtech:gt.metaitem.01:11057", 1, 0},
		{"Cassiterite", 824, 1, 5824, "gregtech:gt.metaitem.01:11057", 2, 0},
		{"CassiteriteSand", 937, 1, 5937, "gregtech:gt.metaitem.01:11057", 2, 0},
		{"Iron", 32, 2, 5032, "minecraft:iron_ingot", 1, 1},
		{"Magnetite", 870, 2, 5870, "minecraft:iron_ingot", 1, 1},
		{"BandedIron", 917, 2, 5917, "minecraft:iron_ingot", 1, 1},
		{"Pyrite", 834, 1, 5834, "minecraft:iron_ingot", 1, 0},
		{"BrownLimonite", 930, 1, 5930, "minecraft:iron_ingot", 1, 0},
	} {
		m, ok := o.Material(c.name)
		require.True(t, ok, c.name)
		assert.Equal(t, c.id, m.ID, c.name)
		assert.Equal(t, c.quality, m.HarvestLevel(false), c.name)
		assert.Equal(t, c.small, m.HarvestLevel(true), c.name+" small")
		item, meta := o.RawOre(m)
		assert.Equal(t, "gregtech:gt.metaitem.03", item)
		assert.Equal(t, c.raw, meta, c.name)
		assert.Equal(t, c.smelts, m.SmeltsInto, c.name)
		assert.Equal(t, c.count, m.SmeltCount, c.name)
		byID, ok := o.MaterialByID(c.id)
		require.True(t, ok)
		assert.Equal(t, c.name, byID.Name)
	}
	_, ok := o.Material("Malachite")
	assert.False(t, ok, "Malachite's tool quality has no source here: it is not placed")
}

// TestOreBlockRule: BlockOresAbstract: a pickaxe, harvest level the
// metadata (5 and 6 are 2), hardness 1 + the level; a shovel from 8.
func TestOreBlockRule(t *testing.T) {
	o := Default().Ores
	for meta, want := range map[int]BlockRule{
		0: {Hardness: 1, Tool: "pickaxe", NeedsTool: true, Level: 0},
		1: {Hardness: 2, Tool: "pickaxe", NeedsTool: true, Level: 1},
		2: {Hardness: 3, Tool: "pickaxe", NeedsTool: true, Level: 2},
		5: {Hardness: 3, Tool: "pickaxe", NeedsTool: true, Level: 2},
		6: {Hardness: 3, Tool: "pickaxe", NeedsTool: true, Level: 2},
		7: {Hardness: 8, Tool: "pickaxe", NeedsTool: true, Level: 7},
		9: {Hardness: 2, Tool: "shovel", NeedsTool: true, Level: 1},
	} {
		assert.Equal(t, want, o.BlockRule(meta), "meta %d", meta)
	}
}

// TestOreMaterialOfTags: the client's ore dictionary tags name the
// material and whether the ore is small.
func TestOreMaterialOfTags(t *testing.T) {
	o := Default().Ores
	m, small, ok := o.MaterialOfTags([]string{"ore:oreChalcopyrite"})
	require.True(t, ok)
	assert.Equal(t, "Chalcopyrite", m.Name)
	assert.False(t, small)
	m, small, ok = o.MaterialOfTags([]string{"pickaxe", "ore:oreSmallTin"})
	require.True(t, ok)
	assert.Equal(t, "Tin", m.Name)
	assert.True(t, small)
	assert.Equal(t, "ore:oreSmallTin", o.Tag(m, true))
	assert.Equal(t, "ore:oreTin", o.Tag(m, false))
	_, _, ok = o.MaterialOfTags([]string{"ore:oreMalachite", "ore:logWood"})
	assert.False(t, ok)
}

// TestShippedOreMixes: the overworld's mixes of GregTech 2.8 with their
// heights, weights and materials (OreMixes), and the vein grid of GTNH's
// GregTech.cfg.
func TestShippedOreMixes(t *testing.T) {
	o := Default().Ores
	assert.Equal(t, VeinGrid{Grid: 3, Percentage: 100, Attempts: 64, PlacementAttempts: 8, SmallOres: 2}, o.Veins)
	mixes := map[string]OreMix{}
	total := 0
	for _, m := range o.Mixes() {
		mixes[m.Name] = m
		total += m.Weight
	}
	assert.Len(t, mixes, 21)
	assert.Equal(t, 1520, total)
	assert.Equal(t, OreMix{Name: "copper", MinY: 5, MaxY: 60, Weight: 80, Density: 3, Size: 24,
		Primary: "Chalcopyrite", Secondary: "Iron", Between: "Pyrite", Sporadic: "Copper"}, mixes["copper"])
	assert.Equal(t, OreMix{Name: "iron", MinY: 10, MaxY: 40, Weight: 120, Density: 3, Size: 24,
		Primary: "BrownLimonite", Secondary: "YellowLimonite", Between: "BandedIron", Sporadic: "Malachite"}, mixes["iron"])
	assert.Equal(t, OreMix{Name: "cassiterite", MinY: 60, MaxY: 220, Weight: 50, Density: 4, Size: 24,
		Primary: "Tin", Secondary: "Tin", Between: "Cassiterite", Sporadic: "Tin"}, mixes["cassiterite"])
	assert.Equal(t, OreMix{Name: "magnetite", MinY: 60, MaxY: 180, Weight: 160, Density: 2, Size: 32,
		Primary: "Magnetite", Secondary: "Magnetite", Between: "Iron", Sporadic: "VanadiumMagnetite"}, mixes["magnetite"])
}

// TestShippedOreSmeltsMatchSmeltingTable: the furnace table has every raw
// ore the ore table says smelts, into the same ingot and count.
func TestShippedOreSmeltsMatchSmeltingTable(t *testing.T) {
	set := Default()
	want := set.Ores.SmeltRecipes()
	require.NotEmpty(t, want)
	for _, w := range want {
		item, meta := w.Input.String(), 0
		_, _ = fmt.Sscanf(item[len("gregtech:gt.metaitem.03:"):], "%d", &meta)
		got, ok := set.Smelt.Recipe(newStack("gregtech:gt.metaitem.03", meta, 1))
		require.True(t, ok, "smelting.yaml has no recipe for %s", item)
		assert.Equal(t, w.Output, got.Output, item)
		assert.Equal(t, w.Count, got.Count, item)
	}
}

func TestParseOresErrors(t *testing.T) {
	base := "block: gregtech:gt.blockores\nraw_ore: {item: gregtech:gt.metaitem.03, offset: 5000}\nsmall_ore_tag: oreSmall\n" +
		"veins: {grid: 3, percentage: 100, attempts: 64, placement_attempts: 8, small_ores_multiplier: 2}\n"
	ok := base + "materials:\n  Copper: {id: 35, tool_quality: 1}\nunplaced: [Gold]\n" +
		"mixes:\n  - {name: a, min_y: 5, max_y: 60, weight: 1, density: 3, size: 24, primary: Copper, secondary: Copper, between: Gold, sporadic: Copper}\n"
	_, err := ParseOres("o.yaml", []byte(ok))
	require.NoError(t, err)
	for name, c := range map[string]struct{ src, want string }{
		"unknown material": {base + "materials: {}\nunplaced: []\nmixes:\n  - {name: a, min_y: 5, max_y: 60, weight: 1, density: 3, size: 24, primary: X, secondary: X, between: X, sporadic: X}\n",
			`material "X" is in neither materials nor unplaced`},
		"low max_y": {base + "materials: {}\nunplaced: [X]\nmixes:\n  - {name: a, min_y: 20, max_y: 25, weight: 1, density: 3, size: 24, primary: X, secondary: X, between: X, sporadic: X}\n",
			"must be at least min_y + 9 (29), got 25"},
		"duplicate id": {base + "materials:\n  A: {id: 35, tool_quality: 1}\n  B: {id: 35, tool_quality: 1}\nunplaced: []\nmixes: []\n",
			"material id 35"},
		"quality": {base + "materials:\n  A: {id: 35, tool_quality: 9}\nunplaced: []\nmixes: []\n",
			"must be within 0..7, got 9"},
		"count without output": {base + "materials:\n  A: {id: 35, tool_quality: 1, count: 2}\nunplaced: []\nmixes: []\n",
			"a count needs smelts_into"},
		"both lists": {base + "materials:\n  A: {id: 35, tool_quality: 1}\nunplaced: [A]\nmixes: []\n",
			"A is in materials too"},
		"missing veins": {"block: gregtech:gt.blockores\nraw_ore: {item: a:b, offset: 5000}\nsmall_ore_tag: oreSmall\nmaterials: {}\nunplaced: []\nmixes: []\n",
			"veins"},
	} {
		_, err := ParseOres("o.yaml", []byte(c.src))
		require.Error(t, err, name)
		located(t, err)
		assert.Contains(t, err.Error(), c.want, name)
		assert.Contains(t, err.Error(), "o.yaml:", name)
	}
}
