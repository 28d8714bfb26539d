package main

import (
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/badfiles"
)

// TestBadFilesAgentConfig: agent.yaml through the bad inputs.
func TestBadFilesAgentConfig(t *testing.T) {
	valid := []byte("server:\n  address: gtnh.example.org:25565\n  username: Bot\n  operators: [Alice]\n  view_distance: 8\n  timeouts: {dial: 10s, login: 60s, read: 30s, action: 2m}\n  reconnect: {enabled: true, initial: 1s, max: 1m}\nrun:\n  goal: \"collect 16 minecraft:log\"\n  max_steps: 100\n  trace: run.jsonl\n")
	badfiles.Run(t, badfiles.Loader{Name: "agent config", File: "agent.yaml", YAML: true,
		Valid: [][]byte{valid},
		Parse: func(f string, d []byte) error { _, err := parseAgentConfig(f, d); return err },
		Load:  func(p string) error { _, err := loadAgentConfig(p); return err }})
}
