package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShippedCokeOvenRecipes: Railcraft 9.16.33's coke oven as GTNH 2.8.4 ships
// it: every log becomes one charcoal and 250 mB of creosote in 1,800
// ticks, coal (not charcoal) becomes coal coke with 500 mB, a coal block a
// coke block in nine times both; it works in steps of 50 ticks into a
// 64,000 mB tank.
func TestShippedCokeOvenRecipes(t *testing.T) {
	co := Default().Coke
	assert.Equal(t, 50, co.CookStep)
	assert.Equal(t, 64000, co.TankMB)
	for _, c := range []struct {
		id       string
		meta     int
		out      string
		ticks    int
		creosote int
	}{
		{"minecraft:log", 0, "minecraft:coal:1", 1800, 250},
		{"minecraft:log", 3, "minecraft:coal:1", 1800, 250},
		{"minecraft:log2", 1, "minecraft:coal:1", 1800, 250},
		{"minecraft:coal", 0, "Railcraft:fuel.coke", 1800, 500},
		{"minecraft:coal_block", 0, "Railcraft:cube:0", 16200, 4500},
	} {
		r, ok := co.Recipe(newStack(c.id, c.meta, 1))
		require.True(t, ok, "%s:%d", c.id, c.meta)
		assert.Equal(t, c.out, r.Output, c.id)
		assert.Equal(t, c.ticks, r.Ticks, c.id)
		assert.Equal(t, c.creosote, r.Creosote, c.id)
	}
	for _, id := range []string{"minecraft:planks", "minecraft:cobblestone"} {
		_, ok := co.Recipe(newStack(id, 0, 1))
		assert.False(t, ok, id)
	}
	_, ok := co.Recipe(newStack("minecraft:coal", 1, 1))
	assert.False(t, ok, "charcoal is not coked: the coal recipe matches metadata 0")
	require.Len(t, co.For("minecraft:coal:1"), 1)
	assert.Equal(t, "ore:logWood", co.For("minecraft:coal:1")[0].Input.String())
	assert.Empty(t, co.For("minecraft:stone"))
	assert.Len(t, co.All(), 3)
}

func TestParseCokeOvenErrors(t *testing.T) {
	const head = "cook_step: 50\ntank_mb: 64000\n"
	for _, c := range []struct{ yaml, want string }{
		{"cook_step: 50\nrecipes: []\n", "tank_mb"},
		{"cook_step: 0\ntank_mb: 1\nrecipes: []\n", "cook_step: must be within 1..72000, got 0"},
		{head + "recipes:\n  - {input: minecraft:log, output: minecraft:coal:1, ticks: 1800}\n", "creosote"},
		{head + "recipes:\n  - {input: minecraft:log, output: minecraft:coal:1, ticks: 0, creosote: 250}\n", "ticks: must be within 1..1048576, got 0"},
		{head + "recipes:\n  - {input: minecraft:log, output: minecraft:coal:1, ticks: 1800, creosote: 64001}\n", "must be within 0..64000 (the tank), got 64001"},
		{head + "recipes:\n  - {input: \"ore:\", output: minecraft:coal:1, ticks: 1800, creosote: 250}\n", "ore-dictionary name expected"},
		{head + "recipes:\n  - {input: minecraft:log, output: coal, ticks: 1800, creosote: 250}\n", "recipes[0].output"},
		{head + "recipes:\n  - {input: minecraft:log, output: minecraft:coal:1, tick: 1800, creosote: 250}\n", "tick"},
	} {
		_, err := ParseCokeOven("c.yaml", []byte(c.yaml))
		require.Error(t, err, c.yaml)
		assert.Contains(t, err.Error(), c.want, c.yaml)
		assert.Contains(t, err.Error(), "c.yaml:", c.yaml)
	}
}

func FuzzParseCokeOven(f *testing.F) {
	f.Add([]byte("cook_step: 50\ntank_mb: 64000\nrecipes:\n  - {input: ore:logWood, output: minecraft:coal:1, ticks: 1800, creosote: 250}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		co, err := ParseCokeOven("f.yaml", data)
		if err != nil {
			located(t, err)
			return
		}
		if co.CookStep < 1 || co.TankMB < 1 {
			t.Fatalf("step %d, tank %d accepted", co.CookStep, co.TankMB)
		}
		for _, r := range co.All() {
			if r.Ticks < 1 || r.Ticks > maxCokeTicks || r.Creosote < 0 || r.Creosote > co.TankMB {
				t.Fatalf("recipe %+v accepted", r)
			}
		}
	})
}
