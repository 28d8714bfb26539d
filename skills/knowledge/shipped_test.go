package knowledge_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/race"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

func shippedCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	reg, err := registry.LoadConfig(config.FS, registry.Options{})
	require.NoError(t, err)
	require.NoError(t, reg.RegisterProvided())
	require.NoError(t, reg.Finalize())
	lib := knowledge.New(knowledge.Options{Tiers: reg.Tiers()})
	_, err = lib.Add(knowledge.Source{Label: knowledge.LabelShipped, FS: config.FS, FSDir: "skills", Display: "config/skills"})
	require.NoError(t, err)
	require.Empty(t, lib.Problems())
	return &catalog.Catalog{Registry: reg, Library: lib}
}

// The shipped knowledge skills satisfy the shipped-skill contract: valid,
// clean of safety flags and lint issues, linked to executable skills that
// exist, and loadable.
func TestShippedKnowledgeSkills(t *testing.T) {
	race.SkipOneGoroutine(t, "validating and linting every shipped knowledge skill")
	cat := shippedCatalog(t)
	known := func(n string) bool {
		_, err := cat.Registry.GetSkill(n)
		return err == nil
	}
	dirs := knowledge.SkillDirs(config.FS, "skills", false)
	require.GreaterOrEqual(t, len(dirs), 4, "at least four shipped knowledge skills")
	for _, d := range dirs {
		t.Run(d, func(t *testing.T) {
			sub, err := fs.Sub(config.FS, d)
			require.NoError(t, err)
			rep := knowledge.ValidateFS(sub, "config/"+d, knowledge.ValidateOptions{Known: known})
			require.True(t, rep.OK(), "%v %v", rep.Errors, rep.Findings)
			assert.Empty(t, rep.Findings)
			assert.Empty(t, knowledge.Lint("config/"+d+"/SKILL.md", rep.Doc, rep.Resources, knowledge.LintOptions{Known: known}))
			md := rep.Doc.Metadata
			assert.NotEmpty(t, md.Uses, "every shipped skill links the executable skills it relies on")
			for _, u := range md.Uses {
				assert.Contains(t, rep.Doc.Body, "`"+u+"`", "the body says when to use %s", u)
			}
			assert.NotEmpty(t, md.Version)
			assert.NotEmpty(t, md.Tags)
			l, err := cat.LoadSkill(rep.Doc.Name)
			require.NoError(t, err)
			assert.NotContains(t, l.Body, knowledge.BaseDirPlaceholder, "placeholders are resolved")
			for _, r := range l.Resources {
				data, err := cat.Library.ReadResource(rep.Doc.Name, r)
				require.NoError(t, err)
				assert.NotEmpty(t, data)
			}
		})
	}
}

// Facts the shipped skills must state, as GTNH has them.
func TestShippedKnowledgeFacts(t *testing.T) {
	race.SkipOneGoroutine(t, "checking the shipped skills' facts")
	cat := shippedCatalog(t)
	facts := map[string][]string{
		"coke-oven-operation":   {"26 coke oven bricks", "hollow 3x3x3", "creosote", "500 mB", "no fuel"},
		"steam-age-boilers":     {"explode", "100 °C", "Water first", "bronze", "high-pressure"},
		"basic-ore-processing":  {"crushed ore", "purified", "centrifuge", "byproduct", "harvest level"},
		"stone-age-progression": {"2 flint and 2 logs", "2 planks", "gravel", "saw", "flint"},
	}
	for name, want := range facts {
		l, err := cat.LoadSkill(name)
		require.NoError(t, err, name)
		text := strings.ToLower(l.Body + " " + func() string { e, _ := cat.Lookup(name); return e.Description }())
		for _, w := range want {
			assert.Contains(t, text, strings.ToLower(w), "%s mentions %q", name, w)
		}
	}
	// The shipped knowledge skills show up in the tier-gated catalog.
	steam, err := cat.ForTechState("steam_age", cat.Registry.Packs().Names())
	require.NoError(t, err)
	names := catalog.Names(steam)
	assert.Contains(t, names, "steam-age-boilers")
	assert.Contains(t, names, "feed_steam_boiler")
	assert.NotContains(t, names, "stone-age-progression", "gated to stone_age")
}
