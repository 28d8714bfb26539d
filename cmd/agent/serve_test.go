package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/internal/syncbuf"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// waitServing waits for agent serve's "serving … on ADDR" line and
// returns ADDR.
func waitServing(t *testing.T, c *child) string {
	t.Helper()
	deadline := testdeadline.After(t)
	for {
		c.mu.Lock()
		ch := c.changed
		c.mu.Unlock()
		for _, l := range strings.Split(c.stdout(), "\n") {
			if strings.HasPrefix(l, "serving ") {
				return l[strings.LastIndex(l, " on ")+4:]
			}
		}
		select {
		case <-ch:
		case <-c.done:
			t.Fatalf("agent serve ended\nstdout:\n%s\nstderr:\n%s", c.stdout(), tail(c.stderrText(), 3000))
		case <-deadline:
			t.Fatalf("agent serve did not start\nstderr:\n%s", tail(c.stderrText(), 3000))
		}
	}
}

func shortDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "serve")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}

// TestRemoteBodySameTrace: agent run --body against agent serve --body sim
// writes the same trace, byte for byte, as the in-process run with the
// same scenario and seed, over a Unix socket and over TCP with a token.
func TestRemoteBodySameTrace(t *testing.T) {
	dir := shortDir(t)
	want := filepath.Join(dir, "inproc.jsonl")
	code, stdout, stderr := runAgent(t, "run", "--seed", "7", "--max-steps", "40", "--trace", want)
	require.Equal(t, 0, code, "%s\n%s", stdout, stderr)
	wantBytes, err := os.ReadFile(want)
	require.NoError(t, err)
	require.NotEmpty(t, wantBytes)

	tokenFile := filepath.Join(dir, "token")
	require.NoError(t, os.WriteFile(tokenFile, []byte("s3cret-token\n"), 0o600))
	for _, tc := range []struct {
		name   string
		listen string
		extra  []string
	}{
		{"unix", "unix://" + filepath.Join(dir, "body.sock"), nil},
		{"tcp with a token", "tcp://" + freePort(t), []string{"--token-file", tokenFile}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := startAgent(t, 0, append([]string{"serve", "--body", "sim", "--seed", "7", "--listen", tc.listen}, tc.extra...)...)
			addr := waitServing(t, srv)
			assert.Equal(t, tc.listen, addr)
			if strings.HasPrefix(addr, "unix://") {
				fi, err := os.Stat(strings.TrimPrefix(addr, "unix://"))
				require.NoError(t, err)
				assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the socket is private")
			}
			got := filepath.Join(dir, tc.name+".jsonl")
			code, stdout, stderr := runAgent(t, append([]string{"run", "--body", addr, "--max-steps", "40", "--trace", got}, tc.extra...)...)
			require.Equal(t, 0, code, "%s\n%s", stdout, stderr)
			assert.Contains(t, stdout, "body "+addr+" (sim)")
			gotBytes, err := os.ReadFile(got)
			require.NoError(t, err)
			assert.Equal(t, string(wantBytes), string(gotBytes), "the remote run's trace is the in-process one")

			require.NoError(t, srv.cmd.Process.Signal(syscall.SIGTERM))
			code, _, _ = srv.wait(t)
			assert.Equal(t, 0, code, tail(srv.stderrText(), 2000))
			assert.NotContains(t, srv.stderrText(), "s3cret", "the token is never logged")
			if tc.extra != nil {
				assert.Contains(t, srv.stderrText(), "the token is weak", "a weak token on loopback is warned about")
			}
		})
	}
}

// TestRemoteBodyWrongToken: a run presenting no token or the wrong one is
// refused, and the message does not show the token.
func TestRemoteBodyWrongToken(t *testing.T) {
	dir := shortDir(t)
	tokenFile := filepath.Join(dir, "token")
	require.NoError(t, os.WriteFile(tokenFile, []byte("right-token"), 0o600))
	wrong := filepath.Join(dir, "wrong")
	require.NoError(t, os.WriteFile(wrong, []byte("wrong-token"), 0o600))
	srv := startAgent(t, 0, "serve", "--listen", "tcp://"+freePort(t), "--token-file", tokenFile)
	addr := waitServing(t, srv)
	code, stdout, stderr := runAgent(t, "run", "--body", addr, "--token-file", wrong)
	assert.Equal(t, 1, code, stdout)
	assert.Contains(t, stderr, "unauthorized")
	assert.NotContains(t, stderr+stdout, "right-token")
	assert.NotContains(t, stderr+stdout, "wrong-token")
	code, _, stderr = runAgent(t, "run", "--body", addr)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "needs a token")
}

func TestServeUsage(t *testing.T) {
	dir := shortDir(t)
	notSock := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(notSock, []byte("keep me"), 0o600))
	short, same := filepath.Join(dir, "short"), filepath.Join(dir, "same")
	require.NoError(t, os.WriteFile(short, []byte("s3cret-tok\n"), 0o600))
	require.NoError(t, os.WriteFile(same, []byte("abababababababababababab\n"), 0o600))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve"}, "--listen ADDR is required"},
		{[]string{"serve", "--listen", "http://x"}, "unknown scheme"},
		{[]string{"serve", "--listen", "tcp://0.0.0.0:0"}, "not a loopback address"},
		{[]string{"serve", "--listen", "tcp://0.0.0.0:0", "--token-file", short}, "the token is 10 characters; at least 16 are needed (e.g. 32 random hex digits); --listen tcp://0.0.0.0:0 is reachable from other hosts"},
		{[]string{"serve", "--listen", "tcp://0.0.0.0:0", "--token-file", same}, "the token has 2 different characters; at least 8"},
		{[]string{"serve", "--listen", "unix://" + notSock}, "not a socket"},
		{[]string{"serve", "--body", "sin", "--listen", "tcp://127.0.0.1:0"}, `did you mean "sim"`},
		{[]string{"run", "--body", "unix:///x", "--seed", "3"}, "give them to agent serve"},
		{[]string{"run", "--token-file", "x"}, "--token-file needs --body"},
		{[]string{"serve", "--listen", "stdio", "--token-file", "x"}, "--token-file is for sockets"},
		{[]string{"serve", "--listen", "stdio", "--max-message", "1000"}, "--max-message must be at least"},
		{[]string{"serve", "--listen", "stdio", "--max-conns", "0"}, "--max-conns must be at least 1, got 0"},
		{[]string{"serve", "--listen", "stdio", "--write-timeout", "0s"}, "--write-timeout must be positive, got 0s"},
		{[]string{"serve", "--protocol", "origin", "--listen", "tcp://127.0.0.1:0", "--max-conns", "4"}, "loopback TCP only"},
		{[]string{"serve", "--protocol", "orign", "--listen", "tcp://127.0.0.1:0"}, `did you mean "origin"`},
		{[]string{"serve", "--protocol", "origin", "--listen", "stdio"}, "loopback TCP only"},
		{[]string{"serve", "--protocol", "origin", "--listen", "tcp://127.0.0.1:0", "--token-file", "x"}, "loopback TCP only"},
		{[]string{"serve", "--protocol", "origin", "--listen", "unix://" + filepath.Join(dir, "o.sock")}, "loopback"},
		{[]string{"serve", "--protocol", "origin", "--listen", "tcp://0.0.0.0:0"}, "loopback"},
		{[]string{"serve", "--protocol", "origin", "--listen", "tcp://127.0.0.1:0", "--idle-timeout", "-1s"}, "--idle-timeout must be 0"},
		{[]string{"serve", "--listen", "tcp://127.0.0.1:0", "--idle-timeout", "1m"}, "--idle-timeout is for --protocol origin"},
	} {
		code, _, stderr := runAgent(t, tc.args...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.want, tc.args)
		assert.NotContains(t, stderr, "s3cret", "the token is never shown")
		assert.NotContains(t, stderr, "ababab", "the token is never shown")
	}
	data, err := os.ReadFile(notSock)
	require.NoError(t, err)
	assert.Equal(t, "keep me", string(data), "a file that is not a socket is left alone")
}

// TestServeAGTNHBody: agent serve --body server puts the live client
// behind the socket; agent run --body plays on the scripted GTNH server
// through it, with the world's chunks mirrored over the protocol.
func TestServeAGTNHBody(t *testing.T) {
	t.Parallel()                       // mostly waiting on a child process or a timer: overlap it with the others
	const tick = 50 * time.Millisecond // the game's: the agent is a child process, outside any synctest bubble
	gs, err := fakeserver.New(fakeserver.Options{Registry: fakeserver.RegistryMultipart, TickDuration: tick})
	require.NoError(t, err)
	defer gs.Close()
	dir := shortDir(t)
	srv := startAgent(t, 0, "serve", "--body", "server", "--server", gs.Addr(), "--username", "Bot",
		"--config-file", agentYAML(t, tick), "--listen", "unix://"+filepath.Join(dir, "gtnh.sock"))
	addr := waitServing(t, srv)
	trace := filepath.Join(dir, "trace.jsonl")
	code, out, errOut := runAgent(t, "run", "--body", addr, "--goal", "collect 4 minecraft:log", "--trace", trace, "--max-steps", "10")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s\nserve:\n%s", out, errOut, tail(srv.stderrText(), 3000))
	assert.Contains(t, out, "body "+addr+" (gtnh)")
	assert.Contains(t, out, "goal met")
	accepted := 0
	for _, d := range gs.Digs() {
		if d.Accepted {
			accepted++
		}
	}
	assert.GreaterOrEqual(t, accepted, 4, "the server broke at least four logs for the bot")
	assert.Empty(t, gs.Kicks())
	require.NoError(t, srv.cmd.Process.Signal(syscall.SIGTERM))
	code, _, _ = srv.wait(t)
	assert.Equal(t, 0, code, tail(srv.stderrText(), 2000))
}

// childConn is a child's stdout and stdin as one connection.
type childConn struct {
	io.ReadCloser
	in io.WriteCloser
}

func (c childConn) Write(p []byte) (int, error) { return c.in.Write(p) }
func (c childConn) Close() error {
	c.in.Close()
	return c.ReadCloser.Close()
}

// TestServeStdio: agent serve --listen stdio speaks the protocol on its
// standard input and output, for a parent process; the end of its input
// ends it.
func TestServeStdio(t *testing.T) {
	cmd := exec.Command(agentBinary(t), "serve", "--body", "sim", "--seed", "7", "--listen", "stdio")
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() })
	ctx, cancel := testdeadline.WithCancel(t, "agent serve over stdio")
	defer cancel()
	c, err := remote.NewClient(ctx, childConn{ReadCloser: out, in: in}, remote.ClientOptions{})
	require.NoError(t, err)
	snap, err := c.Observe(ctx)
	require.NoError(t, err)
	assert.Equal(t, "Bot", snap.Player.Name)
	assert.NotEmpty(t, snap.NearestBlocks(32, 1, "log"), "the blocks came too")
	res, err := c.Execute(ctx, action.Wait{Ticks: 5})
	require.NoError(t, err)
	assert.Equal(t, ipc.OK, res.Code)
	in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		assert.NoError(t, err, stderr.String())
	case <-testdeadline.After(t):
		t.Fatal("agent serve did not end with its input")
	}
	assert.Contains(t, stderr.String(), "serving the simulated world")
}

// TestServeOriginProtocol: agent serve --protocol origin puts the simulated
// world behind the origin agent's line protocol: a client gets the world
// (time, position, chunks), walks with move_step and gets one
// action_result for it.
func TestServeOriginProtocol(t *testing.T) {
	srv := startAgent(t, 0, "serve", "--protocol", "origin", "--listen", "tcp://127.0.0.1:0")
	addr := waitServing(t, srv)
	require.True(t, strings.HasPrefix(addr, "tcp://127.0.0.1:"), addr)
	conn, err := net.Dial("tcp", strings.TrimPrefix(addr, "tcp://"))
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	dec := json.NewDecoder(conn)
	seen := map[string]bool{}
	next := func() (string, map[string]any) {
		var m struct {
			Type    string         `json:"type"`
			Payload map[string]any `json:"payload"`
		}
		require.NoError(t, dec.Decode(&m))
		seen[m.Type] = true
		return m.Type, m.Payload
	}
	for !(seen["time_update"] && seen["position_update"] && seen["chunk_data"]) {
		next()
	}
	_, err = conn.Write([]byte(`{"type":"move_step","id":"w1","payload":{"x":27,"y":64,"z":32,"radius":1}}` + "\n"))
	require.NoError(t, err)
	var pos map[string]any
	for {
		typ, p := next()
		if typ == "position_update" {
			pos = p
		}
		if typ == "action_result" {
			assert.Equal(t, true, p["ok"], "%v", p)
			assert.Equal(t, "ok", p["code"], "%v", p)
			break
		}
		require.NotEqual(t, "error", typ, "%v", p)
	}
	require.NotNil(t, pos, "the walk moved the player")
	assert.InDelta(t, 27.5, pos["x"], 1.5, "%v", pos)
	require.NoError(t, srv.cmd.Process.Signal(os.Interrupt))
	code, _, _ := srv.wait(t)
	assert.Zero(t, code, "stderr:\n%s", tail(srv.stderrText(), 2000))
}

// TestServeOriginIdleTimeout: --idle-timeout reaches the adapter: a client
// that says nothing is told it was idle and disconnected.
func TestServeOriginIdleTimeout(t *testing.T) {
	srv := startAgent(t, 0, "serve", "--protocol", "origin", "--listen", "tcp://127.0.0.1:0", "--idle-timeout", "100ms")
	addr := waitServing(t, srv)
	conn, err := net.Dial("tcp", strings.TrimPrefix(addr, "tcp://"))
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	dec := json.NewDecoder(conn)
	var last struct {
		Type    string         `json:"type"`
		Payload map[string]any `json:"payload"`
	}
	for {
		var m struct {
			Type    string         `json:"type"`
			Payload map[string]any `json:"payload"`
		}
		if err := dec.Decode(&m); err != nil {
			require.ErrorIs(t, err, io.EOF, "the connection ends cleanly")
			break
		}
		last = m
	}
	assert.Equal(t, "error", last.Type)
	assert.Equal(t, "idle", last.Payload["code"], "%v", last.Payload)
	require.NoError(t, srv.cmd.Process.Signal(os.Interrupt))
	code, _, _ := srv.wait(t)
	assert.Zero(t, code, "stderr:\n%s", tail(srv.stderrText(), 2000))
}

func TestOriginIdle(t *testing.T) {
	assert.Negative(t, originIdle(0), "--idle-timeout 0 is never")
	assert.Equal(t, 90*time.Second, originIdle(90*time.Second))
}

// stuck is a body whose actions ignore cancellation until released.
type stuck struct {
	started, release chan struct{}
}

func (b stuck) Info() ipc.Info { return ipc.Info{Name: "stuck", Supports: action.Kinds()} }
func (b stuck) Observe(context.Context) (*world.Snapshot, error) {
	return &world.Snapshot{Inventory: world.NewInventory()}, nil
}
func (b stuck) Execute(context.Context, action.Action) ipc.Result {
	close(b.started)
	<-b.release
	return ipc.Result{Code: ipc.OK, Ticks: 1}
}

// pipeListener accepts the pipe ends it is handed.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}
func (l *pipeListener) Close() error   { l.once.Do(func() { close(l.done) }); return nil }
func (l *pipeListener) Addr() net.Addr { return &net.UnixAddr{Name: "pipe", Net: "unix"} }

// TestCloseWithin: a stopping serve waits for its connections at most its
// grace time, even for a body that does not honour cancellation.
func TestCloseWithin(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs syncbuf.Buffer
		e := &env{stdout: io.Discard, stderr: io.Discard, log: zerolog.New(&logs)}
		body := stuck{started: make(chan struct{}), release: make(chan struct{})}
		srv, err := remote.NewServer(remote.ServerOptions{Body: body, Poll: -1})
		require.NoError(t, err)
		l := &pipeListener{conns: make(chan net.Conn, 1), done: make(chan struct{})}
		go srv.Serve(l)
		client, server := net.Pipe()
		l.conns <- server
		go io.Copy(io.Discard, client)
		_, err = client.Write([]byte(`{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"agent"}}` + "\n" +
			`{"v":1,"id":2,"type":"execute","payload":{"type":"wait","ticks":1}}` + "\n"))
		require.NoError(t, err)
		<-body.started
		start := time.Now()
		closeWithin(e, srv, shutdownGrace)
		assert.Equal(t, shutdownGrace, time.Since(start), "waited its grace, no more")
		assert.Contains(t, logs.String(), "connections did not end in time")
		close(body.release)
		client.Close()
	})
}
