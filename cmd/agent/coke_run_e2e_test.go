package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// cokeRun runs `agent run --goal "run maintain_coke_ovens"` against the
// steam-age test server, whose formed coke oven holds what output says,
// and returns the server, the exit code, the output and the trace's steps.
// The bot knows the oven only from Railcraft's tile messages, which carry
// no contents: it has to open the oven to see what it holds.
func cokeRun(t *testing.T, format string, output fakeserver.Item) (*fakeserver.Server, int, string, []loop.StepRecord) {
	t.Helper()
	const tick = 5 * time.Millisecond
	o := fakeserver.Options{TickDuration: tick, Inventory: []fakeserver.Item{
		{Slot: 36, Name: "minecraft:iron_axe", Count: 1}, {Slot: 37, Name: "minecraft:coal", Count: 32}}}
	if format == "vanilla" {
		o.Mods = fakeserver.WithoutMod(fakeserver.DefaultMods(), "neid")
	}
	fakeserver.SteamAge(&o)
	require.Len(t, o.CokeOvens, 1)
	o.CokeOvens[0].Output = output
	srv, err := fakeserver.New(o)
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	code, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot",
		"--goal", "run maintain_coke_ovens", "--config-file", agentYAML(t, tick), "--trace", trace, "--max-steps", "6")
	data, err := os.ReadFile(trace)
	require.NoError(t, err, "stdout:\n%s\nstderr:\n%s", out, errOut)
	var steps []loop.StepRecord
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec loop.StepRecord
		require.NoError(t, json.Unmarshal([]byte(line), &rec))
		steps = append(steps, rec)
	}
	return srv, code, out + errOut, steps
}

// TestRunMaintainCokeOvensOnAFakeServer: `run maintain_coke_ovens` alone,
// on a fresh connection, reaches its declared effects: the bot looks into
// the oven whose contents it does not know (a step that collects nothing,
// so not a success), then collects the coke it saw. The server's oven lost
// its coke and the server's player gained it, in both chunk formats.
func TestRunMaintainCokeOvensOnAFakeServer(t *testing.T) {
	for _, format := range []string{"neid", "vanilla"} {
		t.Run(format, func(t *testing.T) {
			srv, code, out, steps := cokeRun(t, format, fakeserver.Item{Name: fakeserver.CokeItem, Count: 12})
			require.Equal(t, exitOK, code, out)
			assert.Contains(t, out, "goal met")
			require.Len(t, steps, 2, out)
			assert.Equal(t, loop.EffectsUnmet, steps[0].Verdict, "looking into the oven collects nothing")
			assert.Equal(t, loop.Success, steps[1].Verdict, "%+v", steps[1])
			items, _ := srv.ContainerItems(master)
			assert.NotContains(t, items, "output", "the server's output slot was emptied")
			assert.Equal(t, 12, player(t, srv).Count(fakeserver.CokeItem), "the coke is in the player's inventory on the server")
		})
	}
}

// TestRunMaintainCokeOvensEmptyOven: an oven that turns out empty when
// looked into is no success: the goal is not met.
func TestRunMaintainCokeOvensEmptyOven(t *testing.T) {
	srv, code, out, steps := cokeRun(t, "neid", fakeserver.Item{})
	assert.NotEqual(t, exitOK, code, out)
	assert.NotContains(t, out, "goal met")
	require.Len(t, steps, 2, out)
	assert.Equal(t, loop.EffectsUnmet, steps[0].Verdict, "looking into the oven collects nothing")
	assert.Equal(t, loop.Noop, steps[1].Verdict, "the oven is known to be empty: nothing to do")
	for _, s := range steps {
		assert.NotEqual(t, loop.Success, s.Verdict, "%+v", s)
	}
	assert.Zero(t, player(t, srv).Count(fakeserver.CokeItem))
}
