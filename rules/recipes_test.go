package rules

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

func TestDefaultRecipes(t *testing.T) {
	book := loadRecipes()
	assert.Same(t, book, loadRecipes())
	assert.Len(t, book.All(), 68)

	// Vanilla's stairs, which GTNH keeps: six blocks in steps make four.
	for item, block := range map[string]string{"minecraft:oak_stairs": "minecraft:planks:0", "minecraft:stone_stairs": "minecraft:cobblestone"} {
		r := book.For(item)
		require.Len(t, r, 1, item)
		assert.Equal(t, 4, r[0].Count, item)
		assert.True(t, r[0].NeedsTable(), item)
		assert.Equal(t, []Ingredient{{Item: game.MustItem(block), Count: 6}}, r[0].Ingredients, item)
	}

	furnace := book.For("minecraft:furnace")
	require.Len(t, furnace, 1)
	assert.True(t, furnace[0].NeedsTable())
	require.Len(t, furnace[0].Ingredients, 2, "GTNH: 6 cobblestone around 3 flint")
	assert.Equal(t, "ore:cobblestone", furnace[0].Ingredients[0].Item.String())
	assert.Equal(t, 6, furnace[0].Ingredients[0].Count)
	assert.Equal(t, "minecraft:flint", furnace[0].Ingredients[1].Item.String())
	assert.Equal(t, 3, furnace[0].Ingredients[1].Count)

	// GTNH's brick chain (NewHorizonsCoreMod, GT5-Unofficial).
	mortar := book.For("gregtech:gt.metatool.01:24")
	require.Len(t, mortar, 1)
	assert.Equal(t, "3x3", mortar[0].Grid)
	assert.Equal(t, []Ingredient{{Item: game.MustItem("minecraft:flint"), Count: 2}, {Item: game.MustItem("ore:stone"), Count: 5}}, mortar[0].Ingredients)
	pulp := book.For("gregtech:gt.metaitem.01:2809")
	require.Len(t, pulp, 1)
	assert.Equal(t, 2, pulp[0].Count, "a log gives 2 wood pulp")
	assert.Equal(t, "ore:craftingToolMortar", pulp[0].Tools[0].String(), "the mortar stays in the grid")
	form := book.For("dreamcraft:item.WoodenBrickForm")
	require.Len(t, form, 1)
	assert.Equal(t, "ore:craftingToolKnife", form[0].Tools[0].String())
	bricks := book.For("dreamcraft:item.UnfiredCokeOvenBrick")
	require.Len(t, bricks, 1)
	assert.Equal(t, 3, bricks[0].Count)
	assert.Equal(t, []Ingredient{{Item: game.MustItem("minecraft:clay_ball"), Count: 3}, {Item: game.MustItem("ore:sand"), Count: 5}}, bricks[0].Ingredients)
	assert.Equal(t, "dreamcraft:item.WoodenBrickForm", bricks[0].Tools[0].String())
	oven := book.For("Railcraft:machine.alpha:7")
	require.Len(t, oven, 1)
	assert.Equal(t, []Ingredient{{Item: game.MustItem("dreamcraft:item.CokeOvenBrick"), Count: 4}}, oven[0].Ingredients, "4 coke oven bricks, 104 for the 26 blocks of an oven")

	// Water for paper before any iron (NewHorizonsCoreMod ScriptGregtech,
	// ScriptIguanaTweaks, ScriptMinecraft; GT5-Unofficial).
	small := book.For("gregtech:gt.metaitem.01:1805")
	require.Len(t, small, 1)
	assert.Equal(t, []Ingredient{{Item: game.MustItem("minecraft:clay_ball"), Count: 1}}, small[0].Ingredients, "one clay ball, one small pile")
	assert.Equal(t, "ore:craftingToolMortar", small[0].Tools[0].String())
	dust := book.For("gregtech:gt.metaitem.01:2805")
	require.Len(t, dust, 1)
	assert.Equal(t, []Ingredient{{Item: game.MustItem("gregtech:gt.metaitem.01:1805"), Count: 4}}, dust[0].Ingredients, "4 small piles make one dust")
	assert.False(t, dust[0].NeedsTable())
	bucket := book.For("IguanaTweaksTConstruct:clayBucketUnfired")
	require.Len(t, bucket, 1)
	assert.Equal(t, []Ingredient{{Item: game.MustItem("ore:dustClay"), Count: 5}}, bucket[0].Ingredients)
	assert.True(t, bucket[0].NeedsTable(), "a fixed 3x3 pattern: only at a crafting table")
	assert.Equal(t, Pattern{{-1, -1, -1}, {0, -1, 0}, {0, 0, 0}}, bucket[0].Shape, "the empty top row is part of the pattern")
	paper := book.For("minecraft:paper")
	require.Len(t, paper, 2, "a clay bucket of water or an iron one")
	for i, back := range []string{"IguanaTweaksTConstruct:clayBucketFired", "minecraft:bucket"} {
		assert.Equal(t, 2, paper[i].Count, "8 wood pulp and a bucket of water make 2 paper")
		assert.Equal(t, "ore:dustWood", paper[i].Ingredients[0].Item.String())
		assert.Equal(t, 8, paper[i].Ingredients[0].Count)
		assert.Equal(t, 1, paper[i].Ingredients[1].Count)
		assert.True(t, paper[i].NeedsTable())
		assert.Equal(t, []string{back}, paper[i].Returns, "the emptied bucket comes back")
		assert.Equal(t, Pattern{{0, 0, 0}, {0, 1, 0}, {0, 0, 0}}, paper[i].Shape, "the bucket in the middle")
	}

	flint := book.For("minecraft:flint")
	require.Len(t, flint, 1, "GTNH: flint is crafted from gravel")
	assert.Equal(t, 1, flint[0].Count)
	assert.Equal(t, "2x2", flint[0].Grid, "three items fit the inventory grid")
	require.Len(t, flint[0].Ingredients, 1)
	assert.Equal(t, "minecraft:gravel", flint[0].Ingredients[0].Item.String())
	assert.Equal(t, 3, flint[0].Ingredients[0].Count, "IguanaTinkerTweaks gravelPerFlint=3")

	planks := book.For("minecraft:planks")
	require.Len(t, planks, 2, "hand and saw recipes, in file order")
	assert.Equal(t, 2, planks[0].Count)
	assert.Empty(t, planks[0].Tools)
	assert.Equal(t, "2x2", planks[0].Grid)
	assert.False(t, planks[0].NeedsTable())
	require.Len(t, planks[0].Ingredients, 1)
	assert.Equal(t, "ore:logWood", planks[0].Ingredients[0].Item.String())
	assert.Equal(t, 1, planks[0].Ingredients[0].Count)
	assert.Equal(t, 4, planks[1].Count)
	require.Len(t, planks[1].Tools, 1)
	assert.Equal(t, "ore:craftingToolSaw", planks[1].Tools[0].String())

	table := book.For("minecraft:crafting_table")
	require.Len(t, table, 1)
	assert.Equal(t, "minecraft:flint", table[0].Ingredients[0].Item.String())
	assert.Equal(t, 2, table[0].Ingredients[0].Count)
	assert.False(t, table[0].NeedsTable())

	chest := book.For("minecraft:chest")
	require.Len(t, chest, 1)
	assert.True(t, chest[0].NeedsTable())
	require.Len(t, chest[0].Ingredients, 3, "GTNH: 4 logs, 4 planks and a flint")
	assert.Equal(t, "ore:logWood", chest[0].Ingredients[0].Item.String())
	assert.Equal(t, 4, chest[0].Ingredients[0].Count)
	assert.Equal(t, 4, chest[0].Ingredients[1].Count)
	assert.Equal(t, "minecraft:flint", chest[0].Ingredients[2].Item.String())

	torches := map[string]int{}
	for _, r := range book.For("minecraft:torch") {
		torches[r.Ingredients[0].Item.String()] = r.Count
	}
	assert.Equal(t, map[string]int{"ore:gemCoal": 3, "ore:gemCharcoal": 2, "ore:fuelCoke": 5, "ore:gemLignite": 1}, torches)
	sticks := book.For("minecraft:stick")
	require.Len(t, sticks, 2)
	assert.True(t, sticks[1].NeedsTable(), "saw over two planks is three rows tall")

	axe := book.For("minecraft:wooden_axe")
	require.Len(t, axe, 1)
	assert.Equal(t, "3x3", axe[0].Grid)

	assert.Empty(t, book.For("minecraft:diamond"))
	assert.Empty(t, book.For("minecraft:planks:0"), "outputs are looked up by exact id")

	// The recipe ingredients match the real items.
	saw := newTool("gregtech:gt.metatool.01", 10, 100, 100)
	assert.True(t, planks[1].Tools[0].Matches(saw))
	assert.True(t, planks[0].Ingredients[0].Item.Matches(newStack("minecraft:log2", 0, 1)))

	// All returns a copy.
	all := book.All()
	all[0].Output = "changed"
	assert.Equal(t, "minecraft:planks", book.All()[0].Output)
}

func TestParseRecipes(t *testing.T) {
	t.Run("defaults", func(t *testing.T) {
		book, err := ParseRecipes("r.yaml", []byte("recipes:\n  - output: a:b\n    ingredients:\n      - item: c:d\n"))
		require.NoError(t, err)
		rs := book.For("a:b")
		require.Len(t, rs, 1)
		assert.Equal(t, 1, rs[0].Count)
		assert.Equal(t, "3x3", rs[0].Grid)
		assert.True(t, rs[0].NeedsTable())
		assert.Equal(t, 1, rs[0].Ingredients[0].Count)
	})
	t.Run("station", func(t *testing.T) {
		book, err := ParseRecipes("r.yaml", []byte("recipes:\n  - output: a:b\n    station: c:table:10\n    ingredients: [{item: c:d}]\n    tools: [\"c:pattern:2\"]\n"))
		require.NoError(t, err)
		rs := book.For("a:b")
		require.Len(t, rs, 1)
		assert.Equal(t, "c:table:10", rs[0].Station)
		assert.Empty(t, rs[0].Grid, "a station recipe has no grid")
		assert.True(t, rs[0].AtStation())
		assert.False(t, rs[0].NeedsTable(), "made at its station, not at a crafting table")
		assert.True(t, book.IsStation("c:table", 10))
		assert.False(t, book.IsStation("c:table", 0), "the station's metadata counts")
		assert.False(t, book.IsStation("c:d", 0))
		_, _, fits := rs[0].Layout(3)
		assert.False(t, fits, "no crafting grid takes a station recipe")
		grid := make([]game.ItemStack, 9)
		grid[0] = game.ItemStack{ID: "c:d", Count: 1}
		grid[1] = game.ItemStack{ID: "c:pattern", Meta: 2, Count: 1}
		assert.False(t, rs[0].Matches(grid, 3), "a crafting table does not make a station recipe")
		_, ok := book.Match(grid, 3)
		assert.False(t, ok)
	})
	t.Run("empty", func(t *testing.T) {
		for _, src := range []string{"", "recipes: []\n", "recipes:\n"} {
			book, err := ParseRecipes("r.yaml", []byte(src))
			require.NoError(t, err, "%q", src)
			assert.Empty(t, book.All())
		}
	})

	type wantErr struct {
		line, col int
		field     string
		msg       string
	}
	tests := []struct {
		name string
		src  string
		want []wantErr
	}{
		{"unknown top-level key", "recipe: []\n",
			[]wantErr{{1, 1, "recipe", `unknown field "recipe" (did you mean "recipes"?)`}}},
		{"missing output and ingredients", "recipes:\n  - count: 1\n",
			[]wantErr{
				{2, 5, "recipes[0].output", "required field is missing"},
				{2, 5, "recipes[0].ingredients", "required field is missing"},
			}},
		{"bad output id", "recipes:\n  - output: planks\n    ingredients: [{item: ore:logWood}]\n",
			[]wantErr{{2, 13, "recipes[0].output", `"planks" is not an id`}}},
		{"unknown recipe key", "recipes:\n  - output: a:b\n    ingredient: []\n    ingredients: [{item: c:d}]\n",
			[]wantErr{{3, 5, "recipes[0].ingredient", `did you mean "ingredients"?`}}},
		{"count out of range", "recipes:\n  - output: a:b\n    count: 65\n    ingredients: [{item: c:d}]\n",
			[]wantErr{{3, 12, "recipes[0].count", "count must be 1..64, got 65"}}},
		{"bad grid", "recipes:\n  - output: a:b\n    grid: 4x4\n    ingredients: [{item: c:d}]\n",
			[]wantErr{{3, 11, "recipes[0].grid", `grid must be 2x2 or 3x3, got "4x4"`}}},
		{"bad ingredient item", "recipes:\n  - output: a:b\n    ingredients:\n      - item: \"ore:\"\n",
			[]wantErr{{4, 15, "recipes[0].ingredients[0].item", "ore-dictionary name expected"}}},
		{"ingredient count", "recipes:\n  - output: a:b\n    ingredients:\n      - {item: c:d, count: 10}\n",
			[]wantErr{
				{4, 28, "recipes[0].ingredients[0].count", "count must be 1..9, got 10"},
				{4, 7, "recipes[0].ingredients", "10 ingredients do not fit a 3x3 grid"},
			}},
		{"too many for 2x2", "recipes:\n  - output: a:b\n    grid: 2x2\n    ingredients:\n      - {item: c:d, count: 3}\n      - {item: e:f, count: 2}\n",
			[]wantErr{{5, 7, "recipes[0].ingredients", "5 ingredients do not fit a 2x2 grid"}}},
		{"bad tool", "recipes:\n  - output: a:b\n    ingredients: [{item: c:d}]\n    tools: [saw]\n",
			[]wantErr{{4, 12, "recipes[0].tools[0]", `"saw" is not an item`}}},
		{"bad return", "recipes:\n  - output: a:b\n    ingredients: [{item: c:d}]\n    returns: [bucket, \"ore:bucketEmpty\"]\n",
			[]wantErr{
				{4, 14, "recipes[0].returns[0]", `"bucket" is not an id`},
				{4, 14, "recipes[0].returns[1]", "one item, not a class of items"},
			}},
		{"station and grid", "recipes:\n  - output: a:b\n    grid: 2x2\n    station: c:e\n    ingredients: [{item: c:d}]\n",
			[]wantErr{{4, 14, "recipes[0].station", "a recipe made at a station has no grid (grid 2x2 given)"}}},
		{"station not a block", "recipes:\n  - output: a:b\n    station: ore:workbench\n    ingredients: [{item: c:d}]\n",
			[]wantErr{{3, 14, "recipes[0].station", "a station is one block, not a class of items"}}},
		{"station bad id", "recipes:\n  - output: a:b\n    station: table\n    ingredients: [{item: c:d}]\n",
			[]wantErr{{3, 14, "recipes[0].station", `"table" is not an id`}}},
		{"station with shape", "recipes:\n  - output: a:b\n    station: c:e\n    ingredients: [{item: c:d}]\n    shape: [A]\n",
			[]wantErr{{5, 12, "recipes[0].shape", "a recipe made at a station has no shape"}}},
		{"station inputs", "recipes:\n  - output: a:b\n    station: c:e\n    ingredients:\n      - {item: c:d, count: 9}\n      - {item: e:f, count: 1}\n",
			[]wantErr{{5, 7, "recipes[0].ingredients", "10 ingredients: a station takes at most 9"}}},
		{"ingredient missing item", "recipes:\n  - output: a:b\n    ingredients:\n      - count: 2\n",
			[]wantErr{{4, 9, "recipes[0].ingredients[0].item", "required field is missing"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			book, err := ParseRecipes("r.yaml", []byte(tc.src))
			require.Error(t, err)
			assert.Nil(t, book)
			var es strictyaml.Errors
			require.True(t, errors.As(err, &es))
			require.Len(t, es, len(tc.want), "%v", err)
			for i, w := range tc.want {
				assert.Equal(t, "r.yaml", es[i].File)
				assert.Equal(t, w.line, es[i].Line, "line of %v", es[i])
				assert.Equal(t, w.col, es[i].Column, "column of %v", es[i])
				assert.Equal(t, w.field, es[i].Field)
				assert.Contains(t, es[i].Msg, w.msg)
			}
		})
	}

	t.Run("syntax error", func(t *testing.T) {
		_, err := ParseRecipes("r.yaml", []byte("recipes:\n  - output: a:b\n    count: a: b\n"))
		var e *strictyaml.Error
		require.True(t, errors.As(err, &e))
		assert.Equal(t, 3, e.Line)
	})
}

// TestDefaultRecipesQuestGates pins the recipes of the first quest line's
// gates and of Tier 0's Tinkers' tables to their GTNH 2.8.4 sources
// (config/recipes.yaml names them): output, count, grid, every ingredient
// with its count, the tools and the shape.
func TestDefaultRecipesQuestGates(t *testing.T) {
	book := loadRecipes()
	oneLine := func(r Recipe) string {
		var in []string
		for _, i := range r.Ingredients {
			in = append(in, fmt.Sprintf("%d %s", i.Count, i.Item))
		}
		var tools []string
		for _, tl := range r.Tools {
			tools = append(tools, tl.String())
		}
		return fmt.Sprintf("%d %s %s: %s; tools %s; shape %s", r.Count, r.Output, r.Grid,
			strings.Join(in, ", "), strings.Join(tools, ", "), r.Shape)
	}
	for _, want := range []string{
		// Vanilla RecipesTools / RecipesWeapons, kept by GTNH.
		"1 minecraft:wooden_shovel 3x3: 1 ore:plankWood, 2 ore:stickWood; tools ; shape A/B/B",
		"1 minecraft:wooden_hoe 3x3: 2 ore:plankWood, 2 ore:stickWood; tools ; shape AA/.B/.B",
		"1 minecraft:wooden_sword 3x3: 2 ore:plankWood, 1 ore:stickWood; tools ; shape A/A/B",
		// GT5-Unofficial ProcessingToolHead: the wooden soft mallet.
		"1 gregtech:gt.metatool.01:14 3x3: 6 ore:plankWood, 1 ore:stickWood; tools ; shape AA./AAB/AA.",
		// NewHorizonsCoreMod ScriptMinecraft: fence and wool from string.
		"1 minecraft:fence 3x3: 6 ore:stickWood, 3 minecraft:planks:0; tools ; shape ABA/ABA/ABA",
		"1 minecraft:wool 3x3: 5 minecraft:string; tools ; shape A.A/.A./A.A",
		// NewHorizonsCoreMod ScriptEFR: the white bed.
		"1 etfuturum:white_bed 3x3: 3 minecraft:carpet:0, 3 ore:plankWood, 2 ore:fenceWood; tools ore:craftingToolSoftMallet; shape AAA/BBB/CDC",
		// NewHorizonsCoreMod ScriptTinkersConstruct: the tables and the barricade.
		"1 TConstruct:ToolStationBlock 3x3: 4 ore:stickWood, 1 TConstruct:blankPattern:0, 1 minecraft:crafting_table; tools ore:craftingToolSoftMallet; shape ABA/ACA/.D.",
		"1 TConstruct:ToolStationBlock:1 3x3: 3 ore:stickWood, 1 TConstruct:blankPattern:0, 2 TConstruct:trap.barricade.oak; tools ore:craftingToolSoftMallet; shape ABA/CAC/.D.",
		"1 TConstruct:ToolStationBlock:5 3x3: 4 ore:stickWood, 1 TConstruct:blankPattern:0, 1 minecraft:chest; tools ore:craftingToolSoftMallet; shape ABA/ACA/.D.",
		"1 TConstruct:ToolStationBlock:10 3x3: 3 ore:stickWood, 1 TConstruct:blankPattern:0, 2 ore:fenceWood; tools ore:craftingToolSoftMallet; shape ABA/CAC/.D.",
		"1 TConstruct:trap.barricade.oak 3x3: 4 minecraft:log:0, 1 minecraft:string; tools ; shape .A./ABA/.A.",
	} {
		output := strings.Fields(want)[1]
		rs := book.For(output)
		require.Len(t, rs, 1, output)
		assert.Equal(t, want, oneLine(rs[0]))
	}
	// NewHorizonsCoreMod ScriptMinecraft: carpet from two wool by hand,
	// three with a saw; the plain one first, so a player without a saw
	// crafts it.
	carpets := book.For("minecraft:carpet")
	require.Len(t, carpets, 2)
	assert.Equal(t, "1 minecraft:carpet 2x2: 2 minecraft:wool:0; tools ; shape AA", oneLine(carpets[0]))
	assert.Equal(t, "3 minecraft:carpet 3x3: 2 minecraft:wool:0; tools ore:craftingToolSaw; shape AAB", oneLine(carpets[1]))
}

// TestDefaultRecipesTinkersTools pins the flint tools' chain to its GTNH
// 2.8.4 sources (TinkersConstruct 1.13.57-GTNH, IguanaTweaksTConstruct
// 2.6.6; config/recipes.yaml names the files): the station each is made
// at, what it uses up and the pattern that stays.
func TestDefaultRecipesTinkersTools(t *testing.T) {
	book := loadRecipes()
	const stencil, parts, tools = "TConstruct:ToolStationBlock:10", "TConstruct:ToolStationBlock:1", "TConstruct:ToolStationBlock"
	type ing = Ingredient
	item := game.MustItem
	for _, c := range []struct {
		output, station string
		ingredients     []Ingredient
		tools           []string
		// before: the ingredients of the recipes listed first (the
		// iron heads "Upgrade 2.0" gives), each at the same station.
		before [][]Ingredient
	}{
		{"TConstruct:woodPattern:1", stencil, []ing{{item("TConstruct:blankPattern:0"), 1}}, nil, nil},
		{"TConstruct:woodPattern:2", stencil, []ing{{item("TConstruct:blankPattern:0"), 1}}, nil, nil},
		{"TConstruct:woodPattern:3", stencil, []ing{{item("TConstruct:blankPattern:0"), 1}}, nil, nil},
		{"TConstruct:woodPattern:4", stencil, []ing{{item("TConstruct:blankPattern:0"), 1}}, nil, nil},
		{"TConstruct:woodPattern:9", stencil, []ing{{item("TConstruct:blankPattern:0"), 1}}, nil, nil},
		{"TConstruct:pickaxeHead:3", parts, []ing{{item("minecraft:flint"), 1}}, []string{"TConstruct:woodPattern:2"}, nil},
		{"TConstruct:shovelHead:3", parts, []ing{{item("minecraft:flint"), 1}}, []string{"TConstruct:woodPattern:3"}, nil},
		{"TConstruct:hatchetHead:3", parts, []ing{{item("minecraft:flint"), 1}}, []string{"TConstruct:woodPattern:4"}, nil},
		{"TConstruct:binding", parts, []ing{{item("minecraft:stick"), 1}}, []string{"TConstruct:woodPattern:9"}, nil},
		{"TConstruct:pickaxe", tools, []ing{{item("TConstruct:pickaxeHead:3"), 1}, {item("ore:stickWood"), 1}, {item("TConstruct:binding"), 1}}, nil,
			[][]ing{{{item("TConstruct:pickaxeHead:2"), 1}, {item("ore:stickWood"), 1}, {item("TConstruct:binding"), 1}}}},
		{"TConstruct:hatchet", tools, []ing{{item("TConstruct:hatchetHead:3"), 1}, {item("ore:stickWood"), 1}}, nil,
			[][]ing{{{item("TConstruct:hatchetHead:2"), 1}, {item("ore:stickWood"), 1}}}},
		{"TConstruct:shovel", tools, []ing{{item("TConstruct:shovelHead:3"), 1}, {item("ore:stickWood"), 1}}, nil,
			[][]ing{{{item("TConstruct:shovelHead:2"), 1}, {item("ore:stickWood"), 1}}}},
		{"TConstruct:woodPattern:12", stencil, []ing{{item("TConstruct:blankPattern:0"), 1}}, nil, nil},
		{"TConstruct:knifeBlade:3", parts, []ing{{item("minecraft:flint"), 1}}, []string{"TConstruct:woodPattern:12"}, nil},
		{"TConstruct:ThrowingKnife", tools, []ing{{item("TConstruct:knifeBlade:3"), 1}, {item("ore:stickWood"), 1}}, nil, nil},
	} {
		rs := book.For(c.output)
		require.Len(t, rs, 1+len(c.before), c.output)
		for i, want := range c.before {
			assert.Equal(t, want, rs[i].Ingredients, c.output)
			assert.Equal(t, c.station, rs[i].Station, c.output)
		}
		r := rs[len(c.before)]
		assert.Equal(t, c.station, r.Station, c.output)
		assert.Equal(t, 1, r.Count, c.output)
		assert.Equal(t, c.ingredients, r.Ingredients, c.output)
		var ts []string
		for _, m := range r.Tools {
			ts = append(ts, m.String())
		}
		assert.Equal(t, c.tools, ts, c.output)
		assert.False(t, r.NeedsTable(), c.output)
	}
	assert.Equal(t, []string{"TConstruct:toolShard:3"}, book.For("TConstruct:knifeBlade:3")[0].Returns, "an odd cost gives a flint shard back")
	// Each station is a block some recipe makes (Tinker-Time's tables).
	for _, st := range []string{stencil, parts, tools} {
		require.Len(t, book.For(st), 1, st)
	}
	assert.True(t, book.IsStation("TConstruct:ToolStationBlock", 0))
	assert.True(t, book.IsStation("TConstruct:ToolStationBlock", 1))
	assert.True(t, book.IsStation("TConstruct:ToolStationBlock", 10))
	assert.False(t, book.IsStation("TConstruct:ToolStationBlock", 5), "the pattern chest makes nothing")
	assert.False(t, book.IsStation("minecraft:crafting_table", 0), "the crafting table is a grid")
}
