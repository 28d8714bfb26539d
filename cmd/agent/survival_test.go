package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

func TestSurvivalSection(t *testing.T) {
	six, ten := loop.EatReflex{Threshold: 6, HealBelow: 14}, loop.EatReflex{Threshold: 10, HealBelow: 14}
	unstuck := func(seconds, distance int) *loop.UnstuckReflex {
		return &loop.UnstuckReflex{Seconds: seconds, Distance: distance}
	}
	def := unstuck(30, 5)
	defend := loop.DefendReflex{Range: 8, FleeHealth: 8, MinWeaponDamage: 4}
	shelter := &loop.ShelterReflex{From: 12000, Until: 23500}
	rec := &loop.RecoverReflex{}
	esc := loop.EscapeReflex{Air: 150}
	cook := loop.CookReflex{Threshold: 6}
	hunt := &loop.HuntReflex{Radius: 32, MinHealth: 16}
	for _, c := range []struct {
		name, file string
		want       []loop.Reflex
	}{
		{"no file section: on", "run: {max_steps: 5}\n", []loop.Reflex{esc, cook, six, defend, rec, hunt, shelter, def}},
		{"empty section: on", "survival: {}\n", []loop.Reflex{esc, cook, six, defend, rec, hunt, shelter, def}},
		{"threshold", "survival:\n  eat: {threshold: 10}\n", []loop.Reflex{esc, loop.CookReflex{Threshold: 10}, ten, defend, rec, hunt, shelter, def}},
		{"threshold 0", "survival:\n  eat: {threshold: 0}\n", []loop.Reflex{esc, loop.CookReflex{Threshold: 0}, loop.EatReflex{Threshold: 0, HealBelow: 14}, defend, rec, hunt, shelter, def}},
		{"eat off", "survival:\n  eat: {enabled: false}\n", []loop.Reflex{esc, cook, defend, rec, hunt, shelter, def}},
		{"cook off", "survival:\n  cook: {enabled: false}\n", []loop.Reflex{esc, six, defend, rec, hunt, shelter, def}},
		{"eat on", "survival:\n  eat: {enabled: true}\n", []loop.Reflex{esc, cook, six, defend, rec, hunt, shelter, def}},
		{"heal below", "survival:\n  eat: {heal_below: 0}\n", []loop.Reflex{esc, cook, loop.EatReflex{Threshold: 6}, defend, rec, hunt, shelter, def}},
		{"unstuck tuned", "survival:\n  unstuck: {seconds: 60, distance: 8}\n", []loop.Reflex{esc, cook, six, defend, rec, hunt, shelter, unstuck(60, 8)}},
		{"unstuck seconds", "survival:\n  unstuck: {seconds: 1}\n", []loop.Reflex{esc, cook, six, defend, rec, hunt, shelter, unstuck(1, 5)}},
		{"unstuck off", "survival:\n  unstuck: {enabled: false, seconds: 90}\n", []loop.Reflex{esc, cook, six, defend, rec, hunt, shelter}},
		{"defend tuned", "survival:\n  defend: {range: 12, flee_health: 0, min_weapon_damage: 1}\n", []loop.Reflex{esc, cook, six, loop.DefendReflex{Range: 12, FleeHealth: 0, MinWeaponDamage: 1}, rec, hunt, shelter, def}},
		{"defend off", "survival:\n  defend: {enabled: false}\n", []loop.Reflex{esc, cook, six, rec, hunt, shelter, def}},
		{"shelter tuned", "survival:\n  shelter: {from: 13000, until: 500}\n", []loop.Reflex{esc, cook, six, defend, rec, hunt, &loop.ShelterReflex{From: 13000, Until: 500}, def}},
		{"shelter off", "survival:\n  shelter: {enabled: false, from: 1}\n", []loop.Reflex{esc, cook, six, defend, rec, hunt, def}},
		{"recover off", "survival:\n  recover: {enabled: false}\n", []loop.Reflex{esc, cook, six, defend, hunt, shelter, def}},
		{"all off", "survival:\n  eat: {enabled: false}\n  defend: {enabled: false}\n  shelter: {enabled: false}\n  unstuck: {enabled: false}\n  recover: {enabled: false}\n  cook: {enabled: false}\n  hunt: {enabled: false}\n", []loop.Reflex{esc}},
		{"escape tuned", "survival:\n  escape: {air: 300}\n", []loop.Reflex{loop.EscapeReflex{Air: 300}, cook, six, defend, rec, hunt, shelter, def}},
		{"escape off", "survival:\n  escape: {enabled: false, air: 10}\n", []loop.Reflex{cook, six, defend, rec, hunt, shelter, def}},
		{"hunt tuned", "survival:\n  hunt: {radius: 16, min_health: 20}\n", []loop.Reflex{esc, cook, six, defend, rec, &loop.HuntReflex{Radius: 16, MinHealth: 20}, shelter, def}},
		{"hunt off", "survival:\n  hunt: {enabled: false, radius: 8}\n", []loop.Reflex{esc, cook, six, defend, rec, shelter, def}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := parseAgentConfig("agent.yaml", []byte(c.file))
			require.NoError(t, err)
			assert.Equal(t, c.want, cfg.Survival.reflexes())
		})
	}
	assert.Equal(t, []loop.Reflex{esc, cook, six, defend, rec, hunt, shelter, def}, (&agentConfig{}).Survival.reflexes(), "no config file: every reflex is on")
	var cfg agentConfig
	assert.NotSame(t, cfg.Survival.reflexes()[4], cfg.Survival.reflexes()[4], "each run gets its own recover reflex")
	assert.NotSame(t, cfg.Survival.reflexes()[5], cfg.Survival.reflexes()[5], "each run gets its own hunt reflex")
	assert.NotSame(t, cfg.Survival.reflexes()[6], cfg.Survival.reflexes()[6], "each run gets its own shelter reflex")
	assert.NotSame(t, cfg.Survival.reflexes()[7], cfg.Survival.reflexes()[7], "each run gets its own unstuck reflex")
	for _, c := range []struct {
		file string
		want ipc.Guard
	}{
		{"run: {max_steps: 5}\n", ipc.Guard{Range: 8}},
		{"survival:\n  defend: {range: 12}\n", ipc.Guard{Range: 12}},
		{"survival:\n  defend: {interrupt: false}\n", ipc.Guard{}},
		{"survival:\n  defend: {interrupt: true, range: 5}\n", ipc.Guard{Range: 5}},
		{"survival:\n  defend: {enabled: false}\n", ipc.Guard{}},
	} {
		cfg, err := parseAgentConfig("agent.yaml", []byte(c.file))
		require.NoError(t, err)
		assert.Equal(t, c.want, cfg.Survival.guard(), "the guard of %q", c.file)
	}
	assert.Equal(t, ipc.Guard{Range: 8}, (&agentConfig{}).Survival.guard(), "no config file: steps are guarded at the defend range")
	for _, c := range []struct{ file, want string }{
		{"survival:\n  defend: {interrupt: sometimes}\n", "survival.defend.interrupt"},
		{"survival:\n  eat: {threshold: 20}\n", "agent.yaml:2:20: survival.eat.threshold: must be within 0..19, got 20"},
		{"survival:\n  eat: {enabled: maybe}\n", "survival.eat.enabled"},
		{"survival:\n  eat: {heal_below: 21}\n", "survival.eat.heal_below: must be within 0..20, got 21"},
		{"survival:\n  flee: {enabled: true}\n", "flee"},
		{"survival:\n  unstuck: {seconds: 0}\n", "agent.yaml:2:22: survival.unstuck.seconds: must be within 1..3600, got 0"},
		{"survival:\n  unstuck: {seconds: 3601}\n", "survival.unstuck.seconds: must be within 1..3600, got 3601"},
		{"survival:\n  unstuck: {distance: 1}\n", "survival.unstuck.distance: must be within 2..16, got 1"},
		{"survival:\n  unstuck: {distance: 17}\n", "survival.unstuck.distance: must be within 2..16, got 17"},
		{"survival:\n  unstuck: {enabled: yes please}\n", "survival.unstuck.enabled"},
		{"survival:\n  unstuck: {secs: 5}\n", "secs"},
		{"survival:\n  defend: {range: 0}\n", "survival.defend.range: must be within 1..32, got 0"},
		{"survival:\n  defend: {flee_health: 21}\n", "survival.defend.flee_health: must be within 0..20, got 21"},
		{"survival:\n  defend: {min_weapon_damage: -1}\n", "survival.defend.min_weapon_damage: must be within 0..100, got -1"},
		{"survival:\n  defend: {fight: always}\n", "fight"},
		{"survival:\n  shelter: {from: 24000}\n", "survival.shelter.from: must be within 0..23999, got 24000"},
		{"survival:\n  shelter: {from: 100, until: 100}\n", "agent.yaml:2:31: survival.shelter.until: must differ from from (100)"},
		{"survival:\n  recover: {enabled: 3}\n", "survival.recover.enabled"},
		{"survival:\n  recover: {lifespan: 3}\n", "lifespan"},
		{"survival:\n  escape: {air: 301}\n", "agent.yaml:2:17: survival.escape.air: must be within 0..300, got 301"},
		{"survival:\n  escape: {air: -1}\n", "survival.escape.air: must be within 0..300, got -1"},
		{"survival:\n  escape: {breath: 3}\n", "breath"},
		{"survival:\n  cook: {enabled: sometimes}\n", "survival.cook.enabled"},
		{"survival:\n  hunt: {radius: 0}\n", "agent.yaml:2:18: survival.hunt.radius: must be within 1..64, got 0"},
		{"survival:\n  hunt: {radius: 65}\n", "survival.hunt.radius: must be within 1..64, got 65"},
		{"survival:\n  hunt: {min_health: 0}\n", "survival.hunt.min_health: must be within 1..20, got 0"},
		{"survival:\n  hunt: {min_health: 21}\n", "survival.hunt.min_health: must be within 1..20, got 21"},
		{"survival:\n  hunt: {enabled: often}\n", "survival.hunt.enabled"},
		{"survival:\n  hunt: {prey: spider}\n", "prey"},
		{"survival:\n  cook: {threshold: 3}\n", "threshold"},
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
