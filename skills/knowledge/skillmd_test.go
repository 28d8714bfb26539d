package knowledge

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

func TestParseSkillMDValid(t *testing.T) {
	src := `---
name: coke-ovens
description: >-
  Build and run coke ovens. Use when coke is needed.
license: MIT
compatibility: GTNH 2.x
allowed-tools: read_file load_skill
metadata:
  version: 1.2.0
  tags: [coke, steam-age]
  author: someone
  tiers: [">= stone_age", lv]
  uses: [feed_coke_ovens]
  homepage: https://example.org
---
# Coke ovens

Body text.
`
	doc, err := ParseSkillMD("coke-ovens/SKILL.md", []byte(src), ParseOptions{Dir: "coke-ovens"})
	require.NoError(t, err)
	assert.Equal(t, "coke-ovens", doc.Name)
	assert.Equal(t, "Build and run coke ovens. Use when coke is needed.", doc.Description)
	assert.Equal(t, "MIT", doc.License)
	assert.Equal(t, "GTNH 2.x", doc.Compatibility)
	assert.Equal(t, []string{"read_file", "load_skill"}, doc.AllowedTools)
	assert.Equal(t, Metadata{
		Version: "1.2.0", Tags: []string{"coke", "steam-age"}, Author: "someone",
		Tiers: []string{">= stone_age", "lv"}, Uses: []string{"feed_coke_ovens"},
		Extra: map[string]any{"homepage": "https://example.org"},
	}, doc.Metadata)
	assert.Equal(t, "# Coke ovens\n\nBody text.\n", doc.Body)
	assert.Equal(t, 16, doc.BodyLine)
}

func TestParseSkillMDDelimiters(t *testing.T) {
	cases := []struct {
		name, src, wantDesc, wantBody string
	}{
		{"dashes as a quoted value", "---\nname: a\ndescription: \"---\"\n---\nbody\n", "---", "body\n"},
		{"dashes inside a multi-line quoted value", "---\nname: a\ndescription: \"x\n  ---\n  y\"\n---\nbody\n", "x --- y", "body\n"},
		{"dashes inside a block scalar", "---\nname: a\ndescription: |\n  one\n  ---\n  two\n---\nbody\n", "one\n---\ntwo", "body\n"},
		{"dashes inline", "---\nname: a\ndescription: before --- after\n---\n", "before --- after", ""},
		{"CRLF line ends", "---\r\nname: a\r\ndescription: crlf\r\n---\r\nbody\r\n", "crlf", "body\r\n"},
		{"byte-order mark", "\ufeff---\nname: a\ndescription: bom\n---\nb", "bom", "b"},
		{"trailing blanks on delimiters", "---  \nname: a\ndescription: d\n--- \t\nb\n", "d", "b\n"},
		{"closing delimiter at end of file", "---\nname: a\ndescription: d\n---", "d", ""},
		{"a later --- in the body stays body", "---\nname: a\ndescription: d\n---\ntext\n---\nmore\n", "d", "text\n---\nmore\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := ParseSkillMD("SKILL.md", []byte(c.src), ParseOptions{})
			require.NoError(t, err)
			assert.Equal(t, c.wantDesc, doc.Description)
			assert.Equal(t, c.wantBody, doc.Body)
		})
	}
}

func TestParseSkillMDErrors(t *testing.T) {
	long := strings.Repeat("x", MaxDescriptionLen+1)
	cases := []struct {
		name, src, dir string
		want           []string // substrings of the error, each with its position
	}{
		{"no frontmatter", "# Title\n\ntext\n", "", []string{"SKILL.md:1:1: missing frontmatter"}},
		{"empty file", "", "", []string{"SKILL.md:1:1: missing frontmatter"}},
		{"not closed", "---\nname: a\ndescription: d\n", "", []string{"SKILL.md:1:1: frontmatter is not closed"}},
		{"empty frontmatter", "---\n---\nbody", "", []string{"empty frontmatter"}},
		{"not a mapping", "---\n- a\n- b\n---\n", "", []string{"SKILL.md:2:1: expected a mapping, got a list"}},
		{"missing name and description", "---\nlicense: MIT\n---\n", "", []string{"SKILL.md:2:1: name: required field is missing", "SKILL.md:2:1: description: required field is missing"}},
		{"uppercase name", "---\nname: Coke\ndescription: d\n---\n", "", []string{"SKILL.md:2:7: name: \"Coke\" must be lowercase"}},
		{"double hyphen", "---\nname: a--b\ndescription: d\n---\n", "", []string{"name: \"a--b\" must be lowercase"}},
		{"leading hyphen", "---\nname: -a\ndescription: d\n---\n", "", []string{"must be lowercase letters, digits and single hyphens"}},
		{"underscore", "---\nname: a_b\ndescription: d\n---\n", "", []string{"must be lowercase letters"}},
		{"name too long", "---\nname: " + strings.Repeat("a", 65) + "\ndescription: d\n---\n", "", []string{"is 65 characters long; at most 64"}},
		{"name is not the directory", "---\nname: other\ndescription: d\n---\n", "mine", []string{"SKILL.md:2:7: name: \"other\" must equal the skill's directory name \"mine\""}},
		{"description too long", "---\nname: a\ndescription: " + long + "\n---\n", "", []string{"SKILL.md:3:14: description: is 1025 characters long; at most 1024"}},
		{"blank description", "---\nname: a\ndescription: \"  \"\n---\n", "", []string{"description: must not be empty"}},
		{"number description", "---\nname: a\ndescription: 12\n---\n", "", []string{"description: expected a string, got the integer 12"}},
		{"compatibility too long", "---\nname: a\ndescription: d\ncompatibility: " + strings.Repeat("c", 501) + "\n---\n", "", []string{"compatibility: is 501 characters long"}},
		{"unknown top-level key", "---\nname: a\ndescription: d\nversion: 1\n---\n", "", []string{"SKILL.md:4:1: version: unknown field \"version\""}},
		{"typo with suggestion", "---\nname: a\ndescription: d\nlicence: MIT\n---\n", "", []string{"did you mean \"license\"?"}},
		{"duplicate key", "---\nname: a\nname: b\ndescription: d\n---\n", "", []string{"duplicate field \"name\""}},
		{"bad version", "---\nname: a\ndescription: d\nmetadata:\n  version: banana\n---\n", "", []string{"SKILL.md:5:12: metadata.version: \"banana\" is not a version"}},
		{"tags not a list", "---\nname: a\ndescription: d\nmetadata:\n  tags: coke\n---\n", "", []string{"metadata.tags: expected a list"}},
		{"bad tag", "---\nname: a\ndescription: d\nmetadata:\n  tags: [Coke Oven]\n---\n", "", []string{"tag \"Coke Oven\" must be lowercase"}},
		{"unknown tier", "---\nname: a\ndescription: d\nmetadata:\n  tiers: bronze_age\n---\n", "", []string{"SKILL.md:5:10: metadata.tiers: unknown tier \"bronze_age\""}},
		{"bad uses", "---\nname: a\ndescription: d\nmetadata:\n  uses: [Chop-Tree]\n---\n", "", []string{"\"Chop-Tree\" is not an executable skill name"}},
		{"metadata not a mapping", "---\nname: a\ndescription: d\nmetadata: [x]\n---\n", "", []string{"metadata: expected a mapping"}},
		{"YAML syntax error", "---\nname: a\ndescription: [unclosed\n---\n", "", []string{"invalid YAML"}},
		{"invalid UTF-8", "---\nname: a\ndescription: \xff\xfe\n---\n", "", []string{"not valid UTF-8"}},
		{"second document", "---\nname: a\ndescription: d\n...\n--- !x\n---\n", "", []string{"SKILL.md:5:1: a file holds one YAML document"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSkillMD("SKILL.md", []byte(c.src), ParseOptions{Dir: c.dir})
			require.Error(t, err)
			var list strictyaml.Errors
			require.True(t, errors.As(err, &list), "errors are located: %v", err)
			for _, w := range c.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestParseSkillMDMissingFrontmatterIsTyped(t *testing.T) {
	_, err := ParseSkillMD("x/SKILL.md", []byte("no header"), ParseOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "x/SKILL.md:1:1: missing frontmatter")
}

// failAfter errors if read past n bytes: proves ReadFrontmatter stops at
// the closing delimiter (up to its buffer).
type failAfter struct {
	r    io.Reader
	left int
}

func (f *failAfter) Read(p []byte) (int, error) {
	if f.left <= 0 {
		return 0, errors.New("read past the allowed prefix")
	}
	if len(p) > f.left {
		p = p[:f.left]
	}
	n, err := f.r.Read(p)
	f.left -= n
	return n, err
}

func TestReadFrontmatterLeavesBodyUnread(t *testing.T) {
	head := "---\nname: big\ndescription: a big skill\n---\n"
	body := strings.Repeat("line of body text\n", 100000)
	r := &failAfter{r: strings.NewReader(head + body), left: 8192}
	fm, rest, err := ReadFrontmatter("SKILL.md", r, ParseOptions{})
	require.NoError(t, err)
	assert.Equal(t, "big", fm.Name)
	assert.Equal(t, 5, rest.FirstLine)
	assert.Greater(t, r.left, 0, "only a buffer's worth was read")
}

func TestSpecNames(t *testing.T) {
	assert.Equal(t, "gather_flint", SpecName("gather-flint"))
	assert.Equal(t, "", SpecName("3d-maps"), "a name starting with a digit cannot name an executable")
	cases := []struct {
		skill, file string
		want        bool
	}{
		{"gather-flint", "gather_flint.yaml", true},
		{"gather-flint", "gather_flint.yml", true},
		{"gather-flint", "gather_flint.v2.yaml", true},
		{"gather-flint", "gather-flint.yaml", false},
		{"gather-flint", "other.yaml", false},
		{"gather-flint", "gather_flint.yaml.bak", false},
		{"3d-maps", "3d_maps.yaml", false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, IsSpecFile(c.skill, c.file), "%s %s", c.skill, c.file)
	}
}
