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
	} {
		_, err := NewRecipes([]Recipe{ok, c.r})
		require.Error(t, err, c.want)
		assert.Contains(t, err.Error(), c.want)
	}
	_, err = Default().Smelt.WithRecipes([]SmeltRecipe{{Input: game.MustItem("minecraft:sand"), Output: "minecraft:glass", Count: 0}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "recipe 0: count must be 1..64, got 0")
}
