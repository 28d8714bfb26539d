package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunRecipes: a run plays by the recipes of a file imported from a
// modpack's dump. The fixture's modpack crafts a log into 4 planks by hand
// (GTNH's shipped set gives 2): with one log and no tree, 4 planks are
// made only with --recipes.
func TestRunRecipes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "pack.rcp")
	code, stdout, stderr := runAgent(t, "recipes", "import", "testdata/recipes/vanilla_planks.json", "-o", out)
	require.Equal(t, exitOK, code, "%s\n%s", stdout, stderr)

	goal := []string{"run", "--scenario", "testdata/recipes/one_log.yaml", "--goal", "have 4 minecraft:planks"}
	code, stdout, stderr = runAgent(t, goal...)
	assert.NotEqual(t, exitOK, code, "the shipped set makes 2 planks of a log: %s", stdout)
	assert.Contains(t, stdout+stderr, "goal NOT met")

	code, stdout, stderr = runAgent(t, append(goal, "--recipes", out)...)
	require.Equal(t, exitOK, code, "%s\n%s", stdout, stderr)
	assert.Contains(t, stdout, "goal met")
	assert.Contains(t, stdout, "basic_crafting count=4 item=minecraft:planks")
	assert.Contains(t, stdout, "-1 minecraft:log, +4 minecraft:planks")

	// A goal may name an item only the file knows.
	bench := []string{"run", "--scenario", "testdata/recipes/one_log.yaml", "--goal", "have 1 examplemod:log_bench"}
	code, _, stderr = runAgent(t, bench...)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "examplemod:log_bench")
	code, stdout, stderr = runAgent(t, append(bench, "--recipes", out)...)
	require.Equal(t, exitOK, code, "%s\n%s", stdout, stderr)
	assert.Contains(t, stdout, "+1 examplemod:log_bench")
}

// TestRunRecipesBadFile: a file that is not a compact recipe file, or is
// missing, is refused before the run with the file named (exit 2).
func TestRunRecipesBadFile(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.rcp")
	require.NoError(t, os.WriteFile(junk, []byte("not recipes"), 0o644))
	for _, tc := range []struct{ file, want string }{
		{junk, "run: --recipes: " + junk + ": not a compact recipe file"},
		{filepath.Join(dir, "absent.rcp"), "absent.rcp"},
	} {
		code, stdout, stderr := runAgent(t, "run", "--scenario", "testdata/recipes/one_log.yaml", "--goal", "have 4 minecraft:planks", "--recipes", tc.file)
		assert.Equal(t, exitUsage, code, "%s\n%s", stdout, stderr)
		assert.Contains(t, stderr, tc.want)
		assert.NotContains(t, stdout, "step ")
	}
}
