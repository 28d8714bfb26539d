package httpserve_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/httpserve"
)

// TestServeEndsWithTheContext: requests are answered; when the context
// ends Stopping runs, a request that is still under way with BaseContext
// sees its context end, and Serve returns nil with the listener closed.
func TestServeEndsWithTheContext(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	started := make(chan struct{})
	ended := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/wait" {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			close(started)
			<-r.Context().Done()
			close(ended)
			return
		}
		io.WriteString(w, "ok")
	})
	ctx, cancel := context.WithCancel(context.Background())
	stopping := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- httpserve.Serve(ctx, ln, h, httpserve.Options{MaxConns: 2, BaseContext: true, Stopping: func() { close(stopping) }})
	}()
	url := "http://" + ln.Addr().String()
	resp, err := http.Get(url + "/")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, "ok", string(body))

	wait, err := http.Get(url + "/wait")
	require.NoError(t, err)
	defer wait.Body.Close()
	<-started
	cancel()
	<-stopping
	<-ended
	require.NoError(t, <-done)
	_, err = net.Dial("tcp", ln.Addr().String())
	assert.Error(t, err, "the listener is closed")
}

func TestServeNeedsAConnectionCap(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	err = httpserve.Serve(context.Background(), ln, http.NotFoundHandler(), httpserve.Options{})
	require.ErrorContains(t, err, "MaxConns must be positive")
}
