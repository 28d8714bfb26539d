package importcheck_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/importcheck"
)

// TestGraph reads a small module: low ← mid ← top, a test file of mid
// importing top (not counted), a file behind a build constraint in
// top/sub (counted), and testdata and dot directories (skipped).
func TestGraph(t *testing.T) {
	g, err := importcheck.Load(filepath.Join("testdata", "mod", "top", "sub"))
	require.NoError(t, err)
	assert.Equal(t, "example.com/mod", g.Module)
	assert.Equal(t, []string{"example.com/mod/low", "example.com/mod/mid", "example.com/mod/top", "example.com/mod/top/sub"}, g.Packages())
	assert.Equal(t, 4, g.Files())
	assert.Equal(t, []string{"mid/mid.go", "top/sub/sub.go"}, g.Importers(g.Path("low")))
	assert.Empty(t, g.Importers(g.Path("top")), "test files and skipped directories do not count")
	assert.Equal(t, []string{"example.com/mod/low"}, g.Imports(g.Path("mid")))
	assert.Equal(t, "mid", g.Rel(g.Path("mid")))
	assert.Equal(t, "strings", g.Rel("strings"))

	assert.Equal(t, []string{"example.com/mod/top", "example.com/mod/mid", "example.com/mod/low"},
		g.Chain(g.Path("top"), g.Under("low")), "a dependency through another package")
	assert.Equal(t, []string{"example.com/mod/low", "strings"}, g.Chain(g.Path("low"), func(p string) bool { return p == "strings" }))
	assert.Nil(t, g.Chain(g.Path("low"), g.Under("top/...")), "low depends on nothing above it")
	assert.Nil(t, g.Chain(g.Path("mid"), g.Under("top")), "mid's test file does not count")

	under := g.Under("top/...")
	assert.True(t, under(g.Path("top")))
	assert.True(t, under(g.Path("top/sub")))
	assert.False(t, under(g.Path("topper")))
	assert.False(t, g.Under("top")(g.Path("top/sub")), "without /... only the package itself")
}

func TestLoadNeedsAModule(t *testing.T) {
	_, err := importcheck.Load(t.TempDir())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no go.mod")
}
