package metrics

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

const testToken = "0123456789abcdef0123456789abcdef"

func get(t *testing.T, h http.Handler, method, path, auth string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	req.RemoteAddr = "192.0.2.7:4000"
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func TestHandlerToken(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	h := New(Options{}).Handler(ServeOptions{Token: testToken, now: func() time.Time { return now }})
	assert.Equal(t, http.StatusOK, get(t, h, http.MethodGet, Path, "Bearer "+testToken).Code)
	w := get(t, h, http.MethodGet, Path, "")
	assert.Equal(t, http.StatusUnauthorized, w.Code)
	assert.Equal(t, "Bearer", w.Header().Get("WWW-Authenticate"))
	assert.NotContains(t, w.Body.String(), "gtnh_agent", "nothing is shown without the token")
	assert.Equal(t, http.StatusUnauthorized, get(t, h, http.MethodGet, Path, testToken).Code, "the scheme is needed")
	assert.Equal(t, http.StatusUnauthorized, get(t, h, http.MethodGet, Path, "Bearer "+testToken[:31]).Code)
	for range authguard.Burst - 3 {
		assert.Equal(t, http.StatusUnauthorized, get(t, h, http.MethodGet, Path, "Bearer wrong").Code)
	}
	w = get(t, h, http.MethodGet, Path, "Bearer "+testToken)
	assert.Equal(t, http.StatusTooManyRequests, w.Code, "an address that guessed wrong too often waits, even with the token")
	assert.Equal(t, "2", w.Header().Get("Retry-After"))
	now = now.Add(authguard.Every)
	assert.Equal(t, http.StatusOK, get(t, h, http.MethodGet, Path, "Bearer "+testToken).Code)
}

func TestHandlerPathsAndMethods(t *testing.T) {
	h := New(Options{}).Handler(ServeOptions{})
	w := get(t, h, http.MethodGet, Path, "")
	require.Equal(t, http.StatusOK, w.Code)
	assert.Contains(t, w.Body.String(), "# TYPE gtnh_agent_planner_latency_seconds histogram")
	assert.Equal(t, http.StatusNotFound, get(t, h, http.MethodGet, "/", "").Code)
	assert.Equal(t, http.StatusNotFound, get(t, h, http.MethodGet, "/metrics/x", "").Code)
	assert.Equal(t, http.StatusMethodNotAllowed, get(t, h, http.MethodPost, Path, "").Code)
	assert.Equal(t, http.StatusOK, get(t, h, http.MethodHead, Path, "").Code)
}

// A scraper that connects and never finishes its request holds one
// connection until the read timeout: the agent goes on counting, and the
// next scraper is served once the cap has room.
func TestStuckScraper(t *testing.T) {
	rec := New(Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rec.Serve(ctx, ln, ServeOptions{MaxConns: 1}) }()
	defer func() {
		cancel()
		require.NoError(t, <-done)
	}()

	stuck, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	_, err = stuck.Write([]byte("GET /metrics HTTP/1.1\r\nHost: x\r\n")) // no end of headers
	require.NoError(t, err)
	for i := range 1000 {
		rec.OnStep(loop.StepRecord{Step: i + 1, Verdict: loop.Success})
	}
	// The stuck connection holds the only slot; closing it makes room.
	require.NoError(t, stuck.Close())
	c, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Write([]byte("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// chanListener hands out the connections sent on conns; Close ends a
// waiting Accept, as a real listener's does.
type chanListener struct {
	conns   chan net.Conn
	accepts int
	closed  chan struct{}
	once    sync.Once
}

func (l *chanListener) Accept() (net.Conn, error) {
	select {
	case c, ok := <-l.conns:
		if !ok {
			return nil, net.ErrClosed
		}
		l.accepts++
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}
func (l *chanListener) Close() error   { l.once.Do(func() { close(l.closed) }); return nil }
func (l *chanListener) Addr() net.Addr { return &net.TCPAddr{} }

func TestLimitListenerCaps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := &chanListener{conns: make(chan net.Conn, 4), closed: make(chan struct{})}
		l := limitListener(inner, 2)
		accepted := make(chan net.Conn, 4)
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					close(accepted)
					return
				}
				accepted <- c
			}
		}()
		for range 4 {
			a, b := net.Pipe()
			defer b.Close()
			inner.conns <- a
		}
		synctest.Wait()
		assert.Equal(t, 2, inner.accepts, "the third and fourth connections wait past the cap of 2")
		assert.Len(t, accepted, 2)
		first := <-accepted
		require.NoError(t, first.Close())
		require.NoError(t, first.Close(), "closing twice frees one slot only")
		synctest.Wait()
		assert.Equal(t, 3, inner.accepts, "closing one makes room for one waiting, not two")
		require.NoError(t, l.Close())
		synctest.Wait()
		_, open := <-accepted
		for open {
			_, open = <-accepted
		}
	})
}
