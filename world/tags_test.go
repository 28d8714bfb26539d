package world

import (
	"testing"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/stretchr/testify/assert"
)

func TestNewBlockAndStackTags(t *testing.T) {
	b := NewBlock("minecraft:log", 2)
	assert.True(t, b.HasTag("tree"))
	assert.False(t, b.HasTag("water"))
	assert.False(t, b.IsAir())
	assert.True(t, game.Air.IsAir())
	assert.True(t, game.Block{ID: "minecraft:air"}.IsAir())

	oven := NewBlock("Railcraft:machine.alpha", 7)
	assert.True(t, oven.HasTag("coke_oven"))
	assert.False(t, NewBlock("Railcraft:machine.alpha", 0).HasTag("coke_oven"))

	s := NewStack("minecraft:coal", 1, 5)
	assert.True(t, s.HasTag("ore:gemCharcoal"))
	assert.False(t, s.HasTag("ore:gemCoal"))
}
