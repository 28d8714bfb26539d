package skills

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A knowledge skill directory (one holding SKILL.md) may carry the skill's
// executable spec, named after the directory with underscores.
func TestLoadDirSkillDirectories(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	tmpl := func(name string) *fstest.MapFile {
		return file("name: " + name + "\nversion: 1\ndescription: d\naction_sequence:\n  - type: wait\n    ticks: 5\n")
	}
	fsys := fstest.MapFS{
		"skills/top.yaml":                       tmpl("top"),
		"skills/gather-flint/SKILL.md":          file("---\nname: gather-flint\ndescription: d\n---\n"),
		"skills/gather-flint/gather_flint.yaml": tmpl("gather_flint"),
		"skills/gather-flint/config.yaml":       file("not: a spec"),
		"skills/gather-flint/assets/x.yaml":     file("not: a spec"),
		"skills/gather-flint/.hidden.yaml":      file("not: a spec"),
		"skills/plain-dir/plain_dir.yaml":       tmpl("plain_dir"),
		"skills/.hidden/SKILL.md":               file("x"),
		"skills/.hidden/_hidden.yaml":           tmpl("hidden"),
		"skills/3d-maps/SKILL.md":               file("x"),
		"skills/3d-maps/3d_maps.yaml":           file("x"),
	}
	specs, err := LoadDir(fsys, "skills")
	require.NoError(t, err)
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	assert.Equal(t, []string{"gather_flint", "top"}, names, "only <dir_with_underscores>.yaml of directories holding SKILL.md")
	assert.Equal(t, "skills/gather-flint/gather_flint.yaml", specs[0].File)

	// Versions, problems and duplicates behave as for top-level files.
	fsys["skills/gather-flint/gather_flint.v2.yaml"] = file("name: gather_flint\nversion: 2\nstatus: candidate\ndescription: d\naction_sequence:\n  - type: wait\n    ticks: 5\n")
	fsys["skills/gather_flint.yaml"] = tmpl("gather_flint")
	fsys["skills/gather-flint/gather_flint.yml"] = file("name: wrong\nversion: 1\ndescription: d\nemits: [wait]\n")
	_, err = LoadDir(fsys, "skills")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "skills/gather-flint/gather_flint.yml:1:7: name: spec name \"wrong\" does not match its file name")
	assert.Contains(t, err.Error(), "gather_flint@1 is also defined in")
}
