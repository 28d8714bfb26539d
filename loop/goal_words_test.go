package loop_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestWordsGoal: a goal in words keeps its text, never holds by itself,
// and is refused when empty, too long or not one line of text.
func TestWordsGoal(t *testing.T) {
	g, err := loop.WordsGoal("  build a coke oven next to the boiler ")
	require.NoError(t, err)
	assert.Equal(t, loop.Goal{Text: "build a coke oven next to the boiler", Words: true}, g)
	p := g.Anchor(&world.Snapshot{}).Check(&world.Snapshot{TechState: "steam_age"}, rules.Default().Tiers, true)
	assert.False(t, p.Met)
	assert.Equal(t, []string{loop.WordsUnmet}, p.Unmet)

	for _, tc := range []struct{ text, want string }{
		{"   ", "empty goal"},
		{strings.Repeat("a", loop.MaxWordsGoal+1), "more than 1000"},
		{"build\na coke oven", "without control characters"},
		{"build \x00", "without control characters"},
		{"bad \xff utf8", "UTF-8"},
	} {
		_, err := loop.WordsGoal(tc.text)
		require.Error(t, err, "%q", tc.text)
		assert.Contains(t, err.Error(), tc.want)
	}
	_, err = loop.WordsGoal(strings.Repeat("a", loop.MaxWordsGoal))
	require.NoError(t, err, "at the bound")

	// The grammar stays strict.
	_, err = loop.ParseGoal("build a coke oven next to the boiler", rules.Default().Tiers)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "write build NAME, e.g. build coke_oven")
	_, err = loop.ParseGoal("make a coke oven", rules.Default().Tiers)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a goal clause starts with collect, have, kill, reach, build, run, quest or line")
}
