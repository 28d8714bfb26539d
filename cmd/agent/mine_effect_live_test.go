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

// TestMineWithATooWeakToolFailsLive: live, mine_ore's effect is the
// target's drop. An iron ore (harvest level 1) lies in the stone ten
// blocks under the player, who has a wooden pickaxe (level 0): the route
// down digs dirt and stone into the inventory and the server breaks the
// ore, but drops nothing for it, so the step's effects are unmet (with
// any item gained, the tunnel's cobblestone would have passed it).
func TestMineWithATooWeakToolFailsLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: steamTick, Trees: []fakeserver.Tree{},
			Blocks:    []fakeserver.Block{{X: 8, Y: 53, Z: 8, Name: "minecraft:iron_ore"}},
			Inventory: []fakeserver.Item{{Slot: 36, Name: "minecraft:wooden_pickaxe", Count: 1}}}))
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		dir := t.TempDir()
		script := filepath.Join(dir, "script.yaml")
		require.NoError(t, os.WriteFile(script, []byte("- skill: mine_ore\n  params: {target: \"minecraft:iron_ore\"}\n"), 0o644))
		trace := filepath.Join(dir, "trace.jsonl")
		_, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot", "--goal", "have 1 minecraft:iron_ore",
			"--planner", "script", "--script", script, "--config-file", agentYAML(t, steamTick), "--trace", trace, "--max-steps", "1")
		data, err := os.ReadFile(trace)
		require.NoError(t, err, out+errOut)
		var rec loop.StepRecord
		require.NoError(t, json.Unmarshal([]byte(strings.SplitN(strings.TrimSpace(string(data)), "\n", 2)[0]), &rec))
		assert.Equal(t, loop.EffectsUnmet, rec.Verdict, "%s\n%s", rec.Error, out+errOut)
		assert.Positive(t, rec.After.Inventory["minecraft:cobblestone"], "the way down dug stone")
		name, _ := srv.BlockAt(8, 53, 8)
		assert.Equal(t, "minecraft:air", name, "the server broke the ore")
		assert.Zero(t, player(t, srv).Count("minecraft:iron_ore"), "and dropped nothing for a wooden pickaxe")
		assert.Empty(t, srv.Refusals())
	})
}
