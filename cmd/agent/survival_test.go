package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
)

func TestSurvivalSection(t *testing.T) {
	six, ten := loop.EatReflex{Threshold: 6}, loop.EatReflex{Threshold: 10}
	for _, c := range []struct {
		name, file string
		want       []loop.Reflex
	}{
		{"no file section: on", "run: {max_steps: 5}\n", []loop.Reflex{six}},
		{"empty section: on", "survival: {}\n", []loop.Reflex{six}},
		{"threshold", "survival:\n  eat: {threshold: 10}\n", []loop.Reflex{ten}},
		{"threshold 0", "survival:\n  eat: {threshold: 0}\n", []loop.Reflex{loop.EatReflex{Threshold: 0}}},
		{"off", "survival:\n  eat: {enabled: false}\n", nil},
		{"on", "survival:\n  eat: {enabled: true}\n", []loop.Reflex{six}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := parseAgentConfig("agent.yaml", []byte(c.file))
			require.NoError(t, err)
			assert.Equal(t, c.want, cfg.Survival.reflexes())
		})
	}
	assert.Equal(t, []loop.Reflex{six}, (&agentConfig{}).Survival.reflexes(), "no config file: the eat reflex is on")
	for _, c := range []struct{ file, want string }{
		{"survival:\n  eat: {threshold: 20}\n", "agent.yaml:2:20: survival.eat.threshold: must be within 0..19, got 20"},
		{"survival:\n  eat: {enabled: maybe}\n", "survival.eat.enabled"},
		{"survival:\n  flee: {enabled: true}\n", "flee"},
	} {
		_, err := parseAgentConfig("agent.yaml", []byte(c.file))
		require.Error(t, err, c.file)
		assert.Contains(t, err.Error(), c.want)
	}
}

const hungryScenario = `name: hungry
seed: 11
size: {x: 32, z: 32}
generator: flat
ground_y: 63
hunger: true
player:
  pos: [8, 64, 8]
  food: 4
  inventory: [{item: "minecraft:bread", count: 3}]
trees:
  - {at: [12, 12], height: 5}
`

// TestRunEatsByDefault: agent run in a world where the bot is hungry
// eats first (the trace's first step is the eat reflex's), and a config
// file turns the reflex off.
func TestRunEatsByDefault(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"hungry.yaml": hungryScenario, "off.yaml": "survival:\n  eat: {enabled: false}\n"})
	trace := filepath.Join(dir, "on.jsonl")
	code, out, errOut := runAgent(t, "run", "--scenario", filepath.Join(dir, "hungry.yaml"), "--goal", "collect 2 minecraft:log", "--max-steps", "6", "--trace", trace)
	require.Equal(t, exitOK, code, errOut+out)
	data, err := os.ReadFile(trace)
	require.NoError(t, err)
	first := strings.SplitN(string(data), "\n", 2)[0]
	assert.Contains(t, first, `"skill":"eat"`)
	assert.Contains(t, first, `"reflex":{"name":"eat","reason":"food 4 is at or below 6 and the inventory holds food"}`)

	trace = filepath.Join(dir, "off.jsonl")
	code, out, errOut = runAgent(t, "run", "--config-file", filepath.Join(dir, "off.yaml"), "--scenario", filepath.Join(dir, "hungry.yaml"), "--goal", "collect 2 minecraft:log", "--max-steps", "6", "--trace", trace)
	require.Equal(t, exitOK, code, errOut+out)
	data, err = os.ReadFile(trace)
	require.NoError(t, err)
	assert.NotContains(t, string(data), `"reflex"`)
}
