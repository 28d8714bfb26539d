package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// steamTick is the test server's and the bot's tick in the steam-age runs.
const steamTick = 5 * time.Millisecond

// steamAgeOptions are the steam-age test server's options
// (fakeserver.SteamAge) in the named chunk format ("neid" or "vanilla"),
// with the player holding inv.
func steamAgeOptions(format string, inv ...fakeserver.Item) fakeserver.Options {
	o := fakeserver.Options{TickDuration: steamTick, Inventory: inv}
	if format == "vanilla" {
		o.Mods = fakeserver.WithoutMod(fakeserver.DefaultMods(), "neid")
	}
	fakeserver.SteamAge(&o)
	return o
}

// steamAgeRun starts a test server with o and runs `agent run --goal GOAL
// --max-steps N` against it with a trace; it returns the server, the exit
// code, stdout and stderr together, and the trace's steps.
func steamAgeRun(t *testing.T, o fakeserver.Options, goal string, maxSteps int) (*fakeserver.Server, int, string, []loop.StepRecord) {
	t.Helper()
	if o.Addr == "" {
		o.Addr = fakeserver.MemoryAddr() // in memory: the test runs in a synctest bubble
	}
	srv, err := fakeserver.New(o)
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	code, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot",
		"--goal", goal, "--config-file", agentYAML(t, steamTick), "--trace", trace, "--max-steps", strconv.Itoa(maxSteps))
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

// inMemory makes a test server listen in memory at an address of its own
// (unless the test chose one), for a test inside a synctest bubble: the
// agent reaches it through dialServer.
func inMemory(o fakeserver.Options) fakeserver.Options {
	if o.Addr == "" {
		o.Addr = fakeserver.MemoryAddr()
	}
	return o
}
