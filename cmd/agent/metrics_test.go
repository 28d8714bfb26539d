package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// scrapeMetrics GETs url with the token (none when empty) and parses the
// text format; a status other than 200 is returned with no families.
func scrapeMetrics(t *testing.T, url, token string) (int, map[string]*dto.MetricFamily) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, fams
}

// byLabels sums a counter family by the values of two labels, "a/b".
func byLabels(fams map[string]*dto.MetricFamily, name, a, b string) map[string]float64 {
	out := map[string]float64{}
	for _, m := range fams[name].GetMetric() {
		vals := map[string]string{}
		for _, lp := range m.GetLabel() {
			vals[lp.GetName()] = lp.GetValue()
		}
		out[vals[a]+"/"+vals[b]] += m.GetCounter().GetValue()
	}
	return out
}

// traceLine is what the test reads of a --trace line.
type traceLine struct {
	Verdict    string `json:"verdict"`
	Invocation *struct {
		Skill string `json:"skill"`
	} `json:"invocation"`
	Actions []struct {
		Type string `json:"type"`
	} `json:"actions"`
	Results []struct {
		Code string `json:"code"`
	} `json:"results"`
}

// TestRunMetrics: agent run --metrics serves the run's steps and actions;
// scraped once the loop has ended, they match the outcome and the trace.
func TestRunMetrics(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	var stdout, stderr bytes.Buffer
	e := &env{stdout: &stdout, stderr: &stderr, log: newLogger(&stderr)}
	c := &runCommand{}
	var fams map[string]*dto.MetricFamily
	c.played = func() {
		var code int
		code, fams = scrapeMetrics(t, c.mf.url, "")
		require.Equal(t, http.StatusOK, code)
	}
	err := execute(e, c, []string{"run", "--metrics", "127.0.0.1:0", "--json", "--trace", trace, "--goal", "have 8 minecraft:stick"}[1:])
	require.NoError(t, err, stderr.String())
	assert.Contains(t, stderr.String(), "metrics at "+c.mf.url)
	require.NotNil(t, fams)

	var out loop.Outcome
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &out))
	require.True(t, out.GoalMet)

	wantSteps, wantActions := map[string]float64{}, map[string]float64{}
	f, err := os.Open(trace)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var l traceLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
		skill := "none"
		if l.Invocation != nil {
			skill = l.Invocation.Skill
		}
		wantSteps[skill+"/"+l.Verdict]++
		for i, a := range l.Actions {
			wantActions[a.Type+"/"+l.Results[i].Code]++
		}
	}
	require.NoError(t, sc.Err())

	steps := byLabels(fams, "gtnh_agent_steps_total", "skill", "verdict")
	total := 0.0
	for _, n := range steps {
		total += n
	}
	assert.Equal(t, float64(out.Steps), total, "steps by skill and verdict sum to the run's steps")
	assert.Equal(t, wantSteps, steps)
	assert.Equal(t, wantActions, byLabels(fams, "gtnh_agent_actions_total", "kind", "code"))
	for name, s := range out.Skills {
		assert.Equal(t, float64(s.Successes), steps[name+"/success"], "successes of %s", name)
	}
	lat := fams["gtnh_agent_planner_latency_seconds"].GetMetric()
	require.Len(t, lat, 1)
	assert.GreaterOrEqual(t, lat[0].GetHistogram().GetSampleCount(), uint64(out.Steps), "the planner is timed at every step")
	assert.NotNil(t, fams["gtnh_agent_world_memory_bytes"], "the simulated world's memory")
	assert.NotNil(t, fams["go_goroutines"])
}

// TestRunMetricsToken: on an address other than loopback a scrape needs
// the token of --metrics-token-file.
func TestRunMetricsToken(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "token")
	const token = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"
	require.NoError(t, os.WriteFile(tokenFile, []byte(token+"\n"), 0o600))
	var stdout, stderr bytes.Buffer
	e := &env{stdout: &stdout, stderr: &stderr, log: newLogger(&stderr)}
	c := &runCommand{}
	var without, wrong, with int
	c.played = func() {
		url := strings.Replace(c.mf.url, "0.0.0.0", "127.0.0.1", 1)
		url = strings.Replace(url, "[::]", "127.0.0.1", 1)
		without, _ = scrapeMetrics(t, url, "")
		wrong, _ = scrapeMetrics(t, url, strings.ToUpper(token))
		with, _ = scrapeMetrics(t, url, token)
	}
	err := execute(e, c, []string{"--metrics", "0.0.0.0:0", "--metrics-token-file", tokenFile, "--json", "--goal", "have 4 minecraft:planks"})
	require.NoError(t, err, stderr.String())
	assert.Equal(t, http.StatusUnauthorized, without)
	assert.Equal(t, http.StatusUnauthorized, wrong)
	assert.Equal(t, http.StatusOK, with)
	assert.NotContains(t, stderr.String(), token, "the token is not logged")
}

func TestMetricsUsageErrors(t *testing.T) {
	dir := t.TempDir()
	weak := filepath.Join(dir, "weak")
	require.NoError(t, os.WriteFile(weak, []byte("abc\n"), 0o600))
	strong := filepath.Join(dir, "strong")
	require.NoError(t, os.WriteFile(strong, []byte("0123456789abcdef0123456789abcdef\n"), 0o600))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--metrics", "0.0.0.0:9464"}, "run: --metrics 0.0.0.0:9464 is not a loopback address: give --metrics-token-file FILE"},
		{[]string{"run", "--metrics", "192.0.2.1:9464", "--token-file", strong, "--body", "tcp://127.0.0.1:1"}, "run: --metrics 192.0.2.1:9464 is not a loopback address"},
		{[]string{"run", "--metrics-token-file", strong}, "run: --metrics-token-file needs --metrics"},
		{[]string{"run", "--metrics", "nonsense"}, `run: --metrics "nonsense": want HOST:PORT, e.g. 127.0.0.1:9464`},
		{[]string{"run", "--metrics", "unix:///tmp/m.sock"}, `run: --metrics "unix:///tmp/m.sock": want HOST:PORT`},
		{[]string{"run", "--metrics", "0.0.0.0:9464", "--metrics-token-file", weak}, "run: --metrics-token-file " + weak + ": the token is 3 characters"},
		{[]string{"run", "--metrics", "127.0.0.1:9464", "--metrics-token-file", filepath.Join(dir, "missing")}, "run: --metrics-token-file: open "},
		{[]string{"run", "--metrcs", "127.0.0.1:9464"}, `run: unknown flag --metrcs (did you mean "--metrics"?)`},
		{[]string{"serve", "--listen", "tcp://127.0.0.1:0", "--metrics", "0.0.0.0:9464"}, "serve: --metrics 0.0.0.0:9464 is not a loopback address"},
		{[]string{"serve", "--listen", "tcp://127.0.0.1:0", "--token-file", weak, "--metrics", "0.0.0.0:9464"}, "serve: --token-file " + weak + ": the token is 3 characters; at least 16 are needed (e.g. 32 random hex digits); --metrics 0.0.0.0:9464 is reachable from other hosts"},
		{[]string{"serve", "--listen", "tcp://127.0.0.1:0", "--metrics-token-fle", strong}, `serve: unknown flag --metrics-token-fle (did you mean "--metrics-token-file"?)`},
	} {
		code, out, errOut := runAgent(t, c.args...)
		assert.Equal(t, exitUsage, code, "%v: %s", c.args, errOut)
		assert.Empty(t, out, "%v", c.args)
		assert.Contains(t, errOut, "agent: "+c.want, "%v", c.args)
	}
}

// TestServeMetricsFallbackToken: agent serve --metrics with --token-file:
// the same token guards the metrics.
func TestServeMetricsFallbackToken(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	require.NoError(t, os.WriteFile(tokenFile, []byte("0123456789abcdef0123456789abcdef\n"), 0o600))
	c := &serveCommand{}
	e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, log: newLogger(&bytes.Buffer{})}
	require.NoError(t, c.parse(e, []string{"--listen", "tcp://127.0.0.1:0", "--token-file", tokenFile, "--metrics", "0.0.0.0:0"}))
	require.NoError(t, c.validate(e))
	assert.Equal(t, "0123456789abcdef0123456789abcdef", c.mf.token, "the serve token guards the metrics")

	c = &serveCommand{}
	require.NoError(t, c.parse(e, []string{"--listen", "tcp://127.0.0.1:0", "--metrics", "127.0.0.1:0"}))
	require.NoError(t, c.validate(e))
	assert.Empty(t, c.mf.token, "loopback needs no token")
}

var metricsURLRE = regexp.MustCompile(`metrics at (http://\S+)`)

// TestServeMetricsOnAServer: agent serve --metrics on a live connection
// counts the actions it executed for a client, the packets, the
// reconnects and the world model's memory.
func TestServeMetricsOnAServer(t *testing.T) {
	t.Parallel()                       // mostly waiting on a child process: overlap it with the others
	const tick = 50 * time.Millisecond // the game's: the agent is a child process, outside any synctest bubble
	gs, err := fakeserver.New(fakeserver.Options{Registry: fakeserver.RegistryMultipart, TickDuration: tick})
	require.NoError(t, err)
	defer gs.Close()
	dir := shortDir(t)
	srv := startAgent(t, 0, "serve", "--body", "server", "--server", gs.Addr(), "--username", "Bot",
		"--config-file", agentYAML(t, tick), "--listen", "unix://"+filepath.Join(dir, "gtnh.sock"), "--metrics", "127.0.0.1:0")
	addr := waitServing(t, srv)
	// The address is on standard error, read apart from the "serving" line
	// on standard output: wait for it there.
	m := srv.waitStderr(t, metricsURLRE)
	trace := filepath.Join(dir, "trace.jsonl")
	code, out, errOut := runAgent(t, "run", "--body", addr, "--goal", "collect 4 minecraft:log", "--trace", trace, "--max-steps", "10")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", out, errOut)

	want := map[string]float64{}
	data, err := os.ReadFile(trace)
	require.NoError(t, err)
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var l traceLine
		require.NoError(t, json.Unmarshal(line, &l))
		for i, a := range l.Actions {
			want[a.Type+"/"+l.Results[i].Code]++
		}
	}
	require.NotEmpty(t, want)
	status, fams := scrapeMetrics(t, m[1], "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, want, byLabels(fams, "gtnh_agent_actions_total", "kind", "code"), "the actions the client's steps executed")
	assert.Nil(t, fams["gtnh_agent_steps_total"], "serve runs no loop")
	packets := byLabels(fams, "gtnh_agent_packets_total", "direction", "")
	assert.Greater(t, packets["in/"], 10.0, "%v", packets)
	assert.Greater(t, packets["out/"], 10.0, "%v", packets)
	assert.Equal(t, 0.0, fams["gtnh_agent_reconnects_total"].GetMetric()[0].GetCounter().GetValue())
	assert.Greater(t, fams["gtnh_agent_world_memory_bytes"].GetMetric()[0].GetGauge().GetValue(), 0.0)
	require.NoError(t, srv.cmd.Process.Signal(syscall.SIGTERM))
	code, _, _ = srv.wait(t)
	assert.Equal(t, 0, code, tail(srv.stderrText(), 2000))
}
