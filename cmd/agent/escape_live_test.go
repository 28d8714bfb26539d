package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// poolServer is the test server with the bot at the bottom of a pool two
// deep and three wide, dug into the ground at the spawn: its eyes under
// water. No trees: nothing calls it out of the water but its breath.
func poolServer(t *testing.T) *fakeserver.Server {
	t.Helper()
	var blocks []fakeserver.Block
	for x := 7; x <= 9; x++ {
		for z := 7; z <= 9; z++ {
			for y := 62; y <= 63; y++ {
				blocks = append(blocks, fakeserver.Block{X: x, Y: y, Z: z, Name: "minecraft:water"})
			}
		}
	}
	srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: steamTick, Trees: []fakeserver.Tree{},
		Blocks: blocks, Spawn: [3]float64{8.5, 62, 8.5}}))
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

// runWaiting runs the agent on srv with a script that only waits (twelve
// waits of 5 s: a minute under water) and the survival section given.
func runWaiting(t *testing.T, srv *fakeserver.Server, survival string) []loop.StepRecord {
	t.Helper()
	dir := t.TempDir()
	cfg := agentYAML(t, steamTick)
	data, err := os.ReadFile(cfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cfg, append(data, survival...), 0o644))
	script := filepath.Join(dir, "waits.yaml")
	require.NoError(t, os.WriteFile(script, []byte(strings.Repeat("- {skill: wait_for, params: {duration: 100}}\n", 12)), 0o644))
	trace := filepath.Join(dir, "trace.jsonl")
	_, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot", "--goal", "collect 64 minecraft:log",
		"--planner", "script", "--script", script, "--config-file", cfg, "--max-steps", "14", "--trace", trace)
	lines, err := os.ReadFile(trace)
	require.NoError(t, err, out+errOut)
	var recs []loop.StepRecord
	for _, line := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		var rec loop.StepRecord
		require.NoError(t, json.Unmarshal([]byte(line), &rec))
		recs = append(recs, rec)
	}
	return recs
}

// TestEscapeFromWaterLive: on the test server, which runs the air supply
// and drowning as 1.7.10 does and sends the air in the player's metadata,
// the escape reflex takes the bot out of the pool when its air is down to
// 150 ticks, and the bot never drowns.
func TestEscapeFromWaterLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := poolServer(t)
		recs := runWaiting(t, srv, "survival:\n  shelter: {enabled: false}\n  unstuck: {enabled: false}\n")
		var escaped bool
		for _, r := range recs {
			if r.Reflex != nil && r.Reflex.Name == "escape" {
				escaped = true
				assert.Contains(t, r.Reflex.Reason, "ticks of air left, at or below 150")
				assert.Equal(t, loop.Success, r.Verdict, r.Error)
			}
		}
		assert.True(t, escaped, "an escape step: %+v", recs)
		assert.Empty(t, srv.Deaths(), "never drowned")
		assert.GreaterOrEqual(t, player(t, srv).Pos.Y, 64.0, "on the shore")
		last := recs[len(recs)-1]
		assert.Equal(t, 20.0, last.After.Health, "out before the first drowning hit")
		assert.Len(t, recs, 13, "the twelve waits and the escape")
	})
}

// TestDrowningLive: the same minute under water with the escape reflex
// off drowns the bot on the test server; the trace gives the cause as the
// server's death message told it.
func TestDrowningLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := poolServer(t)
		recs := runWaiting(t, srv, "survival:\n  shelter: {enabled: false}\n  unstuck: {enabled: false}\n  escape: {enabled: false}\n")
		d := srv.Deaths()
		require.NotEmpty(t, d, "drowned")
		assert.Equal(t, "drowning", d[0].Cause)
		var causes []any
		for _, r := range recs {
			for _, res := range r.Results {
				if died, _ := res.Details["died"].(bool); died {
					causes = append(causes, res.Details["death_cause"])
					assert.Contains(t, r.Error, "Bot drowned", "the step's error says why")
				}
			}
		}
		require.NotEmpty(t, causes, "a step that died: %+v", recs)
		assert.Equal(t, "Bot drowned", causes[0], "death.attack.drown, as the server said it")
	})
}

// lavaServer is the test server with the bot standing in a pool of lava
// one deep at the spawn, and a puddle of water three blocks away.
func lavaServer(t *testing.T) *fakeserver.Server {
	t.Helper()
	srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: steamTick, Trees: []fakeserver.Tree{},
		Blocks: []fakeserver.Block{{X: 8, Y: 63, Z: 8, Name: "minecraft:lava"}, {X: 11, Y: 63, Z: 8, Name: "minecraft:water"}}, Spawn: [3]float64{8.5, 63, 8.5}}))
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

// TestEscapeFromLavaLive: in lava on the test server (4 every 10 ticks
// and 15 s of fire after, by Update Health), the escape reflex steps out
// at once, before the plan's first wait, into the puddle that puts the
// fire out, and the bot lives; with it off the lava kills the bot, and
// what it held burns in the lava: the recover reflex leaves it.
func TestEscapeFromLavaLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := lavaServer(t)
		recs := runWaiting(t, srv, "survival:\n  shelter: {enabled: false}\n  unstuck: {enabled: false}\n")
		require.NotEmpty(t, recs)
		require.NotNil(t, recs[0].Reflex, "the first step is the escape")
		assert.Equal(t, "escape", recs[0].Reflex.Name)
		assert.Contains(t, recs[0].Reflex.Reason, "in lava")
		assert.Equal(t, loop.Success, recs[0].Verdict, recs[0].Error)
		assert.Empty(t, srv.Deaths(), "the lava and the fire after it did not kill it")
		assert.Positive(t, recs[len(recs)-1].After.Health)
		assert.Equal(t, world.Pos(11, 63, 8), player(t, srv).Pos.Block(), "in the puddle")

		srv = lavaServer(t)
		recs = runWaiting(t, srv, "survival:\n  shelter: {enabled: false}\n  unstuck: {enabled: false}\n  escape: {enabled: false}\n")
		d := srv.Deaths()
		require.NotEmpty(t, d, "burned")
		assert.Equal(t, "lava", d[0].Cause)
		// What it held fell into the lava and burned there (EntityItem in
		// lava): nothing lies there, and the recover reflex does not walk
		// back into the lava for it.
		require.NotEmpty(t, srv.BurnedItems(), "the axe burned")
		assert.Equal(t, "minecraft:iron_axe", srv.BurnedItems()[0].Item.Name)
		assert.Empty(t, srv.DroppedItems())
		for _, r := range recs {
			if r.Reflex != nil {
				assert.NotEqual(t, "recover", r.Reflex.Name, "no walk back for burned items: %+v", r)
			}
		}
	})
}
