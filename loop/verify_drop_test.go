package loop

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
)

// TestDropItem: a block's drop by config/drops.yaml, as the item a
// "drop:" effect counts: stone gives cobblestone, a clay block clay
// balls, gravel gravel (GTNH: never flint); a block the table does not
// list gives itself, any metadata unless the block named one; rolled drops
// count any item.
func TestDropItem(t *testing.T) {
	d := rules.Default().Drops
	for block, want := range map[string]string{
		"minecraft:stone":      "minecraft:cobblestone:0",
		"minecraft:clay":       "minecraft:clay_ball:0",
		"minecraft:gravel":     "minecraft:gravel",
		"minecraft:iron_ore":   "minecraft:iron_ore",
		"minecraft:iron_ore:0": "minecraft:iron_ore:0",
		"minecraft:leaves":     skills.AnyItem,
		"not an id":            skills.AnyItem,
	} {
		assert.Equal(t, want, dropItem(block, d), block)
	}
}
