package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/metrics"
)

// metricsFlags are --metrics and --metrics-token-file, for agent run and
// agent serve: where to answer Prometheus scrapes, and the token a scraper
// on an address other than loopback must present.
type metricsFlags struct {
	listen, tokenFile string

	// Set by check.
	addr  wire.Addr
	token string
	// url is where the metrics are served, once start listened.
	url string
}

func (m *metricsFlags) register(fs *flag.FlagSet, tokenHelp string) {
	fs.StringVar(&m.listen, "metrics", "", "serve Prometheus metrics at http://HOST:PORT"+metrics.Path+" (docs/metrics.md); loopback unless a token is given")
	fs.StringVar(&m.tokenFile, "metrics-token-file", "", tokenHelp)
}

// check parses --metrics and reads its token file, before anything
// starts. An address other than loopback needs a strong token
// (authguard.CheckToken): from --metrics-token-file, or fallback (agent
// serve's --token-file, read from fallbackFile) when that is not given; a
// weak fallback token passes on loopback, where agent serve only warns.
func (m *metricsFlags) check(e *env, cmd string, fallback, fallbackFile string) error {
	if m.listen == "" {
		if m.tokenFile != "" {
			return usagef("%s: --metrics-token-file needs --metrics", cmd)
		}
		return nil
	}
	spec := m.listen
	if !strings.Contains(spec, "://") {
		spec = "tcp://" + spec
	}
	addr, err := wire.ParseAddr(spec)
	if err != nil || addr.Network != "tcp" {
		return usagef("%s: --metrics %q: want HOST:PORT, e.g. 127.0.0.1:9464", cmd, m.listen)
	}
	m.addr = addr
	from := "--metrics-token-file"
	switch {
	case m.tokenFile != "":
		if m.token, err = readToken(m.tokenFile); err != nil {
			return usagef("%s: --metrics-token-file: %v", cmd, err)
		}
		if fi, err := os.Stat(m.tokenFile); err == nil && fi.Mode().Perm()&0o077 != 0 {
			e.log.Warn().Str("file", m.tokenFile).Str("mode", fi.Mode().Perm().String()).Msg("the token file is readable by other users; chmod 600 it")
		}
	case fallback != "":
		m.token, from = fallback, "--token-file"
	}
	if m.token == "" {
		if !addr.IsLoopback() {
			return usagef("%s: --metrics %s is not a loopback address: give --metrics-token-file FILE (a random token of at least %d characters) so that only scrapers holding it are served", cmd, m.listen, authguard.MinTokenLen)
		}
		return nil
	}
	if err := authguard.CheckToken(m.token); err != nil {
		if from == "--token-file" {
			if addr.IsLoopback() {
				return nil // agent serve warned about it already
			}
			return usagef("%s: --token-file %s: %v; --metrics %s is reachable from other hosts (or give --metrics-token-file)", cmd, fallbackFile, err, m.listen)
		}
		return usagef("%s: --metrics-token-file %s: %v", cmd, m.tokenFile, err)
	}
	return nil
}

// liveConnection reads the client's counters for the metrics.
func liveConnection(c *gtnh.Client) func() metrics.Connection {
	return func() metrics.Connection {
		st := c.Stats()
		return metrics.Connection{PacketsIn: st.PacketsIn, PacketsOut: st.PacketsOut, Malformed: st.Malformed, Reconnects: st.Reconnects}
	}
}

// start listens on --metrics and serves rec until ctx ends; the returned
// stop ends the serving and waits for it. It prints where the metrics are
// on standard error (standard output may carry JSON or a protocol).
func (m *metricsFlags) start(ctx context.Context, e *env, cmd string, rec *metrics.Recorder) (stop func(), err error) {
	ln, err := wire.Listen(m.addr, wire.ListenOptions{Authenticated: m.token != ""})
	if err != nil {
		return nil, usagef("%s: --metrics: %v", cmd, err)
	}
	m.url = "http://" + ln.Addr().String() + metrics.Path
	fmt.Fprintf(e.stderr, "metrics at %s\n", m.url)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := rec.Serve(ctx, ln, metrics.ServeOptions{Token: m.token, Log: e.component("metrics")}); err != nil {
			e.log.Warn().Err(err).Msg("metrics: serving ended")
		}
	}()
	return func() {
		cancel()
		<-done
	}, nil
}
