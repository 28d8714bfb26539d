package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func TestDropItemsThrowsWhatIsBeyondKeep(t *testing.T) {
	w, _ := grassland()
	w.Inventory = world.NewInventory(world.NewStack("minecraft:dirt", 0, 64), world.NewStack("minecraft:dirt", 0, 64),
		world.NewStack("minecraft:sapling", 0, 10), world.NewStack("minecraft:sapling", 2, 10))
	acts, err := DropItems{}.SuggestActions(w, skills.Params{"item": "minecraft:dirt", "keep": 32})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.DropItem{Item: "minecraft:dirt", Count: 96}}, acts)

	acts, err = DropItems{}.SuggestActions(w, skills.Params{"item": "minecraft:sapling:2"})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.DropItem{Item: "minecraft:sapling:2", Count: 10}}, acts, "one kind, the whole of it")

	_, err = DropItems{}.SuggestActions(w, skills.Params{"item": "minecraft:dirt", "keep": 128})
	requireFailure(t, err, skills.CodeNoTarget)
	_, err = DropItems{}.SuggestActions(w, skills.Params{"item": "dirt"})
	requireFailure(t, err, skills.CodeInvalidParams)
}
