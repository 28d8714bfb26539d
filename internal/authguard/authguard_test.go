package authguard_test

import (
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
)

func TestCheckToken(t *testing.T) {
	for _, c := range []struct {
		token, err string
	}{
		{"0123456789abcdef0123456789abcdef", ""},
		{"x", "is 1 characters; at least 16"},
		{"abcdefghijklmno", "is 15 characters"},
		{"abcdefghijklmnop", ""},
		{"aaaaaaaaaaaaaaaaaaaaaaaa", "1 different characters; at least 8"},
		{"1234123412341234", "4 different characters"},
		{"1234567_1234567_", ""},
		{"1234567112345671", "7 different characters"},
	} {
		err := authguard.CheckToken(c.token)
		if c.err == "" {
			assert.NoError(t, err, c.token)
			continue
		}
		require.Error(t, err, c.token)
		assert.Contains(t, err.Error(), c.err)
		if len(c.token) > 8 {
			assert.NotContains(t, err.Error(), c.token, "the token is not shown")
		}
	}
}

func TestEqual(t *testing.T) {
	assert.True(t, authguard.Equal("0123456789abcdef", "0123456789abcdef"))
	assert.False(t, authguard.Equal("0123456789abcdeF", "0123456789abcdef"))
	assert.False(t, authguard.Equal("0123456789abcde", "0123456789abcdef"), "a prefix is not the token")
	assert.False(t, authguard.Equal("", "0123456789abcdef"))
}

// TestFailuresSlowGuesses: after Burst failures an address may not guess
// until Every has passed, then once per Every; other addresses are not
// affected. The clock is the test's.
func TestFailuresSlowGuesses(t *testing.T) {
	f := authguard.NewFailures()
	now := time.Unix(1_000_000, 0)
	for i := range authguard.Burst {
		require.True(t, f.Allowed("a", now), "guess %d", i+1)
		f.Fail("a", now)
	}
	assert.False(t, f.Allowed("a", now), "the allowance is used up")
	assert.True(t, f.Allowed("b", now), "another address may guess")
	now = now.Add(authguard.Every - time.Millisecond)
	assert.False(t, f.Allowed("a", now))
	now = now.Add(time.Millisecond)
	assert.True(t, f.Allowed("a", now), "one guess per Every")
	f.Fail("a", now)
	assert.False(t, f.Allowed("a", now))
}

// TestFailuresBounded: the table stays at MaxTrackers; past it, addresses
// with nothing against them are forgotten, and when none is, new
// addresses share one limiter.
func TestFailuresBounded(t *testing.T) {
	f := authguard.NewFailures()
	now := time.Unix(1_000_000, 0)
	addr := func(i int) string { return net.IPv4(10, byte(i>>16), byte(i>>8), byte(i)).String() }
	for i := range authguard.MaxTrackers {
		f.Fail(addr(i), now)
	}
	assert.Equal(t, authguard.MaxTrackers, f.Tracked())
	for i := range authguard.Burst {
		require.True(t, f.Allowed(addr(authguard.MaxTrackers+i), now))
		f.Fail(addr(authguard.MaxTrackers+i), now)
	}
	assert.Equal(t, authguard.MaxTrackers, f.Tracked())
	assert.False(t, f.Allowed(addr(authguard.MaxTrackers+100), now), "the overflow limiter is shared")
	now = now.Add(authguard.Burst * authguard.Every)
	assert.True(t, f.Allowed(addr(authguard.MaxTrackers+200), now))
	assert.Equal(t, 1, f.Tracked(), "the full allowances were forgotten")
}
