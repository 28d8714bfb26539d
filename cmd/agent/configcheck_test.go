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
	assert.Contains(t, out, "ok (30 skills")
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

// greetSpec is a template skill a custom configuration adds.
const greetSpec = "name: greet\nversion: 1\ndescription: say hi\naction_sequence:\n  - type: chat\n    message: hi\n"

// TestConfigDirAddsToTheShippedOnes: --config DIR adds its skills and packs
// to the shipped ones; its packs may depend on shipped packs and list
// shipped skills; the default run still works with it.
func TestConfigDirAddsToTheShippedOnes(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"skills/greet.yaml":       greetSpec,
		"skill_packs/social.yaml": "name: social\nrequires_tech_state: any\ndepends_on_packs: [utility]\nskills: [greet, report_status]\n",
	})
	code, out, errOut := runAgent(t, "skills", "validate", dir)
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, dir+": ok (31 skills, 31 spec versions, 6 packs, the shipped ones included)\n", out)
	assert.Empty(t, errOut, "nothing replaced, every skill in a pack: no warning")

	code, out, errOut = runAgent(t, "skills", "list", "--config", dir)
	require.Equal(t, exitOK, code, errOut)
	for _, s := range []string{"greet", "chop_tree", "mine_block", "sustainable-wood"} {
		assert.Contains(t, out, s)
	}
	code, out, _ = runAgent(t, "packs", "list", "--config", dir)
	require.Equal(t, exitOK, code)
	for _, p := range []string{"social", "stone_age", "steam_age", "utility"} {
		assert.Contains(t, out, p)
	}
	code, out, errOut = runAgent(t, "run", "--config", dir, "--goal", "run greet")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "goal met")
	code, out, errOut = runAgent(t, "run", "--config", dir, "--goal", "collect 2 minecraft:log")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "goal met", "the shipped skills are still there")
}

// TestConfigDirReplacesByName: a skill or pack of a shipped name replaces
// the shipped one, with a warning; a Go skill may be replaced by a
// template; a knowledge skill of a shipped name overrides the shipped one.
func TestConfigDirReplacesByName(t *testing.T) {
	dir := t.TempDir()
	mine := strings.Replace(mustShipped(t, "skills/mine_block.yaml"), "default: 16", "default: 40", 1)
	mine = strings.Replace(mine, "Walk to the nearest block", "Walk far to the nearest block", 1)
	writeFiles(t, dir, map[string]string{
		"skills/mine_block.yaml":           mine,
		"skills/chop_tree.yaml":            "name: chop_tree\nversion: 2\ndescription: say timber\naction_sequence:\n  - type: chat\n    message: timber\n",
		"skills/greet.yaml":                greetSpec,
		"skill_packs/utility.yaml":         "name: utility\nrequires_tech_state: any\nskills: [report_status, wait_for, greet]\n",
		"skills/sustainable-wood/SKILL.md": "---\nname: sustainable-wood\ndescription: Our own wood notes. Use when wood runs short.\n---\n# Wood\n\nPlant more trees.\n",
	})
	for _, args := range [][]string{
		{"skills", "validate", dir},
		{"skills", "describe", "mine_block", "--config", dir},
	} {
		code, _, errOut := runAgent(t, args...)
		require.Equal(t, exitOK, code, "%v: %s", args, errOut)
		for _, w := range []string{
			"skill mine_block in " + filepath.Join(dir, "skills/mine_block.yaml") + " replaces the shipped skill of that name",
			"skill chop_tree in " + filepath.Join(dir, "skills/chop_tree.yaml") + " replaces the shipped skill of that name",
			"skill pack utility in " + dir + " replaces the shipped pack of that name",
		} {
			assert.Contains(t, errOut, w, "%v", args)
		}
		assert.NotContains(t, errOut, "skill greet", "%v: greet is new, and in a pack", args)
	}
	code, out, errOut := runAgent(t, "skills", "describe", "mine_block", "--config", dir)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "Walk far to the nearest block")
	assert.Contains(t, out, "40", "the replacing spec's default radius")
	code, out, _ = runAgent(t, "skills", "describe", "chop_tree", "--config", dir)
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "chop_tree  (version 2, active, manual, template)", "the Go skill is replaced by the template, version 1 is gone")
	code, _, _ = runAgent(t, "skills", "describe", "chop_tree@1", "--config", dir)
	assert.Equal(t, exitUsage, code, "every shipped version is replaced")
	code, out, errOut = runAgent(t, "skills", "describe", "sustainable-wood", "--config", dir)
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "Our own wood notes")
	assert.Contains(t, errOut, "overrides shipped skill")
	code, out, errOut = runAgent(t, "run", "--config", dir, "--goal", "run chop_tree")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "chop_tree            1/1 steps succeeded")
	assert.NotContains(t, out, "minecraft:log", "the template says timber; the shipped Go skill would have felled a tree")
}

func mustShipped(t *testing.T, name string) string {
	t.Helper()
	data, err := fs.ReadFile(config.FS, name)
	require.NoError(t, err)
	return string(data)
}

// TestValidateAndRunAgreeOnAnAddedConfiguration: skills validate DIR and
// --config DIR go through the same code, so a problem in what DIR adds is
// found by both, line for line; a skill in no pack is a warning of both.
func TestValidateAndRunAgreeOnAnAddedConfiguration(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		wants []string
	}{
		{"a pack depends on an unknown pack", map[string]string{"skills/greet.yaml": greetSpec,
			"skill_packs/social.yaml": "name: social\nrequires_tech_state: any\ndepends_on_packs: [stone_ag]\nskills: [greet]\n"},
			[]string{`skill_packs/social.yaml:3:20: depends_on_packs: pack "social" depends on unknown pack "stone_ag"`}},
		{"a pack lists an unknown skill", map[string]string{"skills/greet.yaml": greetSpec,
			"skill_packs/social.yaml": "name: social\nrequires_tech_state: any\nskills: [greet, chop_tre]\n"},
			[]string{`skill_packs/social.yaml:3:17: skills: pack "social" lists unknown skill "chop_tre"`}},
		{"a spec typo", map[string]string{"skills/greet.yaml": "name: greet\nversion: 1\ndescription: say hi\nparms: {}\naction_sequence:\n  - type: chat\n    message: hi\n"},
			[]string{`skills/greet.yaml:4:1: parms: unknown field "parms" (did you mean "params"?)`}},
		{"only packs, no skills/", map[string]string{"skill_packs/social.yaml": "name: social\nrequires_tech_state: any\nskills: [report_status]\n"},
			[]string{"has no skills/ directory"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			vcode, vout, verr := runAgent(t, "skills", "validate", dir)
			assert.Equal(t, exitFail, vcode, verr)
			assert.NotContains(t, vout, "ok")
			code, out, errOut := runAgent(t, "run", "--config", dir, "--max-steps", "1")
			assert.Equal(t, exitUsage, code, errOut)
			assert.NotContains(t, out, "step")
			for _, w := range tc.wants {
				assert.Contains(t, verr, w)
				assert.Contains(t, errOut, w)
			}
			for _, line := range strings.Split(strings.TrimSpace(verr), "\n") {
				if !strings.Contains(line, "problem(s) found") {
					assert.Contains(t, errOut, line)
				}
			}
		})
	}

	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"skills/greet.yaml": greetSpec})
	want := "skill greet (" + filepath.Join(dir, "skills/greet.yaml") + ") is in no skill pack: planners are never offered it"
	code, out, errOut := runAgent(t, "skills", "validate", dir)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "ok (31 skills")
	assert.Contains(t, errOut, want)
	code, _, errOut = runAgent(t, "skills", "list", "--config", dir)
	require.Equal(t, exitOK, code)
	assert.Contains(t, errOut, want)
}
