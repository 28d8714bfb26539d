package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh/msauth"
	"github.com/gtnh-agent/gtnh-agent/gtnh/msauth/msauthtest"
)

// fakeAccount starts the fake services and points the CLI at them through
// the environment; it returns the fake and a cache path.
func fakeAccount(t *testing.T) (*msauthtest.Fake, string) {
	f := msauthtest.New(t)
	ep := f.Endpoints()
	t.Setenv(envMicrosoftURL, ep.Microsoft)
	t.Setenv(envXboxURL, ep.XboxUser)
	t.Setenv(envXSTSURL, ep.XSTS)
	t.Setenv(envMinecraftURL, ep.Minecraft)
	t.Setenv(envClientID, "")
	t.Setenv(envCache, "")
	return f, filepath.Join(t.TempDir(), "gtnh-agent", "microsoft-login.json")
}

func TestLoginAndLogoutAgainstTheFakeServices(t *testing.T) {
	f, cache := fakeAccount(t)
	code, out, errOut := runAgent(t, "login", "--client-id", "test-client", "--cache", cache)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, errOut, "open https://www.microsoft.com/link and enter the code ABCD-1234")
	assert.Contains(t, errOut, "valid for 15m0s")
	assert.Equal(t, "logged in as Steve (0123456789abcdef0123456789abcdef); saved to "+cache+"\n", out)
	assert.NotContains(t, out+errOut, msauthtest.Secret)
	fi, err := os.Stat(cache)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	data, err := os.ReadFile(cache)
	require.NoError(t, err)
	assert.Contains(t, string(data), msauthtest.Secret, "the cache holds the tokens")

	// A second login uses the saved one: no new code, no wait.
	t.Setenv(envClientID, "test-client")
	t.Setenv(envCache, cache)
	code, out, errOut = runAgent(t, "login")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "logged in as Steve")
	assert.NotContains(t, errOut, "enter the code")
	assert.Equal(t, 1, f.Calls(msauthtest.DeviceCode))

	code, out, _ = runAgent(t, "logout")
	require.Equal(t, exitOK, code)
	assert.Equal(t, "logged out: removed "+cache+"\n", out)
	_, err = os.Stat(cache)
	assert.ErrorIs(t, err, os.ErrNotExist)
	code, out, _ = runAgent(t, "logout")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "not logged in")
}

func TestLoginFailures(t *testing.T) {
	f, cache := fakeAccount(t)
	code, _, errOut := runAgent(t, "login", "--cache", cache)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "no Azure application (client) id: give --client-id, set GTNH_AGENT_MSA_CLIENT_ID")
	assert.Equal(t, 0, f.Calls(msauthtest.DeviceCode))

	code, _, errOut = runAgent(t, "login", "extra")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "unexpected arguments")

	f.XErr = 2148916238
	f.EchoSecrets = true
	code, out, errOut := runAgent(t, "login", "--client-id", "test-client", "--cache", cache)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, errOut, "agent: microsoft login: XSTS authorization: HTTP 401 (XErr 2148916238): this is a child account")
	assert.NotContains(t, out+errOut, msauthtest.Secret)
	_, err := os.Stat(cache)
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing saved")
}

func TestLoginReadsTheConfigFile(t *testing.T) {
	f, cache := fakeAccount(t)
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "agent.yaml")
	require.NoError(t, os.WriteFile(cfgFile, []byte("server:\n  auth: {microsoft: true, client_id: test-client, token_cache: "+cache+"}\n"), 0o600))
	code, out, errOut := runAgent(t, "login", "--config-file", cfgFile)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "saved to "+cache)
	assert.Equal(t, 1, f.Calls(msauthtest.DeviceCode))

	// --force signs in again even though the saved login works.
	code, _, errOut = runAgent(t, "login", "--config-file", cfgFile, "--force")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, errOut, "enter the code")
	assert.Equal(t, 2, f.Calls(msauthtest.DeviceCode))
}

func TestMicrosoftAuthConfig(t *testing.T) {
	f, cache := fakeAccount(t)
	dir := t.TempDir()
	write := func(body string) string {
		p := filepath.Join(dir, "agent.yaml")
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		return p
	}
	good := write("server:\n  address: 127.0.0.1:1\n  auth: {microsoft: true, client_id: test-client, token_cache: " + cache + ", session_url: " + f.URL + "}\n")

	// Not logged in yet: agent run says what to do, before any dial.
	code, _, errOut := runAgent(t, "run", "--config-file", good, "--server", "127.0.0.1:1")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "server.auth: not logged in with a Microsoft account: run `agent login`")

	code, _, errOut = runAgent(t, "login", "--config-file", good)
	require.Equal(t, exitOK, code, errOut)

	acfg, err := loadAgentConfig(good)
	require.NoError(t, err)
	srv := acfg.Server
	srv.fillAccountName()
	assert.Equal(t, "Steve", srv.Username, "the player of the saved login")
	cc, err := srv.clientConfig()
	require.NoError(t, err)
	require.NoError(t, cc.Validate())
	p, ok := cc.Auth.(*msauth.Provider)
	require.True(t, ok, "%T", cc.Auth)
	assert.Equal(t, "Steve", p.Name())
	require.NoError(t, p.Join(context.Background(), "serverhash"))
	assert.Equal(t, []string{"serverhash"}, f.Joins(), "joined with the saved Minecraft token")

	srv.Username = "Bot"
	_, err = srv.clientConfig()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "server.username Bot is not the player of the Microsoft login (Steve)")

	// The old way still works beside it.
	old := write("server:\n  auth: {session_url: https://s, player: Steve, profile_id: 0123456789abcdef0123456789abcdef, access_token_env: GTNH_TEST_TOKEN}\n")
	t.Setenv("GTNH_TEST_TOKEN", "tok")
	acfg, err = loadAgentConfig(old)
	require.NoError(t, err)
	acfg.Server.Username = "Steve"
	cc, err = acfg.Server.clientConfig()
	require.NoError(t, err)
	assert.Equal(t, "Steve", cc.Auth.Name())

	bad := write("server:\n  auth: {microsoft: true, player: Steve, access_token_env: X}\n")
	_, err = loadAgentConfig(bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "server.auth.player: not used with microsoft: true")
	assert.Contains(t, err.Error(), "server.auth.access_token_env: not used with microsoft: true")
	missing := write("server:\n  auth: {microsoft: false}\n")
	_, err = loadAgentConfig(missing)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "access_token_env", "without microsoft the old fields are required")
}

func TestReadableCacheIsRefusedByRun(t *testing.T) {
	_, cache := fakeAccount(t)
	code, _, errOut := runAgent(t, "login", "--client-id", "test-client", "--cache", cache)
	require.Equal(t, exitOK, code, errOut)
	require.NoError(t, os.Chmod(cache, 0o644))
	cfg := filepath.Join(t.TempDir(), "agent.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("server:\n  username: Steve\n  auth: {microsoft: true, client_id: test-client, token_cache: "+cache+"}\n"), 0o600))
	code, _, errOut = runAgent(t, "run", "--config-file", cfg, "--server", "127.0.0.1:1")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "readable by other users (mode 0644)")
}
