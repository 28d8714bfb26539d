package main

import (
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// FuzzParseAgentConfig: agent.yaml either parses into settings within their
// documented ranges or fails with located errors naming the file.
func FuzzParseAgentConfig(f *testing.F) {
	for _, s := range []string{
		"server:\n  address: gtnh.example.org:25565\n  username: Bot\n  operators: [Alice]\n  command_prefix: \"!bot \"\n  command_burst: 3\n  commands_per_minute: 6\n  view_distance: 8\n  tick: 50ms\n  break_factor: 1.25\n  collect_drops: true\n  timeouts: {dial: 10s, login: 60s, read: 30s, action: 2m}\n  reconnect: {enabled: true, initial: 1s, max: 1m, multiplier: 2, jitter: 0.1, max_attempts: 0}\nrun:\n  goal: \"collect 16 minecraft:log\"\n  max_steps: 100\n  max_ticks: 0\n  trace: run.jsonl\n",
		"server:\n  auth: {session_url: https://sessionserver.mojang.com, player: Steve, profile_id: 0123456789abcdef0123456789abcdef, access_token_env: GTNH_ACCESS_TOKEN}\n",
		"server:\n  auth: {microsoft: true, client_id: 00000000-0000-0000-0000-000000000000, token_cache: login.json}\n",
		"server:\n  auth: {microsoft: yes, player: Steve}\n",
		"", "~\n", "run: {max_steps: 0}\n", "server: {view_distance: 1}\n", "server: {reconnect: {initial: 2m, max: 1s}}\n",
		"server: {username: \"bad name!\"}\n", "server: {tick: -1s}\n", "sever: {}\n", "- a\n",
	} {
		f.Add("agent.yaml", []byte(s))
	}
	f.Fuzz(func(t *testing.T, file string, data []byte) {
		cfg, err := parseAgentConfig(file, data)
		if err != nil {
			for _, e := range strictyaml.Flatten(file, err) {
				if e.File != file || e.Msg == "" {
					t.Fatalf("error does not name %q or has no message: %#v", file, e)
				}
			}
			return
		}
		s, r := cfg.Server, cfg.Run
		switch {
		case cfg.File != file:
			t.Fatalf("File = %q", cfg.File)
		case s.ViewDistance != 0 && (s.ViewDistance < 2 || s.ViewDistance > 32):
			t.Fatalf("accepted view_distance %d", s.ViewDistance)
		case s.BreakFactor != 0 && (s.BreakFactor < 0.7 || s.BreakFactor > 10):
			t.Fatalf("accepted break_factor %v", s.BreakFactor)
		case s.Tick < 0 || s.Dial < 0 || s.Login < 0 || s.Read < 0 || s.Action < 0:
			t.Fatal("accepted a negative duration")
		case s.Reconnect.Initial > 0 && s.Reconnect.Max > 0 && s.Reconnect.Initial > s.Reconnect.Max:
			t.Fatal("accepted reconnect initial > max")
		case s.Reconnect.Jitter < 0 || s.Reconnect.Jitter > 1 || s.Reconnect.MaxAttempts < 0:
			t.Fatal("accepted reconnect jitter or max_attempts out of range")
		case r.MaxSteps < 0 || r.MaxTicks < 0:
			t.Fatal("accepted negative run budgets")
		case s.CommandBurst < 0 || s.CommandsPerMinute < 0:
			t.Fatal("accepted negative command limits")
		}
	})
}
