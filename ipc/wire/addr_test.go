package wire

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAddr(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Addr
		err  string
	}{
		{"unix:///tmp/a.sock", Addr{"unix", "/tmp/a.sock"}, ""},
		{"unix://rel.sock", Addr{"unix", "rel.sock"}, ""},
		{"tcp://127.0.0.1:9000", Addr{"tcp", "127.0.0.1:9000"}, ""},
		{"tcp://[::1]:9000", Addr{"tcp", "[::1]:9000"}, ""},
		{"tcp://localhost:1", Addr{"tcp", "localhost:1"}, ""},
		{"unix://", Addr{}, "no socket path"},
		{"tcp://127.0.0.1", Addr{}, "missing port"},
		{"tcp://127.0.0.1:9/x", Addr{}, "want tcp://HOST:PORT"},
		{"http://x:1", Addr{}, "unknown scheme"},
		{"127.0.0.1:9000", Addr{}, "want unix:///path"},
	} {
		got, err := ParseAddr(tc.in)
		if tc.err != "" {
			assert.ErrorContains(t, err, tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got)
		assert.Equal(t, tc.in, got.String())
	}
	for addr, loop := range map[string]bool{"127.0.0.1:1": true, "[::1]:1": true, "localhost:1": true, "0.0.0.0:1": false, "10.0.0.1:1": false, "example.com:1": false} {
		assert.Equal(t, loop, Addr{"tcp", addr}.IsLoopback(), addr)
	}
}

func sockDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "wire")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestListenUnix(t *testing.T) {
	dir := sockDir(t)
	path := filepath.Join(dir, "s.sock")
	l, err := Listen(Addr{"unix", path}, ListenOptions{})
	require.NoError(t, err)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	assert.Equal(t, path, l.Addr().String())
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Write([]byte("hi\n"))
			c.Close()
		}
	}()
	c, err := Dial(context.Background(), Addr{"unix", path})
	require.NoError(t, err)
	c.Close()
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "no private directory is left behind")

	// A stale socket (its server died without removing it) is replaced.
	stale, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, "stale.sock"), Net: "unix"})
	require.NoError(t, err)
	stale.SetUnlinkOnClose(false)
	stale.Close()
	l2, err := Listen(Addr{"unix", filepath.Join(dir, "stale.sock")}, ListenOptions{})
	require.NoError(t, err)
	l2.Close()
	_, err = os.Stat(filepath.Join(dir, "stale.sock"))
	assert.True(t, os.IsNotExist(err), "Close removes the socket")

	// Anything else is left alone.
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, []byte("data"), 0o644))
	_, err = Listen(Addr{"unix", file}, ListenOptions{})
	assert.ErrorContains(t, err, "not a socket")
	data, _ := os.ReadFile(file)
	assert.Equal(t, "data", string(data))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "d"), 0o700))
	_, err = Listen(Addr{"unix", filepath.Join(dir, "d")}, ListenOptions{})
	assert.ErrorContains(t, err, "not a socket")

	l.Close()
	_, err = os.Stat(path)
	assert.True(t, os.IsNotExist(err))
}

func TestListenTCPLoopbackOnly(t *testing.T) {
	_, err := Listen(Addr{"tcp", "0.0.0.0:0"}, ListenOptions{})
	assert.ErrorContains(t, err, "not a loopback address")
	l, err := Listen(Addr{"tcp", "0.0.0.0:0"}, ListenOptions{Authenticated: true})
	require.NoError(t, err)
	l.Close()
	l, err = Listen(Addr{"tcp", "127.0.0.1:0"}, ListenOptions{})
	require.NoError(t, err)
	l.Close()
}
