package importcheck_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
	{"memory", []string{"loop", "planner/...", "skills/...", "gtnh/...", "sim"},
		"the memory file records snapshots through any body's connection and knows nothing of who plays"},
	{"metrics", []string{"planner/...", "gtnh/...", "sim", "mcpserver", "ipc/remote", "memory"},
		"metrics reads what the loop and the bodies report through small interfaces and knows no body or planner"},
	{"view/mapview", []string{"loop", "planner/...", "skills/...", "gtnh/...", "sim", "ipc/...", "mcpserver", "memory", "metrics"},
		"the map picture reads snapshots and knows no body, planner or loop"},
	{"loop", []string{"planner/...", "skills/catalog", "skills/knowledge/...", "ipc/remote", "quests"},
		"the loop defines the planner interface; planners and transports plug into it"},
	{"quests", []string{"planner/...", "skills/catalog", "skills/knowledge/...", "ipc/remote", "gtnh", "sim", "mcpserver"},
		"the quest book turns into goals for the loop; planners and bodies never shape how it is read"},
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

// foundation is what any package may use: shipped data and small helpers
// that know nothing of the project.
var foundation = []string{"config", "internal/strictyaml", "internal/suggest", "internal/filelimit"}

// floors are the bottom of the tree, lowest first: each package depends,
// directly or through others, only on the foundation and the floors below
// it. Everything else of the module is above them.
var floors = []struct {
	pkg string
	why string
}{
	{"game", "the game's nouns (positions, blocks, stacks, machines) are what every layer speaks"},
	{"rules", "the rule tables serve the planner, skills and bodies with no world at hand"},
	{"world/chunk", "the chunk engine stores blocks for the world model and knows nothing of it"},
	{"world", "the world model owns the state; everything else builds on its snapshots"},
}

// floorViolations returns, for each floor that depends on a module package
// that is neither the foundation nor a lower floor, the import chain.
func floorViolations(g *importcheck.Graph) []string {
	var bad []string
	for i, f := range floors {
		allowed := slices.Clone(foundation)
		for _, lower := range floors[:i] {
			allowed = append(allowed, lower.pkg)
		}
		ok := g.Under(allowed...)
		pkg := g.Path(f.pkg)
		chain := g.Chain(pkg, func(p string) bool {
			return (p == g.Module || strings.HasPrefix(p, g.Module+"/")) && !ok(p)
		})
		if chain != nil {
			for i, p := range chain {
				chain[i] = g.Rel(p)
			}
			bad = append(bad, fmt.Sprintf("%s depends on %s (%s): %s", f.pkg, chain[len(chain)-1], strings.Join(chain, " → "), f.why))
		}
	}
	return bad
}

// fixtures are packages that exist for tests (generated worlds, fault
// injection, in-memory networks, fake servers), besides every package whose
// name ends in "test" (llmtest, ipctest, msauthtest). No production file
// imports one; a fixture may use another, and the benchmark tools use the
// benchmark world.
var fixtures = []string{
	"internal/badfiles", "internal/benchworld", "internal/fakeserver", "internal/faultbody",
	"internal/memnet", "internal/soak", "internal/syncbuf",
}

var benchTools = []string{"bench/..."}

// fixtureViolations lists the production packages that import a fixture.
func fixtureViolations(g *importcheck.Graph) []string {
	isFixture := func(p string) bool { return g.Under(fixtures...)(p) || strings.HasSuffix(p, "test") }
	tools := g.Under(benchTools...)
	var bad []string
	for _, p := range g.Packages() {
		if isFixture(p) || tools(p) {
			continue
		}
		for _, imp := range g.Imports(p) {
			if isFixture(imp) {
				bad = append(bad, fmt.Sprintf("%s imports the test fixture %s", g.Rel(p), g.Rel(imp)))
			}
		}
	}
	return bad
}

// TestFloors: game, rules, world/chunk and world depend only on what lies
// below them, and no production package imports a test fixture.
func TestFloors(t *testing.T) {
	g, err := importcheck.Load(".")
	require.NoError(t, err)
	for _, p := range append(slices.Clone(foundation), fixtures...) {
		require.Contains(t, g.Packages(), g.Path(p), "the rule names a package that exists")
	}
	for _, f := range floors {
		require.Contains(t, g.Packages(), g.Path(f.pkg), "the rule names a package that exists")
	}
	assert.Empty(t, floorViolations(g))
	assert.Empty(t, fixtureViolations(g))
}

// TestFloorsCatchViolations: a small module that breaks each rule once
// (testdata/floors), so a check that stopped looking fails here.
func TestFloorsCatchViolations(t *testing.T) {
	g, err := importcheck.Load(filepath.Join("testdata", "floors"))
	require.NoError(t, err)
	assert.Equal(t, []string{
		"rules depends on skills (rules → skills): " + floors[1].why,
		"world/chunk depends on world/path (world/chunk → world/path): " + floors[2].why,
		"world depends on world/path (world → world/chunk → world/path): " + floors[3].why,
	}, floorViolations(g))
	assert.Equal(t, []string{
		"loop imports the test fixture ipc/ipctest",
		"sim imports the test fixture internal/benchworld",
	}, fixtureViolations(g))
}
