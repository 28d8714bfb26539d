package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// milestoneGoal is the Stone Age milestone: a coke oven the bot built
// itself, formed, and 8 charcoal taken out of it.
const milestoneGoal = "build coke_oven and collect 8 minecraft:coal:1"

// milestoneChecks are what every live run to the milestone must show on
// the server: the oven formed, the charcoal cooked by it and held by the
// player, and nothing refused, corrected or kicked.
func milestoneChecks(t *testing.T, srv *fakeserver.Server, code int, out string) {
	t.Helper()
	require.Equal(t, exitOK, code, out)
	assert.Contains(t, out, "goal met")
	assert.Len(t, srv.FormedCokeOvens(), 1, "the oven the bot built formed on the server")
	charcoal := 0
	for _, c := range srv.Coked() {
		if c.Item == "minecraft:coal:1" {
			charcoal += c.Count
		}
	}
	assert.GreaterOrEqual(t, charcoal, 8, "the server's oven cooked the charcoal")
	p := player(t, srv)
	held := 0
	for _, it := range p.Inventory {
		if it.Name == "minecraft:coal" && it.Damage == 1 {
			held += it.Count
		}
	}
	assert.GreaterOrEqual(t, held, 8, "the server's player holds the charcoal")
	assert.Empty(t, srv.Refusals(), "no dig, click, placement or move refused or corrected")
	assert.Empty(t, srv.Kicks())
}

// goalLine is the run's "goal met" line.
func goalLine(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "goal met") {
			return line
		}
	}
	return ""
}

// TestCokeOvenFromBricksLive: the end of the chain live, always on: from
// 26 coke oven blocks and no logs, the goal planner builds the Railcraft
// coke oven (it forms by the server's tile packets), chops logs, feeds the
// oven, waits while the server's oven cooks them by config/coke_oven.yaml
// (its cooking flag in the master's tile packet) and takes the 8 charcoal
// out once it stops.
func TestCokeOvenFromBricksLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := freshStartServer(t, liveSeed)
		o.Inventory = []fakeserver.Item{{Slot: 36, Name: "Railcraft:machine.alpha", Damage: 7, Count: 26}}
		srv, code, out, steps := steamAgeRun(t, o, milestoneGoal, 60)
		milestoneChecks(t, srv, code, out)
		assert.Contains(t, out, "build_structure name=coke_oven")
		assert.Contains(t, out, "feed_coke_ovens")
		t.Logf("%s (%d steps)", goalLine(out), len(steps))
	})
}

// TestBrickFormLive: the middle of the chain live, always on: from flint,
// stone, clay, logs and a furnace, the flint mortar (crafted with
// GregTech's stats) grinds clay dust and wood pulp and wears with every
// craft, the clay bucket is shaped, fired, filled at the lake by the
// player's look and gives its bucket back with the paper, and the flint
// knife cuts the wooden brick form, with no click the server refuses (the
// client predicts each worn tool's NBT).
func TestBrickFormLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := freshStartServer(t, liveSeed)
		o.Inventory = []fakeserver.Item{
			{Slot: 36, Name: "minecraft:crafting_table", Count: 1}, {Slot: 37, Name: "minecraft:furnace", Count: 1},
			{Slot: 38, Name: "minecraft:flint", Count: 4}, {Slot: 39, Name: "minecraft:stone", Count: 5},
			{Slot: 40, Name: "minecraft:clay_ball", Count: 24}, {Slot: 41, Name: "minecraft:log", Count: 16},
			{Slot: 42, Name: "minecraft:planks", Count: 8}, {Slot: 43, Name: "minecraft:stick", Count: 2},
		}
		srv, code, out, steps := steamAgeRun(t, o, "have 1 dreamcraft:item.WoodenBrickForm", 80)
		require.Equal(t, exitOK, code, out)
		assert.Contains(t, out, "goal met")
		assert.Contains(t, out, "fill_clay_bucket")
		assert.Equal(t, 1, player(t, srv).Count("dreamcraft:item.WoodenBrickForm"))
		var crafted []string
		for _, c := range srv.Crafts() {
			crafted = append(crafted, c.String())
		}
		all := strings.Join(crafted, ", ")
		for _, want := range []string{"1 gregtech:gt.metatool.01:24", "1 IguanaTweaksTConstruct:clayBucketUnfired",
			"2 minecraft:paper", "1 gregtech:gt.metatool.01:34", "1 dreamcraft:item.WoodenBrickForm"} {
			assert.Contains(t, all, want, "crafted on the server")
		}
		worn := false
		for _, it := range player(t, srv).Inventory {
			worn = worn || it.Name == "gregtech:gt.metatool.01" && it.Damage == 24 && it.ToolDamage > 0
		}
		assert.True(t, worn, "the server's mortar is worn (GT.ToolStats Damage)")
		assert.Empty(t, srv.Refusals(), "no click refused: every worn tool as the server has it")
		assert.Empty(t, srv.Kicks())
		t.Logf("%s (%d steps)", goalLine(out), len(steps))
	})
}

// TestStoneAgeMilestoneLive: GTNH's Stone Age from an empty inventory to
// the milestone, live against the test server in the fresh_start world of
// each seed in GTNH_LIVE_MILESTONE (a comma-separated list, e.g. "1" or
// "0,1,2,3,4,5"): gather, dig, craft in the grid and at the table, smelt,
// grind, fill the clay bucket, shape and fire 104 bricks, build the coke
// oven and take 8 charcoal out of it, with every dig, click and placement
// accepted. It takes tens of seconds a world, so it runs only when asked
// (scripts/milestone-live.sh); it logs steps, game ticks and wall time.
func TestStoneAgeMilestoneLive(t *testing.T) {
	seeds := os.Getenv("GTNH_LIVE_MILESTONE")
	if seeds == "" {
		t.Skip("set GTNH_LIVE_MILESTONE to the seeds to play (e.g. 1, or 0,1,2,3,4,5)")
	}
	for _, f := range strings.Split(seeds, ",") {
		seed, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		require.NoError(t, err, "GTNH_LIVE_MILESTONE: %q is no seed", f)
		t.Run("seed"+strconv.FormatInt(seed, 10), func(t *testing.T) {
			start := time.Now()
			var steps []loop.StepRecord
			var line string
			synctest.Test(t, func(t *testing.T) {
				var srv *fakeserver.Server
				var code int
				var out string
				srv, code, out, steps = steamAgeRun(t, freshStartServer(t, seed), milestoneGoal, 1000)
				milestoneChecks(t, srv, code, out)
				line = goalLine(out)
			})
			t.Logf("seed %d: %s; %d steps in the trace; wall time %.1f s", seed, line, len(steps), time.Since(start).Seconds())
		})
	}
}

// TestBuildCokeOvenFromAPitLive: the bot stands six blocks down, at the
// bottom of a night's shelter dug into a quarry's floor, with the 26 coke
// oven blocks: build_structure finds its site on the ground above, and the
// bot climbs out and builds the oven there, formed on the server, with
// nothing refused or corrected.
func TestBuildCokeOvenFromAPitLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := fakeserver.Options{TickDuration: steamTick, Spawn: [3]float64{8.5, 58, 8.5}, Trees: []fakeserver.Tree{},
			Inventory: []fakeserver.Item{{Slot: 36, Name: "Railcraft:machine.alpha", Damage: 7, Count: 26},
				{Slot: 37, Name: "minecraft:dirt", Count: 16}, {Slot: 38, Name: "minecraft:wooden_pickaxe", Count: 1}}}
		for y := 58; y <= 63; y++ {
			o.Blocks = append(o.Blocks, fakeserver.Block{X: 8, Y: y, Z: 8, Name: "minecraft:air"})
		}
		srv, code, out, steps := steamAgeRun(t, o, "build coke_oven", 10)
		require.Equal(t, exitOK, code, out)
		assert.Contains(t, out, "goal met")
		require.Len(t, srv.FormedCokeOvens(), 1, "the oven formed on the server")
		assert.Greater(t, srv.FormedCokeOvens()[0].Y, 63, "on the ground, not in the pit")
		assert.Empty(t, srv.Refusals())
		assert.Empty(t, srv.Kicks())
		t.Logf("%s (%d steps)", goalLine(out), len(steps))
	})
}
