//go:build linux || darwin

package main

import (
	"bufio"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/syncbuf"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/mcpserver"
)

const httpTestToken = "f3a9c1d07b52e8846a1d9e0c5b7f2a63"

func writeToken(t *testing.T, token string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "token")
	require.NoError(t, os.WriteFile(file, []byte(token+"\n"), 0o600))
	return file
}

// TestMCPListenUsage: every --listen mistake is refused at start, before
// anything is loaded or a body opens, with exit 2 and what to do; above
// all a listen address other than loopback without a strong token.
func TestMCPListenUsage(t *testing.T) {
	weak := writeToken(t, "hunter2")
	same := writeToken(t, strings.Repeat("ab", 12))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--listen", "0.0.0.0:0"}, "--listen 0.0.0.0:0 is not a loopback address: give --token-file FILE"},
		{[]string{"mcp", "--listen", "192.0.2.7:8765"}, "is not a loopback address"},
		{[]string{"mcp", "--listen", "[::]:0"}, "is not a loopback address"},
		{[]string{"mcp", "--listen", "0.0.0.0:0", "--token-file", weak}, "the token is 7 characters; at least 16 are needed"},
		{[]string{"mcp", "--listen", "0.0.0.0:0", "--token-file", same}, "the token has 2 different characters"},
		{[]string{"mcp", "--listen", "127.0.0.1:0", "--token-file", weak}, "at least 16"},
		{[]string{"mcp", "--listen", "0.0.0.0:0", "--token-file", filepath.Join(t.TempDir(), "none")}, "--token-file"},
		{[]string{"mcp", "--listen", "unix:///tmp/x.sock"}, `--listen "unix:///tmp/x.sock": want HOST:PORT`},
		{[]string{"mcp", "--listen", "8765"}, "want HOST:PORT"},
		{[]string{"mcp", "--listen", "127.0.0.1:0", "--max-sessions", "0"}, "--max-sessions must be at least 1"},
		{[]string{"mcp", "--max-sessions", "3"}, "--max-sessions needs --listen"},
		{[]string{"mcp", "--token-file", weak}, "--token-file needs --body or --listen"},
	} {
		// A scenario that does not exist: were --listen not checked first,
		// the command would fail on it instead of serving for ever.
		args := append(tc.args, "--scenario", "no-such-scenario.yaml")
		code, _, errOut := runAgent(t, args...)
		assert.Equal(t, exitUsage, code, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.want, tc.args)
		assert.NotContains(t, errOut, "hunter2", "the token is never shown")
	}
}

// bearerRT adds a bearer token to every request.
type bearerRT struct{ token string }

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCPOverHTTP: agent mcp --listen on every interface with a token
// serves the SDK's client over the Streamable HTTP transport: the tools
// are listed and a skill runs on the simulated world; a request without
// the token is 401; SIGTERM ends the process with exit 0 while a session
// and its event stream are open.
func TestMCPOverHTTP(t *testing.T) {
	cmd := exec.Command(agentBinary(t), "mcp", "--listen", "0.0.0.0:0", "--token-file", writeToken(t, httpTestToken),
		"--goal", "collect 3 minecraft:log")
	stderr := &syncbuf.Buffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })

	banner := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		banner <- line
		io.Copy(io.Discard, stdout)
	}()
	var line string
	select {
	case line = <-banner:
	case <-testdeadline.After(t):
		t.Fatalf("no banner\nstderr:\n%s", stderr)
	}
	_, url, ok := strings.Cut(strings.TrimSpace(line), " at ")
	require.True(t, ok, "banner %q", line)
	require.True(t, strings.HasSuffix(url, mcpserver.HTTPPath), url)
	assert.Contains(t, line, "serving the skills on the simulated world forest_base over MCP at http://")
	// The server listens on every interface; the test reaches it on
	// loopback.
	u, err := neturl.Parse(url)
	require.NoError(t, err)
	url = "http://127.0.0.1:" + u.Port() + mcpserver.HTTPPath

	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)

	ctx, cancel := testdeadline.WithCancel(t, "the MCP session over HTTP")
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url,
		HTTPClient: &http.Client{Transport: bearerRT{httpTestToken}}, MaxRetries: -1}, nil)
	require.NoError(t, err, "stderr:\n%s", stderr)
	defer cs.Close()
	var tools []string
	for tool, err := range cs.Tools(ctx, nil) {
		require.NoError(t, err)
		tools = append(tools, tool.Name)
	}
	assert.Contains(t, tools, "skill_chop_tree")
	assert.Contains(t, tools, "invoke_skill")
	step := decodeResult[mcpserver.StepResult](t, callTool(t, cs, "skill_chop_tree", map[string]any{"min_logs": 3}))
	assert.Equal(t, "success", step.Verdict, step.Error)
	require.NotNil(t, step.Goal)
	assert.True(t, step.Goal.Met)

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-done:
		require.NoError(t, err, "stderr:\n%s", stderr)
	case <-testdeadline.After(t):
		t.Fatalf("agent mcp --listen did not end on SIGTERM\nstderr:\n%s", stderr)
	}
	assert.NotContains(t, stderr.String(), `"level":"error"`)
	assert.NotContains(t, stderr.String(), httpTestToken, "the token is never logged")
}
