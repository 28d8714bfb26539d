package base

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func hungry(food float64, stacks ...world.ItemStack) *world.Snapshot {
	w := snap(at(0, 64, 0), nil, world.NewInventory(stacks...))
	w.Player.Food = food
	return w
}

func TestEatPicksTheBestFit(t *testing.T) {
	for _, c := range []struct {
		name  string
		food  float64
		inv   []world.ItemStack
		param string
		want  string
	}{
		// GTNH's values: an apple 1, cooked beef 2, bread 3.
		{"the most that fits", 18, []world.ItemStack{stack("minecraft:apple", 0, 3), stack("minecraft:cooked_beef", 0, 2), stack("minecraft:bread", 0, 1)}, "", "minecraft:cooked_beef:0"},
		{"nothing larger than the gap", 19, []world.ItemStack{stack("minecraft:cooked_beef", 0, 2), stack("minecraft:bread", 0, 1), stack("minecraft:apple", 0, 3)}, "", "minecraft:apple:0"},
		{"the smallest when all overfill", 19, []world.ItemStack{stack("minecraft:bread", 0, 2), stack("minecraft:cooked_beef", 0, 1)}, "", "minecraft:cooked_beef:0"},
		{"rotten flesh last", 4, []world.ItemStack{stack("minecraft:rotten_flesh", 0, 9), stack("minecraft:potato", 0, 1)}, "", "minecraft:potato:0"},
		{"rotten flesh when nothing else", 4, []world.ItemStack{stack("minecraft:dirt", 0, 9), stack("minecraft:rotten_flesh", 0, 1)}, "", "minecraft:rotten_flesh:0"},
		{"the food named", 10, []world.ItemStack{stack("minecraft:apple", 0, 3), stack("minecraft:cooked_beef", 0, 2)}, "minecraft:apple", "minecraft:apple:0"},
		{"raw fish, not a pufferfish", 10, []world.ItemStack{stack("minecraft:fish", 3, 1), stack("minecraft:fish", 0, 1)}, "", "minecraft:fish:0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := map[string]any{}
			if c.param != "" {
				raw["food"] = c.param
			}
			acts := checkActions(t, Eat{}, hungry(c.food, c.inv...), raw)
			assert.Equal(t, []action.Action{action.UseItem{Item: c.want}}, acts)
		})
	}
}

func TestEatFailures(t *testing.T) {
	_, err := run(t, Eat{}, hungry(20, stack("minecraft:bread", 0, 1)), nil)
	requireFailure(t, err, skills.CodeNoTarget)
	_, err = run(t, Eat{}, hungry(5, stack("minecraft:dirt", 0, 1)), nil)
	f := requireFailure(t, err, skills.CodeMissingItems)
	assert.Contains(t, f.Msg, "minecraft:bread")
	_, err = run(t, Eat{}, hungry(5, stack("minecraft:dirt", 0, 1)), map[string]any{"food": "minecraft:dirt"})
	requireFailure(t, err, skills.CodeInvalidParams)
	_, err = run(t, Eat{}, hungry(5, stack("minecraft:apple", 0, 1)), map[string]any{"food": "minecraft:bread"})
	requireFailure(t, err, skills.CodeMissingItems)
}
