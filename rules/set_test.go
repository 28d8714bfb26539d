package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/game"
)

func TestDefaultSet(t *testing.T) {
	set := Default()
	assert.Same(t, set, Default(), "parsed once and shared")
	assert.Same(t, loadVanillaIDs(), set.IDs)
	assert.True(t, set.IDs.Frozen())
	assert.Same(t, loadTags(), set.Tags)
	assert.Same(t, loadRecipes(), set.Recipes)
	assert.Same(t, loadMiningRules(), set.Mining)
	assert.Same(t, loadTiers(), set.Tiers)
	assert.Same(t, loadTech(), set.Tech)
	assert.Same(t, set.Tiers, set.Tech.Tiers(), "the tech evidence is read against the set's tiers")
	assert.Same(t, loadNames(), set.Names)
	assert.Same(t, set.IDs, set.StartIDs())

	assert.Equal(t, []string{"log", "tree", "wood"}, set.BlockTags("minecraft:log", 0))
	assert.Equal(t, set.Tags.Block("minecraft:log", 2), game.Block{ID: "minecraft:log", Meta: 2, Tags: []string{"log", "tree", "wood"}})
	charcoal := set.Stack("minecraft:coal", 1, 3)
	assert.Equal(t, 3, charcoal.Count)
	assert.True(t, charcoal.HasTag("ore:gemCharcoal"))
	assert.False(t, set.Tags.Stack("minecraft:coal", 0, 1).HasTag("ore:gemCharcoal"))

	assert.Equal(t, "stone_age", set.InferTier(game.NewInventory(), nil))
	bronze := set.Stack("gregtech:gt.metaitem.01", 11300, 4)
	assert.Equal(t, set.Tech.Infer(game.NewInventory(bronze), nil), set.InferTier(game.NewInventory(bronze), nil))
	assert.NotEqual(t, "stone_age", set.InferTier(game.NewInventory(bronze), nil))
}
