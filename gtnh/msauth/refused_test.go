package msauth_test

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/gtnh/msauth"
	"github.com/gtnh-agent/gtnh-agent/gtnh/msauth/msauthtest"
)

// TestRefusedRefreshTokenIsForgotten: a refresh token the token endpoint
// refuses (invalid_grant) is removed with its cache file, the error says to
// run `agent login` and matches gtnh.ErrCredentialsRefused (so the client
// stops reconnecting), and the next join does not send it again.
func TestRefusedRefreshTokenIsForgotten(t *testing.T) {
	r, _ := signedIn(t)
	r.fake.EchoSecrets = true
	p, err := msauth.NewProvider(&msauth.Account{Client: r.client, Cache: r.cache}, r.fake.URL)
	require.NoError(t, err)
	r.fake.RevokeAll()
	r.clock.Advance(25 * time.Hour)
	tokens := r.fake.Calls(msauthtest.Token)

	err = p.Join(context.Background(), "hash")
	require.ErrorIs(t, err, msauth.ErrRefreshRefused)
	require.ErrorIs(t, err, gtnh.ErrCredentialsRefused)
	assert.Contains(t, err.Error(), "the saved sign-in was removed: run `agent login` to sign in again")
	assert.Equal(t, tokens+1, r.fake.Calls(msauthtest.Token), "one refresh")
	_, err2 := r.cache.Load()
	require.ErrorIs(t, err2, msauth.ErrNotLoggedIn, "the cache file is gone")
	noSecrets(t, "the error", err.Error())
	noSecrets(t, "the log", r.logs.String())
	assert.Contains(t, r.logs.String(), "refused (invalid_grant) and removed")

	err = p.Join(context.Background(), "hash")
	require.ErrorIs(t, err, msauth.ErrNotLoggedIn)
	require.ErrorIs(t, err, gtnh.ErrCredentialsRefused, "not logged in cannot heal by itself either")
	assert.Equal(t, tokens+1, r.fake.Calls(msauthtest.Token), "the refused token is not sent again")
	assert.Empty(t, r.fake.Joins())
}

// TestOtherRefusalsKeepTheCache: a refresh refused with another OAuth
// error (an application the identity platform does not accept) needs a new
// sign-in too, but the saved login is kept.
func TestOtherRefusalsKeepTheCache(t *testing.T) {
	r, _ := signedIn(t)
	r.fake.RefreshError = "unauthorized_client"
	r.clock.Advance(25 * time.Hour)
	r.account.Prompt = nil
	_, err := r.account.Session(context.Background())
	require.ErrorIs(t, err, msauth.ErrRefreshRefused)
	require.ErrorIs(t, err, gtnh.ErrCredentialsRefused)
	assert.Contains(t, err.Error(), "run `agent login`")
	assert.NotContains(t, err.Error(), "removed")
	_, err = r.cache.Load()
	require.NoError(t, err, "the cache is kept")
}

// TestOutagesAreNotRefusals: a token endpoint that is down (503) or out of
// reach is worth a retry: the error does not match
// gtnh.ErrCredentialsRefused and the cache stays.
func TestOutagesAreNotRefusals(t *testing.T) {
	r, _ := signedIn(t)
	r.account.Prompt = nil
	r.clock.Advance(25 * time.Hour)
	r.fake.Break(msauthtest.Token, msauthtest.ServerError)
	_, err := r.account.Session(context.Background())
	require.Error(t, err)
	assert.NotErrorIs(t, err, gtnh.ErrCredentialsRefused)
	_, err = r.cache.Load()
	require.NoError(t, err, "the cache is kept")

	r.client.Endpoints.Microsoft = "http://127.0.0.1:1" // nothing listens there
	_, err = r.account.Session(context.Background())
	require.Error(t, err)
	assert.NotErrorIs(t, err, gtnh.ErrCredentialsRefused)
	_, err = r.cache.Load()
	require.NoError(t, err, "the cache is kept")
}

// TestLoginSavedMeanwhileIsNotRemoved: when another process saves a new
// login while this one's refresh is refused, the new login stays.
func TestLoginSavedMeanwhileIsNotRemoved(t *testing.T) {
	r, old := signedIn(t)
	r.fake.RevokeAll()
	r.clock.Advance(25 * time.Hour)
	newer := *old
	newer.MSA.Refresh = gtnh.NewSecret("a-newer-refresh-token")
	// The refresh request goes out with the old token; before it is
	// answered, another `agent login` saves a newer login.
	r.client.HTTP = &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if strings.HasSuffix(req.URL.Path, msauth.PathToken) {
			require.NoError(t, r.cache.Save(&newer))
		}
		return http.DefaultTransport.RoundTrip(req)
	})}
	r.account.Prompt = nil
	_, err := r.account.Session(context.Background())
	require.ErrorIs(t, err, gtnh.ErrCredentialsRefused)
	assert.NotContains(t, err.Error(), "removed")
	l, err := r.cache.Load()
	require.NoError(t, err, "the newer login is kept")
	assert.Equal(t, "a-newer-refresh-token", l.MSA.Refresh.Reveal())
}

// TestUnusableCachesNeedASignIn: without a prompt, a cache of another
// application, a readable one or one that does not decode matches
// gtnh.ErrCredentialsRefused.
func TestUnusableCachesNeedASignIn(t *testing.T) {
	r, _ := signedIn(t)
	r.client.ClientID, r.fake.ClientID = "other-client", "other-client"
	_, err := (&msauth.Account{Client: r.client, Cache: r.cache}).Session(context.Background())
	require.ErrorIs(t, err, gtnh.ErrCredentialsRefused)
	assert.Contains(t, err.Error(), "another Azure application id")

	r2, _ := signedIn(t)
	require.NoError(t, os.WriteFile(r2.cache.Path, []byte("not json"), 0o600))
	_, err = (&msauth.Account{Client: r2.client, Cache: r2.cache}).Session(context.Background())
	require.ErrorIs(t, err, gtnh.ErrCredentialsRefused)
	assert.Contains(t, err.Error(), "not JSON")

	r3, _ := signedIn(t)
	require.NoError(t, os.Chmod(r3.cache.Path, 0o644))
	_, err = (&msauth.Account{Client: r3.client, Cache: r3.cache}).Session(context.Background())
	var pe *msauth.PermissionError
	require.ErrorAs(t, err, &pe)
	require.ErrorIs(t, err, gtnh.ErrCredentialsRefused)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestCacheGoneMeanwhileAfterRefusal: when the cache file is removed or
// spoiled by another process while this one's refresh is refused, forget
// finds nothing of its own to remove: the error still matches
// gtnh.ErrCredentialsRefused, does not claim a removal, and nothing panics.
func TestCacheGoneMeanwhileAfterRefusal(t *testing.T) {
	for _, spoil := range []struct {
		name string
		do   func(path string) error
	}{
		{"removed", os.Remove},
		{"not json", func(path string) error { return os.WriteFile(path, []byte("not json"), 0o600) }},
	} {
		t.Run(spoil.name, func(t *testing.T) {
			r, _ := signedIn(t)
			r.fake.RevokeAll()
			r.clock.Advance(25 * time.Hour)
			r.client.HTTP = &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
				if strings.HasSuffix(req.URL.Path, msauth.PathToken) {
					require.NoError(t, spoil.do(r.cache.Path))
				}
				return http.DefaultTransport.RoundTrip(req)
			})}
			r.account.Prompt = nil
			_, err := r.account.Session(context.Background())
			require.ErrorIs(t, err, msauth.ErrRefreshRefused)
			require.ErrorIs(t, err, gtnh.ErrCredentialsRefused)
			assert.NotContains(t, err.Error(), "removed")
			assert.NotContains(t, r.logs.String(), "and removed")
		})
	}
}

// TestRefusedTokenIsForgottenEvenWhenTheNewSignInFails: with a prompt, the
// refused refresh token is removed before the device sign-in starts, so a
// sign-in that fails (here the device code endpoint is down) does not
// leave it in the cache to be sent again.
func TestRefusedTokenIsForgottenEvenWhenTheNewSignInFails(t *testing.T) {
	r, _ := signedIn(t)
	r.fake.RevokeAll()
	r.clock.Advance(25 * time.Hour)
	r.fake.Break(msauthtest.DeviceCode, msauthtest.ServerError)
	require.NotNil(t, r.account.Prompt)
	_, err := r.account.Session(context.Background())
	require.Error(t, err)
	_, err = r.cache.Load()
	require.ErrorIs(t, err, msauth.ErrNotLoggedIn, "the refused login is gone")
}

// TestCacheNoRetryCanReadNeedsASignIn: a cache path that is not a regular
// file, or a cache file over the size bound, is as unusable as one that
// does not decode: without a prompt the error matches
// gtnh.ErrCredentialsRefused (a reconnect would only read it again).
func TestCacheNoRetryCanReadNeedsASignIn(t *testing.T) {
	r, _ := signedIn(t)
	require.NoError(t, os.Remove(r.cache.Path))
	require.NoError(t, os.Mkdir(r.cache.Path, 0o700))
	_, err := (&msauth.Account{Client: r.client, Cache: r.cache}).Session(context.Background())
	require.ErrorIs(t, err, gtnh.ErrCredentialsRefused)
	assert.Contains(t, err.Error(), "not a regular file")

	r2, _ := signedIn(t)
	require.NoError(t, os.WriteFile(r2.cache.Path, make([]byte, 1<<20), 0o600))
	_, err = (&msauth.Account{Client: r2.client, Cache: r2.cache}).Session(context.Background())
	require.ErrorIs(t, err, gtnh.ErrCredentialsRefused)
	assert.Contains(t, err.Error(), "login cache")
}
