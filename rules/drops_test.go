package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
)

// TestDefaultDrops: GTNH's gravel never gives flint; clay gives four balls;
// logs keep their wood type; an unlisted block drops itself; leaves are
// rolled.
func TestDefaultDrops(t *testing.T) {
	d := Default().Drops
	for _, c := range []struct {
		block game.Block
		want  Drop
	}{
		{game.Block{ID: "minecraft:gravel"}, Drop{"minecraft:gravel", 0, 1}},
		{game.Block{ID: "minecraft:clay"}, Drop{"minecraft:clay_ball", 0, 4}},
		{game.Block{ID: "minecraft:stone"}, Drop{"minecraft:cobblestone", 0, 1}},
		{game.Block{ID: "minecraft:grass"}, Drop{"minecraft:dirt", 0, 1}},
		{game.Block{ID: "minecraft:log", Meta: 2 | 4}, Drop{"minecraft:log", 2, 1}},
		{game.Block{ID: "minecraft:sand", Meta: 1}, Drop{"minecraft:sand", 1, 1}},
	} {
		got, random := d.Of(c.block)
		assert.False(t, random, c.block.ID)
		assert.Equal(t, c.want, got, c.block.ID)
	}
	_, random := d.Of(game.Block{ID: "minecraft:leaves"})
	assert.True(t, random)

	known := func(id string) bool { return id != "minecraft:flint" && id != "minecraft:clay_ball" }
	assert.Empty(t, d.Sources("minecraft:flint", known), "no block gives flint in GTNH")
	assert.Equal(t, []string{"minecraft:gravel"}, d.Sources("minecraft:gravel", known))
	assert.Equal(t, []string{"minecraft:clay"}, d.Sources("minecraft:clay_ball", known))
	assert.Equal(t, []string{"minecraft:sand"}, d.Sources("minecraft:sand:0", known))
	assert.Empty(t, d.Sources("minecraft:stone", known), "stone gives cobblestone, not itself")
	assert.Equal(t, []string{"minecraft:cobblestone", "minecraft:stone"}, d.Sources("minecraft:cobblestone", known))
	assert.Empty(t, d.Sources("minecraft:leaves", known), "rolled drops are never counted on")
}

func TestParseDropsErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"drops:\n  minecraft:clay: {item: minecraft:clay_ball, count: 0}\n", "count must be 1..64, got 0"},
		{"drops:\n  minecraft:clay: {item: minecraft:clay_ball, count: 65}\n", "count must be 1..64, got 65"},
		{"drops:\n  minecraft:log: {item: minecraft:log, meta_mask: 16}\n", "meta_mask must be 0..15"},
		{"drops:\n  minecraft:log:1: {item: minecraft:log}\n", "a block id without meta"},
		{"drops:\n  minecraft:clay: {count: 4}\n", "item"},
		{"drops:\n  minecraft:leaves: {random: true, item: minecraft:apple}\n", "random drops are rolled"},
		{"drops:\n  minecraft:clay: {item: minecraft:clay_ball, cout: 4}\n", "cout"},
		{"drop:\n", "drop"},
	} {
		_, err := ParseDrops("d.yaml", []byte(c.yaml))
		require.Error(t, err, c.yaml)
		assert.Contains(t, err.Error(), c.want, c.yaml)
		assert.Contains(t, err.Error(), "d.yaml:", "errors name the file")
	}
}

func FuzzParseDrops(f *testing.F) {
	f.Add([]byte("drops:\n  minecraft:clay: {item: minecraft:clay_ball, count: 4}\n"))
	f.Add([]byte("drops:\n  minecraft:leaves: {random: true}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ParseDrops("f.yaml", data)
		if err != nil {
			return
		}
		for block, r := range d.rules {
			got, random := d.Of(game.Block{ID: block, Meta: 15})
			if random != r.Random {
				t.Fatalf("%s: random %v, rule %v", block, random, r.Random)
			}
			if !random && (got.Count < 1 || got.Count > 64 || got.Meta < 0 || got.Meta > 15) {
				t.Fatalf("%s: drop %+v out of bounds", block, got)
			}
		}
	})
}
