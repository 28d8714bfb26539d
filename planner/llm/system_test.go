package llm_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
	"github.com/gtnh-agent/gtnh-agent/planner/llm"
	"github.com/gtnh-agent/gtnh-agent/planner/llm/llmtest"
)

// TestSystemReplacesTheInstructions: a configured system prompt takes
// the place of the built-in instructions; how to answer, the catalog and
// the observation still follow, within the budget.
func TestSystemReplacesTheInstructions(t *testing.T) {
	const profile = "You are Andy, a careful GTNH player. Never waste coal."
	f := newFixture(t, llm.Config{System: profile + "\n"}, llm.PlannerOptions{}, llmtest.File(t, "testdata/run/02-chop.json"))
	_, err := f.plan(t)
	require.NoError(t, err)
	system := f.requestMessages(t, 0)[0]["content"].(string)
	assert.True(t, strings.HasPrefix(system, profile+"\n\nAnswer with tool calls."), system[:120])
	assert.NotContains(t, system, "You are the planner")
	assert.Contains(t, system, "- chop_tree(")
	assert.LessOrEqual(t, llmtest.TokensOf(f.srv.Requests()[0].Body), llm.PromptBudget(llm.DefaultContext))
}

func TestReadSystemFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o600))
		return p
	}
	text, err := llm.ReadSystemFile(write("ok.md", []byte("Be brief.\n")))
	require.NoError(t, err)
	assert.Equal(t, "Be brief.\n", text)
	_, err = llm.ReadSystemFile(write("max.md", []byte(strings.Repeat("a", llm.MaxSystemBytes))))
	require.NoError(t, err, "at the bound")

	_, err = llm.ReadSystemFile(write("big.md", []byte(strings.Repeat("a", llm.MaxSystemBytes+1))))
	var tl *filelimit.TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.Contains(t, err.Error(), "big.md: file is too large")
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty.md", []byte(" \n\t"), "empty.md: empty"},
		{"bin.md", []byte("a\xffb"), "bin.md: not UTF-8 text"},
	} {
		_, err := llm.ReadSystemFile(write(tt.name, tt.data))
		require.Error(t, err)
		assert.Contains(t, err.Error(), tt.want)
	}
	_, err = llm.ReadSystemFile(filepath.Join(dir, "missing.md"))
	require.ErrorIs(t, err, os.ErrNotExist)

	assert.ErrorContains(t, llm.Config{URL: "http://x/v1", Model: "m", System: strings.Repeat("a", llm.MaxSystemBytes+1)}.Validate(), "system: 16385 bytes, more than 16384")
	assert.ErrorContains(t, llm.Config{URL: "http://x/v1", Model: "m", Context: 100}.Validate(), "context: must be within 1024..2097152 tokens, got 100")
}
