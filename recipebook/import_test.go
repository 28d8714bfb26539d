package recipebook

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// find returns the one recipe of a kind whose first output is item.
func find(t *testing.T, b *Book, k Kind, item string) *Recipe {
	t.Helper()
	var got []*Recipe
	for _, r := range b.For(item) {
		if r.Kind == k {
			got = append(got, r)
		}
	}
	require.Len(t, got, 1, "%s recipes for %s", k, item)
	return got[0]
}

// layout renders a shaped recipe's cells with each input's first option.
func layout(r *Recipe) []string {
	var rows []string
	for y := 0; y < int(r.Height); y++ {
		var cells []string
		for x := 0; x < int(r.Width); x++ {
			c := r.Cells[y*int(r.Width)+x]
			if c < 0 {
				cells = append(cells, "_")
				continue
			}
			name := r.Inputs[c].Options[0]
			if r.Inputs[c].Tool {
				name = "tool " + name
			}
			cells = append(cells, name)
		}
		rows = append(rows, strings.Join(cells, " | "))
	}
	return rows
}

func TestGuineaUtilDirectory(t *testing.T) {
	b, s, err := Import("testdata/guineautil", FormatAuto)
	require.NoError(t, err)
	assert.Equal(t, FormatGuineaUtil, s.Format)
	assert.Equal(t, 5, s.Files)
	assert.Equal(t, map[Kind]int{Shaped: 4, Shapeless: 4, Smelting: 2, Machine: 2}, s.Kept)
	assert.Equal(t, map[string]int{
		"GregTech display-only (fake) recipe": 1,
		"handler not imported: Brewing":       1,
	}, s.Skipped)
	assert.Equal(t, 4, s.Tools)
	assert.Empty(t, s.Lacks)

	t.Run("shaped 2x2 from NEI positions, logs as their shared ore entry", func(t *testing.T) {
		r := find(t, b, Shaped, "minecraft:crafting_table")
		assert.Equal(t, []string{"minecraft:flint:0 | minecraft:flint:0", "ore:logWood | ore:logWood"}, layout(r))
		assert.Equal(t, "2x2", r.Grid())
		assert.False(t, r.ShapeGuessed)
		assert.Equal(t, []int32{2, 2}, []int32{r.Inputs[0].Count, r.Inputs[1].Count})
	})
	t.Run("shaped 3x3 keeps its empty cells", func(t *testing.T) {
		r := find(t, b, Shaped, "minecraft:wooden_pickaxe")
		assert.Equal(t, []string{
			"ore:plankWood | ore:plankWood | ore:plankWood",
			"_ | minecraft:stick:0 | _",
			"_ | minecraft:stick:0 | _",
		}, layout(r))
		assert.Equal(t, "3x3", r.Grid())
	})
	t.Run("the wooden brick form stays in the grid", func(t *testing.T) {
		r := find(t, b, Shaped, "dreamcraft:item.UnfiredCokeOvenBrick")
		assert.Equal(t, []string{
			"minecraft:clay_ball:0 | minecraft:clay_ball:0 | minecraft:clay_ball:0",
			"ore:sand | tool dreamcraft:item.WoodenBrickForm | ore:sand",
			"ore:sand | ore:sand | ore:sand",
		}, layout(r))
		assert.Equal(t, int32(3), r.Outputs[0].Count)
	})
	t.Run("a shape placed off the corner is trimmed; the saw is a tool", func(t *testing.T) {
		r := find(t, b, Shaped, "minecraft:planks")
		assert.Equal(t, []string{"tool ore:craftingToolSaw", "minecraft:log:0"}, layout(r))
		assert.Equal(t, "2x2", r.Grid())
		assert.Equal(t, int32(4), r.Outputs[0].Count)
	})
	t.Run("shapeless merges equal inputs", func(t *testing.T) {
		r := find(t, b, Shapeless, "minecraft:flint")
		assert.Equal(t, []Input{{Options: []string{"minecraft:gravel:0"}, Count: 3}}, r.Inputs)
		r = find(t, b, Shapeless, "Railcraft:machine.alpha:7")
		assert.Equal(t, []Input{{Options: []string{"dreamcraft:item.CokeOvenBrick:0"}, Count: 4}}, r.Inputs)
		assert.Equal(t, "2x2", r.Grid())
	})
	t.Run("a knife named by its ore entry is a tool", func(t *testing.T) {
		r := find(t, b, Shapeless, "dreamcraft:item.WoodenBrickForm")
		assert.Equal(t, []Input{
			{Options: []string{"ore:craftingToolKnife"}, Count: 1, Tool: true},
			{Options: []string{"TConstruct:blankPattern:0"}, Count: 1},
		}, r.Inputs)
	})
	t.Run("smelting, read although handlerID follows the recipes", func(t *testing.T) {
		r := find(t, b, Smelting, "dreamcraft:item.CokeOvenBrick")
		assert.Equal(t, []Input{{Options: []string{"dreamcraft:item.UnfiredCokeOvenBrick:0"}, Count: 1}}, r.Inputs)
	})
	t.Run("machine recipes keep fluids, chances and unused inputs", func(t *testing.T) {
		r := find(t, b, Machine, "gregtech:gt.metaitem.01:2035")
		assert.Equal(t, "Alloy Smelter", r.Machine)
		assert.Equal(t, int32(100), r.Duration)
		assert.Equal(t, int32(30), r.EUt)
		assert.Equal(t, Input{Options: []string{"gregtech:gt.integrated_circuit:1"}, Count: 1, Tool: true}, r.Inputs[0])
		assert.Equal(t, int32(7500), r.Outputs[0].Chance)
		assert.Equal(t, []Fluid{{Name: "water", Amount: 1000}}, r.FluidInputs)
		assert.Equal(t, []Fluid{{Name: "steam", Amount: 160}}, r.FluidOutputs)
		r = find(t, b, Machine, "dreamcraft:item.CokeOvenBrick")
		assert.Equal(t, []string{"ore:sand"}, r.Inputs[0].Options)
	})
}

func TestRecEx(t *testing.T) {
	b, s, err := Import("testdata/recex/recex_small.json", FormatAuto)
	require.NoError(t, err)
	assert.Equal(t, FormatRecEx, s.Format)
	assert.Equal(t, map[Kind]int{Shaped: 5, Shapeless: 1, Smelting: 1, Machine: 2}, s.Kept)
	assert.Equal(t, map[string]int{"disabled machine recipe": 1}, s.Skipped)
	assert.Equal(t, 2, s.ShapesGuessed)
	assert.Equal(t, 3, s.Tools)
	assert.Equal(t, []string{lackShapelessOre, lackWidth, lackChances}, s.Lacks)

	t.Run("nine cells with an empty row and column are a 2x2 shape", func(t *testing.T) {
		r := find(t, b, Shaped, "minecraft:crafting_table")
		assert.Equal(t, []string{"minecraft:flint:0 | minecraft:flint:0", "ore:logWood | ore:logWood"}, layout(r))
		assert.False(t, r.ShapeGuessed)
	})
	t.Run("two cells are guessed as a column", func(t *testing.T) {
		r := find(t, b, Shaped, "minecraft:stick")
		assert.Equal(t, []string{"minecraft:planks:0", "minecraft:planks:0"}, layout(r))
		assert.True(t, r.ShapeGuessed)
		r = find(t, b, Shaped, "minecraft:planks")
		assert.Equal(t, []string{"tool ore:craftingToolSaw", "minecraft:log:0"}, layout(r))
	})
	t.Run("a plain item that is a known tool", func(t *testing.T) {
		r := find(t, b, Shaped, "dreamcraft:item.UnfiredCokeOvenBrick")
		assert.Equal(t, "ore:sand | tool dreamcraft:item.WoodenBrickForm | ore:sand", layout(r)[1])
	})
	t.Run("vanilla shapeless", func(t *testing.T) {
		r := find(t, b, Shapeless, "minecraft:flint")
		assert.Equal(t, []Input{{Options: []string{"minecraft:gravel:0"}, Count: 3}}, r.Inputs)
	})
	t.Run("smelting and machines", func(t *testing.T) {
		find(t, b, Smelting, "dreamcraft:item.CokeOvenBrick")
		r := find(t, b, Machine, "minecraft:iron_block")
		assert.Equal(t, Input{Options: []string{"gregtech:gt.integrated_circuit:1"}, Count: 1, Tool: true}, r.Inputs[0])
		assert.Equal(t, []Fluid{{Name: "molten.iron", Amount: 144}}, r.FluidInputs)
		assert.Equal(t, int32(ChanceAlways), r.Outputs[0].Chance)
	})
	t.Run("no smelting source is reported", func(t *testing.T) {
		im := NewImporter(FormatRecEx)
		require.NoError(t, im.Read("x.json", strings.NewReader(`{"sources":[{"type":"shapeless","recipes":[]}]}`), FormatRecEx))
		_, s := im.Result()
		assert.Contains(t, s.Lacks, lackSmelting)
		assert.NotContains(t, s.Lacks, lackChances)
	})
}

func TestRecExShapes(t *testing.T) {
	for _, tc := range []struct {
		n           int
		w, h        int
		guessed, ok bool
	}{
		{1, 1, 1, false, true}, {2, 1, 2, true, true}, {3, 1, 3, true, true}, {4, 2, 2, false, true},
		{6, 3, 2, true, true}, {9, 3, 3, false, true}, {0, 0, 0, false, false}, {5, 0, 0, false, false},
		{7, 0, 0, false, false}, {8, 0, 0, false, false}, {10, 0, 0, false, false},
	} {
		w, h, g, ok := rxShape(tc.n)
		assert.Equal(t, []any{tc.w, tc.h, tc.guessed, tc.ok}, []any{w, h, g, ok}, "%d cells", tc.n)
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct{ head, want string }{
		{` {"sources":[`, FormatRecEx},
		{`{"type":"Smelting","handlerID":"x","recipes":[]}`, FormatGuineaUtil},
		{`{"recipes":[{"input":`, FormatGuineaUtil},
		{`[1,2,3]`, ""},
		{`{"items":[]}`, ""},
	} {
		got, err := Sniff([]byte(tc.head))
		if tc.want == "" {
			assert.Error(t, err, tc.head)
			continue
		}
		assert.NoError(t, err, tc.head)
		assert.Equal(t, tc.want, got, tc.head)
	}
}

const (
	guTable  = `{"name":"minecraft:crafting_table","damage":0,"size":1}`
	guFlint  = `{"name":"minecraft:flint","damage":0,"size":1}`
	guShaped = `"handlerID":"codechicken.nei.recipe.ShapedRecipeHandler"`
)

// guOne is a shaped GuineaUtil dump of one recipe with the given inputs.
func guOne(inputs string) string {
	return `{` + guShaped + `,"type":"Shaped Crafting","recipes":[{"outputs":[` + guTable + `],"inputs":[` + inputs + `]}]}`
}

// TestMalformedDumps: a broken document is an error naming the file and
// the byte; a recipe with a bad value is skipped and counted under its
// reason, and the rest are kept.
func TestMalformedDumps(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	for _, tc := range []struct {
		name, format, doc string
		err               string // an error containing this, or
		skipped           string // one recipe skipped for this reason
	}{
		{name: "truncated", format: FormatGuineaUtil, doc: guOne(`{"stack":[` + guFlint + `],"relx":25`), err: "dump.json: at byte"},
		{name: "truncated recex", format: FormatRecEx, doc: `{"sources":[{"type":"shaped","recipes":[{"iI":[`, err: "unexpected EOF"},
		{name: "empty file", format: FormatGuineaUtil, doc: ``, err: "unexpected EOF"},
		{name: "not an object", format: FormatGuineaUtil, doc: `[1]`, err: "expected an object"},
		{name: "recipes not a list", format: FormatGuineaUtil, doc: `{"recipes":5}`, err: "recipes: expected an array"},
		{name: "type not a string", format: FormatGuineaUtil, doc: `{"type":{"a":1},"recipes":[]}`, err: "type: expected a string"},
		{name: "sources not a list", format: FormatRecEx, doc: `{"sources":{}}`, err: "sources: expected an array"},
		{name: "data after the end", format: FormatRecEx, doc: `{"sources":[]} {}`, err: "data after the end"},
		{name: "deep nesting in an unknown key", format: FormatRecEx, doc: `{"x":` + deep + `,"sources":[]}`},
		{name: "no sources", format: FormatRecEx, doc: `{"x":{"a":{"a":1}}}`, err: `not a RecEx dump: no "sources"`},
		{name: "no recipes", format: FormatGuineaUtil, doc: `{"type":"Smelting","handlerID":"x"}`, err: `not a GuineaUtil dump: no "recipes"`},
		{name: "null root", format: FormatGuineaUtil, doc: `null`, err: `not a GuineaUtil dump`},
		{name: "deep nesting in a recipe", format: FormatGuineaUtil, doc: `{"recipes":[{"inputs":` + deep + `}]}`, err: "exceeded max depth"},
		{name: "wrong type in a recipe", format: FormatGuineaUtil, doc: guOne(`{"stack":[{"name":"minecraft:flint","size":"one"}],"relx":25,"rely":6}`), skipped: "a field of the wrong type"},
		{name: "number too large for a count", format: FormatGuineaUtil, doc: guOne(`{"stack":[` + guFlint + `],"relx":1e300,"rely":6}`), skipped: "a field of the wrong type"},
		{name: "huge count", format: FormatGuineaUtil, doc: `{` + guShaped + `,"recipes":[{"outputs":[{"name":"minecraft:stick","size":100}],"inputs":[{"stack":[` + guFlint + `],"relx":25,"rely":6}]}]}`, skipped: "invalid: count: count must be 1..64"},
		{name: "count past 32 bits", format: FormatGuineaUtil, doc: `{` + guShaped + `,"recipes":[{"outputs":[{"name":"minecraft:stick","size":4294967297}],"inputs":[{"stack":[` + guFlint + `],"relx":25,"rely":6}]}]}`, skipped: "a number out of range"},
		{name: "zero count", format: FormatGuineaUtil, doc: `{` + guShaped + `,"recipes":[{"outputs":[{"name":"minecraft:stick","size":0}],"inputs":[{"stack":[` + guFlint + `],"relx":25,"rely":6}]}]}`, skipped: "invalid: count: count must be 1..64"},
		{name: "empty id", format: FormatGuineaUtil, doc: guOne(`{"stack":[{"name":"","size":1}],"relx":25,"rely":6}`), skipped: "an item with an empty id"},
		{name: "id carrying a meta of its own", format: FormatGuineaUtil, doc: guOne(`{"stack":[{"name":"minecraft:wool:3","damage":32767,"size":1}],"relx":25,"rely":6}`), skipped: "an item id that is not modid:name"},
		{name: "id without a mod", format: FormatGuineaUtil, doc: guOne(`{"stack":[{"name":"flint","size":1}],"relx":25,"rely":6}`), skipped: "an item id that is not modid:name"},
		{name: "ingredient with no item", format: FormatGuineaUtil, doc: guOne(`{"stack":[],"relx":25,"rely":6}`), skipped: "an ingredient with no item"},
		{name: "cell outside the grid", format: FormatGuineaUtil, doc: guOne(`{"stack":[` + guFlint + `],"relx":79,"rely":6}`), skipped: "a cell outside the 3x3 grid"},
		{name: "cell between cells", format: FormatGuineaUtil, doc: guOne(`{"stack":[` + guFlint + `],"relx":30,"rely":6}`), skipped: "a cell outside the 3x3 grid"},
		{name: "two items in a cell", format: FormatGuineaUtil, doc: guOne(`{"stack":[` + guFlint + `],"relx":25,"rely":6},{"stack":[` + guFlint + `],"relx":25,"rely":6}`), skipped: "two ingredients in one cell"},
		{name: "shaped without positions", format: FormatGuineaUtil, doc: guOne(`{"stack":[` + guFlint + `]}`), skipped: "a shaped ingredient without its grid position"},
		{name: "no output", format: FormatGuineaUtil, doc: `{` + guShaped + `,"recipes":[{"outputs":null,"inputs":[]}]}`, skipped: "a crafting recipe without an output"},
		{name: "meta out of range", format: FormatRecEx, doc: `{"sources":[{"type":"shapeless","recipes":[{"iI":[{"a":1,"m":40000,"id":"minecraft:wool"}],"o":{"a":1,"m":0,"id":"minecraft:string"}}]}]}`, skipped: "an item's metadata out of range"},
		{name: "five cells", format: FormatRecEx, doc: `{"sources":[{"type":"shaped","recipes":[{"iI":[null,null,null,null,{"a":1,"m":0,"id":"minecraft:stone"}],"o":{"a":1,"m":0,"id":"minecraft:stone_button"}}]}]}`, skipped: "a shape whose cell count fits no grid"},
		{name: "negative machine time", format: FormatRecEx, doc: `{"sources":[{"type":"gregtech","machines":[{"n":"Macerator","recs":[{"en":true,"dur":-5,"eut":2,"iI":[{"a":1,"m":0,"id":"minecraft:stone"}],"iO":[{"a":1,"m":0,"id":"minecraft:cobblestone"}]}]}]}]}`, skipped: "invalid: duration: duration must not be negative"},
		{name: "unnamed machine", format: FormatRecEx, doc: `{"sources":[{"type":"gregtech","machines":[{"recs":[{"en":true,"dur":5,"eut":2,"iI":[{"a":1,"m":0,"id":"minecraft:stone"}],"iO":[{"a":1,"m":0,"id":"minecraft:cobblestone"}]}]}]}]}`, skipped: "a machine without a name"},
		{name: "unknown source type", format: FormatRecEx, doc: `{"sources":[{"type":"thaumcraft","recipes":[{"iI":[],"o":null}]}]}`, skipped: "source type not imported: thaumcraft"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			im := NewImporter(tc.format)
			err := im.Read("dump.json", strings.NewReader(tc.doc), tc.format)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				assert.Contains(t, err.Error(), "dump.json")
				return
			}
			require.NoError(t, err)
			b, s := im.Result()
			if tc.skipped == "" {
				assert.Empty(t, s.Skipped)
				return
			}
			assert.Empty(t, b.Recipes)
			assert.Equal(t, map[string]int{tc.skipped: 1}, s.Skipped)
		})
	}
}

func TestImportErrors(t *testing.T) {
	_, _, err := Import("testdata/guineautil", "xml")
	assert.ErrorContains(t, err, `unknown format "xml"`)
	_, _, err = Import("testdata/guineautil", FormatRecEx)
	assert.ErrorContains(t, err, "a RecEx dump is one file")
	_, _, err = Import("testdata/nothing-here.json", FormatAuto)
	assert.Error(t, err)
	_, _, err = Import("testdata", FormatAuto)
	assert.ErrorContains(t, err, "no .json files")
}

func TestRecipeString(t *testing.T) {
	b, _, err := Import("testdata/guineautil", FormatAuto)
	require.NoError(t, err)
	for _, tc := range []struct {
		k          Kind
		item, want string
	}{
		{Shaped, "minecraft:crafting_table", "minecraft:crafting_table ×1 ← shaped 2x2 [AA/BB] A=minecraft:flint:0 B=ore:logWood"},
		{Shaped, "minecraft:planks", "minecraft:planks ×4 ← shaped 2x2 [A/B] A=ore:craftingToolSaw (tool) B=minecraft:log:0"},
		{Shapeless, "minecraft:flint", "minecraft:flint ×1 ← shapeless 2x2: 3 minecraft:gravel:0"},
		{Smelting, "minecraft:stone", "minecraft:stone ×1 ← furnace: 1 minecraft:cobblestone:0"},
		{Machine, "gregtech:gt.metaitem.01:2035", "gregtech:gt.metaitem.01:2035 ×1 (75%) + 160 mB steam ← Alloy Smelter (100 t, 30 EU/t): 1 gregtech:gt.integrated_circuit:1 (tool), 1 gregtech:gt.metaitem.01:11035, 1000 mB water"},
	} {
		assert.Equal(t, tc.want, find(t, b, tc.k, tc.item).String())
	}
}

// TestGrid: a recipe that fits the inventory's 2x2 grid, or needs a table.
func TestGrid(t *testing.T) {
	shaped := func(w, h uint8) *Recipe { return &Recipe{Kind: Shaped, Width: w, Height: h} }
	shapeless := func(n int32) *Recipe { return &Recipe{Kind: Shapeless, Inputs: []Input{{Count: n}}} }
	for _, tc := range []struct {
		r    *Recipe
		want string
	}{
		{shaped(1, 1), "2x2"}, {shaped(2, 2), "2x2"}, {shaped(1, 2), "2x2"},
		{shaped(3, 1), "3x3"}, {shaped(1, 3), "3x3"}, {shaped(3, 2), "3x3"},
		{shapeless(4), "2x2"}, {shapeless(5), "3x3"}, {shapeless(1), "2x2"},
		{&Recipe{Kind: Smelting}, "3x3"},
	} {
		assert.Equal(t, tc.want, tc.r.Grid(), "%v %dx%d %v", tc.r.Kind, tc.r.Width, tc.r.Height, tc.r.Inputs)
	}
}

func TestKnownTools(t *testing.T) {
	for name, want := range map[string]bool{
		"dreamcraft:item.WoodenBrickForm":   true,
		"dreamcraft:item.WoodenBrickForm:0": true,
		"gregtech:gt.metatool.01:34":        true,
		"gregtech:gt.metatool.01:24":        true,
		"gregtech:gt.metatool.01:10":        false,
		"gregtech:gt.metatool.01":           false,
		"minecraft:stick:0":                 false,
	} {
		assert.Equal(t, want, isKnownTool(name), name)
	}
}
