package packs

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

func load(t *testing.T, files map[string]string) (*Set, error) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, content := range files {
		fsys["packs/"+name] = &fstest.MapFile{Data: []byte(content)}
	}
	return LoadDir(fsys, "packs", nil)
}

func mustLoad(t *testing.T, files map[string]string) *Set {
	t.Helper()
	s, err := load(t, files)
	require.NoError(t, err)
	return s
}

func errorsOf(t *testing.T, err error) strictyaml.Errors {
	t.Helper()
	var list strictyaml.Errors
	require.True(t, errors.As(err, &list), "want strictyaml.Errors, got %T: %v", err, err)
	return list
}

func TestTierGating(t *testing.T) {
	set := mustLoad(t, map[string]string{
		"exact.yaml":   "name: exact\nrequires_tech_state: lv\nskills: [a]\n",
		"atleast.yaml": "name: atleast\nrequires_tech_state: \">= steam_age\"\nskills: [b]\n",
		"atmost.yaml":  "name: atmost\nrequires_tech_state: \"<= mv\"\nskills: [c]\n",
		"span.yaml":    "name: span\nrequires_tech_state: steam_age..lv\nskills: [d]\n",
		"above.yaml":   "name: above\nrequires_tech_state: \"> lv\"\nskills: [e]\n",
		"below.yaml":   "name: below\nrequires_tech_state: \"< steam_age\"\nskills: [f]\n",
		"any.yaml":     "name: anytier\nrequires_tech_state: any\nskills: [g]\n",
	})
	all := []string{"exact", "atleast", "atmost", "span", "above", "below", "anytier"}
	tests := []struct {
		tier string
		want []string
	}{
		{"stone_age", []string{"c", "f", "g"}},
		{"steam_age", []string{"b", "c", "d", "g"}},
		{"lv", []string{"a", "b", "c", "d", "g"}},
		{"mv", []string{"b", "c", "e", "g"}},
		{"max", []string{"b", "e", "g"}},
	}
	for _, tc := range tests {
		t.Run(tc.tier, func(t *testing.T) {
			got, err := set.ActiveSkillNames(tc.tier, all)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	got, err := set.ActiveSkillNames("lv", []string{"exact"})
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, got, "only enabled packs count")
	got, err = set.ActiveSkillNames("lv", nil)
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestOrderAndDedup(t *testing.T) {
	set := mustLoad(t, map[string]string{
		"one.yaml": "name: one\nrequires_tech_state: any\nskills: [chop, craft, plant]\n",
		"two.yaml": "name: two\nrequires_tech_state: any\nskills: [feed, chop, boil]\n",
	})
	got, err := set.ActiveSkillNames("lv", []string{"two", "one", "two"})
	require.NoError(t, err)
	assert.Equal(t, []string{"feed", "chop", "boil", "craft", "plant"}, got)
}

func TestDependencies(t *testing.T) {
	set := mustLoad(t, map[string]string{
		"base.yaml":  "name: base\nrequires_tech_state: any\nskills: [chop]\n",
		"steam.yaml": "name: steam\nrequires_tech_state: \">= steam_age\"\ndepends_on_packs: [base]\nskills: [boil, chop]\n",
		"lv.yaml":    "name: lvp\nrequires_tech_state: \">= lv\"\ndepends_on_packs: [steam]\nskills: [wire]\n",
		"odd.yaml":   "name: odd\nrequires_tech_state: any\ndepends_on_packs: [lvp]\nskills: [odd_skill]\n",
	})
	res, err := set.Resolve("lv", []string{"lvp"})
	require.NoError(t, err)
	assert.Equal(t, []string{"chop", "boil", "wire"}, res.Skills, "dependencies first, transitively")
	assert.Equal(t, []PackState{
		{Name: "base", Active: true, Implied: true},
		{Name: "steam", Active: true, Implied: true},
		{Name: "lvp", Active: true},
	}, res.Packs)

	// A pack whose dependency is gated out is inactive too.
	res, err = set.Resolve("steam_age", []string{"odd"})
	require.NoError(t, err)
	assert.Equal(t, []string{"chop", "boil"}, res.Skills)
	require.Len(t, res.Packs, 4)
	assert.False(t, res.Packs[2].Active)
	assert.Contains(t, res.Packs[2].Reason, ">= lv")
	assert.False(t, res.Packs[3].Active)
	assert.Contains(t, res.Packs[3].Reason, `dependency "lvp" is not active`)

	// Enabling a dependency explicitly makes it not implied.
	res, err = set.Resolve("lv", []string{"base", "steam"})
	require.NoError(t, err)
	assert.False(t, res.Packs[0].Implied)
}

func TestConflicts(t *testing.T) {
	set := mustLoad(t, map[string]string{
		"manual.yaml": "name: manual_boilers\nrequires_tech_state: any\nconflicts_with: [auto_boilers]\nskills: [feed]\n",
		"auto.yaml":   "name: auto_boilers\nrequires_tech_state: \">= lv\"\nskills: [pump]\n",
		"user.yaml":   "name: user\nrequires_tech_state: any\ndepends_on_packs: [auto_boilers]\nskills: [x]\n",
	})
	_, err := set.ActiveSkillNames("stone_age", []string{"manual_boilers", "auto_boilers"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"manual_boilers" and "auto_boilers" conflict`)
	_, err = set.ActiveSkillNames("lv", []string{"user", "manual_boilers"})
	require.Error(t, err, "a conflict through a dependency counts")
	got, err := set.ActiveSkillNames("lv", []string{"manual_boilers"})
	require.NoError(t, err)
	assert.Equal(t, []string{"feed"}, got)
}

func TestResolveErrors(t *testing.T) {
	set := mustLoad(t, map[string]string{"a.yaml": "name: a\nrequires_tech_state: any\nskills: [x]\n"})
	_, err := set.ActiveSkillNames("bronze_age", []string{"a"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown tech state "bronze_age"`)
	_, err = set.ActiveSkillNames("lv", []string{"a", "b"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown skill pack "b"`)
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // "file:line:col: field: message" prefixes
	}{
		{"unknown tier", map[string]string{"a.yaml": "name: a\nrequires_tech_state: \">= bronze_age\"\nskills: [x]\n"},
			[]string{`packs/a.yaml:2:22: requires_tech_state: unknown tier "bronze_age"`}},
		{"bad range", map[string]string{"a.yaml": "name: a\nrequires_tech_state: lv..stone_age\nskills: [x]\n"},
			[]string{`packs/a.yaml:2:22: requires_tech_state: tier range "lv..stone_age" is empty`}},
		{"unknown key", map[string]string{"a.yaml": "name: a\nrequires_tech_state: lv\nskill: [x]\n"},
			[]string{`packs/a.yaml:3:1: skill: unknown field "skill" (did you mean "skills"?)`, `packs/a.yaml:1:1: skills: required field is missing`}},
		{"no skills", map[string]string{"a.yaml": "name: a\nrequires_tech_state: lv\nskills: []\n"},
			[]string{`packs/a.yaml:3:9: skills: a pack must list at least one skill`}},
		{"duplicate skill", map[string]string{"a.yaml": "name: a\nrequires_tech_state: lv\nskills: [x, x]\n"},
			[]string{`packs/a.yaml:3:13: skills[1]: "x" is listed twice`}},
		{"duplicate names", map[string]string{
			"a.yaml": "name: same\nrequires_tech_state: lv\nskills: [x]\n",
			"b.yaml": "name: same\nrequires_tech_state: lv\nskills: [y]\n",
		}, []string{`packs/b.yaml:1:7: name: duplicate pack name "same" (also in packs/a.yaml)`}},
		{"unknown dependency", map[string]string{"a.yaml": "name: a\nrequires_tech_state: lv\ndepends_on_packs: [ghost]\nskills: [x]\n"},
			[]string{`packs/a.yaml:3:20: depends_on_packs: pack "a" depends on unknown pack "ghost"`}},
		{"unknown conflict", map[string]string{"a.yaml": "name: a\nrequires_tech_state: lv\nconflicts_with: [ghost]\nskills: [x]\n"},
			[]string{`packs/a.yaml:3:18: conflicts_with: pack "a" conflicts with unknown pack "ghost"`}},
		{"self dependency", map[string]string{"a.yaml": "name: a\nrequires_tech_state: lv\ndepends_on_packs: [a]\nskills: [x]\n"},
			[]string{`packs/a.yaml:3:20: depends_on_packs: a pack cannot depend on itself`}},
		{"cycle", map[string]string{
			"a.yaml": "name: a\nrequires_tech_state: lv\ndepends_on_packs: [b]\nskills: [x]\n",
			"b.yaml": "name: b\nrequires_tech_state: lv\ndepends_on_packs: [c]\nskills: [y]\n",
			"c.yaml": "name: c\nrequires_tech_state: lv\ndepends_on_packs: [a]\nskills: [z]\n",
		}, []string{`packs/c.yaml:3:20: depends_on_packs: dependency cycle: a -> b -> c -> a`}},
		{"several files at once", map[string]string{
			"a.yaml": "name: A\nrequires_tech_state: lv\nskills: [x]\n",
			"b.yaml": "name: b\nrequires_tech_state: 5\nskills: [y]\n",
			"c.yaml": "name: c\n  bad: indent\n",
		}, []string{`packs/a.yaml:1:7: name: "A" must be`, `packs/b.yaml:2:22: requires_tech_state: expected a string`, `packs/c.yaml:2:`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(t, tc.files)
			list := errorsOf(t, err)
			var got []string
			for _, e := range list {
				got = append(got, e.Error())
			}
			for _, w := range tc.want {
				found := false
				for _, g := range got {
					if len(g) >= len(w) && g[:len(w)] == w {
						found = true
					}
				}
				assert.True(t, found, "want an error starting with %q in:\n%v", w, got)
			}
		})
	}
}

func TestValidateSkillsNamesFileAndSkill(t *testing.T) {
	set := mustLoad(t, map[string]string{"steam.yaml": "name: steam\nrequires_tech_state: lv\nskills:\n  - boil\n  - ghost_skill\n"})
	err := set.ValidateSkills(func(s string) bool { return s == "boil" })
	list := errorsOf(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, `packs/steam.yaml:5:5: skills: pack "steam" lists unknown skill "ghost_skill"`, list[0].Error())
	assert.NoError(t, set.ValidateSkills(func(string) bool { return true }))
}

func TestShippedPacks(t *testing.T) {
	set, err := LoadDir(config.FS, "skill_packs", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"lv_core", "steam_age", "stone_age", "survival", "utility"}, set.Names())
	lv, ok := set.Get("lv_core")
	require.True(t, ok)
	assert.Equal(t, []string{"chop_tree", "plant_sapling", "feed_coke_ovens", "basic_crafting"}, lv.Skills, "the seed's lv_core pack")

	stone, err := set.ActiveSkillNames("stone_age", set.Names())
	require.NoError(t, err)
	assert.Subset(t, stone, []string{"chop_tree", "plant_sapling", "basic_crafting"}, "a fresh player can start")
	assert.NotContains(t, stone, "feed_steam_boiler")
	steam, err := set.ActiveSkillNames("steam_age", []string{"steam_age"})
	require.NoError(t, err)
	assert.Subset(t, steam, []string{"feed_steam_boiler", "maintain_coke_ovens", "refill_water_tanks", "chop_tree"})
	for _, tier := range set.Tiers().Names() {
		_, err := set.ActiveSkillNames(tier, set.Names())
		assert.NoError(t, err, tier)
	}
}

func TestMissingDirectory(t *testing.T) {
	_, err := LoadDir(fstest.MapFS{}, "nowhere", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot read pack directory")
}
