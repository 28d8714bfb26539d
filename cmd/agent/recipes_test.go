package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	guineaDump = "../../recipebook/testdata/guineautil"
	recexDump  = "../../recipebook/testdata/recex/recex_small.json"
)

// TestRecipesImportShow: a dump imports with its summary, and show lists
// what the file holds, by item and by kind.
func TestRecipesImportShow(t *testing.T) {
	out := filepath.Join(t.TempDir(), "pack.rcp")
	code, stdout, stderr := runAgent(t, "recipes", "import", guineaDump, "-o", out)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "format guineautil, 5 file(s), 12 recipes kept in ")
	assert.Contains(t, stdout, "  shaped    4\n  shapeless 4\n  smelting  2\n  machine   2\n")
	assert.Contains(t, stdout, "  1 handler not imported: Brewing\n")
	assert.Contains(t, stdout, "wrote "+out+"\n")

	code, stdout, stderr = runAgent(t, "recipes", "show", out, "--output", "minecraft:crafting_table")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, ": 12 recipes\n")
	assert.Contains(t, stdout, "minecraft:crafting_table ×1 ← shaped 2x2 [AA/BB] A=minecraft:flint:0 B=ore:logWood\n")
	assert.NotContains(t, stdout, "minecraft:flint ×1")

	code, stdout, _ = runAgent(t, "recipes", "show", out, "--kind", "smelting", "--limit", "1")
	require.Equal(t, exitOK, code)
	assert.Equal(t, 1, strings.Count(stdout, "← furnace:"), stdout)
	assert.Contains(t, stdout, "… 1 more (--limit 0 lists all)\n")

	code, stdout, _ = runAgent(t, "recipes", "show", out, "--output", "minecraft:diamond")
	require.Equal(t, exitOK, code)
	assert.Contains(t, stdout, "no recipe makes minecraft:diamond\n")

	// RecEx, with --out and the format named: what it lacks is said.
	out2 := filepath.Join(t.TempDir(), "recex.rcp")
	code, stdout, stderr = runAgent(t, "recipes", "import", "--format", "recex", recexDump, "--out", out2)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "format recex, 1 file(s), 9 recipes kept")
	assert.Contains(t, stdout, "not in this format: shapeless ore-dictionary recipes")
}

// TestRecipesRefuses: what cannot start is exit 2 with one clear line.
func TestRecipesRefuses(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"sources":[{"type":"shaped","recipes":[`), 0o644))
	empty := filepath.Join(dir, "empty.json")
	require.NoError(t, os.WriteFile(empty, []byte(`{"sources":[]}`), 0o644))
	notRecipes := filepath.Join(dir, "x.rcp")
	require.NoError(t, os.WriteFile(notRecipes, []byte("hello"), 0o644))
	out := filepath.Join(dir, "out.rcp")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"recipes", "import", guineaDump}, "recipes import: --out FILE is required"},
		{[]string{"recipes", "import", "-o", out}, "recipes import: want one dump FILE or DIR, got 0 arguments"},
		{[]string{"recipes", "import", guineaDump, "-o", out, "--format", "xml"}, `--format "xml": want guineautil, recex or auto`},
		{[]string{"recipes", "import", bad, "-o", bad}, "would overwrite the dump"},
		{[]string{"recipes", "import", bad, "-o", out}, "bad.json: at byte"},
		{[]string{"recipes", "import", empty, "-o", out}, "holds no recipe this agent can use; nothing written"},
		{[]string{"recipes", "import", guineaDump, "--format", "recex", "-o", out}, "a RecEx dump is one file"},
		{[]string{"recipes", "show"}, "recipes show: want one compact recipe FILE"},
		{[]string{"recipes", "show", notRecipes}, "x.rcp: not a compact recipe file"},
		{[]string{"recipes", "show", notRecipes, "--kind", "oven"}, `--kind "oven": want shaped, shapeless, smelting or machine`},
		{[]string{"recipes", "show", notRecipes, "--limit", "-1"}, "--limit must be 0 or more"},
		{[]string{"recipes", "shw"}, `unknown subcommand "shw" (did you mean "show"?)`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, stderr := runAgent(t, tc.args...)
			assert.Equal(t, exitUsage, code, stderr)
			assert.Contains(t, stderr, tc.want)
		})
	}
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "nothing written by a refused import")
}
