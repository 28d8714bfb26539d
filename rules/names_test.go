package rules

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultNamesCheckItem(t *testing.T) {
	n := loadNames()
	for _, known := range []string{
		"minecraft:log", "minecraft:log:1", "minecraft:stick", // vanilla_ids.yaml
		"minecraft:planks:3",                                      // any metadata of a known id
		"Railcraft:fuel.coke",                                     // tags.yaml
		"gregtech:gt.metaitem.01:32600",                           // tech.yaml evidence
		"ore:logWood", "ore:circuitBasic", "tool:axe", "tool:saw", // item tags
	} {
		assert.NoError(t, n.CheckItem(known), known)
	}
	for _, tc := range []struct {
		in, kind, suggestion string
		mod                  bool
	}{
		{"minecraft:lgo", "item", "minecraft:log", false},
		{"minecraft:lgo:1", "item", "minecraft:log:1", false},
		{"minecraft:lgo:0", "item", "minecraft:log:0", false}, // the metadata written is kept, 0 too
		{"minecraft:sitck", "item", "minecraft:stick", false},
		{"ore:logWod", "ore-dictionary name", "ore:logWood", false},
		{"tool:axxe", "tool class", "tool:axe", false},
		{"tool:logWood", "tool class", "", false}, // ore names are not tool classes
		{"Railcraft:fuel.cok", "item", "Railcraft:fuel.coke", true},
		{"somemod:widget", "item", "", true},
	} {
		err := n.CheckItem(tc.in)
		var ue *UnknownNameError
		require.True(t, errors.As(err, &ue), "%s: %v", tc.in, err)
		assert.Equal(t, tc.kind, ue.Kind, tc.in)
		assert.Equal(t, tc.suggestion, ue.Suggestion, tc.in)
		assert.Equal(t, tc.mod, ue.Mod, tc.in)
	}
	assert.EqualError(t, n.CheckItem("minecraft:lgo"), `unknown item "minecraft:lgo" (did you mean "minecraft:log"?)`)
	assert.ErrorContains(t, n.CheckItem("log"), "is not an item")
}

func TestNamesCheckBlockAndAdd(t *testing.T) {
	n := loadNames()
	assert.NoError(t, n.CheckBlock("minecraft:gravel"))
	assert.NoError(t, n.CheckBlock("minecraft:log:2"))
	assert.EqualError(t, n.CheckBlock("minecraft:gravle"), `unknown block "minecraft:gravle" (did you mean "minecraft:gravel"?)`)
	assert.Error(t, n.CheckBlock("minecraft:stick"), "an item is not a block")
	assert.Error(t, n.CheckBlock("ore:logWood"), "a block is an id")

	c := n.Clone()
	c.AddBlock("somemod:machine:3")
	assert.NoError(t, c.CheckBlock("somemod:machine"))
	assert.NoError(t, c.CheckItem("somemod:machine:1"), "a block's item form shares its name")
	assert.Error(t, n.CheckBlock("somemod:machine"), "the clone does not change the shared set")
	c.AddItem("somemod:gear")
	assert.NoError(t, c.CheckItem("somemod:gear"))
	assert.Error(t, c.CheckBlock("somemod:gear"))
}

// Suggestions are built on first use; the shared set is checked from
// several goroutines (the race detector watches).
func TestNamesConcurrentChecks(t *testing.T) {
	n := loadNames().Clone()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			assert.Error(t, n.CheckItem("minecraft:lgo"))
			assert.Error(t, n.CheckBlock("minecraft:gravle"))
			assert.Error(t, n.CheckItem("ore:logWod"))
		}()
	}
	wg.Wait()
}

func TestUnknownTierSuggests(t *testing.T) {
	tiers := loadTiers()
	assert.ErrorContains(t, tiers.UnknownError("stem_age"), `unknown tier "stem_age" (did you mean "steam_age"? known: stone_age, steam_age, lv,`)
	assert.ErrorContains(t, tiers.UnknownError("industrial"), `unknown tier "industrial" (known: stone_age, steam_age, lv,`)
	_, err := tiers.Compare("stem_age", "lv")
	assert.ErrorContains(t, err, `did you mean "steam_age"?`)
}
