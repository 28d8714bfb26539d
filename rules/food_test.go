package rules

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const foodHead = `stats: {max_food: 20, start_saturation: 5.0, exhaustion_per_point: 3.0, tick_period: 80, regen_min_food: 8, regen_low_health: 0.05, regen_low_health_power: 1.5, well_fed_per_hunger: 100, well_fed_power: 1.2, well_fed_min_ticks: 30, well_fed_regen: 0.75, regen_health: 1.0, regen_exhaustion: 0.0, starve_damage: 2.0, starve_min_health: 1.0, sprint_min_food: 6, max_health: 20, eat_ticks: 8, eat_ticks_per_hunger: 8}
exhaustion: {walk_per_metre: 0.01, sprint_per_metre: 0.1, swim_per_metre: 0.015, jump: 0.2, sprint_jump: 0.8, break_block: 0.025, attack: 0.3, damage: 0.3, unblockable_damage: 0.0}
`

// TestShippedFood pins GTNH's numbers: Hunger Overhaul's rules as the
// modpack configures them and its values for vanilla foods.
func TestShippedFood(t *testing.T) {
	f := loadFood()
	assert.Equal(t, 20, f.Stats.MaxFood)
	assert.Equal(t, 3.0, f.Stats.ExhaustionPerPoint, "hungerLossRate 3 on normal")
	assert.Equal(t, 80, f.Stats.TickPeriod)
	assert.Equal(t, 8, f.Stats.RegenMinFood, "minHungerToHeal")
	assert.Equal(t, 0.0, f.Stats.RegenExhaustion, "disableHealingHungerDrain")
	assert.Equal(t, 2.0, f.Stats.StarveDamage, "damageOnStarve")
	assert.Equal(t, 6, f.Stats.SprintMinFood)
	assert.Equal(t, 0.025, f.Exhaustion.BreakBlock)
	assert.Equal(t, 0.01, f.Exhaustion.WalkPerMetre)
	for _, c := range []struct {
		id     string
		meta   int
		hunger int
		sat    float64
		eat    int
	}{{"minecraft:apple", 0, 1, 0.05, 16}, {"minecraft:bread", 0, 3, 0.2, 32}, {"minecraft:cooked_beef", 0, 2, 0.15, 24},
		{"minecraft:porkchop", 0, 1, 0.05, 16}, {"minecraft:cooked_porkchop", 0, 2, 0.15, 24},
		{"minecraft:fish", 0, 1, 0.05, 16}, {"minecraft:cooked_fished", 0, 2, 0.1, 24}} {
		fi, ok := f.Of(newStack(c.id, c.meta, 1))
		require.True(t, ok, c.id)
		assert.Equal(t, c.hunger, fi.Hunger, c.id)
		assert.Equal(t, c.sat, fi.Saturation, c.id)
		assert.Equal(t, c.eat, f.EatTicksOf(fi), "%s: eaten in hunger × 8 + 8 ticks", c.id)
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
		{"regen above max", strings.Replace(foodHead, "regen_min_food: 8", "regen_min_food: 21", 1) + "foods: []\n", "stats.regen_min_food: must not exceed max_food"},
		{"long eating", strings.Replace(foodHead, "eat_ticks: 8,", "eat_ticks: 2000000,", 1) + "foods: []\n", "stats.eat_ticks: must be within 1..1048576, got 2000000"},
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
	assert.Equal(t, 7, food)
	assert.InDelta(t, 0.6, sat, 1e-9, "2 × 0.15 × 2")
	food, sat = f.Eat(19, 19.9, steak)
	assert.Equal(t, 20, food, "capped at max_food")
	assert.Equal(t, 20.0, sat, "saturation capped at the food level")
}

func TestHungerExhaustionDrainsSaturationThenFood(t *testing.T) {
	f := loadFood()
	h := f.NewHunger(20, 20)
	require.Equal(t, 5.0, h.Saturation)
	f.Exhaust(&h, 2.99)
	f.Tick(&h, 1)
	assert.Equal(t, 5.0, h.Saturation, "below the threshold nothing is lost")
	f.Exhaust(&h, 0.01)
	f.Tick(&h, 1)
	assert.Equal(t, 4.0, h.Saturation, "at 3.0 one saturation point goes")
	assert.Equal(t, 20, h.Food)
	h.Saturation = 0
	f.Exhaust(&h, 3)
	f.Tick(&h, 1)
	assert.Equal(t, 19, h.Food, "with no saturation a food point goes")
	f.Exhaust(&h, 1000)
	assert.Equal(t, 40.0, h.Exhaustion, "exhaustion is capped at 40")
}

// TestRegenPeriod: round(80 × wellFed × (missing × 0.05 + 1)^1.5) ticks.
func TestRegenPeriod(t *testing.T) {
	f := loadFood()
	for _, c := range []struct {
		health  float64
		wellFed bool
		want    int
	}{{19, false, 86}, {10, false, 147}, {9, false, 154}, {1, false, 218}, {19, true, 65}, {10, true, 110}, {1, true, 163}} {
		assert.Equal(t, c.want, f.RegenPeriod(c.health, c.wellFed), "health %g, well fed %v", c.health, c.wellFed)
	}
}

func TestHungerRegenerates(t *testing.T) {
	f := loadFood()
	h := f.NewHunger(8, 10)
	f.Tick(&h, 146)
	assert.Equal(t, 10.0, h.Health)
	f.Tick(&h, 1)
	assert.Equal(t, 11.0, h.Health, "heals one point on the 147th tick at food 8, 10 points missing")
	assert.Equal(t, 0.0, h.Exhaustion, "and costs no exhaustion")
	f.Tick(&h, 139)
	assert.Equal(t, 11.0, h.Health)
	f.Tick(&h, 1)
	assert.Equal(t, 12.0, h.Health, "with 9 missing the next comes 140 ticks later")

	h = f.NewHunger(7, 10)
	f.Tick(&h, 10_000)
	assert.Equal(t, 10.0, h.Health, "no regeneration below food 8")
}

func TestWellFed(t *testing.T) {
	f := loadFood()
	bread, _ := f.Of(newStack("minecraft:bread", 0, 1))
	chop, _ := f.Of(newStack("minecraft:cooked_porkchop", 0, 1))
	assert.Equal(t, int64(938), f.WellFedTicks(bread), "(int)(3 × 100)^1.2")
	assert.Equal(t, int64(577), f.WellFedTicks(chop), "(int)(2 × 100)^1.2")

	h := f.NewHunger(10, 10)
	f.Feed(&h, bread)
	f.Feed(&h, chop)
	assert.Equal(t, int64(938+577), h.WellFed, "the effect's time adds up")

	// Well fed, a player with 10 points missing heals on the 110th tick,
	// not the 147th.
	h = f.NewHunger(8, 10)
	h.WellFed = 1000
	f.Tick(&h, 109)
	assert.Equal(t, 10.0, h.Health)
	f.Tick(&h, 1)
	assert.Equal(t, 11.0, h.Health)
	assert.Equal(t, int64(1000-110), h.WellFed, "the effect counts down a tick a tick")

	// The effect counts down also while nothing else can change.
	h = f.NewHunger(20, 20)
	h.WellFed = 1000
	f.Tick(&h, 400)
	assert.Equal(t, int64(600), h.WellFed)
	f.Tick(&h, 5000)
	assert.Equal(t, int64(0), h.WellFed)

	// A potion counted down to 0 is gone: an effect of 1 tick does not
	// speed the tick it runs out on.
	h = f.NewHunger(8, 19)
	h.WellFed = 65
	f.Tick(&h, 65)
	assert.Equal(t, 19.0, h.Health, "the effect lasted 64 ticks of the 65 needed")

	// Under well_fed_min_ticks no effect is given.
	g := *f
	g.Stats.WellFedMinTicks = 252
	apple, _ := f.Of(newStack("minecraft:apple", 0, 1))
	assert.Equal(t, int64(0), g.WellFedTicks(apple), "(int)100^1.2 = 251 is under 252")
	g.Stats.WellFedMinTicks = 251
	assert.Equal(t, int64(251), g.WellFedTicks(apple), "251 reaches 251")
}

func TestHungerStarves(t *testing.T) {
	f := loadFood()
	h := f.NewHunger(0, 5)
	assert.Equal(t, 0.0, f.Tick(&h, 79))
	assert.Equal(t, 2.0, f.Tick(&h, 1), "two points on the 80th tick")
	assert.Equal(t, 3.0, h.Health)
	assert.Equal(t, 2.0, f.Tick(&h, 100_000), "while above one point on normal difficulty")
	assert.Equal(t, 1.0, h.Health)
	h = f.NewHunger(0, 6)
	assert.Equal(t, 6.0, f.Tick(&h, 100_000), "from 2 health the last hurt kills (2 > 1)")
	assert.Equal(t, 0.0, h.Health)
	h = f.NewHunger(1, 5)
	assert.Equal(t, 0.0, f.Tick(&h, 1000), "food 1 does not starve")
}
