package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
)

func TestNewRecipesChecksEachRecipe(t *testing.T) {
	log := Ingredient{Item: game.MustItem("ore:logWood"), Count: 1}
	ok := Recipe{Output: "minecraft:planks", Count: 4, Grid: "2x2", Ingredients: []Ingredient{log}}
	book, err := NewRecipes([]Recipe{ok})
	require.NoError(t, err)
	assert.Equal(t, []Recipe{ok}, book.For("minecraft:planks"))
	station := Recipe{Output: "a:b", Count: 1, Station: "c:table", Ingredients: []Ingredient{log}}
	book, err = NewRecipes([]Recipe{station})
	require.NoError(t, err)
	assert.Equal(t, []Recipe{station}, book.For("a:b"))

	for _, c := range []struct {
		r    Recipe
		want string
	}{
		{Recipe{Output: "planks", Count: 1, Grid: "2x2", Ingredients: []Ingredient{log}}, "recipe 1: output:"},
		{Recipe{Output: "minecraft:planks", Count: 0, Grid: "2x2", Ingredients: []Ingredient{log}}, "recipe 1: count must be 1..64, got 0"},
		{Recipe{Output: "minecraft:planks", Count: 65, Grid: "2x2", Ingredients: []Ingredient{log}}, "recipe 1: count must be 1..64, got 65"},
		{Recipe{Output: "minecraft:planks", Count: 1, Grid: "4x4", Ingredients: []Ingredient{log}}, `recipe 1: grid must be 2x2 or 3x3, got "4x4"`},
		{Recipe{Output: "minecraft:planks", Count: 1, Grid: "2x2"}, "recipe 1: no ingredients"},
		{Recipe{Output: "minecraft:planks", Count: 1, Grid: "2x2", Ingredients: []Ingredient{{Item: log.Item, Count: 4}}, Tools: []game.ItemMatcher{game.MustItem("ore:craftingToolSaw")}},
			"recipe 1: 5 ingredients and tools do not fit a 2x2 grid"},
		{Recipe{Output: "a:b", Count: 1, Grid: "3x3", Station: "c:table", Ingredients: []Ingredient{log}}, "recipe 1: a recipe made at a station has no grid and no shape"},
		{Recipe{Output: "a:b", Count: 1, Station: "ore:table", Ingredients: []Ingredient{log}}, `recipe 1: station "ore:table": not a block id`},
		{Recipe{Output: "a:b", Count: 1, Station: "c:table", Ingredients: []Ingredient{{Item: log.Item, Count: 9}}, Tools: []game.ItemMatcher{game.MustItem("c:pattern")}},
			"recipe 1: 10 ingredients and tools: a station takes at most 9"},
	} {
		_, err := NewRecipes([]Recipe{ok, c.r})
		require.Error(t, err, c.want)
		assert.Contains(t, err.Error(), c.want)
	}
	_, err = Default().Smelt.WithRecipes([]SmeltRecipe{{Input: game.MustItem("minecraft:sand"), Output: "minecraft:glass", Count: 0}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "recipe 0: count must be 1..64, got 0")
}
