package remote_test

import (
	"io"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// pipeEnd joins the read end of one OS pipe and the write end of another.
type pipeEnd struct {
	r *os.File
	w *os.File
}

func (p pipeEnd) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeEnd) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeEnd) Close() error {
	p.w.Close()
	return p.r.Close()
}

var _ io.ReadWriteCloser = pipeEnd{}

func pipePair(t *testing.T) (a, b pipeEnd) {
	t.Helper()
	r1, w1, err := os.Pipe()
	require.NoError(t, err)
	r2, w2, err := os.Pipe()
	require.NoError(t, err)
	return pipeEnd{r: r1, w: w2}, pipeEnd{r: r2, w: w1}
}
