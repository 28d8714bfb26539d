// Package authguard holds what every token-guarded server of the agent
// shares: how strong a token must be, how it is compared, and how repeated
// wrong guesses from one address are slowed. `agent serve` (ipc/remote)
// and `agent mcp --listen` (mcpserver) both use it, so a token means the
// same on either door.
package authguard

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// MinTokenLen and MinTokenDistinct are the weakest token accepted for a
// server other hosts can reach: at least 16 characters, at least 8 of them
// different (a random hex string of 16 bytes has 32 characters).
const (
	MinTokenLen      = 16
	MinTokenDistinct = 8
)

// CheckToken reports whether a token is strong enough to guard a server
// that other hosts can reach. The error never shows the token.
func CheckToken(token string) error {
	if len(token) < MinTokenLen {
		return fmt.Errorf("the token is %d characters; at least %d are needed (e.g. 32 random hex digits)", len(token), MinTokenLen)
	}
	distinct := map[byte]bool{}
	for i := 0; i < len(token); i++ {
		distinct[token[i]] = true
	}
	if len(distinct) < MinTokenDistinct {
		return fmt.Errorf("the token has %d different characters; at least %d are needed (use a random token)", len(distinct), MinTokenDistinct)
	}
	return nil
}

// Equal compares a presented token with the expected one in constant time,
// of the token's length too: both sides are hashed first.
func Equal(got, want string) bool {
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1
}

// The failure limiter's defaults: after Burst wrong guesses an address
// gets one more per Every; the table of addresses holds at most
// MaxTrackers.
const (
	Burst       = 5
	Every       = 2 * time.Second
	MaxTrackers = 4096
)

// Failures slows repeated wrong guesses, by remote address: after Burst
// failures, one more guess per Every; a guess past that is refused without
// being checked. The table is bounded by MaxTrackers: when it is full,
// addresses with nothing against them are forgotten, and if that frees
// nothing, new addresses share one limiter. The zero value is not usable;
// call NewFailures. It is safe for concurrent use.
type Failures struct {
	mu       sync.Mutex
	table    map[string]*rate.Limiter
	overflow *rate.Limiter
}

// NewFailures returns an empty failure table.
func NewFailures() *Failures {
	return &Failures{table: map[string]*rate.Limiter{}, overflow: newLimiter()}
}

func newLimiter() *rate.Limiter { return rate.NewLimiter(rate.Every(Every), Burst) }

// Allowed reports whether a guess from host may be checked at now.
func (f *Failures) Allowed(host string, now time.Time) bool {
	return f.limiter(host, now).TokensAt(now) >= 1
}

// Fail records a wrong guess from host at now.
func (f *Failures) Fail(host string, now time.Time) {
	f.limiter(host, now).AllowN(now, 1)
}

// Tracked is how many addresses the table holds (for tests and metrics).
func (f *Failures) Tracked() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.table)
}

func (f *Failures) limiter(host string, now time.Time) *rate.Limiter {
	f.mu.Lock()
	defer f.mu.Unlock()
	if l, ok := f.table[host]; ok {
		return l
	}
	if len(f.table) >= MaxTrackers {
		for k, l := range f.table {
			if l.TokensAt(now) >= Burst {
				delete(f.table, k)
			}
		}
		if len(f.table) >= MaxTrackers {
			return f.overflow
		}
	}
	l := newLimiter()
	f.table[host] = l
	return l
}
