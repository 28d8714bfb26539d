package badfiles_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/badfiles"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/recipebook"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/packs"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// shipped returns the embedded configuration files matching pattern.
func shipped(t *testing.T, fsys fs.FS, pattern string) [][]byte {
	t.Helper()
	names, err := fs.Glob(fsys, pattern)
	if err != nil || len(names) == 0 {
		t.Fatalf("no shipped files match %s: %v", pattern, err)
	}
	var out [][]byte
	for _, n := range names {
		data, err := fs.ReadFile(fsys, n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

func errOf[T any](_ T, err error) error { return err }

// TestBadFiles runs every loader of the exported packages through the bad
// inputs; the loaders with unexported parsers (agent.yaml, the metrics
// state file, the quality file) have their own TestBadFiles… beside them.
func TestBadFiles(t *testing.T) {
	tiers := rules.Default().Tiers
	loaders := []badfiles.Loader{
		{Name: "skill spec", File: "chop_tree.yaml", YAML: true, DirLoader: true,
			Bombs: [][]byte{
				[]byte("name: chop_tree\nversion: 1\ndescription: x\nemits: [chat]\npreconditions:\n  extra: {bomb: " + badfiles.BombAnchors() + "}\n"),
				[]byte("name: chop_tree\nversion: 1\ndescription: x\naction_sequence:\n  - {type: chat, message: " + badfiles.BombAnchors() + "}\n"),
			},
			Valid: shipped(t, config.FS, "skills/chop_tree.yaml"),
			Parse: func(f string, d []byte) error { return errOf(skills.ParseSpec(f, d)) },
			Load: func(p string) error {
				return errOf(skills.LoadDir(os.DirFS(filepath.Dir(p)), "."))
			}},
		{Name: "skill pack", File: "stone_age.yaml", YAML: true, DirLoader: true,
			Valid: shipped(t, config.FS, "skill_packs/stone_age.yaml"),
			Parse: func(f string, d []byte) error { return errOf(packs.ParsePack(f, d, tiers)) },
			Load: func(p string) error {
				return errOf(packs.LoadDir(os.DirFS(filepath.Dir(p)), ".", tiers))
			}},
		{Name: "SKILL.md", File: "SKILL.md", YAML: true, DirLoader: true,
			Valid: shipped(t, config.FS, "skills/coke-oven-operation/SKILL.md"),
			Parse: func(f string, d []byte) error {
				return errOf(knowledge.ParseSkillMD(f, d, knowledge.ParseOptions{Dir: "coke-oven-operation"}))
			},
			// The whole-file parser holds the input; the library refuses
			// big files before reading (see "files").
			HugeAlloc: 3 * badfiles.HugeSize,
			Load: func(p string) error {
				return errOf(knowledge.New(knowledge.Options{}).AddSkillDir(filepath.Dir(p)))
			}},
		{Name: "knowledge config", File: "skills-config.yaml", YAML: true,
			Valid: [][]byte{[]byte("workspace: /srv/agent\ndirs: [skills, {path: /opt/gtnh-skills, recursive: true}]\npreload: [coke-oven-operation]\nselection: {max_skills: 3, prefilter_threshold: 20, timeout: 30s, embeddings: false}\nquality_file: skill-quality.json\n")},
			Parse: func(f string, d []byte) error { return errOf(knowledge.ParseConfig(f, d)) },
			Load:  func(p string) error { return errOf(knowledge.LoadConfig(p)) }},
		{Name: "scenario", File: "scenario.yaml", YAML: true,
			Valid: shipped(t, os.DirFS("../../sim"), "scenarios/*.yaml"),
			Parse: func(f string, d []byte) error { return errOf(sim.ParseScenario(f, d)) },
			Load:  func(p string) error { return errOf(sim.LoadScenario(p)) }},
		{Name: "goal file", File: "goal.yaml", YAML: true,
			Bombs: [][]byte{[]byte("skill: {name: x, params: {bomb: " + badfiles.BombAnchors() + "}}\n")},
			Valid: [][]byte{
				[]byte("items:\n  - {item: minecraft:log, count: 16}\n  - {item: ore:plankWood, count: 4}\ntier: steam_age\nskill: {name: mine_block, params: {target: minecraft:gravel}}\n"),
			},
			Parse: func(f string, d []byte) error { return errOf(loop.ParseGoalYAML(f, d, tiers)) },
			Load:  func(p string) error { return errOf(loop.LoadGoalFile(p, tiers)) }},
		{Name: "script", File: "script.yaml", YAML: true,
			Bombs: [][]byte{[]byte("- {skill: x, params: {bomb: " + badfiles.BombAnchors() + "}}\n")},
			Valid: [][]byte{
				[]byte("- {skill: chop_tree, params: {min_logs: 4}}\n- {skill: basic_crafting, params: {item: minecraft:planks, count: 8}}\n- skill: report_status\n  params:\n    note: done\n"),
			},
			Parse: func(f string, d []byte) error { return errOf(script.Parse(f, d)) },
			Load:  func(p string) error { return errOf(script.Load(p)) }},
		{Name: "tier table", File: "tiers.yaml", YAML: true, DirLoader: true,
			Valid: shipped(t, config.FS, "tiers.yaml"),
			Parse: func(f string, d []byte) error { return errOf(rules.ParseTiers(f, d)) },
			Load: func(p string) error {
				return errOf(registry.ConfigTiers(os.DirFS(filepath.Dir(p)), nil))
			}},
		{Name: "tag table", File: "tags.yaml", YAML: true, Valid: shipped(t, config.FS, "tags.yaml"),
			Parse: func(f string, d []byte) error { return errOf(rules.ParseTags(f, d)) }},
		{Name: "recipe book", File: "recipes.yaml", YAML: true, Valid: shipped(t, config.FS, "recipes.yaml"),
			Parse: func(f string, d []byte) error { return errOf(rules.ParseRecipes(f, d)) }},
		{Name: "compact recipe file", File: "pack.rcp",
			Valid: shipped(t, os.DirFS("../../recipebook"), "testdata/compact/*.rcp"),
			Parse: func(f string, d []byte) error { return errOf(recipebook.Decode(f, d)) },
			Load:  func(p string) error { return errOf(recipebook.ReadFile(p)) }},
		{Name: "mining rules", File: "mining.yaml", YAML: true, Valid: shipped(t, config.FS, "mining.yaml"),
			Parse: func(f string, d []byte) error { return errOf(rules.ParseMiningRules(f, d)) }},
		{Name: "tech rules", File: "tech.yaml", YAML: true, Valid: shipped(t, config.FS, "tech.yaml"),
			Parse: func(f string, d []byte) error { return errOf(rules.ParseTech(f, d, tiers)) }},
		{Name: "id map", File: "vanilla_ids.yaml", YAML: true, Valid: shipped(t, config.FS, "vanilla_ids.yaml"),
			Parse: func(f string, d []byte) error { return errOf(rules.ParseIDMap(f, d)) }},
	}
	for _, l := range loaders {
		t.Run(strings.ReplaceAll(l.Name, " ", "_"), func(t *testing.T) { badfiles.Run(t, l) })
	}
}

// TestBadFilesHarness checks the generators the suite relies on.
func TestBadFilesHarness(t *testing.T) {
	data := []byte("line one\nline two\nline three\n")
	cuts := badfiles.Truncations(data)
	if len(cuts) < 5 {
		t.Fatalf("only %d truncations", len(cuts))
	}
	for _, c := range cuts {
		if len(c) == 0 || len(c) >= len(data) {
			t.Fatalf("cut of %d bytes from %d", len(c), len(data))
		}
	}
	if h := badfiles.Huge(); len(h) != badfiles.HugeSize || strings.Contains(string(h[:1024]), "\n") {
		t.Fatal("the huge input is not one 64 MiB line")
	}
	if g := badfiles.Garbage(1, 100); len(g) != 100 || g[0] != 0 {
		t.Fatal("garbage")
	}
	if strings.Count(string(badfiles.AliasBomb()), "*") != 72 {
		t.Fatal("the alias bomb has nine levels of nine aliases")
	}
}
