package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/race"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFreshStartCraftingTable: from an empty inventory in the embedded
// fresh_start world, GTNH's first steps: gravel is mined (it never drops
// flint), 3 gravel are crafted into each flint, logs are chopped and 2
// flint and 2 logs make the crafting table, for several seeds.
func TestFreshStartCraftingTable(t *testing.T) {
	race.SkipOneGoroutine(t, "a simulated run in process")
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
	race.SkipOneGoroutine(t, "a simulated run in process")
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
	race.SkipOneGoroutine(t, "a simulated run in process")
	code, stdout, stderr := runAgent(t, "run", "--scenario", "fresh_start", "--goal", "have 3 minecraft:stone")
	require.Equal(t, exitOK, code, "%s\n%s", stdout, stderr)
	assert.Contains(t, stdout, "goal met")
	assert.Contains(t, stdout, "smelt count=3 item=minecraft:stone")
	assert.Contains(t, stdout, "-3 minecraft:cobblestone, -1 minecraft:furnace, -2 minecraft:planks, +3 minecraft:stone")
}

// TestFreshStartPaper: GTNH's "Something to Carry Liquids" and "Book
// Parts" from an empty inventory: the mortar grinds clay balls into clay
// dust, 5 dust make the clay bucket at the crafting table, the furnace
// fires it, it is filled at the lake, and 8 wood pulp around it make 2
// paper, the empty bucket coming back. Some seeds need move_to's digging
// on the way: to stone under the grass once the outcrop is mined out, and
// out of the pit that leaves.
func TestFreshStartPaper(t *testing.T) {
	race.SkipOneGoroutine(t, "a simulated run in process")
	for _, seed := range []string{"1", "2", "3", "4", "5"} {
		t.Run("seed "+seed, func(t *testing.T) {
			code, stdout, stderr := runAgent(t, "run", "--scenario", "fresh_start", "--seed", seed, "--goal", "have 2 minecraft:paper")
			require.Equal(t, exitOK, code, "%s\n%s", stdout, stderr)
			assert.Contains(t, stdout, "goal met")
			assert.Contains(t, stdout, "+20 gregtech:gt.metaitem.01:1805, -20 minecraft:clay_ball", "a clay ball a small pile")
			assert.Contains(t, stdout, "-20 gregtech:gt.metaitem.01:1805, +5 gregtech:gt.metaitem.01:2805", "4 small piles a dust")
			assert.Contains(t, stdout, "+1 IguanaTweaksTConstruct:clayBucketUnfired, -5 gregtech:gt.metaitem.01:2805", "5 clay dust a bucket")
			assert.Contains(t, stdout, "+1 IguanaTweaksTConstruct:clayBucketFired, -1 IguanaTweaksTConstruct:clayBucketUnfired")
			assert.Contains(t, stdout, "fill_clay_bucket")
			assert.NotContains(t, stdout, "effects_unmet", "every step did what its skill declares")
			assert.Contains(t, stdout, "+1 IguanaTweaksTConstruct:clayBucketFired, -1 IguanaTweaksTConstruct:clayBucketWater, -8 gregtech:gt.metaitem.01:2809, +2 minecraft:paper",
				"8 wood pulp around the bucket of water make 2 paper, and the bucket comes back")
		})
	}
}

// TestFreshStartBrickForm: GTNH's "Forming Press v0.1" from an empty
// inventory: 4 paper (two batches from one clay bucket, filled twice)
// make the blank pattern, and the flint knife cuts it into the wooden
// brick form.
func TestFreshStartBrickForm(t *testing.T) {
	race.SkipOneGoroutine(t, "a simulated run in process")
	for _, seed := range []string{"1", "2", "3", "4", "5"} {
		t.Run("seed "+seed, func(t *testing.T) {
			code, stdout, stderr := runAgent(t, "run", "--scenario", "fresh_start", "--seed", seed, "--goal", "have 1 dreamcraft:item.WoodenBrickForm")
			require.Equal(t, exitOK, code, "%s\n%s", stdout, stderr)
			assert.Contains(t, stdout, "goal met")
			assert.Equal(t, 1, strings.Count(stdout, "+1 IguanaTweaksTConstruct:clayBucketUnfired"), "one clay bucket, refilled")
			assert.Equal(t, 2, strings.Count(stdout, "+2 minecraft:paper"), "two batches of paper")
			assert.Contains(t, stdout, "+1 TConstruct:blankPattern, -4 minecraft:paper")
			assert.Contains(t, stdout, "+1 dreamcraft:item.WoodenBrickForm")
		})
	}
}

// TestFreshStartCokeOvenMilestone: the Stone Age from an empty inventory to
// the end: 104 coke oven bricks (35 batches of 3 clay balls, 5 sand and
// the form, each fired), 26 coke oven blocks, the oven built by the bot and
// formed, and 8 charcoal out of it, for five worlds.
func TestFreshStartCokeOvenMilestone(t *testing.T) {
	race.SkipOneGoroutine(t, "a simulated run in process")
	for _, seed := range []string{"1", "2", "3", "4", "5"} {
		t.Run("seed "+seed, func(t *testing.T) {
			code, stdout, stderr := runAgent(t, "run", "--scenario", "fresh_start", "--seed", seed, "--max-steps", "600",
				"--goal", "build coke_oven and collect 8 minecraft:coal:1")
			require.Equal(t, exitOK, code, "%s\n%s", stdout, stderr)
			assert.Contains(t, stdout, "goal met")
			assert.Contains(t, stdout, "+26 Railcraft:machine.alpha:7, -104 dreamcraft:item.CokeOvenBrick")
			assert.Contains(t, stdout, "build_structure name=coke_oven")
			assert.Equal(t, 1, strings.Count(stdout, "+1 IguanaTweaksTConstruct:clayBucketUnfired"), "one clay bucket")
			assert.NotContains(t, stdout, "effects_unmet")
		})
	}
}
