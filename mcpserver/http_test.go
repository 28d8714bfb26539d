package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/mcpserver"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

const testToken = "0123456789abcdef0123456789abcdef"

// httpServer builds a server on the default simulated world.
func httpServer(t *testing.T) *mcpserver.Server {
	t.Helper()
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	srv, err := mcpserver.New(context.Background(), mcpserver.Options{Catalog: shippedCatalog(t), Conn: ipc.InProcess(w), Log: zerolog.Nop(), Version: "test"})
	require.NoError(t, err)
	return srv
}

// bearer adds the token to every request of a client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// httpClient connects the SDK's client over the streamable transport.
func httpClient(t *testing.T, url, token string) (*mcp.ClientSession, error) {
	t.Helper()
	ctx, cancel := testdeadline.WithCancel(t, "the connection to "+url)
	defer cancel()
	hc := &http.Client{Transport: bearer{token, http.DefaultTransport}}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	return client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}, nil)
}

func callHTTP(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := testdeadline.WithCancel(t, "the call of "+name)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	return res
}

// TestHTTPSession: the SDK's client lists the tools and runs a skill on the
// simulated world over HTTP with the token, and the 64 KiB argument bound
// holds there as on standard input.
func TestHTTPSession(t *testing.T) {
	srv := httpServer(t)
	ts := httptest.NewServer(srv.HTTPHandler(mcpserver.HTTPOptions{Token: testToken}))
	defer ts.Close()
	cs, err := httpClient(t, ts.URL+mcpserver.HTTPPath, testToken)
	require.NoError(t, err)
	defer cs.Close()

	ctx, cancel := testdeadline.WithCancel(t, "the tools list")
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	assert.Contains(t, names, "invoke_skill")
	assert.Contains(t, names, "skill_chop_tree")

	step := structured[mcpserver.StepResult](t, callHTTP(t, cs, "invoke_skill", map[string]any{"skill": "chop_tree", "params": map[string]any{"min_logs": 3}}))
	assert.Equal(t, "success", step.Verdict, step.Error)
	assert.GreaterOrEqual(t, step.InventoryDelta["minecraft:log"], 3)

	res := callHTTP(t, cs, "invoke_skill", map[string]any{"skill": "chop_tree", "params": map[string]any{"radius": strings.Repeat("a", 70_000)}})
	require.True(t, res.IsError)
	assert.Contains(t, textOf(res), "at most 65536")
}

// post sends one JSON-RPC message as a new session's first request.
func post(t *testing.T, url, auth, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	require.NoError(t, err)
	return resp, string(b)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestHTTPTokenRequired: a missing, wrong or malformed bearer token is 401
// with no detail; the SDK's client without the token cannot connect.
func TestHTTPTokenRequired(t *testing.T) {
	srv := httpServer(t)
	ts := httptest.NewServer(srv.HTTPHandler(mcpserver.HTTPOptions{Token: testToken}))
	defer ts.Close()
	url := ts.URL + mcpserver.HTTPPath
	// Four guesses: the fifth wrong one from an address would use up its
	// allowance (TestAuthFailuresAreSlowed).
	for _, auth := range []string{"", "Bearer " + testToken + "x", "Bearer " + testToken[:len(testToken)-1], "Basic " + testToken} {
		resp, body := post(t, url, auth, initialize)
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "auth %q", auth)
		assert.Equal(t, "Unauthorized\n", body, "no detail")
		assert.Equal(t, "Bearer", resp.Header.Get("WWW-Authenticate"))
	}
	resp, body := post(t, url, "Bearer "+testToken, initialize)
	assert.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Contains(t, body, "gtnh-agent")

	_, err := httpClient(t, url, "not-the-token-at-all-0123456789")
	require.Error(t, err)
}

// TestHTTPBodyLimit: a request body past MaxBody is 413 and never reaches
// the server; one within it is served.
func TestHTTPBodyLimit(t *testing.T) {
	srv := httpServer(t)
	const limit = 4096
	ts := httptest.NewServer(srv.HTTPHandler(mcpserver.HTTPOptions{MaxBody: limit}))
	defer ts.Close()
	url := ts.URL + mcpserver.HTTPPath
	pad := func(n int) string {
		// A valid initialize of exactly n bytes: the padding is in the
		// client's name.
		base := strings.Replace(initialize, `"name":"t"`, `"name":""`, 1)
		return strings.Replace(base, `"name":""`, `"name":"`+strings.Repeat("x", n-len(base))+`"`, 1)
	}
	require.Len(t, pad(limit), limit)
	resp, body := post(t, url, "", pad(limit))
	assert.Equal(t, http.StatusOK, resp.StatusCode, body)
	resp, _ = post(t, url, "", pad(limit+1))
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)

	// The default is 1 MiB, the same as one message on standard input.
	ts2 := httptest.NewServer(srv.HTTPHandler(mcpserver.HTTPOptions{}))
	defer ts2.Close()
	resp, _ = post(t, ts2.URL+mcpserver.HTTPPath, "", pad(1<<20+1))
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	resp, body = post(t, ts2.URL+mcpserver.HTTPPath, "", pad(1<<20))
	assert.Equal(t, http.StatusOK, resp.StatusCode, body)
}

// TestHTTPSessionCap: past MaxSessions a new session is refused with 503
// and a reason; closing one makes room.
func TestHTTPSessionCap(t *testing.T) {
	srv := httpServer(t)
	ts := httptest.NewServer(srv.HTTPHandler(mcpserver.HTTPOptions{MaxSessions: 1}))
	defer ts.Close()
	url := ts.URL + mcpserver.HTTPPath
	first, err := httpClient(t, url, "")
	require.NoError(t, err)
	resp, body := post(t, url, "", initialize)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Contains(t, body, "too many MCP sessions open (at most 1)")
	require.NoError(t, first.Close())
	second, err := httpClient(t, url, "")
	require.NoError(t, err)
	require.NoError(t, second.Close())
}

// TestHTTPOtherPaths: only HTTPPath is served, and only to a loopback
// Host on a loopback address.
func TestHTTPOtherPaths(t *testing.T) {
	srv := httpServer(t)
	ts := httptest.NewServer(srv.HTTPHandler(mcpserver.HTTPOptions{}))
	defer ts.Close()
	resp, _ := post(t, ts.URL+"/", "", initialize)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)

	// A request reaching loopback must name a loopback host (DNS
	// rebinding).
	req, err := http.NewRequest(http.MethodPost, ts.URL+mcpserver.HTTPPath, strings.NewReader(initialize))
	require.NoError(t, err)
	req.Host = "evil.example:80"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
}

// TestRunHTTPStopsWithItsContext: RunHTTP serves a client on a real
// listener and returns once its context ends, event stream open or not.
func TestRunHTTPStopsWithItsContext(t *testing.T) {
	srv := httpServer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.RunHTTP(ctx, ln, mcpserver.HTTPOptions{Token: testToken}) }()
	cs, err := httpClient(t, "http://"+ln.Addr().String()+mcpserver.HTTPPath, testToken)
	require.NoError(t, err)
	res := callHTTP(t, cs, "observe", nil)
	require.False(t, res.IsError, textOf(res))
	var obs mcpserver.Observation
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &obs))
	assert.Equal(t, "steam_age", obs.Tier)
	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-testdeadline.After(t):
		t.Fatal("RunHTTP did not return after its context ended")
	}
	cs.Close()
}
