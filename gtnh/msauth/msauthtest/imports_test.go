package msauthtest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/importcheck"
)

// TestOnlyTestsImportThePackage keeps the fake Microsoft services out of the binary:
// no non-test Go file of the module may import it.
func TestOnlyTestsImportThePackage(t *testing.T) {
	g, err := importcheck.Load(".")
	require.NoError(t, err)
	require.Greater(t, g.Files(), 20, "the walk found the module's files")
	self := g.Path("gtnh/msauth/msauthtest")
	assert.Empty(t, g.Importers(self), "non-test files import %s; only tests may", self)
}
