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
)

// recoverScript walks the bot to the bottom of the pool, holds it there
// with one wait longer than its breath (600 ticks; it drowns at 500, and
// no reflex can cut a step short), then waits a second at a time.
const recoverScript = `- {skill: recover_drops, params: {x: 13, y: 61, z: 8}}
- {skill: wait_for, params: {duration: 600}}
` + `- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
`

// drownAndRecover runs the agent on the test server: a pool three deep five
// blocks east of the spawn, the bot holding an iron axe and 16
// cobblestone, the recover reflex on or off.
func drownAndRecover(t *testing.T, recover bool) (*fakeserver.Server, []loop.StepRecord) {
	t.Helper()
	var blocks []fakeserver.Block
	for x := 12; x <= 14; x++ {
		for z := 7; z <= 9; z++ {
			for y := 61; y <= 63; y++ {
				blocks = append(blocks, fakeserver.Block{X: x, Y: y, Z: z, Name: "minecraft:water"})
			}
		}
	}
	srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: steamTick, Trees: []fakeserver.Tree{}, Blocks: blocks,
		Inventory: []fakeserver.Item{{Slot: 36, Name: "minecraft:iron_axe", Count: 1}, {Slot: 37, Name: "minecraft:cobblestone", Count: 16}}}))
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	cfg := agentYAML(t, steamTick)
	data, err := os.ReadFile(cfg)
	require.NoError(t, err)
	survival := "survival:\n  shelter: {enabled: false}\n  unstuck: {enabled: false}\n"
	if !recover {
		survival += "  recover: {enabled: false}\n"
	}
	require.NoError(t, os.WriteFile(cfg, append(data, survival...), 0o644))
	script := filepath.Join(dir, "script.yaml")
	require.NoError(t, os.WriteFile(script, []byte(recoverScript), 0o644))
	trace := filepath.Join(dir, "trace.jsonl")
	_, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot", "--goal", "collect 64 minecraft:log",
		"--planner", "script", "--script", script, "--config-file", cfg, "--max-steps", "10", "--trace", trace)
	lines, err := os.ReadFile(trace)
	require.NoError(t, err, out+errOut)
	var recs []loop.StepRecord
	for _, line := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		var rec loop.StepRecord
		require.NoError(t, json.Unmarshal([]byte(line), &rec))
		recs = append(recs, rec)
	}
	return srv, recs
}

// TestRecoverAfterDeathLive: on the test server the bot drowns in a long
// wait at the bottom of a pool and respawns at the spawn with nothing; its
// axe and cobblestone lie where it died. The recover reflex walks back and
// picks them up (the server's Collect Item) while they last, and the
// escape reflex takes it out of the water again before it drowns twice.
func TestRecoverAfterDeathLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, recs := drownAndRecover(t, true)
		require.Len(t, srv.Deaths(), 1, "drowned once: %+v", recs)
		assert.Equal(t, "drowning", srv.Deaths()[0].Cause)
		var recovered bool
		for _, r := range recs {
			if r.Reflex != nil && r.Reflex.Name == "recover" {
				recovered = true
				assert.Equal(t, "recover_drops", r.Invocation.Skill)
				assert.Contains(t, r.Reflex.Reason, "holding 17 items")
				assert.Equal(t, loop.Success, r.Verdict, r.Error)
			}
		}
		require.True(t, recovered, "a recover step")
		p := player(t, srv)
		assert.Equal(t, 16, p.Count("minecraft:cobblestone"), "the cobblestone back, on the server")
		assert.Equal(t, 1, p.Count("minecraft:iron_axe"), "and the axe")
	})
}

// TestNoRecoverAfterDeathLive: the same death without the recover reflex
// leaves the items in the pool.
func TestNoRecoverAfterDeathLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, recs := drownAndRecover(t, false)
		require.NotEmpty(t, srv.Deaths(), "%+v", recs)
		p := player(t, srv)
		assert.Zero(t, p.Count("minecraft:cobblestone"))
		assert.Zero(t, p.Count("minecraft:iron_axe"))
	})
}
