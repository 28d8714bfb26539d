package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

func shippedRegistry(t *testing.T) *registry.Registry {
	t.Helper()
	reg, err := loadRegistry(config.FS, registry.Options{}, true)
	require.NoError(t, err)
	return reg
}

func TestRunNamesItems(t *testing.T) {
	var logs bytes.Buffer
	log := zerolog.New(&logs)
	simNames := newRunNames(shippedRegistry(t), sim.Names(), false, log)
	liveNames := newRunNames(shippedRegistry(t), rules.Default().Names, true, log)
	for _, n := range []*runNames{simNames, liveNames} {
		assert.NoError(t, n.Item("minecraft:log"))
		assert.NoError(t, n.Item("ore:plankWood"))
		assert.EqualError(t, n.Item("minecraft:lgo"), `unknown item "minecraft:lgo" (did you mean "minecraft:log"?)`,
			"vanilla ids are all known, on a server too")
		assert.EqualError(t, n.Item("ore:plankWod"), `unknown ore-dictionary name "ore:plankWod" (did you mean "ore:plankWood"?)`,
			"an item carries only the configured tags, on a server too")
	}
	// A mod item the configuration does not list: the simulated world has
	// only what the configuration defines; a server may have it.
	assert.EqualError(t, simNames.Item("IC2:itemCellWater"), `unknown item "IC2:itemCellWater"`)
	assert.Empty(t, logs.String())
	assert.NoError(t, liveNames.Item("IC2:itemCellWater"))
	assert.NoError(t, liveNames.Item("IC2:itemCellWater"))
	assert.Equal(t, 1, strings.Count(logs.String(), "IC2:itemCellWater"), "one warning per name: %s", logs.String())
	assert.Contains(t, logs.String(), `"level":"warn"`)
	assert.NoError(t, liveNames.block("somemod:machine"))
	assert.Error(t, simNames.block("somemod:machine"))
}

func TestRunNamesInvocations(t *testing.T) {
	n := newRunNames(shippedRegistry(t), sim.Names(), false, zerolog.Nop())
	ok := []loop.Invocation{
		{Skill: "chop_tree"},
		{Skill: "chop_tree", Params: map[string]any{"min_logs": 3, "require_axe": true}},
		{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:planks", "count": 4}},
		{Skill: "mine_block", Params: map[string]any{"target": "minecraft:gravel"}},
	}
	for _, inv := range ok {
		assert.NoError(t, n.Invocation(inv), inv.String())
	}
	for _, tc := range []struct {
		inv  loop.Invocation
		want string
	}{
		{loop.Invocation{Skill: "chop_tre"}, `unknown skill "chop_tre" (did you mean "chop_tree"?)`},
		{loop.Invocation{Skill: "summon_golem"}, `unknown skill "summon_golem"`},
		{loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_log": 3}},
			`unknown parameter "min_log" (did you mean "min_logs"?) (chop_tree takes min_logs, radius, require_axe)`},
		{loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": "many"}}, `parameter "min_logs": expected an integer`},
		{loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:plank", "count": 4}},
			`parameter "item": unknown item "minecraft:plank" (did you mean "minecraft:planks"?)`},
		{loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:gravle"}},
			`parameter "target": unknown block "minecraft:gravle" (did you mean "minecraft:gravel"?)`},
		{loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:stick"}}, `parameter "target": unknown block "minecraft:stick"`},
		{loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"count": 4}}, `missing required parameter "item"`},
	} {
		err := n.Invocation(tc.inv)
		if assert.Error(t, err, tc.inv.String()) {
			assert.Contains(t, err.Error(), tc.want, tc.inv.String())
		}
	}
	// Every problem of one invocation is reported at once.
	err := n.Invocation(loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_log": 3, "radius": "far"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown parameter "min_log"`)
	assert.Contains(t, err.Error(), `parameter "radius"`)
}

// TestRunRefusesUnknownNamesUpFront: a typo in a goal, a goal file, a
// script, a scenario or the config file's goal ends the run before its first
// step with exit 2 and the nearest known name.
func TestRunRefusesUnknownNamesUpFront(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	goalFile := write("goal.yaml", "items:\n  - {item: minecraft:lgo, collect: 3}\nskill: {name: chop_tree, params: {min_log: 2}}\n")
	script := write("script.yaml", "- {skill: chop_tree, params: {min_logs: 2}}\n- {skill: chop_tre}\n")
	scenario := write("scenario.yaml", "name: x\nplayer:\n  pos: [4, 64, 4]\n  inventory:\n    - {item: minecraft:stone_axee}\nblocks:\n  - {block: minecraft:gravle, pos: [5, 63, 5]}\n")
	agentYAML := write("agent.yaml", "run:\n  goal: collect 3 minecraft:sapplng\n")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"goal item", []string{"--goal", "collect 3 minecraft:lgo"},
			[]string{`"collect 3 minecraft:lgo": unknown item "minecraft:lgo" (did you mean "minecraft:log"?)`}},
		{"goal skill", []string{"--goal", "run chop_tre"}, []string{`unknown skill "chop_tre" (did you mean "chop_tree"?)`}},
		{"goal param", []string{"--goal", "run chop_tree min_log=3"}, []string{`unknown parameter "min_log" (did you mean "min_logs"?)`}},
		{"goal param value", []string{"--goal", "run mine_block target=minecraft:gravle"}, []string{`unknown block "minecraft:gravle" (did you mean "minecraft:gravel"?)`}},
		{"goal tier", []string{"--goal", "reach stem_age"}, []string{`unknown tier "stem_age" (did you mean "steam_age"?`}},
		{"goal file", []string{"--goal-file", goalFile}, []string{
			goalFile + `:2:12: items[0].item: unknown item "minecraft:lgo" (did you mean "minecraft:log"?)`,
			goalFile + `:3:8: skill: unknown parameter "min_log" (did you mean "min_logs"?)`}},
		{"script", []string{"--planner", "script", "--script", script}, []string{script + `:2:3: script[1]: unknown skill "chop_tre" (did you mean "chop_tree"?)`}},
		{"scenario", []string{"--scenario", scenario}, []string{
			scenario + `:5:14: player.inventory[0].item: unknown item "minecraft:stone_axee" (did you mean "minecraft:stone_axe"?)`,
			scenario + `:7:13: blocks[0].block: unknown block "minecraft:gravle" (did you mean "minecraft:gravel"?)`}},
		{"config file goal", []string{"--config-file", agentYAML}, []string{agentYAML + `: run.goal: "collect 3 minecraft:sapplng": unknown item "minecraft:sapplng" (did you mean "minecraft:sapling"?)`}},
		{"planner", []string{"--planner", "scrpt"}, []string{`unknown planner "scrpt" (did you mean "script"?)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runAgent(t, append([]string{"run"}, tc.args...)...)
			assert.Equal(t, exitUsage, code, errOut)
			assert.NotContains(t, out, "step", "nothing ran")
			for _, w := range tc.want {
				assert.Contains(t, errOut, w)
			}
		})
	}
}

// TestRunOnAServerOnlyWarnsOfUnknownModItems: on a live server a mod id the
// configuration does not list is kept with a warning (the run goes on to
// connect), while a vanilla typo is still refused before connecting.
func TestRunOnAServerOnlyWarnsOfUnknownModItems(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens: connecting fails at once

	code, _, errOut := runAgent(t, "run", "--server", addr, "--username", "Bot", "--goal", "have 1 somemod:widget")
	assert.Equal(t, exitFail, code, "the goal was accepted; the connection failed: %s", errOut)
	assert.Contains(t, errOut, "somemod:widget")
	assert.Contains(t, errOut, "the configuration does not know this item")
	assert.Contains(t, errOut, "connection refused", "the run went on to connect")

	code, _, errOut = runAgent(t, "run", "--server", addr, "--username", "Bot", "--goal", "have 1 minecraft:lgo")
	assert.Equal(t, exitUsage, code, errOut)
	assert.Contains(t, errOut, `unknown item "minecraft:lgo" (did you mean "minecraft:log"?)`)
	assert.NotContains(t, errOut, "connect")
}
