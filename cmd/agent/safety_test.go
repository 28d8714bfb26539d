package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/internal/syncbuf"
)

// reconnectYAML is agentYAML with a fast backoff that is off unless
// --reconnect turns it on.
func reconnectYAML(t *testing.T, tick time.Duration) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "agent.yaml")
	require.NoError(t, os.WriteFile(file, []byte("server:\n  tick: "+tick.String()+
		"\n  timeouts: {dial: 2s, login: 3s, read: 20s, action: 60s}\n  reconnect: {enabled: false, initial: 10ms, max: 50ms}\n"), 0o644))
	return file
}

// TestRunEndsOnAPermanentKick: with --reconnect, a ban during play ends the
// run at once with exit 1 and the server's reason, without another login.
func TestRunEndsOnAPermanentKick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const tick = 5 * time.Millisecond
		srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: tick, KeepAliveInterval: 20 * time.Millisecond,
			Faults: fakeserver.Faults{KickAt: fakeserver.StageKeepAlive, KickReason: "You are banned from this server!\nReason: testing"}}))
		require.NoError(t, err)
		defer srv.Close()
		code, _, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot", "--reconnect",
			"--goal", "collect 64 minecraft:log", "--config-file", reconnectYAML(t, tick))
		assert.Equal(t, exitFail, code, errOut)
		assert.Contains(t, errOut, "the server ended the run")
		assert.Contains(t, errOut, "You are banned from this server!")
		assert.Len(t, srv.Kicks(), 1, "no second login")
	})
}

// TestRunReconnectsAfterATransientKick: "Server closed" is retried and the
// run goes on to its goal.
func TestRunReconnectsAfterATransientKick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const tick = 5 * time.Millisecond
		srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: tick}))
		require.NoError(t, err)
		defer srv.Close()
		kickCtx, stopKick := context.WithTimeout(context.Background(), 60*time.Second)
		defer stopKick()
		go func() {
			// Kick as soon as the player is there, however long the start and
			// the join take on a loaded machine.
			if srv.WaitFor(kickCtx, func() bool { return len(srv.Players()) > 0 }) == nil {
				srv.Kick("Server closed")
			}
		}()
		code, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot", "--reconnect",
			"--goal", "collect 4 minecraft:log", "--config-file", reconnectYAML(t, tick), "--max-steps", "20")
		require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
		assert.Contains(t, out, "goal met")
		require.Len(t, srv.Kicks(), 1)
		assert.Equal(t, "Server closed", srv.Kicks()[0].Reason)
		// The kick may land while the join is still under way (logged as a
		// failed join that is retried) or after it (a lost connection).
		assert.Regexp(t, "connection ended|could not join; retrying", errOut)
		assert.Contains(t, errOut, "Server closed")
	})
}

// TestRunWaitsForAServerThatIsDown: with --reconnect the first join is
// retried until the server comes up.
func TestRunWaitsForAServerThatIsDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const tick = 5 * time.Millisecond
		addr := fakeserver.MemoryAddr() // nothing listens there yet
		type result struct {
			code        int
			out, errOut string
		}
		done := make(chan result, 1)
		var errb syncbuf.Buffer
		go func() {
			var out bytes.Buffer
			code := run([]string{"run", "--server", addr, "--username", "Bot", "--reconnect",
				"--goal", "collect 4 minecraft:log", "--config-file", reconnectYAML(t, tick), "--max-steps", "20"}, &out, &errb)
			done <- result{code, out.String(), errb.String()}
		}()
		// A refused attempt is retried before the server comes up, however long
		// the agent takes to start.
		require.Eventually(t, func() bool { return strings.Contains(errb.String(), "retrying") }, 60*time.Second, 5*time.Millisecond,
			"no refused attempt was retried: %s", errb.String())
		select {
		case r := <-done:
			t.Fatalf("the run ended while the server was down: %d\n%s", r.code, r.errOut)
		default:
		}
		srv, err := fakeserver.New(inMemory(fakeserver.Options{Addr: addr, TickDuration: tick}))
		require.NoError(t, err)
		defer srv.Close()
		select {
		case r := <-done:
			require.Equal(t, exitOK, r.code, "stdout:\n%s\nstderr:\n%s", r.out, r.errOut)
			assert.Contains(t, r.out, "goal met")
			assert.Contains(t, r.errOut, "retrying")
		case <-time.After(30 * time.Second):
			t.Fatal("the run did not finish")
		}
	})
}

func TestChatSafetyConfig(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		good := filepath.Join(dir, "agent.yaml")
		require.NoError(t, os.WriteFile(good, []byte(`server:
  address: 127.0.0.1:25565
  username: Bot
  operators: [Alice, "uuid:069a79f4-44e9-4726-a5be-fca90e38aaf5"]
  operator_secret_env: GTNH_TEST_OPERATOR_SECRET
  allow_commands: true
`), 0o644))
		cfg, err := loadAgentConfig(good)
		require.NoError(t, err)
		t.Setenv("GTNH_TEST_OPERATOR_SECRET", "correct-horse-battery")
		cc, err := cfg.Server.clientConfig()
		require.NoError(t, err)
		assert.True(t, cc.AllowCommands)
		assert.Equal(t, "correct-horse-battery", cc.Commands.Secret.Reveal())
		assert.NoError(t, cc.Validate())

		t.Setenv("GTNH_TEST_OPERATOR_SECRET", "")
		_, err = cfg.Server.clientConfig()
		assert.ErrorContains(t, err, "GTNH_TEST_OPERATOR_SECRET")

		// Without a named variable the default one is read when set; commands
		// stay off by default.
		t.Setenv(defaultOperatorSecretEnv, "")
		cc, err = serverConfig{}.clientConfig()
		require.NoError(t, err)
		assert.True(t, cc.Commands.Secret.Empty())
		assert.False(t, cc.AllowCommands)
		t.Setenv(defaultOperatorSecretEnv, "from-the-default-variable")
		cc, err = serverConfig{}.clientConfig()
		require.NoError(t, err)
		assert.Equal(t, "from-the-default-variable", cc.Commands.Secret.Reveal())

		// A secret too short is a usage error that does not print it.
		t.Setenv(defaultOperatorSecretEnv, "short")
		code, _, errOut := runAgent(t, "run", "--server", "127.0.0.1:1", "--username", "Bot", "--config-file", good)
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, errOut, "GTNH_TEST_OPERATOR_SECRET")
		t.Setenv("GTNH_TEST_OPERATOR_SECRET", "short")
		code, _, errOut = runAgent(t, "run", "--server", "127.0.0.1:1", "--username", "Bot", "--config-file", good)
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, errOut, "operator secret has 5 characters")
		assert.NotContains(t, errOut, "short\n")

		bad := filepath.Join(dir, "bad.yaml")
		require.NoError(t, os.WriteFile(bad, []byte("server:\n  operators: [Alice, \"uuid:123\"]\n  allow_commands: maybe\n"), 0o644))
		_, err = loadAgentConfig(bad)
		require.Error(t, err)
		assert.Contains(t, err.Error(), bad+":2:14: server.operators")
		assert.Contains(t, err.Error(), `"uuid:123"`)
		assert.Contains(t, err.Error(), "server.allow_commands")
	})
}

// TestStopCommandEndsTheRun: an operator's "stop" cancels the run (and is
// logged with who asked); other commands do not.
func TestStopCommandEndsTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs strings.Builder
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		handle := chatCommands(zerolog.New(&logs), cancel)
		handle(gtnh.Command{From: "Alice", Name: "status"})
		handle(gtnh.Command{From: "Alice", Name: "stopp"})
		require.NoError(t, ctx.Err(), "only stop ends the run")
		handle(gtnh.Command{From: "Alice", Name: "stop", Args: "now"})
		assert.ErrorIs(t, ctx.Err(), context.Canceled)
		assert.Contains(t, logs.String(), `"from":"Alice"`)
	})
}
