package authguard_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/internal/syncbuf"
)

const gateToken = "0123456789abcdef0123456789abcdef"

func check(g *authguard.Gate, remote, presented string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, "/x", nil)
	r.RemoteAddr = remote
	w := httptest.NewRecorder()
	if g.Check(w, r, presented) {
		w.Code = http.StatusOK
	}
	return w
}

// TestGate: the right token passes; a wrong or missing one is 401 with no
// detail and logged without the token; past authguard.Burst wrong guesses
// the address is 429 (with Retry-After) even with the right token, until
// authguard.Every passes. The clock is the test's.
func TestGate(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	var logs syncbuf.Buffer
	g := authguard.NewGate(gateToken, "view", zerolog.New(&logs), func() time.Time { return now })
	const a, b = "192.0.2.1:5000", "192.0.2.2:5000"
	assert.Equal(t, http.StatusOK, check(g, a, gateToken).Code)
	w := check(g, a, "")
	assert.Equal(t, http.StatusUnauthorized, w.Code, "no token")
	assert.Equal(t, "Unauthorized\n", w.Body.String())
	assert.Equal(t, "Bearer", w.Header().Get("WWW-Authenticate"))
	for range authguard.Burst - 1 {
		assert.Equal(t, http.StatusUnauthorized, check(g, a, "wrong-token-guess").Code)
	}
	w = check(g, a, gateToken)
	assert.Equal(t, http.StatusTooManyRequests, w.Code, "the allowance is used up")
	assert.Equal(t, strconv.Itoa(int(authguard.Every/time.Second)), w.Header().Get("Retry-After"))
	assert.Equal(t, http.StatusOK, check(g, b, gateToken).Code, "another address is served")
	now = now.Add(authguard.Every)
	assert.Equal(t, http.StatusOK, check(g, a, gateToken).Code)
	assert.Contains(t, logs.String(), "view request refused: missing or wrong token")
	assert.NotContains(t, logs.String(), "wrong-token-guess")
}

func TestBearer(t *testing.T) {
	for _, c := range []struct{ header, want string }{
		{"Bearer abc", "abc"},
		{"", ""},
		{"abc", ""},
		{"Basic abc", ""},
		{"Bearer ", ""},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		if c.header != "" {
			r.Header.Set("Authorization", c.header)
		}
		assert.Equal(t, c.want, authguard.Bearer(r), c.header)
	}
}
