package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFalls(t *testing.T) {
	for id, want := range map[string]bool{
		"minecraft:sand": true, "minecraft:gravel": true,
		"minecraft:dirt": false, "minecraft:cobblestone": false, "minecraft:air": false, "minecraft:clay": false,
	} {
		assert.Equal(t, want, Falls(id), id)
	}
}

func TestFallsThrough(t *testing.T) {
	for id, want := range map[string]bool{
		"minecraft:air": true, "minecraft:fire": true, "minecraft:water": true, "minecraft:flowing_water": true,
		"minecraft:lava": true, "minecraft:flowing_lava": true,
		"minecraft:torch": false, "minecraft:tallgrass": false, "minecraft:stone": false, "minecraft:gravel": false,
	} {
		assert.Equal(t, want, FallsThrough(id), id)
	}
}
