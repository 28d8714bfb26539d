package rules

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const foodHead = `stats: {max_food: 20, start_saturation: 5.0, exhaustion_per_point: 4.0, tick_period: 80, regen_min_food: 18, regen_health: 1.0, regen_exhaustion: 3.0, starve_damage: 1.0, starve_min_health: 1.0, sprint_min_food: 6, max_health: 20, eat_ticks: 32}
exhaustion: {walk_per_metre: 0.01, sprint_per_metre: 0.1, swim_per_metre: 0.015, jump: 0.2, sprint_jump: 0.8, break_block: 0.025, attack: 0.3, damage: 0.3, unblockable_damage: 0.0}
`

func TestShippedFood(t *testing.T) {
	f := loadFood()
	assert.Equal(t, 20, f.Stats.MaxFood)
	assert.Equal(t, 4.0, f.Stats.ExhaustionPerPoint)
	assert.Equal(t, 80, f.Stats.TickPeriod)
	assert.Equal(t, 18, f.Stats.RegenMinFood)
	assert.Equal(t, 6, f.Stats.SprintMinFood)
	assert.Equal(t, 0.025, f.Exhaustion.BreakBlock)
	assert.Equal(t, 0.01, f.Exhaustion.WalkPerMetre)
	for _, c := range []struct {
		id     string
		meta   int
		hunger int
		sat    float64
	}{{"minecraft:apple", 0, 4, 0.3}, {"minecraft:bread", 0, 5, 0.6}, {"minecraft:cooked_beef", 0, 8, 0.8},
		{"minecraft:fish", 0, 2, 0.1}, {"minecraft:cooked_fished", 0, 5, 0.6}} {
		fi, ok := f.Of(newStack(c.id, c.meta, 1))
		require.True(t, ok, c.id)
		assert.Equal(t, c.hunger, fi.Hunger, c.id)
		assert.Equal(t, c.sat, fi.Saturation, c.id)
	}
	_, ok := f.Of(newStack("minecraft:fish", 3, 1)) // pufferfish: not a safe food
	assert.False(t, ok)
	_, ok = f.Of(newStack("minecraft:cobblestone", 0, 1))
	assert.False(t, ok)
	assert.Same(t, Default().Food, Default().Food, "the shipped set carries the table")
}

func TestParseFoodErrors(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"missing stats", "foods: []\n", "stats: required field is missing"},
		{"zero hunger", foodHead + "foods:\n  - {item: \"minecraft:apple\", hunger: 0, saturation: 0.3}\n", "foods[0].hunger: must be within 1..1000"},
		{"bad item", foodHead + "foods:\n  - {item: \"::\", hunger: 4, saturation: 0.3}\n", "foods[0].item"},
		{"duplicate", foodHead + "foods:\n  - {item: \"minecraft:apple\", hunger: 4, saturation: 0.3}\n  - {item: \"minecraft:apple\", hunger: 4, saturation: 0.3}\n", "listed twice"},
		{"unknown key", foodHead + "foods:\n  - {item: \"minecraft:apple\", hunger: 4, saturation: 0.3, heal: 2}\n", "heal"},
		{"negative saturation", foodHead + "foods:\n  - {item: \"minecraft:apple\", hunger: 4, saturation: -1}\n", "foods[0].saturation: must be within 0..100"},
		{"regen above max", strings.Replace(foodHead, "regen_min_food: 18", "regen_min_food: 21", 1) + "foods: []\n", "stats.regen_min_food: must not exceed max_food"},
		{"long eating", strings.Replace(foodHead, "eat_ticks: 32", "eat_ticks: 2000000", 1) + "foods: []\n", "stats.eat_ticks: must be within 1..1048576, got 2000000"},
		{"zero period", strings.Replace(foodHead, "tick_period: 80", "tick_period: 0", 1) + "foods: []\n", "stats.tick_period: must be within 1.."},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseFood("f.yaml", []byte(c.data))
			require.Error(t, err)
			located(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), "f.yaml:")
		})
	}
}

func TestFoodEatCaps(t *testing.T) {
	f := loadFood()
	steak, _ := f.Of(newStack("minecraft:cooked_beef", 0, 1))
	food, sat := f.Eat(5, 0, steak)
	assert.Equal(t, 13, food)
	assert.InDelta(t, 12.8, sat, 1e-9, "8 × 0.8 × 2")
	food, sat = f.Eat(18, 10, steak)
	assert.Equal(t, 20, food, "capped at max_food")
	assert.Equal(t, 20.0, sat, "saturation capped at the food level")
}

func TestHungerExhaustionDrainsSaturationThenFood(t *testing.T) {
	f := loadFood()
	h := f.NewHunger(20, 20)
	require.Equal(t, 5.0, h.Saturation)
	f.Exhaust(&h, 3.99)
	f.Tick(&h, 1)
	assert.Equal(t, 5.0, h.Saturation, "below the threshold nothing is lost")
	f.Exhaust(&h, 0.01)
	f.Tick(&h, 1)
	assert.Equal(t, 4.0, h.Saturation, "at 4.0 one saturation point goes")
	assert.Equal(t, 20, h.Food)
	h.Saturation = 0
	f.Exhaust(&h, 4)
	f.Tick(&h, 1)
	assert.Equal(t, 19, h.Food, "with no saturation a food point goes")
	f.Exhaust(&h, 1000)
	assert.Equal(t, 40.0, h.Exhaustion, "exhaustion is capped at 40")
}

func TestHungerRegenerates(t *testing.T) {
	f := loadFood()
	h := f.NewHunger(18, 10)
	f.Tick(&h, 79)
	assert.Equal(t, 10.0, h.Health)
	f.Tick(&h, 1)
	assert.Equal(t, 11.0, h.Health, "heals one point on the 80th tick at food 18")
	assert.Equal(t, 3.0, h.Exhaustion, "and costs 3.0 exhaustion")

	h = f.NewHunger(17, 10)
	f.Tick(&h, 10_000)
	assert.Equal(t, 10.0, h.Health, "no regeneration below food 18")
}

func TestHungerStarves(t *testing.T) {
	f := loadFood()
	h := f.NewHunger(0, 5)
	assert.Equal(t, 0.0, f.Tick(&h, 79))
	assert.Equal(t, 1.0, f.Tick(&h, 1), "one point on the 80th tick")
	assert.Equal(t, 4.0, h.Health)
	assert.Equal(t, 3.0, f.Tick(&h, 100_000), "down to one point on normal difficulty")
	assert.Equal(t, 1.0, h.Health)
	h = f.NewHunger(1, 5)
	assert.Equal(t, 0.0, f.Tick(&h, 1000), "food 1 does not starve")
}
