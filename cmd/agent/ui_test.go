package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/view/web"
)

// viewState GETs the web view's /api/state (with a bearer token when
// given); a status other than 200 is returned with a zero state.
func viewState(t *testing.T, base, query, token string) (int, web.State) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+"api/state"+query, nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var st web.State
	if resp.StatusCode == http.StatusOK {
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	}
	return resp.StatusCode, st
}

// TestRunUI: agent run --ui serves the page and the run: once the loop has
// ended, the state holds every step, the outcome, the goal and the bot.
func TestRunUI(t *testing.T) {
	var stdout, stderr bytes.Buffer
	e := &env{stdout: &stdout, stderr: &stderr, log: newLogger(&stderr)}
	c := &runCommand{}
	var st web.State
	var page string
	c.played = func() {
		var code int
		code, st = viewState(t, c.uf.url, "", "")
		require.Equal(t, http.StatusOK, code)
		resp, err := http.Get(c.uf.url)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page = string(b)
	}
	err := execute(e, c, []string{"--ui", "127.0.0.1:0", "--json", "--goal", "have 8 minecraft:stick"})
	require.NoError(t, err, stderr.String())
	assert.Contains(t, stderr.String(), "web view at "+c.uf.url)
	var out loop.Outcome
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &out))
	require.True(t, out.GoalMet)
	assert.Contains(t, page, `<canvas id="map"`)
	assert.Equal(t, "live", st.Mode)
	assert.Len(t, st.Steps, out.Steps)
	assert.Equal(t, "goal_met (goal met)", st.Outcome)
	assert.Equal(t, "have 8 minecraft:stick", st.Goal)
	assert.Contains(t, st.Title, "scenario ")
	assert.True(t, st.Known)
	assert.NotEmpty(t, st.Inventory)
	assert.NotEmpty(t, st.Events, "digs and moves")
}

// TestRunUIToken: on an address other than loopback the view needs the
// token of --ui-token-file, which is never printed.
func TestRunUIToken(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "token")
	const token = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"
	require.NoError(t, os.WriteFile(tokenFile, []byte(token+"\n"), 0o600))
	var stdout, stderr bytes.Buffer
	e := &env{stdout: &stdout, stderr: &stderr, log: newLogger(&stderr)}
	c := &runCommand{}
	var without, with int
	c.played = func() {
		url := strings.Replace(c.uf.url, "0.0.0.0", "127.0.0.1", 1)
		url = strings.Replace(url, "[::]", "127.0.0.1", 1)
		without, _ = viewState(t, url, "", "")
		with, _ = viewState(t, url, "", token)
	}
	err := execute(e, c, []string{"--ui", "0.0.0.0:0", "--ui-token-file", tokenFile, "--json", "--goal", "have 4 minecraft:planks"})
	require.NoError(t, err, stderr.String())
	assert.Equal(t, http.StatusUnauthorized, without)
	assert.Equal(t, http.StatusOK, with)
	assert.NotContains(t, stderr.String(), token)
}

func TestUIUsageErrors(t *testing.T) {
	dir := t.TempDir()
	strong := filepath.Join(dir, "strong")
	require.NoError(t, os.WriteFile(strong, []byte("0123456789abcdef0123456789abcdef\n"), 0o600))
	rec := filepath.Join("..", "..", "gtnh", "record", "testdata", "session-neid.rec")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--ui", "0.0.0.0:8080"}, "run: --ui 0.0.0.0:8080 is not a loopback address: give --ui-token-file FILE (a random token of at least 16 characters) so that only browsers holding it are served"},
		{[]string{"run", "--ui-token-file", strong}, "run: --ui-token-file needs --ui"},
		{[]string{"run", "--ui", "nonsense"}, `run: --ui "nonsense": want HOST:PORT, e.g. 127.0.0.1:8080`},
		{[]string{"serve", "--listen", "tcp://127.0.0.1:0", "--ui", "0.0.0.0:8080"}, "serve: --ui 0.0.0.0:8080 is not a loopback address"},
		{[]string{"replay", rec, "--ui", "0.0.0.0:8080"}, "replay: --ui 0.0.0.0:8080 is not a loopback address"},
		{[]string{"replay", rec, "--ui", "127.0.0.1:0", "--ui-every", "0s"}, "replay: --ui-every 0s: want at least 1ms"},
	} {
		code, out, errOut := runAgent(t, c.args...)
		assert.Equal(t, exitUsage, code, "%v: %s", c.args, errOut)
		assert.Empty(t, out, "%v", c.args)
		assert.Contains(t, errOut, "agent: "+c.want, "%v", c.args)
	}
}

// TestReplayUI: agent replay FILE --ui serves the recording with its
// frames: the end (the default) is where the bot stood beside the tree
// with its logs, an earlier frame before it had them.
func TestReplayUI(t *testing.T) {
	rec := filepath.Join("..", "..", "gtnh", "record", "testdata", "session-neid.rec")
	var stdout, stderr bytes.Buffer
	e := &env{stdout: &stdout, stderr: &stderr, log: newLogger(&stderr)}
	c := &replayCommand{}
	var end, first web.State
	c.serving = func() {
		var code int
		code, end = viewState(t, c.uf.url, "", "")
		require.Equal(t, http.StatusOK, code)
		code, first = viewState(t, c.uf.url, "?frame=0", "")
		require.Equal(t, http.StatusOK, code)
		resp, err := http.Get(c.uf.url + "api/map?r=8")
		require.NoError(t, err)
		var g web.Grid
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&g))
		resp.Body.Close()
		known := 0
		for _, k := range g.K {
			if k >= 0 {
				known++
			}
		}
		assert.Equal(t, len(g.K), known, "the columns around the bot are known")
	}
	err := execute(e, c, []string{rec, "--ui", "127.0.0.1:0", "--ui-every", "10ms"})
	require.NoError(t, err, stderr.String())
	assert.Contains(t, stdout.String(), "recording ", "the summary is printed as without --ui")
	assert.Equal(t, "replay", end.Mode)
	require.NotNil(t, end.Replay)
	assert.Greater(t, end.Replay.Frames, 2)
	assert.Equal(t, end.Replay.Frames-1, end.Replay.Frame)
	assert.Contains(t, end.Title, "Bot")
	count := func(st web.State, id string) int {
		for _, it := range st.Inventory {
			if it.ID == id {
				return it.Count
			}
		}
		return 0
	}
	assert.Equal(t, 2, count(end, "minecraft:log"))
	assert.Less(t, count(first, "minecraft:log"), 2)
	assert.Less(t, first.Replay.AtMS, end.Replay.AtMS, "the first frame is earlier")
}

var viewURLRE = regexp.MustCompile(`web view at (http://\S+)`)

// TestServeUIShowsAClientsActions: agent serve --ui shows the world of the
// served body and the actions a client has it execute.
func TestServeUIShowsAClientsActions(t *testing.T) {
	t.Parallel()
	dir := shortDir(t)
	srv := startAgent(t, 0, "serve", "--body", "sim", "--listen", "unix://"+filepath.Join(dir, "gtnh.sock"), "--ui", "127.0.0.1:0")
	addr := waitServing(t, srv)
	m := srv.waitStderr(t, viewURLRE)
	code, out, errOut := runAgent(t, "run", "--body", addr, "--goal", "collect 4 minecraft:log", "--max-steps", "10")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	status, st := viewState(t, m[1], "", "")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, st.Title, "agent serve")
	assert.True(t, st.Known)
	kinds := map[string]int{}
	for _, ev := range st.Events {
		if ev.Code == "ok" {
			kinds[ev.Kind]++
		}
	}
	assert.Positive(t, kinds[web.EventDig], "the logs dug: %v", st.Events)
	assert.Positive(t, kinds[web.EventMove], "the moves: %v", st.Events)
	assert.Empty(t, st.Steps, "a served body runs no loop")
}
