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

// TestZombieAtNightLive is the survival benchmark on the test server: at
// midnight a zombie appears six blocks from the bot and comes for it while
// the bot is after logs with its iron axe. With the default reflexes (the
// night's shelter turned off, so the bot stays out in the dark) the defend
// reflex fights the zombie with attack actions the server counts, the bot
// survives, and the plan goes on to its goal.
func TestZombieAtNightLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := agentYAML(t, steamTick)
		data, err := os.ReadFile(cfg)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(cfg, append(data, "survival:\n  shelter: {enabled: false}\n"...), 0o644))
		srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: steamTick, StartTime: 18000,
			Mobs: []fakeserver.Mob{{Kind: "zombie", X: 2.5, Y: 64, Z: 8.5}}}))
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		trace := filepath.Join(t.TempDir(), "trace.jsonl")
		code, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot", "--goal", "collect 3 minecraft:log",
			"--config-file", cfg, "--max-steps", "30", "--trace", trace)
		require.Equal(t, exitOK, code, out+errOut)
		lines, err := os.ReadFile(trace)
		require.NoError(t, err)
		var fought, planned bool
		for _, line := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
			var rec loop.StepRecord
			require.NoError(t, json.Unmarshal([]byte(line), &rec))
			switch {
			case rec.Reflex != nil && rec.Reflex.Name == "defend" && rec.Invocation.Skill == "fight":
				fought = true
			case rec.Reflex == nil && fought:
				planned = true
			}
		}
		assert.True(t, fought, "a defend reflex step fought the zombie: %s", lines)
		assert.True(t, planned, "the plan went on after the fight")
		assert.Contains(t, out, "goal met")
		assert.Empty(t, srv.Deaths(), "the bot survived")
		var mine, taken int
		health := 20.0
		for _, h := range srv.Hits() {
			switch {
			case h.Attacker == "Bot":
				mine++
			case h.Target == "Bot":
				taken++
				health = h.HealthAfter
			}
		}
		ms := srv.Mobs()
		require.Empty(t, ms, "the zombie is dead and gone: %+v", ms)
		assert.GreaterOrEqual(t, mine, 4, "20 health at 6 a hit (iron axe)")
		assert.Positive(t, health, "the bot's health after the zombie's last hit")
		assert.GreaterOrEqual(t, player(t, srv).Count("minecraft:log"), 3, "the goal, on the server")
		t.Logf("the bot hit %d times and was hit %d times (health %.0f after the last)", mine, taken, health)
	})
}

// TestZombieAtNightWithoutDefenceLive: the same night with the defend
// reflex off: the bot never hits back, and the zombie keeps hitting it
// while it chops.
func TestZombieAtNightWithoutDefenceLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := agentYAML(t, steamTick)
		data, err := os.ReadFile(cfg)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(cfg, append(data, "survival:\n  shelter: {enabled: false}\n  defend: {enabled: false}\n"...), 0o644))
		srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: steamTick, StartTime: 18000,
			Mobs: []fakeserver.Mob{{Kind: "zombie", X: 2.5, Y: 64, Z: 8.5}}}))
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		_, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot", "--goal", "collect 3 minecraft:log",
			"--config-file", cfg, "--max-steps", "30")
		var mine, taken int
		for _, h := range srv.Hits() {
			switch {
			case h.Attacker == "Bot":
				mine++
			case h.Target == "Bot":
				taken++
			}
		}
		assert.Zero(t, mine, out+errOut)
		t.Logf("without the defend reflex: hit %d times, %d deaths, the zombie alive: %v", taken, len(srv.Deaths()), len(srv.Mobs()) > 0)
		assert.NotEmpty(t, srv.Mobs(), "the zombie is alive")
		assert.Greater(t, taken, 2, "hit more often than the bot that fights back (2 hits)")
	})
}
