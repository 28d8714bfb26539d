package knowledge

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLintRules(t *testing.T) {
	meta := "metadata:\n  version: 1.0.0\n  tags: [t]\n  author: a"
	desc := "Explains things at length for tests. Use when testing the linter."
	cases := []struct {
		name      string
		src       string
		resources []string
		rule      string
		line      int
	}{
		{"clean", skillMD("s", desc, meta, "# S\n\nOne.\nTwo.\n"), nil, "", 0},
		{"missing version", skillMD("s", desc, "metadata:\n  tags: [t]\n  author: a", "# S\n\nOne.\nTwo.\n"), nil, "missing-version", 0},
		{"missing tags", skillMD("s", desc, "metadata:\n  version: 1.0.0\n  author: a", "# S\n\nOne.\nTwo.\n"), nil, "missing-tags", 0},
		{"missing author", skillMD("s", desc, "metadata:\n  version: 1.0.0\n  tags: [t]", "# S\n\nOne.\nTwo.\n"), nil, "missing-author", 0},
		{"short description", skillMD("s", "Use when short.", meta, "# S\n\nOne.\nTwo.\n"), nil, "short-description", 0},
		{"no trigger", skillMD("s", "Explains things at length for the tests of the linter.", meta, "# S\n\nOne.\nTwo.\n"), nil, "description-trigger", 0},
		{"no title", skillMD("s", desc, meta, "Text first.\n# S\nTwo.\n"), nil, "no-title", 9},
		{"two titles", skillMD("s", desc, meta, "# S\n\nOne.\n# Again\nTwo.\n"), nil, "multiple-titles", 12},
		{"heading skip", skillMD("s", desc, meta, "# S\n\n### Deep\nOne.\nTwo.\n"), nil, "heading-skip", 11},
		{"short body", skillMD("s", desc, meta, "# S\n"), nil, "short-body", 9},
		{"long body", skillMD("s", desc, meta, "# S\n"+strings.Repeat("line\n", MaxBodyLines+1)), nil, "long-body", 9 + MaxBodyLines},
		{"long line", skillMD("s", desc, meta, "# S\n\n"+strings.Repeat("w", MaxLineLen+1)+"\nTwo.\n"), nil, "long-line", 11},
		{"trailing whitespace", skillMD("s", desc, meta, "# S\n\nOne.  \nTwo.\n"), nil, "trailing-whitespace", 11},
		{"todo", skillMD("s", desc, meta, "# S\n\nTODO: finish.\nTwo.\n"), nil, "todo-marker", 11},
		{"unclosed fence", skillMD("s", desc, meta, "# S\n\n```sh\necho\n"), nil, "unclosed-fence", 11},
		{"unused resource", skillMD("s", desc, meta, "# S\n\nOne.\nTwo.\n"), []string{"references/forgotten.md"}, "unused-resource", 0},
		{"uses not mentioned", skillMD("s", desc, meta+"\n  uses: [chop_tree]", "# S\n\nOne.\nTwo.\n"), nil, "uses-not-mentioned", 0},
		{"unlisted executable", skillMD("s", desc, meta, "# S\n\nRun `feed_coke_ovens` first.\nTwo.\n"), nil, "unlisted-executable", 11},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := ParseSkillMD("s/SKILL.md", []byte(c.src), ParseOptions{})
			require.NoError(t, err)
			issues := Lint("s/SKILL.md", doc, c.resources, LintOptions{Known: knownExec("feed_coke_ovens", "chop_tree")})
			if c.rule == "" {
				assert.Empty(t, issues)
				return
			}
			var rules []string
			for _, is := range issues {
				rules = append(rules, is.Rule)
				if is.Rule == c.rule {
					assert.Equal(t, c.line, is.Line, is.String())
				}
				_, documented := LintRules[is.Rule]
				assert.True(t, documented, "rule %s is documented", is.Rule)
			}
			assert.Contains(t, rules, c.rule)
		})
	}
}

func TestLintIssueString(t *testing.T) {
	assert.Equal(t, "f:3: long-line: m", LintIssue{File: "f", Line: 3, Rule: "long-line", Message: "m"}.String())
	assert.Equal(t, "f: missing-tags: m", LintIssue{File: "f", Rule: "missing-tags", Message: "m"}.String())
}
