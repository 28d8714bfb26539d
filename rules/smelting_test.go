package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
)

// TestShippedSmelting: GTNH's early furnace: cobblestone smelts into stone
// and unfired coke oven bricks into bricks in 200 ticks; logs do not make
// charcoal (GregTech removes it); vanilla fuel times.
func TestShippedSmelting(t *testing.T) {
	sm := Default().Smelt
	assert.Equal(t, 200, sm.CookTicks)
	st := func(id string, meta int, tags ...string) game.ItemStack {
		return game.ItemStack{ID: id, Meta: meta, Count: 1, Tags: tags}
	}
	r, ok := sm.Recipe(st("minecraft:cobblestone", 0))
	require.True(t, ok)
	assert.Equal(t, "minecraft:stone", r.Output)
	assert.Equal(t, 1, r.Count)
	r, ok = sm.Recipe(st("dreamcraft:item.UnfiredCokeOvenBrick", 0))
	require.True(t, ok)
	assert.Equal(t, "dreamcraft:item.CokeOvenBrick", r.Output)
	_, ok = sm.Recipe(st("minecraft:log", 0, "ore:logWood"))
	assert.False(t, ok, "GTNH: no charcoal from the furnace")
	_, ok = sm.Recipe(st("minecraft:clay_ball", 0))
	assert.False(t, ok, "GTNH: clay needs the brick form")
	assert.Len(t, sm.For("minecraft:stone"), 1)
	assert.Empty(t, sm.For("minecraft:coal:1"))

	for _, c := range []struct {
		st    game.ItemStack
		ticks int
	}{
		{st("minecraft:planks", 0, "ore:plankWood"), 300},
		{st("minecraft:log", 2, "ore:logWood"), 300},
		{st("minecraft:stick", 0, "ore:stickWood"), 100},
		{st("minecraft:coal", 0), 1600},
		{st("minecraft:coal", 1), 1600},
		{st("minecraft:coal_block", 0), 16000},
		{st("minecraft:wooden_slab", 0), 150},
		{st("minecraft:wooden_pickaxe", 0), 200},
		{st("minecraft:sapling", 0, "ore:treeSapling"), 100},
		{st("minecraft:cobblestone", 0), 0},
	} {
		assert.Equal(t, c.ticks, sm.BurnTicks(c.st), c.st.ID)
	}
}

func TestParseSmeltingErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"recipes: []\n", "cook_ticks"},
		{"cook_ticks: 0\n", "must be within 1..72000, got 0"},
		{"cook_ticks: 200\nrecipes:\n  - {input: minecraft:cobblestone}\n", "output"},
		{"cook_ticks: 200\nrecipes:\n  - {input: minecraft:cobblestone, output: minecraft:stone, count: 65}\n", "count must be 1..64"},
		{"cook_ticks: 200\nrecipes:\n  - {input: \"ore:\", output: minecraft:stone}\n", "ore-dictionary name expected"},
		{"cook_ticks: 200\nfuels:\n  - {item: minecraft:coal, ticks: 0}\n", "must be within 1..1048576, got 0"},
		{"cook_ticks: 200\nfuels:\n  - {item: minecraft:coal, tick: 10}\n", "tick"},
	} {
		_, err := ParseSmelting("s.yaml", []byte(c.yaml))
		require.Error(t, err, c.yaml)
		assert.Contains(t, err.Error(), c.want, c.yaml)
		assert.Contains(t, err.Error(), "s.yaml:", c.yaml)
	}
}

func FuzzParseSmelting(f *testing.F) {
	f.Add([]byte("cook_ticks: 200\nrecipes:\n  - {input: minecraft:cobblestone, output: minecraft:stone}\nfuels:\n  - {item: ore:plankWood, ticks: 300}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sm, err := ParseSmelting("f.yaml", data)
		if err != nil {
			return
		}
		if sm.CookTicks < 1 {
			t.Fatalf("cook ticks %d accepted", sm.CookTicks)
		}
		for _, fu := range sm.Fuels() {
			if fu.Ticks < 1 || fu.Ticks > maxBurnTicks {
				t.Fatalf("burn ticks %d accepted", fu.Ticks)
			}
		}
		for _, r := range sm.All() {
			if r.Count < 1 || r.Count > 64 {
				t.Fatalf("count %d accepted", r.Count)
			}
		}
	})
}
