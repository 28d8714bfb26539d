package authguard

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// Gate checks the token an HTTP request presents, the same way on every
// HTTP door of the agent: a wrong or missing token is 401 with no detail,
// and an address that guessed wrong too often (Failures) is 429 for a
// while, its guess not even compared. It is safe for concurrent use.
type Gate struct {
	token string
	what  string
	log   zerolog.Logger
	now   func() time.Time
	fails *Failures
}

// NewGate returns a gate for token; what names the door in the log line
// of a refused request ("metrics", "MCP"); now is the failure limiter's
// clock (nil: time.Now).
func NewGate(token, what string, log zerolog.Logger, now func() time.Time) *Gate {
	if now == nil {
		now = time.Now
	}
	return &Gate{token: token, what: what, log: log, now: now, fails: NewFailures()}
}

// Check reports whether presented is the token. When it is not, Check has
// answered the request (401 or 429) and logged the refusal without the
// token.
func (g *Gate) Check(w http.ResponseWriter, r *http.Request, presented string) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	now := g.now()
	if !g.fails.Allowed(host, now) {
		w.Header().Set("Retry-After", strconv.Itoa(int(Every/time.Second)))
		http.Error(w, http.StatusText(http.StatusTooManyRequests), http.StatusTooManyRequests)
		return false
	}
	if presented != "" && Equal(presented, g.token) {
		return true
	}
	g.fails.Fail(host, now)
	g.log.Warn().Str("remote", host).Msg(g.what + " request refused: missing or wrong token")
	w.Header().Set("WWW-Authenticate", "Bearer")
	http.Error(w, http.StatusText(http.StatusUnauthorized), http.StatusUnauthorized)
	return false
}

// Bearer is the token of the request's "Authorization: Bearer TOKEN"
// header ("" when there is none).
func Bearer(r *http.Request) string {
	got, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if got == r.Header.Get("Authorization") {
		return ""
	}
	return got
}
