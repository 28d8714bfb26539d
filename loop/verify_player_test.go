package loop_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
)

func TestVerifyPlayerFood(t *testing.T) {
	s := effectSpec(t, "  player:\n    food: {min_increase: 3}\n")
	require.True(t, s.Effects.Checkable())
	p := params(t, s, nil)
	for _, c := range []struct {
		before, after float64
		ok            bool
	}{{10, 13, true}, {10, 12, false}, {10, 10, false}, {19, 20, false}} {
		b, a := snap(nil, nil), snap(nil, nil)
		b.Player.Food, a.Player.Food = c.before, c.after
		checks, ok := loop.VerifyEffects(s, p, b, a, rules.Default().Tiers, nil)
		assert.Equal(t, c.ok, ok, "food %v → %v", c.before, c.after)
		require.Len(t, checks, 1)
		assert.Equal(t, loop.EffectCheck{Effect: "food level increases by >= 3", Before: int(c.before), After: int(c.after), OK: c.ok}, checks[0])
	}
}

func TestPlayerEffectErrors(t *testing.T) {
	for _, c := range []struct{ effects, want string }{
		{"  player:\n    food: {min_increase: 0}\n", "effects.player.food.min_increase: must be at least 1"},
		{"  player:\n    health: {min_increase: 1}\n", "health"},
		{"  player:\n    food: {}\n", "min_increase"},
		{"  player:\n    food: {min_increase: \"{fuel}\"}\n", "an int parameter is needed"},
	} {
		_, err := skills.ParseSpec("probe.yaml", []byte("name: probe\nversion: 1\ndescription: p\nemits: [wait]\nparams:\n"+
			"  fuel: {type: item_id, default: \"ore:gemCoal\", description: f}\neffects:\n"+c.effects))
		require.Error(t, err, c.effects)
		assert.Contains(t, err.Error(), c.want)
		assert.Contains(t, err.Error(), "probe.yaml:")
	}
	_, err := skills.ParseSpec("probe.yaml", []byte("name: probe\nversion: 1\ndescription: p\nemits: [wait]\nparams:\n"+
		"  n: {type: int, default: 2, description: n}\neffects:\n  player:\n    food: {min_increase: \"{n}\"}\n"))
	require.NoError(t, err, "an int parameter is a valid amount")
}
