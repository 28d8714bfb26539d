package loop_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// fakeNames knows minecraft:log and ore:logWood, and chop_tree with min_logs.
type fakeNames struct{ items, invocations []string }

func (f *fakeNames) Item(s string) error {
	f.items = append(f.items, s)
	if s == "minecraft:log" || s == "ore:logWood" {
		return nil
	}
	return fmt.Errorf("unknown item %q", s)
}

func (f *fakeNames) Invocation(inv loop.Invocation) error {
	f.invocations = append(f.invocations, inv.String())
	if inv.Skill != "chop_tree" {
		return fmt.Errorf("unknown skill %q", inv.Skill)
	}
	for k := range inv.Params {
		if k != "min_logs" {
			return fmt.Errorf("unknown parameter %q", k)
		}
	}
	return nil
}

func TestGoalParserChecksNames(t *testing.T) {
	names := &fakeNames{}
	p := loop.GoalParser{Tiers: rules.Default().Tiers, Names: names}
	g, err := p.Parse("collect 3 minecraft:log and have 2 ore:logWood and run chop_tree min_logs=2 and reach steam_age")
	require.NoError(t, err)
	assert.Len(t, g.Items, 2)
	assert.Equal(t, []string{"minecraft:log", "ore:logWood"}, names.items, "every item is checked")
	assert.Equal(t, []string{"chop_tree min_logs=2"}, names.invocations, "the run clause is checked with its parameters")

	for text, want := range map[string]string{
		"collect 3 minecraft:lgo":                 `"collect 3 minecraft:lgo": unknown item "minecraft:lgo"`,
		"have 3 minecraft:log and have 1 ore:x":   `"have 1 ore:x": unknown item "ore:x"`,
		"run chop_tre":                            `"run chop_tre": unknown skill "chop_tre"`,
		"run chop_tree min_log=3":                 `"run chop_tree min_log=3": unknown parameter "min_log"`,
		"reach stem_age":                          `"reach stem_age": unknown tier "stem_age" (did you mean "steam_age"?`,
		"collect 1 minecraft:log and run chop_tr": `"run chop_tr": unknown skill "chop_tr"`,
	} {
		_, err := p.Parse(text)
		assert.ErrorContains(t, err, want, text)
	}

	// Without Names only the syntax is checked (ParseGoal).
	_, err = loop.ParseGoal("collect 3 minecraft:lgo and run chop_tre", rules.Default().Tiers)
	assert.NoError(t, err)
}

func TestGoalParserChecksGoalFileNames(t *testing.T) {
	p := loop.GoalParser{Tiers: rules.Default().Tiers, Names: &fakeNames{}}
	_, err := p.ParseYAML("goal.yaml", []byte(`items:
  - {item: minecraft:log, collect: 3}
  - {item: minecraft:lgo, count: 3}
tier: stem_age
skill: {name: chop_tree, params: {min_log: 2}}
`))
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, `goal.yaml:3:12: items[1].item: unknown item "minecraft:lgo"`)
	assert.Contains(t, msg, `goal.yaml:4:7: tier: unknown tier "stem_age" (did you mean "steam_age"?`)
	assert.Contains(t, msg, `goal.yaml:5:8: skill: unknown parameter "min_log"`)
	assert.NotContains(t, msg, "items[0]")

	g, err := p.ParseYAML("goal.yaml", []byte("items:\n  - {item: ore:logWood, count: 3}\nskill: {name: chop_tree}\n"))
	require.NoError(t, err)
	assert.Equal(t, "chop_tree", g.Skill.Skill)

	_, err = loop.ParseGoalYAML("goal.yaml", []byte("skill: {name: chop_tre}\n"), rules.Default().Tiers)
	assert.NoError(t, err, "without Names only the syntax is checked")
}
