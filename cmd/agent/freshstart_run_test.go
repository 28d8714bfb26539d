package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFreshStartCraftingTable: from an empty inventory in the embedded
// fresh_start world, GTNH's first steps: gravel is mined (it never drops
// flint), 3 gravel are crafted into each flint, logs are chopped and 2
// flint and 2 logs make the crafting table, for several seeds.
func TestFreshStartCraftingTable(t *testing.T) {
	for _, seed := range []string{"0", "2", "3"} {
		t.Run("seed "+seed, func(t *testing.T) {
			args := []string{"run", "--scenario", "fresh_start", "--goal", "have 1 minecraft:crafting_table"}
			if seed != "0" {
				args = append(args, "--seed", seed)
			}
			code, stdout, stderr := runAgent(t, args...)
			require.Equal(t, exitOK, code, "%s\n%s", stdout, stderr)
			assert.Contains(t, stdout, "goal met")
			assert.Contains(t, stdout, "mine_block")
			assert.Contains(t, stdout, "target=minecraft:gravel")
			assert.Contains(t, stdout, "item=minecraft:flint")
			assert.Contains(t, stdout, "-6 minecraft:gravel", "3 gravel per flint, 2 flint")
			assert.Contains(t, stdout, "+1 minecraft:crafting_table, -2 minecraft:flint, -2 minecraft:log")
			assert.NotContains(t, stdout, "+1 minecraft:flint,", "no flint straight from gravel")
			for _, line := range strings.Split(stdout, "\n") {
				if strings.Contains(line, "target=minecraft:gravel") {
					assert.Contains(t, line, "+1 minecraft:gravel", fmt.Sprintf("gravel gives gravel: %s", line))
				}
			}
		})
	}
}

// TestFreshStartFurnace: GTNH's "Fire, Fire, Grandpa!" from an empty
// inventory: a wooden pickaxe mines stone into cobblestone, and 6
// cobblestone around 3 flint make the furnace at the crafting table.
func TestFreshStartFurnace(t *testing.T) {
	code, stdout, stderr := runAgent(t, "run", "--scenario", "fresh_start", "--goal", "have 1 minecraft:furnace")
	require.Equal(t, exitOK, code, "%s\n%s", stdout, stderr)
	assert.Contains(t, stdout, "goal met")
	assert.Contains(t, stdout, "+1 minecraft:wooden_pickaxe")
	assert.Contains(t, stdout, "mine_ore target=minecraft:stone")
	assert.Contains(t, stdout, "-6 minecraft:cobblestone, -3 minecraft:flint, +1 minecraft:furnace")
}

// TestFreshStartSmeltsStone: GTNH's "Basic Processing" from an empty
// inventory: the crafted furnace is placed, fuelled with planks and
// smelts cobblestone into stone.
func TestFreshStartSmeltsStone(t *testing.T) {
	code, stdout, stderr := runAgent(t, "run", "--scenario", "fresh_start", "--goal", "have 3 minecraft:stone")
	require.Equal(t, exitOK, code, "%s\n%s", stdout, stderr)
	assert.Contains(t, stdout, "goal met")
	assert.Contains(t, stdout, "smelt count=3 item=minecraft:stone")
	assert.Contains(t, stdout, "-3 minecraft:cobblestone, -1 minecraft:furnace, -2 minecraft:planks, +3 minecraft:stone")
}
