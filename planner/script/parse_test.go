package script

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
)

// skillNames knows chop_tree(min_logs) and nothing else.
type skillNames struct{ checked []string }

func (s *skillNames) Item(string) error { return nil }

func (s *skillNames) Invocation(inv loop.Invocation) error {
	s.checked = append(s.checked, inv.String())
	if inv.Skill != "chop_tree" {
		return fmt.Errorf("unknown skill %q", inv.Skill)
	}
	if _, ok := inv.Params["min_log"]; ok {
		return fmt.Errorf(`unknown parameter "min_log" (did you mean "min_logs"?)`)
	}
	return nil
}

func TestScriptParserChecksNames(t *testing.T) {
	names := &skillNames{}
	p := Parser{Names: names}
	steps, err := p.Parse("s.yaml", []byte("- {skill: chop_tree, params: {min_logs: 2}}\n- {skill: chop_tree}\n"))
	require.NoError(t, err)
	assert.Len(t, steps, 2)
	assert.Equal(t, []string{"chop_tree min_logs=2", "chop_tree"}, names.checked, "every invocation is checked")

	_, err = p.Parse("s.yaml", []byte("- {skill: chop_tree}\n- {skill: chop_tre}\n- {skill: chop_tree, params: {min_log: 2}}\n- {skil: x}\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `s.yaml:2:3: script[1]: unknown skill "chop_tre"`)
	assert.Contains(t, err.Error(), `s.yaml:3:3: script[2]: unknown parameter "min_log" (did you mean "min_logs"?)`)
	assert.Contains(t, err.Error(), `s.yaml:4:4: script[3].skil: unknown field "skil"`)
	assert.NotContains(t, err.Error(), "script[0]")

	_, err = Parse("s.yaml", []byte("- {skill: chop_tre}\n"))
	assert.NoError(t, err, "without Names only the syntax is checked")
}
