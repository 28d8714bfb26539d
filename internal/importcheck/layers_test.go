package importcheck_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/importcheck"
)

// layers lists, for packages of the module, the packages above them that
// they must not depend on, directly or through others (non-test files
// only; patterns as in Graph.Under). A new rule is a new row.
var layers = []struct {
	pkg   string
	above []string
	why   string
}{
	{"ipc/wire", []string{"ipc/remote", "loop", "skills/...", "planner/..."},
		"the wire protocol's messages know nothing of transports, planners or skills"},
	{"ipc/remote", []string{"loop", "skills/...", "planner/..."},
		"the body transport knows nothing of planners or skills; the planner over the wire is planner/peer"},
	{"skills/knowledge", []string{"skills/registry", "skills/packs", "skills/catalog", "loop", "planner/..."},
		"the knowledge library knows nothing of executable skills; skills/catalog joins the two"},
	{"skills/registry", []string{"skills/knowledge/...", "skills/catalog", "loop", "planner/..."},
		"the registry knows nothing of knowledge skills or of who plans with it"},
	{"loop", []string{"planner/...", "skills/catalog", "skills/knowledge/...", "ipc/remote"},
		"the loop defines the planner interface; planners and transports plug into it"},
}

// TestLayers: no package in layers depends on a package above it.
func TestLayers(t *testing.T) {
	g, err := importcheck.Load(".")
	require.NoError(t, err)
	require.Greater(t, g.Files(), 20, "the walk found the module's files")
	for _, l := range layers {
		pkg := g.Path(l.pkg)
		require.Contains(t, g.Packages(), pkg, "the rule names a package that exists")
		if chain := g.Chain(pkg, g.Under(l.above...)); chain != nil {
			for i, p := range chain {
				chain[i] = g.Rel(p)
			}
			t.Errorf("%s depends on %s (%s): %s", l.pkg, chain[len(chain)-1], strings.Join(chain, " → "), l.why)
		}
	}
}
