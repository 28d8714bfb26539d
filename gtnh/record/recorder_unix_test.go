//go:build linux || darwin

package record

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCreateIsPrivate: a new recording is readable by its owner only,
// whatever the umask lets through.
func TestCreateIsPrivate(t *testing.T) {
	old := syscall.Umask(0)
	t.Cleanup(func() { syscall.Umask(old) })
	path := filepath.Join(t.TempDir(), "session.rec")
	r, err := Create(path, RecorderOptions{})
	require.NoError(t, err)
	require.NoError(t, r.Close())
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
}
