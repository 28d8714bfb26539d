package registry_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

var update = flag.Bool("update", false, "rewrite golden files")

func shipped(t *testing.T) *registry.Registry {
	t.Helper()
	reg, err := registry.LoadConfig(config.FS, registry.Options{})
	require.NoError(t, err)
	require.NoError(t, reg.RegisterProvided(), "every shipped Go skill has a shipped spec")
	require.NoError(t, reg.Finalize(), "every shipped go spec has an implementation")
	return reg
}

func golden(t *testing.T, name string, v any) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(v))
	got := buf.Bytes()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./skills/registry -update to create %s", path)
	assert.Equal(t, string(want), string(got), "describe output changed; review and run with -update")
}

func TestDescribeGolden(t *testing.T) {
	reg := shipped(t)
	golden(t, "describe_all.json", reg.DescribeAll())
	all := reg.Packs().Names()
	for _, tier := range []string{"stone_age", "steam_age", "lv"} {
		descs, err := reg.DescribeForTechState(tier, all)
		require.NoError(t, err)
		var names []string
		for _, d := range descs {
			names = append(names, d.Name)
		}
		golden(t, "catalog_"+tier+".json", names)
	}
	steam, err := reg.DescribeForTechState("steam_age", []string{"steam_age"})
	require.NoError(t, err)
	golden(t, "describe_steam_age.json", steam)
}

func TestDescribeIsDeterministic(t *testing.T) {
	a, err := json.Marshal(shipped(t).DescribeAll())
	require.NoError(t, err)
	for range 5 {
		b, err := json.Marshal(shipped(t).DescribeAll())
		require.NoError(t, err)
		require.Equal(t, string(a), string(b))
	}
}

// A fresh player (stone_age, empty inventory) must be able to start: the
// skills it needs first are available at stone_age.
func TestStoneAgeHasTheFirstSkills(t *testing.T) {
	reg := shipped(t)
	descs, err := reg.DescribeForTechState("stone_age", reg.Packs().Names())
	require.NoError(t, err)
	var names []string
	for _, d := range descs {
		names = append(names, d.Name)
	}
	for _, s := range []string{"chop_tree", "plant_sapling", "basic_crafting"} {
		assert.Contains(t, names, s)
	}
	chop, err := reg.GetSkill("chop_tree")
	require.NoError(t, err)
	assert.Empty(t, chop.Spec().Preconditions.RequiredTools, "in GTNH logs can be broken by hand")
}

func TestParamDefaultTextAndNames(t *testing.T) {
	d := registry.Description{Params: map[string]registry.ParamDescription{
		"radius": {Default: 16},
		"item":   {Required: true},
		"mode":   {Default: "fast"},
	}}
	assert.Equal(t, []string{"item", "mode", "radius"}, d.ParamNames())
	assert.Equal(t, "required", d.Params["item"].DefaultText())
	assert.Equal(t, "default 16", d.Params["radius"].DefaultText())
	assert.Equal(t, `default "fast"`, d.Params["mode"].DefaultText())
}
