package gtnh

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// joinErr is an AuthProvider whose every join fails with err.
type joinErr struct {
	err   error
	joins atomic.Int64
}

func (j *joinErr) Name() string { return "Steve" }

func (j *joinErr) Join(context.Context, string) error {
	j.joins.Add(1)
	return j.err
}

// TestRefusedCredentialsEndReconnecting: an AuthProvider error matching
// ErrCredentialsRefused (msauth's refused refresh token, a missing login)
// ends the join at once, reconnecting or not; another auth error (the
// session service down) is retried with backoff.
func TestRefusedCredentialsEndReconnecting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		key, err := rsa.GenerateKey(rand.Reader, 1024)
		require.NoError(t, err)
		der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
		require.NoError(t, err)
		online := func(sc *serverConn) {
			sc.read(proto17.Handshaking)
			sc.read(proto17.Login)
			sc.send(&proto17.EncryptionRequest{ServerID: "", PublicKey: der, VerifyToken: []byte{1, 2, 3, 4}})
		}
		scripts := func(n int) []func(*serverConn) {
			out := make([]func(*serverConn), n)
			for i := range out {
				out[i] = online
			}
			return out
		}
		open := func(auth AuthProvider) error {
			n := newPipeNet(t, scripts(4)...)
			c := testClient(t, n, func(cfg *Config) {
				cfg.Mods, cfg.Auth = testMods, auth
				cfg.Reconnect = Backoff{Enabled: true, Initial: time.Millisecond, Max: 2 * time.Millisecond, MaxAttempts: 2}
			})
			err := c.Open(context.Background())
			<-c.Done()
			return err
		}

		refused := &joinErr{err: fmt.Errorf("microsoft login: token refresh: HTTP 400 (invalid_grant): run `agent login` to sign in again: %w", ErrCredentialsRefused)}
		err = open(refused)
		require.ErrorIs(t, err, ErrCredentialsRefused)
		assert.Contains(t, err.Error(), "agent login")
		assert.Equal(t, int64(1), refused.joins.Load(), "asked once, not at every reconnect")

		down := &joinErr{err: errors.New("session join: 503 Service Unavailable")}
		err = open(down)
		require.Error(t, err)
		assert.NotErrorIs(t, err, ErrCredentialsRefused)
		assert.Contains(t, err.Error(), "gave up after 2 reconnect attempts")
		assert.Equal(t, int64(3), down.joins.Load(), "the first join and two retries")
	})
}
