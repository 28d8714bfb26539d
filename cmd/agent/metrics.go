package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/metrics"
)

// httpFlags are an HTTP door of the agent given on the command line:
// --NAME HOST:PORT and --NAME-token-file FILE, the token a client on an
// address other than loopback must present. --metrics and --ui are two.
type httpFlags struct {
	name    string // the flag: "metrics", "ui"
	example string // an address for the usage error
	who     string // who presents the token: "scrapers", "browsers"

	listen, tokenFile string

	// Set by check.
	addr  wire.Addr
	token string
	// url is where the door is served, once it listens.
	url string
}

// metricsFlags are --metrics and --metrics-token-file, for agent run and
// agent serve: where to answer Prometheus scrapes, and the token a scraper
// on an address other than loopback must present.
type metricsFlags struct{ httpFlags }

func (m *metricsFlags) register(fs *flag.FlagSet, tokenHelp string) {
	m.httpFlags = httpFlags{name: "metrics", example: "127.0.0.1:9464", who: "scrapers"}
	fs.StringVar(&m.listen, "metrics", "", "serve Prometheus metrics at http://HOST:PORT"+metrics.Path+" (docs/metrics.md); loopback unless a token is given")
	fs.StringVar(&m.tokenFile, "metrics-token-file", "", tokenHelp)
}

// check parses the address and reads its token file, before anything
// starts. An address other than loopback needs a strong token
// (authguard.CheckToken): from --NAME-token-file, or fallback (agent
// serve's --token-file, read from fallbackFile) when that is not given; a
// weak fallback token passes on loopback, where agent serve only warns.
func (m *httpFlags) check(e *env, cmd string, fallback, fallbackFile string) error {
	flagName, tokenFlag := "--"+m.name, "--"+m.name+"-token-file"
	if m.listen == "" {
		if m.tokenFile != "" {
			return usagef("%s: %s needs %s", cmd, tokenFlag, flagName)
		}
		return nil
	}
	spec := m.listen
	if !strings.Contains(spec, "://") {
		spec = "tcp://" + spec
	}
	addr, err := wire.ParseAddr(spec)
	if err != nil || addr.Network != "tcp" {
		return usagef("%s: %s %q: want HOST:PORT, e.g. %s", cmd, flagName, m.listen, m.example)
	}
	m.addr = addr
	from := tokenFlag
	switch {
	case m.tokenFile != "":
		if m.token, err = readToken(m.tokenFile); err != nil {
			return usagef("%s: %s: %v", cmd, tokenFlag, err)
		}
		if fi, err := os.Stat(m.tokenFile); err == nil && fi.Mode().Perm()&0o077 != 0 {
			e.log.Warn().Str("file", m.tokenFile).Str("mode", fi.Mode().Perm().String()).Msg("the token file is readable by other users; chmod 600 it")
		}
	case fallback != "":
		m.token, from = fallback, "--token-file"
	}
	if m.token == "" {
		if !addr.IsLoopback() {
			return usagef("%s: %s %s is not a loopback address: give %s FILE (a random token of at least %d characters) so that only %s holding it are served", cmd, flagName, m.listen, tokenFlag, authguard.MinTokenLen, m.who)
		}
		return nil
	}
	if err := authguard.CheckToken(m.token); err != nil {
		if from == "--token-file" {
			if addr.IsLoopback() {
				return nil // agent serve warned about it already
			}
			return usagef("%s: --token-file %s: %v; %s %s is reachable from other hosts (or give %s)", cmd, fallbackFile, err, flagName, m.listen, tokenFlag)
		}
		return usagef("%s: %s %s: %v", cmd, tokenFlag, m.tokenFile, err)
	}
	return nil
}

// serveOn listens on the address and runs serve until ctx ends; the
// returned stop ends it and waits. It prints where the door is, url, on
// standard error (standard output may carry JSON or a protocol).
func (m *httpFlags) serveOn(ctx context.Context, e *env, cmd, what, path string, serve func(context.Context, net.Listener) error) (stop func(), err error) {
	ln, err := wire.Listen(m.addr, wire.ListenOptions{Authenticated: m.token != ""})
	if err != nil {
		return nil, usagef("%s: --%s: %v", cmd, m.name, err)
	}
	m.url = "http://" + ln.Addr().String() + path
	fmt.Fprintf(e.stderr, "%s at %s\n", what, m.url)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := serve(ctx, ln); err != nil {
			e.log.Warn().Err(err).Msg(what + ": serving ended")
		}
	}()
	return func() {
		cancel()
		<-done
	}, nil
}

// liveConnection reads the client's counters for the metrics.
func liveConnection(c *gtnh.Client) func() metrics.Connection {
	return func() metrics.Connection {
		st := c.Stats()
		return metrics.Connection{PacketsIn: st.PacketsIn, PacketsOut: st.PacketsOut, Malformed: st.Malformed, Reconnects: st.Reconnects}
	}
}

// start listens on --metrics and serves rec until ctx ends; the returned
// stop ends the serving and waits for it.
func (m *metricsFlags) start(ctx context.Context, e *env, cmd string, rec *metrics.Recorder) (stop func(), err error) {
	return m.serveOn(ctx, e, cmd, "metrics", metrics.Path, func(ctx context.Context, ln net.Listener) error {
		return rec.Serve(ctx, ln, metrics.ServeOptions{Token: m.token, Log: e.component("metrics")})
	})
}
