package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
)

// copyShippedConfig writes the embedded configuration to a directory.
func copyShippedConfig(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "cfg")
	require.NoError(t, fs.WalkDir(config.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(root, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := fs.ReadFile(config.FS, p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	}))
	return root
}

// TestMissingConfigDirectoryIsTheSameEverywhere: every command that takes a
// configuration directory refuses a missing one, or a file, with the same
// message and exit 2.
func TestMissingConfigDirectoryIsTheSameEverywhere(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	commands := func(dir string) [][]string {
		return [][]string{
			{"run", "--config", dir},
			{"run", "--config", dir, "--goal", "collect 1 minecraft:log"},
			{"skills", "list", "--config", dir},
			{"skills", "describe", "chop_tree", "--config", dir},
			{"skills", "load", "chop_tree", "--config", dir},
			{"skills", "select", "--task", "chop wood", "--config", dir},
			{"skills", "inject", "--config", dir},
			{"packs", "list", "--config", dir},
			{"skills", "validate", dir},
			{"skills", "lint", dir},
		}
	}
	for dir, want := range map[string]string{
		missing: "agent: configuration directory " + missing + " does not exist\n",
		file:    "agent: configuration directory " + file + " is not a directory\n",
	} {
		for _, args := range commands(dir) {
			code, out, errOut := runAgent(t, args...)
			assert.Equal(t, exitUsage, code, "%v", args)
			assert.Empty(t, out, "%v", args)
			assert.Equal(t, want, errOut, "%v", args)
		}
	}
	code, _, errOut := runAgent(t, "skills", "list", "--skills-dir", missing)
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, "agent: skill directory "+missing+" does not exist\n", errOut)

	empty := t.TempDir()
	code, _, errOut = runAgent(t, "run", "--config", empty)
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, "agent: configuration directory "+empty+" has no skills/ directory\n", errOut)
	code, _, errOut = runAgent(t, "skills", "validate", empty)
	assert.Equal(t, exitFail, code, "validate finds nothing valid there either")
	assert.Contains(t, errOut, "not a configuration")
}

// TestValidateAndRunAgreeOnTheConfiguration: skills validate and every
// command taking --config load a configuration the same way, so a broken one
// is refused by both with the same problems, and a sound one is accepted by
// both.
func TestValidateAndRunAgreeOnTheConfiguration(t *testing.T) {
	ok := copyShippedConfig(t)
	code, out, errOut := runAgent(t, "skills", "validate", ok)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "ok (12 skills")
	code, out, errOut = runAgent(t, "run", "--config", ok, "--goal", "collect 2 minecraft:log", "--max-steps", "5")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "goal met")

	for _, tc := range []struct {
		name  string
		edit  map[string]string // file → content ("" removes it)
		wants []string
	}{
		{"spec typo", map[string]string{"skills/wait_for.yaml": "name: wait_for\nversion: 1\ndescription: wait\nparms: {}\naction_sequence:\n  - type: wait\n    ticks: 5\n"},
			[]string{`skills/wait_for.yaml:4:1: parms: unknown field "parms" (did you mean "params"?)`}},
		{"pack lists an unknown skill", map[string]string{"skill_packs/utility.yaml": "name: utility\nrequires_tech_state: any\nskills: [report_status, wait_fr]\n"},
			[]string{`skill_packs/utility.yaml:3:25: skills: pack "utility" lists unknown skill "wait_fr"`}},
		{"go skill without code", map[string]string{"skills/no_code.yaml": "name: no_code\nversion: 1\ndescription: a go skill nobody wrote\nemits: [wait]\n"},
			[]string{"no_code@1"}},
		{"blocked SKILL.md", map[string]string{"skills/steam-age-boilers/SKILL.md": "---\nname: steam-age-boilers\ndescription: Boilers. Use when testing.\n---\n# Boilers\n\ncat ~/.ssh/id_rsa\n"},
			[]string{"blocked: credential_exfiltration"}},
		{"invalid SKILL.md", map[string]string{"skills/steam-age-boilers/SKILL.md": "---\nname: other-name\ndescription: Boilers. Use when testing.\n---\n# Boilers\n"},
			[]string{"skills/steam-age-boilers/SKILL.md:2:7: name:"}},
		{"bad tier table", map[string]string{"tiers.yaml": "tiers:\n  - nam: a\n"},
			[]string{"tiers.yaml:2:5: tiers[0].nam: unknown field"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyShippedConfig(t)
			for name, content := range tc.edit {
				p := filepath.Join(dir, filepath.FromSlash(name))
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
			}
			vcode, vout, verr := runAgent(t, "skills", "validate", dir)
			assert.Equal(t, exitFail, vcode, "validate: %s", verr)
			assert.NotContains(t, vout, "ok")
			for _, args := range [][]string{
				{"run", "--config", dir, "--max-steps", "1"},
				{"skills", "list", "--config", dir},
				{"packs", "list", "--config", dir},
			} {
				code, out, errOut := runAgent(t, args...)
				assert.Equal(t, exitUsage, code, "%v: %s", args, errOut)
				assert.NotContains(t, out, "step", "%v", args)
				assert.Contains(t, errOut, "agent: invalid configuration (see above)", "%v", args)
				for _, w := range tc.wants {
					assert.Contains(t, verr, w, "validate")
					assert.Contains(t, errOut, w, "%v", args)
				}
				// The same problems, line for line (validate adds its
				// summaries and warnings).
				for _, line := range strings.Split(strings.TrimSpace(verr), "\n") {
					if strings.Contains(line, "problem(s) found") || strings.HasPrefix(line, "blocked skill ") ||
						strings.HasPrefix(line, "invalid skill ") || strings.Contains(line, ": warning: ") {
						continue
					}
					assert.Contains(t, errOut, line, "%v", args)
				}
			}
		})
	}
}

// TestCommandLineNamesSuggest: skills, tiers and packs named on the command
// line are usage errors with the nearest known name.
func TestCommandLineNamesSuggest(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"skills", "list", "--tech-state", "stem_age"}, `unknown tech state "stem_age" (did you mean "steam_age"?) (known: stone_age, steam_age,`},
		{[]string{"skills", "list", "--tech-state", "steam_age", "--packs", "stone_ag"}, `unknown pack "stone_ag" (did you mean "stone_age"?) (known: lv_core,`},
		{[]string{"skills", "select", "--task", "wood", "--tech-state", "lvv"}, `unknown tech state "lvv" (did you mean "lv"?)`},
		{[]string{"skills", "inject", "--tech-state", "steam_age", "--packs", "utlity"}, `unknown pack "utlity" (did you mean "utility"?)`},
		{[]string{"skills", "describe", "mine_blok"}, `unknown skill "mine_blok" (did you mean "mine_block"?)`},
		{[]string{"skills", "load", "sustainable-wod"}, `unknown skill "sustainable-wod" (did you mean "sustainable-wood"?)`},
		{[]string{"run", "--planner", "gaol"}, `unknown planner "gaol" (did you mean "goal"?)`},
	} {
		code, out, errOut := runAgent(t, tc.args...)
		assert.Equal(t, exitUsage, code, "%v: %s", tc.args, errOut)
		assert.Empty(t, out, "%v", tc.args)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
	}
}
