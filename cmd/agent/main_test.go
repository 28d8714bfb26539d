package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runAgent(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestSkillsList(t *testing.T) {
	code, out, _ := runAgent(t, "skills", "list")
	require.Equal(t, exitOK, code)
	for _, s := range []string{"chop_tree", "feed_steam_boiler", "refill_water_tanks", "fill_bucket"} {
		assert.Contains(t, out, s)
	}

	code, out, _ = runAgent(t, "skills", "list", "--tech-state", "steam_age", "--packs", "steam_age", "--json")
	require.Equal(t, exitOK, code)
	var descs []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &descs))
	var names []string
	for _, d := range descs {
		if d["kind"] == "go" || d["kind"] == "template" {
			names = append(names, d["name"].(string))
		}
	}
	assert.Equal(t, []string{"chop_tree", "plant_sapling", "gather_saplings", "basic_crafting", "mine_block", "hunt", "mine_ore", "mine_gt_ore", "smelt", "fill_clay_bucket", "build_structure", "walk_to_remembered", "store_items", "drop_items", "walk_to",
		"feed_coke_ovens", "feed_steam_boiler", "maintain_coke_ovens", "refill_water_tanks", "fill_bucket"}, names,
		"dependencies (stone_age) first, then the pack's own skills")

	code, out, _ = runAgent(t, "skills", "list", "--tech-state", "stone_age", "--packs", "steam_age")
	require.Equal(t, exitOK, code)
	assert.NotContains(t, out, "feed_steam_boiler")
}

func TestUsageErrors(t *testing.T) {
	cases := [][]string{
		{"bogus"},
		{"skills"},
		{"skills", "frobnicate"},
		{"skills", "list", "--tech-state", "bronze_age"},
		{"skills", "list", "--packs", "steam_age"},
		{"skills", "list", "--tech-state", "lv", "--packs", "nope"},
		{"skills", "list", "--no-such-flag"},
		{"skills", "list", "extra"},
		{"skills", "describe"},
		{"skills", "describe", "a", "b"},
		{"skills", "describe", "chop_tree@zero"},
		{"skills", "validate", "/does/not/exist"},
		{"packs"},
		{"packs", "list", "x"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			code, _, errOut := runAgent(t, args...)
			assert.Equal(t, exitUsage, code, errOut)
			assert.NotEmpty(t, errOut)
		})
	}
}

func TestSkillsDescribe(t *testing.T) {
	code, out, errOut := runAgent(t, "skills", "describe", "chop_tree")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "chop_tree  (version 1, active, manual, go)")
	assert.Contains(t, out, "Parameters:")
	assert.Contains(t, out, "Emits:")

	code, out, _ = runAgent(t, "skills", "describe", "--json", "mine_block")
	require.Equal(t, exitOK, code)
	var d map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &d))
	assert.Equal(t, "template", d["implementation"])
	assert.Equal(t, []any{"move_to", "break_block"}, d["emits"])

	code, _, errOut = runAgent(t, "skills", "describe", "chop_log")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "unknown skill")
	assert.Contains(t, errOut, "chop_tree", "the error lists the known skills")
	code, _, errOut = runAgent(t, "skills", "describe", "chop_tre")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `unknown skill "chop_tre" (did you mean "chop_tree"?)`)

	code, _, _ = runAgent(t, "skills", "describe", "chop_tree@9")
	assert.Equal(t, exitUsage, code)
}

func TestSkillsValidateEmbedded(t *testing.T) {
	code, out, errOut := runAgent(t, "skills", "validate")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "config: ok")
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

func TestSkillsValidateReportsEveryError(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"skills/good.yaml":       "name: good\nversion: 1\ndescription: fine\naction_sequence:\n  - type: chat\n    message: hi\n",
		"skills/typo.yaml":       "name: typo\nversion: 1\ndescription: has a typo\nprecondition:\n  dimension_allowlist: [overworld]\nemits: [wait]\n",
		"skills/wrong_name.yaml": "name: other_name\nversion: 1\ndescription: name mismatch\nemits: [wait]\n",
		"skills/no_impl.yaml":    "name: no_impl\nversion: 1\ndescription: go skill without code\nemits: [wait]\n",
		"skill_packs/p.yaml":     "name: p\nrequires_tech_state: \">= bronze_age\"\nskills: [good, ghost]\n",
	})
	code, out, errOut := runAgent(t, "skills", "validate", root)
	assert.Equal(t, exitFail, code)
	assert.Empty(t, out)
	want := []string{
		filepath.Join(root, "skills/typo.yaml") + ":4:1: precondition: unknown field \"precondition\" (did you mean \"preconditions\"?)",
		filepath.Join(root, "skills/wrong_name.yaml") + ":1:7: name:",
		filepath.Join(root, "skill_packs/p.yaml") + ":2:22: requires_tech_state: unknown tier \"bronze_age\"",
	}
	for _, w := range want {
		assert.Contains(t, errOut, w)
	}
	assert.Contains(t, errOut, "problem(s) found")

	// Fix the files one by one: the remaining errors surface, including
	// cross-file ones (unknown skill in a pack, missing implementation).
	writeFiles(t, root, map[string]string{
		"skills/typo.yaml":       "name: typo\nversion: 1\ndescription: fixed\naction_sequence:\n  - type: wait\n    ticks: 2s\n",
		"skills/wrong_name.yaml": "name: wrong_name\nversion: 1\ndescription: fixed\naction_sequence:\n  - type: wait\n    ticks: 5\n",
		"skill_packs/p.yaml":     "name: p\nrequires_tech_state: \">= steam_age\"\nskills: [good, ghost]\n",
	})
	code, _, errOut = runAgent(t, "skills", "validate", root)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, errOut, filepath.Join(root, "skill_packs/p.yaml")+":3:16: skills: pack \"p\" lists unknown skill \"ghost\"")
	assert.Contains(t, errOut, "no_impl@1")

	require.NoError(t, os.Remove(filepath.Join(root, "skills/no_impl.yaml")))
	writeFiles(t, root, map[string]string{"skill_packs/p.yaml": "name: p\nrequires_tech_state: \">= steam_age\"\nskills: [good]\n"})
	code, out, errOut = runAgent(t, "skills", "validate", root)
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "ok (33 skills, 33 spec versions, 6 packs, the shipped ones included)", "three skills and a pack added to the shipped 30 and 5")
}

func TestSkillsValidatePlainSpecDir(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.yaml": "name: a\nversion: 1\ndescription: x\naction_sequence:\n  - type: chat\n    message: \"{nobody}\"\n"})
	code, _, errOut := runAgent(t, "skills", "validate", dir)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, errOut, filepath.Join(dir, "a.yaml")+":6:14: action_sequence[0].message: {nobody} is neither a declared parameter nor a derived placeholder")
}

func TestPacksList(t *testing.T) {
	code, out, _ := runAgent(t, "packs", "list")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "steam_age")
	assert.Contains(t, out, ">= steam_age")

	code, out, _ = runAgent(t, "packs", "list", "--json")
	require.Equal(t, exitOK, code)
	var packs []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &packs))
	require.NotEmpty(t, packs)
	assert.Equal(t, "lv_core", packs[0]["name"])
}

func TestCustomConfigAndState(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"skills/greet.yaml":       "name: greet\nversion: 1\ndescription: say hi\naction_sequence:\n  - type: chat\n    message: hi\n",
		"skills/greet.v2.yaml":    "name: greet\nversion: 2\nstatus: candidate\norigin: synthesized\ndescription: say hello\naction_sequence:\n  - type: chat\n    message: hello\n",
		"skill_packs/social.yaml": "name: social\nrequires_tech_state: any\nskills: [greet]\n",
		"state.json":              `{"format": 1, "skills": {"greet@1": {"metrics": {"success_rate": 0.5, "avg_cost": 10, "samples": 4}}}}`,
	})
	code, out, errOut := runAgent(t, "skills", "list", "--config", root, "--state", filepath.Join(root, "state.json"))
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "greet")
	assert.Contains(t, out, "50% (4)")

	code, out, _ = runAgent(t, "skills", "list", "--config", root, "--candidates", "--json")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, `"version": 2`)
	assert.Contains(t, out, `"status": "candidate"`)

	writeFiles(t, root, map[string]string{"state.json": `{"format": 1, "skills": {`})
	code, _, errOut = runAgent(t, "skills", "list", "--config", root, "--state", filepath.Join(root, "state.json"))
	assert.Equal(t, exitUsage, code, "a corrupt state file is refused like any invalid configuration")
	assert.Contains(t, errOut, "corrupt registry state file")
}

func TestCustomTierTable(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"tiers.yaml":              "tiers:\n  - name: primitive\n  - name: modern\n",
		"skills/greet.yaml":       "name: greet\nversion: 1\ndescription: say hi\npreconditions:\n  tech_states_any_of: [\">= primitive\"]\naction_sequence:\n  - type: chat\n    message: hi\n",
		"skill_packs/social.yaml": "name: social\nrequires_tech_state: modern\nskills: [greet]\n",
	})
	code, out, errOut := runAgent(t, "skills", "list", "--config", root, "--tech-state", "modern")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "greet")
	code, out, _ = runAgent(t, "skills", "list", "--config", root, "--tech-state", "primitive")
	require.Equal(t, exitOK, code)
	assert.NotContains(t, out, "greet")
	code, _, errOut = runAgent(t, "skills", "list", "--config", root, "--tech-state", "lv")
	assert.Equal(t, exitUsage, code, "lv is not in this tier table")
	assert.Contains(t, errOut, "known: primitive, modern")
	code, _, _ = runAgent(t, "skills", "validate", root)
	assert.Equal(t, exitOK, code)

	writeFiles(t, root, map[string]string{"tiers.yaml": "tiers:\n  - name: primitive\n  - nam: modern\n"})
	code, _, errOut = runAgent(t, "skills", "validate", root)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, errOut, filepath.Join(root, "tiers.yaml")+":3:5: tiers[1].nam: unknown field")
}
