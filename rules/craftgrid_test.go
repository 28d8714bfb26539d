package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
)

// gridOf builds a grid from item ids ("" for an empty cell).
func gridOf(ids ...string) []game.ItemStack {
	out := make([]game.ItemStack, len(ids))
	for i, id := range ids {
		if id != "" {
			name, meta, _ := game.SplitID(id)
			out[i] = Default().Stack(name, max(meta, 0), 1)
		}
	}
	return out
}

func TestParsePattern(t *testing.T) {
	r := Recipe{Grid: "3x3", Ingredients: []Ingredient{{Item: game.MustItem("minecraft:planks"), Count: 3}, {Item: game.MustItem("minecraft:stick"), Count: 2}}}
	sh, err := ParsePattern([]string{"AAA", ".B.", ".B."}, r)
	require.NoError(t, err)
	assert.Equal(t, Pattern{{0, 0, 0}, {-1, 1, -1}, {-1, 1, -1}}, sh)
	assert.Equal(t, "AAA/.B./.B.", sh.String())

	for _, c := range []struct {
		rows []string
		r    Recipe
		want string
	}{
		{nil, r, "at least one row"},
		{[]string{"AAA", ".B", ".B."}, r, "2 cells wide"},
		{[]string{"AAAA"}, r, "want 1 to 3 cells"},
		{[]string{"AAA", ".B.", ".B.", "..."}, r, "4 rows"},
		{[]string{"AAA", ".C.", ".B."}, r, `cell 'C' names nothing`},
		{[]string{"AA.", ".B.", ".B."}, r, "has count 3 but the shape has it in 2 cells"},
		{[]string{"AA", "BB"}, Recipe{Grid: "2x2", Ingredients: r.Ingredients[:1], Tools: []game.ItemMatcher{game.MustItem("ore:craftingToolSaw")}}, "has count 3"},
		{[]string{"A..", "...", "..."}, Recipe{Grid: "2x2", Ingredients: []Ingredient{{Item: game.MustItem("minecraft:log"), Count: 1}}}, "do not fit a 2x2"},
		{[]string{"A", "B", "B"}, Recipe{Grid: "3x3", Ingredients: []Ingredient{{Item: game.MustItem("minecraft:log"), Count: 1}}, Tools: []game.ItemMatcher{game.MustItem("ore:craftingToolSaw")}}, "tool B (ore:craftingToolSaw) goes in once"},
	} {
		_, err := ParsePattern(c.rows, c.r)
		require.Error(t, err, "%q", c.rows)
		assert.Contains(t, err.Error(), c.want, "%q", c.rows)
	}
}

func TestParseRecipesShapeErrorIsLocated(t *testing.T) {
	_, err := ParseRecipes("r.yaml", []byte("recipes:\n  - output: minecraft:stick\n    grid: 2x2\n    ingredients:\n      - {item: \"ore:plankWood\", count: 2}\n    shape: [\"A\"]\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "r.yaml:6:")
	assert.Contains(t, err.Error(), "recipes[0].shape")
}

// TestShippedPatterns: the shaped recipes of GTNH's early game have their
// sources' patterns (config/recipes.yaml cites them), and a grid matches
// its recipe anywhere in it, mirrored too, and nothing else.
func TestShippedPatterns(t *testing.T) {
	book := loadRecipes()
	furnace := book.For("minecraft:furnace")[0]
	assert.Equal(t, "AAA/BBB/AAA", furnace.Shape.String(), "ScriptMinecraft: cobblestone / flint / cobblestone")
	table := book.For("minecraft:crafting_table")[0]
	assert.Equal(t, "AA/BB", table.Shape.String(), "flint over logs")
	pick := book.For("minecraft:wooden_pickaxe")[0]
	assert.Equal(t, "AAA/.B./.B.", pick.Shape.String())
	assert.Nil(t, book.For("minecraft:flint")[0].Shape, "gravel to flint is shapeless")

	const c, f, l, p, s = "minecraft:cobblestone", "minecraft:flint", "minecraft:log", "minecraft:planks", "minecraft:stick"
	got, ok := book.Match(gridOf(c, c, c, f, f, f, c, c, c), 3)
	require.True(t, ok)
	assert.Equal(t, "minecraft:furnace", got.Output)
	_, ok = book.Match(gridOf(c, c, c, c, c, c, f, f, f), 3)
	assert.False(t, ok, "the flint must be in the middle row")

	// The table's 2x2 pattern fits a 2x2 grid and any corner of a 3x3 one.
	got, ok = book.Match(gridOf(f, f, l, l), 2)
	require.True(t, ok)
	assert.Equal(t, "minecraft:crafting_table", got.Output)
	got, ok = book.Match(gridOf("", "", "", "", f, f, "", l, l), 3)
	require.True(t, ok)
	assert.Equal(t, "minecraft:crafting_table", got.Output)
	_, ok = book.Match(gridOf(l, l, f, f), 2)
	assert.False(t, ok, "logs over flint is no table")
	_, ok = book.Match(gridOf(f, f, l, l, "", "", "", "", s), 3)
	assert.False(t, ok, "a stray stick outside the pattern")

	// The axe mirrored is still an axe.
	got, ok = book.Match(gridOf(p, p, "", p, s, "", "", s, ""), 3)
	require.True(t, ok)
	assert.Equal(t, "minecraft:wooden_axe", got.Output)
	got, ok = book.Match(gridOf(p, p, "", s, p, "", s, "", ""), 3)
	require.True(t, ok, "mirrored")
	assert.Equal(t, "minecraft:wooden_axe", got.Output)

	// A 3x3 recipe never matches the inventory grid; shapeless ones match
	// in any cells, with exactly their count.
	assert.False(t, pick.Matches(gridOf(p, p, s, s), 2))
	got, ok = book.Match(gridOf("minecraft:gravel", "", "minecraft:gravel", "minecraft:gravel"), 2)
	require.True(t, ok)
	assert.Equal(t, "minecraft:flint", got.Output)
	_, ok = book.Match(gridOf("minecraft:gravel", "", "minecraft:gravel", ""), 2)
	assert.False(t, ok, "two gravel are not enough")
	_, ok = book.Match(gridOf("minecraft:gravel", "minecraft:gravel", "minecraft:gravel", "minecraft:gravel"), 2)
	assert.False(t, ok, "four gravel are one too many")
	got, ok = book.Match(gridOf("", l, "", ""), 2)
	require.True(t, ok)
	assert.Equal(t, "minecraft:planks", got.Output)
	assert.Equal(t, 2, got.Count, "GTNH: a log by hand gives 2 planks")
}

// TestLayoutPlacesTheShape: Layout puts a shaped recipe's pattern at the
// top left of the grid and a shapeless one in order, and what it lays out
// is what Matches accepts.
func TestLayoutPlacesTheShape(t *testing.T) {
	book := loadRecipes()
	checked := 0
	for _, r := range book.All() {
		for _, width := range []int{2, 3} {
			if r.NeedsTable() && width == 2 {
				continue
			}
			cells, what, ok := r.Layout(width)
			if !ok {
				continue
			}
			grid := make([]game.ItemStack, width*width)
			known := true
			for k, cell := range cells {
				var ok bool
				grid[cell], ok = exampleOf(r, what[k])
				known = known && ok
			}
			if !known {
				continue // a GregTech tool or item the tag table does not tag
			}
			checked++
			assert.True(t, r.Matches(grid, width), "%s laid out on %dx%d: %v", r.Output, width, width, grid)
		}
	}
	assert.Greater(t, checked, 15, "recipes checked")
	furnace := book.For("minecraft:furnace")[0]
	cells, what, ok := furnace.Layout(3)
	require.True(t, ok)
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, cells)
	assert.Equal(t, []int{0, 0, 0, 1, 1, 1, 0, 0, 0}, what)
	_, _, ok = furnace.Layout(2)
	assert.False(t, ok)
}

// exampleOf is a stack that the recipe's ingredient or tool v accepts.
func exampleOf(r Recipe, v int) (game.ItemStack, bool) {
	m := func() game.ItemMatcher {
		if v < len(r.Ingredients) {
			return r.Ingredients[v].Item
		}
		return r.Tools[v-len(r.Ingredients)]
	}()
	examples := map[string]string{"ore:logWood": "minecraft:log", "ore:plankWood": "minecraft:planks", "ore:stickWood": "minecraft:stick",
		"ore:cobblestone": "minecraft:cobblestone", "ore:gemCoal": "minecraft:coal", "ore:gemCharcoal": "minecraft:coal:1", "ore:sand": "minecraft:sand",
		"ore:stone": "minecraft:stone"}
	id := m.String()
	if e, ok := examples[id]; ok {
		id = e
	}
	name, meta, err := game.SplitID(id)
	if err != nil {
		return game.ItemStack{}, false
	}
	st := Default().Stack(name, max(meta, 0), 1)
	return st, m.Matches(st)
}
