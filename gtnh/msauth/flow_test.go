package msauth_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh/msauth"
	"github.com/gtnh-agent/gtnh-agent/gtnh/msauth/msauthtest"
	"github.com/gtnh-agent/gtnh-agent/internal/syncbuf"
)

// clock is a fake clock: Sleep advances it and records the waits.
type clock struct {
	mu     sync.Mutex
	t      time.Time
	sleeps []time.Duration
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func (c *clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.t = c.t.Add(d)
	return nil
}

func (c *clock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// rig is a fake, a client on a fake clock with a debug log captured, and
// an account with a cache in a temporary directory.
type rig struct {
	fake    *msauthtest.Fake
	clock   *clock
	logs    *syncbuf.Buffer
	client  *msauth.Client
	cache   *msauth.Cache
	account *msauth.Account
	prompts []*msauth.DeviceCode
}

func newRig(t *testing.T) *rig {
	r := &rig{fake: msauthtest.New(t), clock: newClock(), logs: &syncbuf.Buffer{}}
	r.client = &msauth.Client{
		ClientID: "test-client", Endpoints: r.fake.Endpoints(),
		Log: zerolog.New(r.logs).Level(zerolog.DebugLevel), Now: r.clock.Now, Sleep: r.clock.Sleep,
	}
	r.cache = &msauth.Cache{Path: filepath.Join(t.TempDir(), "cfg", "gtnh-agent", "microsoft-login.json")}
	r.account = &msauth.Account{Client: r.client, Cache: r.cache, Prompt: func(dc *msauth.DeviceCode) { r.prompts = append(r.prompts, dc) }}
	return r
}

// noSecrets fails when a token (every fake token contains "SECRET") is in
// the text.
func noSecrets(t *testing.T, what, text string) {
	t.Helper()
	assert.NotContains(t, text, msauthtest.Secret, "a token leaked into %s", what)
}

func TestDeviceFlowPendingTwiceThenSuccess(t *testing.T) {
	r := newRig(t)
	r.fake.Pending = 2
	l, err := r.account.Session(context.Background())
	require.NoError(t, err)

	require.Len(t, r.prompts, 1)
	assert.Equal(t, "ABCD-1234", r.prompts[0].UserCode)
	assert.Equal(t, "https://www.microsoft.com/link", r.prompts[0].VerificationURI)
	assert.Equal(t, 3, r.fake.Calls(msauthtest.Token), "two pending polls, then the tokens")
	assert.Equal(t, []time.Duration{time.Second, time.Second, time.Second}, r.clock.Sleeps(), "the interval before every poll")

	assert.Equal(t, msauth.Profile{ID: "0123456789abcdef0123456789abcdef", Name: "Steve"}, l.Profile)
	assert.True(t, r.fake.Issued(l.Minecraft.Reveal(), "minecraft"), "a Minecraft token the fake issued")
	assert.True(t, r.fake.Issued(l.MSA.Refresh.Reveal(), "msa-refresh"))
	assert.Equal(t, r.clock.Now().Add(24*time.Hour), l.MinecraftExpires)
	assert.Equal(t, r.clock.Now().Add(time.Hour), l.MSA.Expires)

	cached, err := r.cache.Load()
	require.NoError(t, err)
	assert.Equal(t, l.Minecraft.Reveal(), cached.Minecraft.Reveal())
	assert.Equal(t, l.MSA.Refresh.Reveal(), cached.MSA.Refresh.Reveal())
	assert.True(t, l.MinecraftExpires.Equal(cached.MinecraftExpires))
	assert.Equal(t, l.Profile, cached.Profile)
	noSecrets(t, "the log", r.logs.String())
	assert.Contains(t, r.logs.String(), `"step":"XSTS authorization"`, "the steps are logged")
}

func TestSlowDownAddsFiveSecondsForGood(t *testing.T) {
	r := newRig(t)
	r.fake.SlowDown, r.fake.Pending = 1, 1
	_, err := r.account.Session(context.Background())
	require.NoError(t, err)
	assert.Equal(t, []time.Duration{time.Second, 6 * time.Second, 6 * time.Second}, r.clock.Sleeps())
}

func TestDeviceFlowEnds(t *testing.T) {
	for _, tc := range []struct {
		pollError string
		want      error
		text      string
	}{
		{"expired_token", msauth.ErrExpired, "expired"},
		{"access_denied", msauth.ErrDenied, "declined"},
		{"authorization_declined", msauth.ErrDenied, "declined"},
		{"bad_verification_code", nil, "bad_verification_code"},
	} {
		t.Run(tc.pollError, func(t *testing.T) {
			r := newRig(t)
			r.fake.Pending, r.fake.PollError = 1, tc.pollError
			_, err := r.account.Session(context.Background())
			require.Error(t, err)
			if tc.want != nil {
				assert.ErrorIs(t, err, tc.want)
			}
			assert.Contains(t, err.Error(), "device sign-in: HTTP 400 ("+tc.pollError+")")
			assert.Contains(t, err.Error(), tc.text)
			assert.NotContains(t, err.Error(), "Trace ID", "only the description's first line")
			assert.Equal(t, 2, r.fake.Calls(msauthtest.Token), "no poll after the end")
			_, lerr := r.cache.Load()
			assert.ErrorIs(t, lerr, msauth.ErrNotLoggedIn, "nothing cached")
		})
	}
}

func TestDeviceCodeExpiresLocally(t *testing.T) {
	r := newRig(t)
	r.fake.CodeLife, r.fake.Interval, r.fake.Pending = 10, 3, 1000
	_, err := r.account.Session(context.Background())
	require.ErrorIs(t, err, msauth.ErrExpired)
	assert.Equal(t, "microsoft login: device sign-in: the sign-in code expired before the sign-in was completed", err.Error())
	assert.Equal(t, 3, r.fake.Calls(msauthtest.Token), "polls at 3, 6 and 9 s of a 10 s code")
}

func TestPollingStopsWithTheContext(t *testing.T) {
	r := newRig(t)
	r.fake.Pending = 1000
	ctx, cancel := context.WithCancel(context.Background())
	r.account.Prompt = func(*msauth.DeviceCode) { cancel() }
	_, err := r.account.Session(ctx)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 0, r.fake.Calls(msauthtest.Token))
}

func TestXSTSErrorsAreExplained(t *testing.T) {
	for _, tc := range []struct {
		xerr uint64
		want error
		text string
	}{
		{2148916233, msauth.ErrNoXboxAccount, "no Xbox profile"},
		{2148916235, msauth.ErrXboxRegion, "not available in this account's country"},
		{2148916236, msauth.ErrAdultVerification, "adult verification"},
		{2148916237, msauth.ErrAdultVerification, "adult verification"},
		{2148916238, msauth.ErrChildAccount, "child account"},
		{2148916999, nil, "refused this account"},
	} {
		r := newRig(t)
		r.fake.XErr = tc.xerr
		_, err := r.account.Session(context.Background())
		require.Error(t, err)
		if tc.want != nil {
			assert.ErrorIs(t, err, tc.want)
		}
		msg := err.Error()
		assert.Contains(t, msg, "XSTS authorization: HTTP 401 (XErr ", tc.xerr)
		assert.Contains(t, msg, tc.text)
		noSecrets(t, "the error", msg)
	}
}

func TestBrokenAnswersNameTheStep(t *testing.T) {
	steps := []struct{ fake, name string }{
		{msauthtest.DeviceCode, "device code"},
		{msauthtest.Token, "device sign-in"},
		{msauthtest.XboxUser, "Xbox Live authentication"},
		{msauthtest.XSTS, "XSTS authorization"},
		{msauthtest.Minecraft, "Minecraft login"},
		{msauthtest.Profile, "Minecraft profile"},
	}
	kinds := []struct {
		b    msauthtest.Breakage
		text string
	}{
		{msauthtest.BadJSON, "HTTP 200: the response is not JSON"},
		{msauthtest.Huge, "HTTP 200: response body over 64 KiB"},
		{msauthtest.WrongTypes, "HTTP 200: the response has a"},
		{msauthtest.ServerError, "HTTP 503"},
	}
	for _, s := range steps {
		for _, k := range kinds {
			r := newRig(t)
			r.fake.Break(s.fake, k.b)
			_, err := r.account.Session(context.Background())
			require.Error(t, err, "%s broken with %v", s.fake, k.b)
			msg := err.Error()
			assert.Contains(t, msg, "microsoft login: "+s.name+": "+k.text, "%s broken with %v", s.fake, k.b)
			var me *msauth.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, s.name, me.Step)
			noSecrets(t, "the error", msg)
			noSecrets(t, "the log", r.logs.String())
		}
	}
}

func TestMinecraftRefusesTheApplication(t *testing.T) {
	r := newRig(t)
	r.fake.Break(msauthtest.Minecraft, msauthtest.Forbidden)
	_, err := r.account.Session(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Minecraft login: HTTP 403: Minecraft services refused this application")
	assert.Contains(t, err.Error(), "approved for the Minecraft API")
}

func TestNoProfile(t *testing.T) {
	r := newRig(t)
	r.fake.NoProfile = true
	_, err := r.account.Session(context.Background())
	require.ErrorIs(t, err, msauth.ErrNoProfile)
	assert.Contains(t, err.Error(), "Minecraft profile: HTTP 404: this account has no Minecraft: Java Edition profile")
}

func TestUnknownClientID(t *testing.T) {
	r := newRig(t)
	r.client.ClientID = "someone-else"
	_, err := r.account.Session(context.Background())
	require.Error(t, err)
	assert.Equal(t, "microsoft login: device code: HTTP 400 (unauthorized_client): AADSTS700016: Application with identifier was not found in the directory.", err.Error())

	r.client.ClientID = " "
	_, err = r.account.Session(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no Azure application (client) id is configured")
	assert.Equal(t, 1, r.fake.Calls(msauthtest.DeviceCode), "no request without a client id")
}

// signedIn is a rig after a first sign-in, with the counters noted.
func signedIn(t *testing.T) (*rig, *msauth.Login) {
	r := newRig(t)
	l, err := r.account.Session(context.Background())
	require.NoError(t, err)
	return r, l
}

func TestCachedLoginIsUsedUntilTheMargin(t *testing.T) {
	r, first := signedIn(t)
	calls := r.fake.Calls(msauthtest.Minecraft)
	// 24 h token, 5 min margin (as docs/online-mode.md says): one second
	// before the margin the cache is used as it is.
	r.clock.Advance(24*time.Hour - 5*time.Minute - time.Second)
	l, err := r.account.Session(context.Background())
	require.NoError(t, err)
	assert.Equal(t, first.Minecraft.Reveal(), l.Minecraft.Reveal())
	assert.Equal(t, calls, r.fake.Calls(msauthtest.Minecraft), "no request")

	// Within the margin the token is renewed.
	r.clock.Advance(2 * time.Second)
	l, err = r.account.Session(context.Background())
	require.NoError(t, err)
	assert.NotEqual(t, first.Minecraft.Reveal(), l.Minecraft.Reveal())
	assert.Equal(t, calls+1, r.fake.Calls(msauthtest.Minecraft))
}

func TestExpiredMinecraftTokenWithAValidMicrosoftToken(t *testing.T) {
	r := newRig(t)
	r.fake.MinecraftLife = 600 // shorter than the Microsoft token's hour
	_, err := r.account.Session(context.Background())
	require.NoError(t, err)
	tokens := r.fake.Calls(msauthtest.Token)
	r.clock.Advance(10 * time.Minute)
	_, err = r.account.Session(context.Background())
	require.NoError(t, err)
	assert.Equal(t, tokens, r.fake.Calls(msauthtest.Token), "the Microsoft token is still valid: no refresh")
	assert.Equal(t, 2, r.fake.Calls(msauthtest.Minecraft))
}

func TestRefreshRenewsAnExpiredLogin(t *testing.T) {
	r, first := signedIn(t)
	tokens := r.fake.Calls(msauthtest.Token)
	r.clock.Advance(25 * time.Hour)
	l, err := r.account.Session(context.Background())
	require.NoError(t, err)
	assert.Equal(t, tokens+1, r.fake.Calls(msauthtest.Token), "one refresh")
	assert.Equal(t, 1, r.fake.Calls(msauthtest.DeviceCode), "no new device sign-in")
	assert.Len(t, r.prompts, 1)
	assert.NotEqual(t, first.MSA.Refresh.Reveal(), l.MSA.Refresh.Reveal(), "the new refresh token is kept")
	assert.True(t, r.fake.Issued(l.Minecraft.Reveal(), "minecraft"))
	assert.Equal(t, r.clock.Now().Add(24*time.Hour), l.MinecraftExpires)

	cached, err := r.cache.Load()
	require.NoError(t, err)
	assert.Equal(t, l.Minecraft.Reveal(), cached.Minecraft.Reveal(), "the renewal is saved")
	assert.Equal(t, l.MSA.Refresh.Reveal(), cached.MSA.Refresh.Reveal())
	noSecrets(t, "the log", r.logs.String())
}

func TestRefusedRefreshRunsTheDeviceFlowAgainOnlyWithAPrompt(t *testing.T) {
	r, _ := signedIn(t)
	r.fake.RevokeAll()
	r.clock.Advance(25 * time.Hour)

	prompt := r.account.Prompt
	r.account.Prompt = nil
	_, err := r.account.Session(context.Background())
	require.ErrorIs(t, err, msauth.ErrRefreshRefused)
	assert.Contains(t, err.Error(), "token refresh: HTTP 400 (invalid_grant)")
	assert.Contains(t, err.Error(), "run `agent login`")
	assert.Equal(t, 1, r.fake.Calls(msauthtest.DeviceCode))

	r.account.Prompt = prompt
	l, err := r.account.Session(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, r.fake.Calls(msauthtest.DeviceCode), "a new device sign-in")
	assert.Len(t, r.prompts, 2)
	assert.True(t, r.fake.Issued(l.Minecraft.Reveal(), "minecraft"))
}

func TestFailingRefreshServiceDoesNotStartADeviceSignIn(t *testing.T) {
	r, _ := signedIn(t)
	r.clock.Advance(25 * time.Hour)
	r.fake.Break(msauthtest.Token, msauthtest.ServerError)
	_, err := r.account.Session(context.Background())
	require.Error(t, err)
	assert.NotErrorIs(t, err, msauth.ErrRefreshRefused)
	assert.Contains(t, err.Error(), "token refresh: HTTP 503")
	assert.Equal(t, 1, r.fake.Calls(msauthtest.DeviceCode), "an outage is not a refused login")
	_, err = r.cache.Load()
	require.NoError(t, err, "the cache is kept")
}

func TestEchoedTokensStayOutOfErrors(t *testing.T) {
	r, _ := signedIn(t)
	r.fake.EchoSecrets = true
	r.fake.RevokeAll()
	r.clock.Advance(25 * time.Hour)
	r.account.Prompt = nil
	_, err := r.account.Session(context.Background())
	require.ErrorIs(t, err, msauth.ErrRefreshRefused)
	assert.Contains(t, err.Error(), "AADSTS9002313: the value [REDACTED] ([REDACTED]) was not accepted", "the whole token and its half are gone")
	noSecrets(t, "the error", err.Error())
	noSecrets(t, "the log", r.logs.String())
}

func TestClientIDChangeNeedsANewSignIn(t *testing.T) {
	r, _ := signedIn(t)
	r.fake.ClientID = "new-client"
	r.client.ClientID = "new-client"
	prompt := r.account.Prompt
	r.account.Prompt = nil
	_, err := r.account.Session(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "another Azure application id")
	r.account.Prompt = prompt
	l, err := r.account.Session(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "new-client", l.ClientID)
	assert.Equal(t, 2, r.fake.Calls(msauthtest.DeviceCode))
}

func TestCacheFileIsPrivate(t *testing.T) {
	r, _ := signedIn(t)
	fi, err := os.Stat(r.cache.Path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	di, err := os.Stat(filepath.Dir(r.cache.Path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), di.Mode().Perm(), "the directory made for it")
	entries, err := os.ReadDir(filepath.Dir(r.cache.Path))
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary file left behind")
}

func TestReadableCacheIsRefusedThenReplaced(t *testing.T) {
	r, first := signedIn(t)
	require.NoError(t, os.Chmod(r.cache.Path, 0o644))

	_, err := r.cache.Load()
	var pe *msauth.PermissionError
	require.ErrorAs(t, err, &pe)
	assert.Contains(t, err.Error(), "readable by other users (mode 0644)")
	assert.Contains(t, err.Error(), "chmod 600")

	// A provider (agent run) refuses it.
	_, err = msauth.NewProvider(&msauth.Account{Client: r.client, Cache: r.cache}, "")
	require.ErrorAs(t, err, &pe)
	// Without a prompt, Session refuses it too.
	_, err = (&msauth.Account{Client: r.client, Cache: r.cache}).Session(context.Background())
	require.ErrorAs(t, err, &pe)

	// agent login signs in again rather than trusting its tokens, and
	// the new file is private.
	l, err := r.account.Session(context.Background())
	require.NoError(t, err)
	assert.NotEqual(t, first.Minecraft.Reveal(), l.Minecraft.Reveal())
	assert.Equal(t, 2, r.fake.Calls(msauthtest.DeviceCode))
	fi, err := os.Stat(r.cache.Path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	for _, mode := range []os.FileMode{0o640, 0o604, 0o620, 0o602} {
		require.NoError(t, os.Chmod(r.cache.Path, mode))
		_, err = r.cache.Load()
		require.ErrorAs(t, err, &pe, "mode %04o", mode)
	}
	require.NoError(t, os.Chmod(r.cache.Path, 0o400))
	_, err = r.cache.Load()
	require.NoError(t, err, "owner-only read is fine")
}

func TestCacheProblems(t *testing.T) {
	dir := t.TempDir()
	c := &msauth.Cache{Path: filepath.Join(dir, "login.json")}
	_, err := c.Load()
	require.ErrorIs(t, err, msauth.ErrNotLoggedIn)
	assert.Contains(t, err.Error(), "run `agent login`")

	for _, tc := range []struct{ body, want string }{
		{`not json`, "the file is not JSON (offset 2)"},
		{`{"version": 2}`, "unknown version 2"},
		{`{"version": 1, "client_id": "c"}`, "the Microsoft tokens are missing"},
	} {
		require.NoError(t, os.WriteFile(c.Path, []byte(tc.body), 0o600))
		_, err = c.Load()
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.Path)
		assert.Contains(t, err.Error(), tc.want)
	}
	require.NoError(t, os.Remove(c.Path))
	require.NoError(t, os.Mkdir(c.Path, 0o700))
	_, err = c.Load()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a regular file")
	require.NoError(t, os.Remove(c.Path))

	removed, err := c.Remove()
	require.NoError(t, err)
	assert.False(t, removed)
}

func TestProviderJoinsAndRenews(t *testing.T) {
	r, _ := signedIn(t)
	p, err := msauth.NewProvider(&msauth.Account{Client: r.client, Cache: r.cache}, r.fake.URL)
	require.NoError(t, err)
	assert.Equal(t, "Steve", p.Name())
	require.NoError(t, p.Join(context.Background(), "hash1"))

	r.clock.Advance(25 * time.Hour)
	require.NoError(t, p.Join(context.Background(), "-hash2"))
	assert.Equal(t, []string{"hash1", "-hash2"}, r.fake.Joins())
	assert.Equal(t, 2, r.fake.Calls(msauthtest.Minecraft), "renewed before the second join")

	r.fake.RevokeAll()
	r.clock.Advance(25 * time.Hour)
	err = p.Join(context.Background(), "hash3")
	require.ErrorIs(t, err, msauth.ErrRefreshRefused)
	noSecrets(t, "the error", err.Error())
}

func TestProviderWithoutLogin(t *testing.T) {
	c := &msauth.Cache{Path: filepath.Join(t.TempDir(), "none.json")}
	_, err := msauth.NewProvider(&msauth.Account{Client: &msauth.Client{ClientID: "x"}, Cache: c}, "")
	require.ErrorIs(t, err, msauth.ErrNotLoggedIn)
}

func TestErrorsNeverCarryTokens(t *testing.T) {
	// Every failure path at once, with echoing on: no token in any error
	// or log line.
	var all []string
	for _, setup := range []func(*msauthtest.Fake){
		func(f *msauthtest.Fake) { f.PollError = "expired_token" },
		func(f *msauthtest.Fake) { f.XErr = 2148916233 },
		func(f *msauthtest.Fake) { f.NoProfile = true },
		func(f *msauthtest.Fake) { f.Break(msauthtest.Minecraft, msauthtest.BadJSON) },
		func(f *msauthtest.Fake) { f.Break(msauthtest.Join, msauthtest.Forbidden) },
	} {
		r := newRig(t)
		r.fake.EchoSecrets = true
		setup(r.fake)
		_, err := r.account.Session(context.Background())
		if err == nil {
			p, perr := msauth.NewProvider(r.account, r.fake.URL)
			require.NoError(t, perr)
			err = p.Join(context.Background(), "h")
		}
		require.Error(t, err)
		all = append(all, err.Error(), r.logs.String())
	}
	noSecrets(t, "errors and logs", strings.Join(all, "\n"))
}

func TestUserHashMustNotChange(t *testing.T) {
	r := newRig(t)
	r.fake.XSTSUserHash = "someoneelse"
	_, err := r.account.Session(context.Background())
	require.Error(t, err)
	assert.Equal(t, "microsoft login: XSTS authorization: HTTP 200: the user hash changed between Xbox Live and XSTS", err.Error())
	assert.Equal(t, 0, r.fake.Calls(msauthtest.Minecraft))
}

func TestDeviceSignInNeedsARefreshToken(t *testing.T) {
	r := newRig(t)
	r.fake.OmitRefreshToken = true
	_, err := r.account.Session(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "device sign-in: HTTP 200: no refresh_token in the response")
}

func TestRefreshWithoutANewRefreshTokenKeepsTheOld(t *testing.T) {
	r, first := signedIn(t)
	r.fake.OmitRefreshToken = true
	r.clock.Advance(25 * time.Hour)
	l, err := r.account.Session(context.Background())
	require.NoError(t, err)
	assert.Equal(t, first.MSA.Refresh.Reveal(), l.MSA.Refresh.Reveal())
	cached, err := r.cache.Load()
	require.NoError(t, err)
	assert.Equal(t, first.MSA.Refresh.Reveal(), cached.MSA.Refresh.Reveal(), "still saved")
}

func TestRefreshOutageWithAnOAuthErrorIsNotARefusal(t *testing.T) {
	r, _ := signedIn(t)
	r.clock.Advance(25 * time.Hour)
	r.fake.RefreshError, r.fake.RefreshStatus = "temporarily_unavailable", 503
	_, err := r.account.Session(context.Background())
	require.Error(t, err)
	assert.NotErrorIs(t, err, msauth.ErrRefreshRefused)
	assert.Contains(t, err.Error(), "token refresh: HTTP 503 (temporarily_unavailable)")
	assert.Equal(t, 1, r.fake.Calls(msauthtest.DeviceCode), "no device sign-in for an outage")
}

func TestMarginIsConfigurable(t *testing.T) {
	r, first := signedIn(t)
	r.account.Margin = time.Hour
	r.clock.Advance(23*time.Hour - time.Second)
	l, err := r.account.Session(context.Background())
	require.NoError(t, err)
	assert.Equal(t, first.Minecraft.Reveal(), l.Minecraft.Reveal())
	r.clock.Advance(2 * time.Second)
	l, err = r.account.Session(context.Background())
	require.NoError(t, err)
	assert.NotEqual(t, first.Minecraft.Reveal(), l.Minecraft.Reveal(), "renewed an hour before the end")
}

func TestPollingBacksOffWhenAPollGetsNoAnswer(t *testing.T) {
	r := newRig(t)
	r.fake.Pending = 1
	r.fake.BreakN(msauthtest.Token, msauthtest.Drop, 2)
	_, err := r.account.Session(context.Background())
	require.NoError(t, err)
	// Two dropped polls double the interval twice; it stays doubled.
	assert.Equal(t, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second}, r.clock.Sleeps())
	assert.Equal(t, 4, r.fake.Calls(msauthtest.Token))
}

func TestPollingGivesUpAfterThreeUnansweredPollsInARow(t *testing.T) {
	r := newRig(t)
	r.fake.Break(msauthtest.Token, msauthtest.Drop)
	_, err := r.account.Session(context.Background())
	require.Error(t, err)
	var ne *msauth.NetError
	require.ErrorAs(t, err, &ne)
	assert.Contains(t, err.Error(), "microsoft login: device sign-in: Post ")
	assert.Equal(t, 4, r.fake.Calls(msauthtest.Token), "the first poll and three retries")
	noSecrets(t, "the error", err.Error())
}

func TestUnansweredStepsOtherThanPollingAreNotRetried(t *testing.T) {
	r := newRig(t)
	r.fake.BreakN(msauthtest.XSTS, msauthtest.Drop, 1)
	_, err := r.account.Session(context.Background())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "microsoft login: XSTS authorization: Post ")
	assert.Equal(t, 1, r.fake.Calls(msauthtest.XSTS))
}

func TestAnAnswerResetsTheUnansweredCount(t *testing.T) {
	r := newRig(t)
	r.fake.Pending = 1
	r.fake.BreakN(msauthtest.Token, msauthtest.Drop, 2)
	sleeps := 0
	r.client.Sleep = func(ctx context.Context, d time.Duration) error {
		sleeps++
		if sleeps == 4 {
			// After two drops and a pending answer, three more drops:
			// allowed, since the answer started the count again.
			r.fake.BreakN(msauthtest.Token, msauthtest.Drop, 3)
		}
		return r.clock.Sleep(ctx, d)
	}
	_, err := r.account.Session(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 7, r.fake.Calls(msauthtest.Token))
}
