package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

const flintSpec = `name: gather_flint
version: 1
description: Mine the nearest gravel; one in ten drops flint.
params:
  radius: {type: int, default: 16, description: Search radius.}
preconditions:
  tech_states_any_of: [">= stone_age"]
tags: [gathering]
action_sequence:
  - type: move_to
    pos: "{nearest:gravel}"
    radius: 3
  - type: break_block
    pos: "{nearest:gravel}"
`

const waterSpec = `name: fetch_water
version: 1
description: Fill a bucket at the nearest water source.
tags: [water]
action_sequence:
  - type: move_to
    pos: "{nearest:water_source}"
    radius: 3
  - type: use_item
    item: minecraft:bucket
    target: "{nearest:water_source}"
`

// catalogFixture is a configuration root with two template skills (one in
// a knowledge skill directory), two packs and two more knowledge skills.
func catalogFixture(t *testing.T) (*Catalog, string) {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"skills/fetch_water.yaml": waterSpec,
		"skills/gather-flint/SKILL.md": skillMD("gather-flint", "Get flint from gravel. Use when flint is short.",
			"metadata:\n  version: 1.0.0\n  tags: [flint]\n  author: t\n  uses: [gather_flint]",
			"# Gather flint\n\nRun `gather_flint` until four flint are held; see {baseDir}/references/odds.md.\n"),
		"skills/gather-flint/gather_flint.yaml":  flintSpec,
		"skills/gather-flint/references/odds.md": "one in ten",
		"skills/boilers/SKILL.md":                skillMD("boilers", "Boiler safety. Use before fuelling.", "metadata:\n  tiers: \">= steam_age\"\n  tags: [steam]", "# Boilers\n\nWater first.\n"),
		"skills/early/SKILL.md":                  skillMD("early", "Stone age only. Use at the start.", "metadata:\n  tiers: stone_age", "# Early\n\nWood first.\n"),
		"skill_packs/stone.yaml":                 "name: stone\nrequires_tech_state: \">= stone_age\"\nskills: [gather_flint]\n",
		"skill_packs/steam.yaml":                 "name: steam\nrequires_tech_state: \">= steam_age\"\ndepends_on_packs: [stone]\nskills: [fetch_water]\n",
	})
	reg, err := registry.LoadConfig(os.DirFS(root), registry.Options{})
	require.NoError(t, err, "skills.LoadDir picks up the spec inside the skill directory")
	require.NoError(t, reg.Finalize())
	lib, _ := newLib()
	_, err = lib.Add(knowledge.Source{Label: knowledge.LabelShipped, Dir: filepath.Join(root, "skills"), ReadOnly: true})
	require.NoError(t, err)
	return &Catalog{Registry: reg, Library: lib}, root
}

func TestCatalogJoinsBothKinds(t *testing.T) {
	cat, root := catalogFixture(t)
	entries := cat.Entries()
	assert.Equal(t, []string{"boilers", "early", "fetch_water", "gather-flint"}, Names(entries), "one entry per skill; the combined skill is one entry")
	byName := map[string]Entry{}
	for _, e := range entries {
		byName[e.Name] = e
	}
	f := byName["gather-flint"]
	assert.Equal(t, knowledge.KindKnowledgeTemplate, f.Kind)
	assert.Equal(t, "gather_flint", f.Executable)
	assert.Equal(t, []string{"stone"}, f.Packs)
	assert.Equal(t, []string{">= stone_age"}, f.Tiers, "a combined skill without tiers takes its executable's")
	assert.Equal(t, filepath.Join(root, "skills", "gather-flint"), f.Root)
	require.NotNil(t, f.Spec())
	assert.Equal(t, knowledge.KindTemplate, byName["fetch_water"].Kind)
	assert.Equal(t, "fetch_water", byName["fetch_water"].ID)
	assert.Equal(t, []string{"steam"}, byName["fetch_water"].Packs)
	assert.Equal(t, knowledge.KindKnowledge, byName["boilers"].Kind)
	assert.Equal(t, []string{">= steam_age"}, byName["boilers"].Tiers)
	assert.True(t, knowledge.KindKnowledgeGo.Knowledge() && knowledge.KindKnowledgeGo.Executable())
	assert.False(t, knowledge.KindKnowledge.Executable())
	assert.False(t, knowledge.KindGo.Knowledge())

	e, ok := cat.Lookup("gather_flint")
	require.True(t, ok, "the executable name finds the combined skill")
	assert.Equal(t, "gather-flint", e.Name)
	_, ok = cat.Lookup(f.ID)
	assert.True(t, ok, "ids find skills")
	assert.Len(t, Knowledge(entries), 3)
}

func TestCatalogForTechState(t *testing.T) {
	cat, _ := catalogFixture(t)
	stone, err := cat.ForTechState("stone_age", []string{"stone", "steam"})
	require.NoError(t, err)
	assert.Equal(t, []string{"gather-flint", "early"}, Names(stone), "executables in pack order, then knowledge skills whose tiers allow")
	steam, err := cat.ForTechState("steam_age", []string{"stone", "steam"})
	require.NoError(t, err)
	assert.Equal(t, []string{"gather-flint", "fetch_water", "boilers"}, Names(steam))
	// Enabling a pack enables its dependencies.
	only, err := cat.ForTechState("steam_age", []string{"steam"})
	require.NoError(t, err)
	assert.Equal(t, []string{"gather-flint", "fetch_water", "boilers"}, Names(only), "steam depends on stone")
	_, err = cat.ForTechState("bronze_age", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unknown tech state")

	// A combined skill whose executable is not offered is plain knowledge.
	lib := &Catalog{Library: cat.Library}
	entries, err := lib.ForTechState("lv", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"boilers", "gather-flint"}, Names(entries), "without a registry a combined skill is knowledge only")
	assert.Equal(t, knowledge.KindKnowledge, entries[1].Kind)
}

func TestLoadSkill(t *testing.T) {
	cat, root := catalogFixture(t)
	dir := filepath.Join(root, "skills", "gather-flint")
	l, err := cat.LoadSkill("gather-flint")
	require.NoError(t, err)
	assert.Equal(t, knowledge.KindKnowledgeTemplate, l.Kind)
	assert.Equal(t, dir, l.Root)
	assert.Equal(t, []string{"gather_flint.yaml", "references/odds.md"}, l.Resources)
	assert.Contains(t, l.Body, "see "+dir+"/references/odds.md.", "{baseDir} resolved")
	assert.Contains(t, l.Body, "## Executable skill `gather_flint` (template, version 1, active)", "the spec follows the body")
	text := l.Text()
	assert.True(t, strings.HasPrefix(text, "### Skill: gather-flint\n\n**Root Path:** `"+dir+"`\n**Kind:** knowledge+template (executable skill `gather_flint`)\n"), text)
	assert.Contains(t, text, "**Resources:** `gather_flint.yaml`, `references/odds.md`")

	l, err = cat.LoadSkill("fetch_water")
	require.NoError(t, err)
	assert.Equal(t, knowledge.KindTemplate, l.Kind)
	assert.Empty(t, l.Root)
	assert.Contains(t, l.Body, "# Executable skill `fetch_water` (template, version 1, active)")
	assert.Contains(t, l.Body, "## Parameters\n\nNone.")
	assert.Contains(t, l.Body, "move_to, use_item")
	assert.NotContains(t, l.Text(), "Root Path")

	_, err = cat.LoadSkill("nope")
	require.ErrorIs(t, err, knowledge.ErrUnknownSkill)
	assert.Contains(t, err.Error(), "boilers, early, fetch_water, gather-flint")
}

func TestInjection(t *testing.T) {
	cat, root := catalogFixture(t)
	entries := cat.Entries()
	dynamic, err := cat.Injection(entries, nil)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(dynamic, "## Agent Skills\n\n### Skill Catalog\n\n"))
	assert.Contains(t, dynamic, "- **boilers** (knowledge; tags: steam; tiers: >= steam_age): Boiler safety. Use before fuelling.\n")
	assert.Contains(t, dynamic, "- **gather-flint** (knowledge+template; tags: flint; tiers: >= stone_age; uses: gather_flint): ")
	assert.Contains(t, dynamic, "- **fetch_water** (template; tags: water): ")
	assert.Contains(t, dynamic, "use the `load_skill` tool with its name")
	assert.Contains(t, dynamic, "### Critical Rules for Using Skills")
	assert.Contains(t, dynamic, "`Root Path` + `Relative Path` = `Absolute Path`")
	assert.NotContains(t, dynamic, "### Skill Details", "dynamic mode injects the catalog only")

	names, err := cat.Preload([]string{"boilers", "gather-flint"}, root)
	require.NoError(t, err)
	pre, err := cat.Injection(entries, names)
	require.NoError(t, err)
	assert.Contains(t, pre, "To load a skill not shown in detail below, use the `load_skill` tool.")
	assert.Contains(t, pre, "### Skill Details\n\n#### boilers\n\n**Root Path:** `"+filepath.Join(root, "skills", "boilers")+"`\n\n# Boilers\n\nWater first.\n")
	assert.Contains(t, pre, "#### gather-flint")
	assert.Less(t, strings.Index(pre, "### Skill Catalog"), strings.Index(pre, "### Critical Rules"))
	assert.Less(t, strings.Index(pre, "### Critical Rules"), strings.Index(pre, "### Skill Details"))

	// A preload entry that is a path hot-registers that skill directory.
	other := filepath.Join(t.TempDir(), "ad-hoc")
	writeTree(t, other, map[string]string{"SKILL.md": goodMD("ad-hoc")})
	names, err = cat.Preload([]string{other, "./rel/side"}, root)
	require.Error(t, err, "a missing relative path is reported")
	names, err = cat.Preload([]string{other}, root)
	require.NoError(t, err)
	assert.Equal(t, []string{"ad-hoc"}, names)
	_, ok := cat.Lookup("ad-hoc")
	assert.True(t, ok)
	_, err = cat.Preload([]string{"ghost"}, root)
	require.ErrorIs(t, err, knowledge.ErrUnknownSkill)
	_, err = cat.Injection(entries, []string{"ghost"})
	require.ErrorIs(t, err, knowledge.ErrUnknownSkill)
}

func TestRegisterSpecsFromCustomDirectories(t *testing.T) {
	cat, _ := catalogFixture(t)
	custom := t.TempDir()
	writeTree(t, custom, map[string]string{
		"fetch-lava/SKILL.md":        skillMD("fetch-lava", "Carry lava. Use for lava boilers.", "", "# Lava\n\nUse `fetch_lava`.\n"),
		"fetch-lava/fetch_lava.yaml": strings.NewReplacer("fetch_water", "fetch_lava", "water_source", "lava_source").Replace(waterSpec),
	})
	_, err := cat.Library.AddDir(custom)
	require.NoError(t, err)
	require.NoError(t, cat.RegisterSpecs())
	sk, err := cat.Registry.GetSkill("fetch_lava")
	require.NoError(t, err, "the custom directory's template spec is now executable")
	assert.Equal(t, "fetch_lava", sk.Name())
	e, ok := cat.Lookup("fetch-lava")
	require.True(t, ok)
	assert.Equal(t, knowledge.KindKnowledgeTemplate, e.Kind)
	require.NoError(t, cat.RegisterSpecs(), "registering twice is a no-op")
}
