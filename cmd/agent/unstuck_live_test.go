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

// stoneBox walls the spawn (8, 64, 8) in with stone on all four sides and
// above: a pocket one block wide and two high.
func stoneBox() []fakeserver.Block {
	var out []fakeserver.Block
	for y := 64; y <= 66; y++ {
		for x := 7; x <= 9; x++ {
			for z := 7; z <= 9; z++ {
				if y < 66 && x == 8 && z == 8 {
					continue
				}
				out = append(out, fakeserver.Block{X: x, Y: y, Z: z, Name: "minecraft:stone"})
			}
		}
	}
	return out
}

// TestUnstuckLive: agent run against the test server with the bot walled
// in by stone and a plan that only waits. With the default configuration
// the unstuck reflex fires after more than 30 s of game time without
// progress, and the bot digs its way out with the pickaxe it holds (every
// dig accepted by the server), then the plan goes on; turned off in
// agent.yaml, the bot stays in its box. The shelter reflex, which climbs
// out of a box by day at once, is off.
func TestUnstuckLive(t *testing.T) {
	run := func(t *testing.T, extraConfig string) (*fakeserver.Server, []loop.StepRecord, string) {
		srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: steamTick, Trees: []fakeserver.Tree{},
			Blocks: stoneBox(), Inventory: []fakeserver.Item{{Slot: 36, Name: "minecraft:wooden_pickaxe", Count: 1}}}))
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		dir := t.TempDir()
		cfg := agentYAML(t, steamTick)
		if extraConfig != "" {
			data, err := os.ReadFile(cfg)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(cfg, append(data, extraConfig...), 0o644))
		}
		script := filepath.Join(dir, "script.yaml")
		require.NoError(t, os.WriteFile(script, []byte("- {skill: wait_for, params: {duration: 400}}\n- {skill: wait_for, params: {duration: 300}}\n- {skill: wait_for, params: {duration: 20}}\n"), 0o644))
		trace := filepath.Join(dir, "trace.jsonl")
		code, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot", "--goal", "collect 1 minecraft:log",
			"--planner", "script", "--script", script, "--config-file", cfg, "--trace", trace, "--max-steps", "8")
		require.NotEqual(t, exitUsage, code, out+errOut)
		data, err := os.ReadFile(trace)
		require.NoError(t, err, out+errOut)
		var recs []loop.StepRecord
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var rec loop.StepRecord
			require.NoError(t, json.Unmarshal([]byte(line), &rec))
			recs = append(recs, rec)
		}
		return srv, recs, string(data)
	}
	// The box stands by day: the shelter reflex would climb out of it at
	// once, before any wait; this test is the unstuck reflex's.
	const noShelter = "survival:\n  shelter: {enabled: false}\n"
	kinds := func(recs []loop.StepRecord) []string {
		var out []string
		for _, r := range recs {
			s := r.Invocation.Skill + "/" + string(r.Verdict)
			if r.Reflex != nil {
				s = r.Reflex.Name + ":" + s
			}
			out = append(out, s)
		}
		return out
	}
	t.Run("on by default", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			srv, recs, trace := run(t, noShelter)
			require.Equal(t, []string{"wait_for/success", "wait_for/success", "unstuck:unstuck/success", "wait_for/success"}, kinds(recs), trace)
			u := recs[2]
			assert.Contains(t, u.Reflex.Reason, "s of game time (")
			assert.Contains(t, u.Reflex.Reason, "more than 30 s")
			p := player(t, srv).Pos
			assert.Less(t, p.Z, 7.0, "north of the box: %v", p)
			var dug int
			for _, d := range srv.Digs() {
				if d.Block == "minecraft:stone" && d.Accepted {
					dug++
				}
			}
			assert.Positive(t, dug, "dug through the wall on the server")
			assert.Empty(t, srv.Refusals())
		})
	})
	t.Run("off", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			srv, recs, trace := run(t, noShelter+"  unstuck: {enabled: false}\n")
			require.Equal(t, []string{"wait_for/success", "wait_for/success", "wait_for/success"}, kinds(recs), trace)
			p := player(t, srv).Pos
			assert.Equal(t, 8.5, p.Z)
			assert.Empty(t, srv.Digs())
		})
	})
}
