package chunk

import (
	"fmt"
	"sync"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolver(t *testing.T) {
	r := NewResolver(rules.Default().IDs, rules.Default().Tags)
	assert.Same(t, rules.Default().IDs, r.IDs())
	assert.Same(t, rules.Default().Tags, r.Tags())
	tests := []struct {
		st   StateID
		want game.Block
	}{
		{AirState, game.Air},
		{MakeState(17, 0), game.Block{ID: "minecraft:log", Tags: []string{"log", "tree", "wood"}}},
		{MakeState(17, 2), game.Block{ID: "minecraft:log", Meta: 2, Tags: []string{"log", "tree", "wood"}}},
		{MakeState(31, 1), game.Block{ID: "minecraft:tallgrass", Meta: 1, Tags: []string{"plant", "replaceable"}}},
		{MakeState(9, 0), game.Block{ID: "minecraft:water", Tags: []string{"water", "water_source", "liquid"}}},
		{MakeState(41, 0), game.Block{ID: "minecraft:gold_block"}},
		{MakeState(4000, 12), game.Block{ID: "unknown:4000", Meta: 12}},
	}
	for _, tc := range tests {
		t.Run(tc.st.String(), func(t *testing.T) {
			assert.Equal(t, tc.want, r.Block(tc.st))
			assert.Equal(t, tc.want, r.Block(tc.st), "cached")
			if tc.st != AirState && tc.want.ID != "unknown:4000" {
				st, ok := r.State(tc.want.ID, tc.want.Meta)
				assert.True(t, ok)
				assert.Equal(t, tc.st, st)
			}
		})
	}
	st, ok := r.State("minecraft:air", 0)
	assert.True(t, ok)
	assert.Equal(t, AirState, st)
	_, ok = r.State("mod:none", 0)
	assert.False(t, ok)
	_, ok = r.State("minecraft:log", 70000)
	assert.False(t, ok)

	// GTNH metadata-selected blocks get their tags through the id map.
	ids := rules.NewIDMap()
	require.NoError(t, ids.SetBlock(0, "minecraft:air"))
	require.NoError(t, ids.SetBlock(1050, "gregtech:gt.blockmachines"))
	require.NoError(t, ids.SetBlock(1500, "Railcraft:machine.alpha"))
	g := NewResolver(ids, rules.Default().Tags)
	assert.True(t, ids.Frozen(), "a resolver freezes its map")
	assert.True(t, g.Block(MakeState(1050, 1)).HasTag("gregtech_machine"))
	assert.False(t, g.Block(MakeState(1050, 1)).HasTag("steam_boiler"))
	assert.True(t, g.Block(MakeState(1500, 7)).HasTag("coke_oven"))
	assert.False(t, g.Block(MakeState(1500, 6)).HasTag("coke_oven"))

	// Concurrent resolution is safe.
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 500; j++ {
				b := g.Block(MakeState(1050+j%3, j%5))
				if b.ID == "" {
					panic(fmt.Sprint("empty block for ", j))
				}
			}
		}(i)
	}
	wg.Wait()
}
