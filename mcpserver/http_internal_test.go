package mcpserver

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const goodToken = "0123456789abcdef0123456789abcdef"

// guard is the token check in front of a handler that answers 200.
func guard(now func() time.Time) *httpHandler {
	opts := HTTPOptions{Token: goodToken, now: now}
	opts.defaults()
	return &httpHandler{opts: opts, log: zerolog.Nop(), gate: authguard.NewGate(goodToken, "MCP", zerolog.Nop(), now),
		sdk: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })}
}

func try(h *httpHandler, remote, token string) int {
	r := httptest.NewRequest(http.MethodGet, HTTPPath, nil)
	r.RemoteAddr = remote
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	if h.gate.Check(w, r, authguard.Bearer(r)) {
		return http.StatusOK
	}
	return w.Code
}

// TestAuthFailuresAreSlowed: after authguard.Burst wrong tokens an address is
// refused with 429 without its guess being checked (the right token too),
// one more guess is allowed per authguard.Every, and other addresses are not
// affected. The limiter's clock is the test's.
func TestAuthFailuresAreSlowed(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	h := guard(func() time.Time { return now })
	const a, b = "192.0.2.1:5000", "192.0.2.2:5000"
	for i := range authguard.Burst {
		assert.Equal(t, http.StatusUnauthorized, try(h, a, "wrong"), "guess %d", i+1)
	}
	assert.Equal(t, http.StatusTooManyRequests, try(h, a, goodToken), "the allowance is used up")
	assert.Equal(t, http.StatusTooManyRequests, try(h, "192.0.2.1:6000", "wrong"), "another port of the same host")
	assert.Equal(t, http.StatusOK, try(h, b, goodToken), "another address is served")
	assert.Equal(t, http.StatusUnauthorized, try(h, b, "wrong"))

	now = now.Add(authguard.Every - time.Millisecond)
	assert.Equal(t, http.StatusTooManyRequests, try(h, a, goodToken))
	now = now.Add(time.Millisecond)
	assert.Equal(t, http.StatusUnauthorized, try(h, a, "wrong"), "one guess per authguard.Every")
	assert.Equal(t, http.StatusTooManyRequests, try(h, a, goodToken))
	now = now.Add(authguard.Every)
	assert.Equal(t, http.StatusOK, try(h, a, goodToken))
	assert.Equal(t, http.StatusOK, try(h, a, goodToken), "right tokens cost nothing")

	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, HTTPPath, nil)
	r.RemoteAddr = a
	for range authguard.Burst {
		h.gate.Check(httptest.NewRecorder(), r, authguard.Bearer(r))
	}
	h.gate.Check(w, r, authguard.Bearer(r))
	assert.Equal(t, http.StatusTooManyRequests, w.Code)
	assert.Equal(t, strconv.Itoa(int(authguard.Every/time.Second)), w.Header().Get("Retry-After"))
}

// fakeListener hands out the connections sent on its channel; Close ends
// a waiting Accept, as a real listener's does.
type fakeListener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   *sync.Once
}

func newFakeListener(n int) fakeListener {
	return fakeListener{conns: make(chan net.Conn, n), closed: make(chan struct{}), once: &sync.Once{}}
}

func (l fakeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}
func (l fakeListener) Close() error   { l.once.Do(func() { close(l.closed) }); return nil }
func (l fakeListener) Addr() net.Addr { return &net.TCPAddr{} }

// TestLimitListener: with n connections open, Accept waits until one
// closes; Close wakes a waiting Accept.
func TestLimitListener(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fl := newFakeListener(4)
		for range 3 {
			c, _ := net.Pipe()
			fl.conns <- c
		}
		l := limitListener(fl, 2)
		c1, err := l.Accept()
		require.NoError(t, err)
		_, err = l.Accept()
		require.NoError(t, err)
		got := make(chan net.Conn, 1)
		go func() {
			c, _ := l.Accept()
			got <- c
		}()
		synctest.Wait()
		select {
		case <-got:
			t.Fatal("a third connection was accepted with two open")
		default:
		}
		require.NoError(t, c1.Close())
		require.NoError(t, c1.Close(), "closing twice frees one slot")
		synctest.Wait()
		c3 := <-got
		require.NotNil(t, c3)

		go func() {
			_, err := l.Accept()
			got <- nil
			assert.ErrorIs(t, err, net.ErrClosed)
		}()
		synctest.Wait()
		require.NoError(t, l.Close())
		<-got
	})
}

// TestSettleWriter: the session slot is settled once, as the answer
// starts, with the session id of a successful answer only, whether the
// handler sets the status itself or writes straight away.
func TestSettleWriter(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(w http.ResponseWriter)
		want  string
	}{
		{"status then body", func(w http.ResponseWriter) { w.WriteHeader(http.StatusOK); w.Write([]byte("x")) }, "S1"},
		{"body only", func(w http.ResponseWriter) { w.Write([]byte("x")) }, "S1"},
		{"flush only", func(w http.ResponseWriter) { w.(http.Flusher).Flush() }, "S1"},
		{"an error", func(w http.ResponseWriter) { w.WriteHeader(http.StatusInternalServerError) }, ""},
		{"nothing written", func(w http.ResponseWriter) {}, ""},
	} {
		var got []string
		rec := httptest.NewRecorder()
		sw := &settleWriter{ResponseWriter: rec, settle: func(id string) { got = append(got, id) }}
		sw.Header().Set(sessionHeader, "S1")
		c.write(sw)
		if c.name != "nothing written" {
			assert.Equal(t, []string{c.want}, got, "%s: settled as the answer starts", c.name)
		}
		sw.done(0)
		assert.Equal(t, []string{c.want}, got, "%s: once", c.name)
	}
}
