package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// agentYAML writes a config file that runs the client at the fake server's
// fast tick.
func agentYAML(t *testing.T, tick time.Duration) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "agent.yaml")
	require.NoError(t, os.WriteFile(file, []byte("server:\n  tick: "+tick.String()+"\n  timeouts: {dial: 5s, login: 20s, read: 20s, action: 60s}\n"), 0o644))
	return file
}

// TestRunOnAFakeGTNHServer is the end-to-end run of issue 4: `agent run`
// joins the scripted GTNH server (ping with modinfo, login, FML handshake
// with a multi-part registry, NEID chunks with trees), chops a tree with
// server-validated dig timing, collects the dropped logs and ends with them
// in its inventory — and the same with vanilla chunk formats.
func TestRunOnAFakeGTNHServer(t *testing.T) {
	const tick = 5 * time.Millisecond
	cases := []struct {
		name string
		opts fakeserver.Options
	}{
		{"neid multipart registry", fakeserver.Options{Registry: fakeserver.RegistryMultipart, TickDuration: tick}},
		{"vanilla formats", fakeserver.Options{Mods: fakeserver.WithoutMod(fakeserver.DefaultMods(), "neid"), TickDuration: tick}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, err := fakeserver.New(inMemory(tc.opts))
				require.NoError(t, err)
				defer srv.Close()
				trace := filepath.Join(t.TempDir(), "trace.jsonl")
				code, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot",
					"--goal", "collect 4 minecraft:log", "--config-file", agentYAML(t, tick), "--trace", trace, "--max-steps", "10")
				require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
				assert.Contains(t, out, "chop_tree")
				assert.Contains(t, out, "goal met")
				assert.Empty(t, srv.Kicks())
				accepted := 0
				for _, d := range srv.Digs() {
					assert.True(t, d.Accepted, "every dig finished after the server's 70%% rule: %+v", d)
					if d.Accepted {
						accepted++
					}
				}
				assert.GreaterOrEqual(t, accepted, 4, "the server broke at least four logs for the bot")
				data, err := os.ReadFile(trace)
				require.NoError(t, err)
				assert.Contains(t, string(data), `"verdict":"success"`)
				var last loop.StepRecord
				lines := strings.Split(strings.TrimSpace(string(data)), "\n")
				require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &last))
				require.NotNil(t, last.After)
				assert.GreaterOrEqual(t, last.After.Inventory["minecraft:log"], 4, "the logs the server gave are in the inventory")
			})
		})
	}
}

// TestRunAgainstAMisbehavingServer: a kick or broken handshake ends the run
// with a clear error and exit 1.
func TestRunAgainstAMisbehavingServer(t *testing.T) {
	const tick = 5 * time.Millisecond
	cases := []struct {
		name string
		opts fakeserver.Options
		want string
	}{
		{"kick at login", fakeserver.Options{Faults: fakeserver.Faults{KickAt: fakeserver.StageLogin, KickReason: "You are banned"}, TickDuration: tick}, "You are banned"},
		{"kick while joining", fakeserver.Options{Faults: fakeserver.Faults{KickAt: fakeserver.StageChunks, KickReason: "Server closed"}, TickDuration: tick}, "Server closed"},
		{"wrong handshake order", fakeserver.Options{Faults: fakeserver.Faults{WrongHandshakeOrder: true}, TickDuration: tick}, "handshake"},
		{"truncated registry", fakeserver.Options{Faults: fakeserver.Faults{TruncateAt: fakeserver.StageRegistry}, TickDuration: tick}, "gtnh"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, err := fakeserver.New(inMemory(tc.opts))
				require.NoError(t, err)
				defer srv.Close()
				code, _, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot",
					"--goal", "collect 4 minecraft:log", "--config-file", agentYAML(t, tick))
				assert.Equal(t, exitFail, code, errOut)
				assert.Contains(t, errOut, tc.want)
			})
		})
	}
}
