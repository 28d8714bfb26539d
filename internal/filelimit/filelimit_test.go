package filelimit

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.yaml")
	require.NoError(t, os.WriteFile(ok, []byte("a: 1\n"), 0o644))
	big := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(big, []byte(strings.Repeat("x", 101)), 0o644))
	exact := filepath.Join(dir, "exact.yaml")
	require.NoError(t, os.WriteFile(exact, []byte(strings.Repeat("x", 100)), 0o644))

	data, err := ReadFile(ok, 100)
	require.NoError(t, err)
	assert.Equal(t, "a: 1\n", string(data))

	data, err = ReadFile(exact, 100)
	require.NoError(t, err)
	assert.Len(t, data, 100)

	_, err = ReadFile(big, 100)
	var tl *TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.Equal(t, int64(101), tl.Size)
	assert.Contains(t, err.Error(), big)
	assert.Contains(t, err.Error(), "too large")

	_, err = ReadFile(filepath.Join(dir, "missing.yaml"), 100)
	assert.True(t, errors.Is(err, fs.ErrNotExist))

	_, err = ReadFile(dir, 100)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "directory")
}

// TestReadFileStream: a file whose size is unknown (a pipe) is cut off at
// the limit while reading.
func TestReadFileStream(t *testing.T) {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	go func() {
		chunk := make([]byte, 4096)
		for i := 0; i < 64; i++ { // 256 KiB, more than the limit
			if _, err := w.Write(chunk); err != nil {
				break
			}
		}
		w.Close()
	}()
	defer r.Close()
	data, err := read("pipe", r, 10_000)
	var tl *TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.Nil(t, data)
	assert.Equal(t, "pipe: file is too large (more than 10000 bytes)", err.Error())
}

func TestReadFS(t *testing.T) {
	fsys := fstest.MapFS{
		"a.yaml": {Data: []byte("x: 1\n")},
		"b.yaml": {Data: []byte(strings.Repeat("y", 2<<20))},
	}
	data, err := ReadFS(fsys, "a.yaml", 1<<20)
	require.NoError(t, err)
	assert.Equal(t, "x: 1\n", string(data))
	_, err = ReadFS(fsys, "b.yaml", 1<<20)
	assert.EqualError(t, err, "b.yaml: file is too large (2097152 bytes; the limit is 1 MiB)")
}

func TestCheck(t *testing.T) {
	assert.NoError(t, Check("f", 10, 10))
	err := Check("f", 11, 10)
	assert.EqualError(t, err, "f: file is too large (11 bytes; the limit is 10 bytes)")
	var tl *TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.Equal(t, "file is too large (11 bytes; the limit is 10 bytes)", tl.Msg())
}

// endless is a file of unknown size that never ends (10 MiB, as a bound
// for the test), counting what was read from it.
type endless struct{ n int64 }

func (e *endless) Stat() (fs.FileInfo, error) { return nil, errors.New("no size") }
func (e *endless) Close() error               { return nil }
func (e *endless) Read(p []byte) (int, error) {
	if e.n >= 10<<20 {
		return 0, io.EOF
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestReadStopsAtTheLimit: reading stops just past the limit, however much
// the file would give.
func TestReadStopsAtTheLimit(t *testing.T) {
	e := &endless{}
	_, err := read("endless", e, 10_000)
	var tl *TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.LessOrEqual(t, e.n, int64(10_001))
}

func TestReadDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadFile(dir, 1<<20)
	require.Error(t, err)
	assert.Equal(t, dir+": is a directory, not a file", err.Error())
	_, err = ReadFS(fstest.MapFS{"d/a.yaml": {Data: []byte("x")}}, "d", 1<<20)
	assert.EqualError(t, err, "d: is a directory, not a file")
}
