package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/origin"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/memory"
	"github.com/gtnh-agent/gtnh-agent/metrics"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/view/web"
)

const serveUsage = `serve --body sim [--scenario NAME|FILE] [--seed N] --listen ADDR [--token-file FILE]
       serve --body server --server HOST:PORT --username NAME --listen ADDR [--token-file FILE]
       serve ... --protocol origin --listen tcp://127.0.0.1:PORT
       serve ... --metrics HOST:PORT [--metrics-token-file FILE]
       serve ... --ui HOST:PORT [--ui-token-file FILE]
       serve ... --map-out FILE.png [--map-center X,Z] [--map-radius N] [--map-scale N] [--map-max-y Y]
ADDR is unix:///path/to/socket, tcp://127.0.0.1:PORT (loopback only unless
--token-file is given; every connection must then present the token), or
stdio: one connection on standard input and output, for a parent process.
--protocol origin speaks the line protocol of the Forge mod the Python GTNH
agent's bot core expects instead (loopback TCP only, no token).`

// minServeMessage keeps observe replies possible: the most a chunk column's
// sections take on the wire (16 sections of two-byte indices that do not
// compress) with room to spare.
const minServeMessage = 512 << 10

// serveCommand is agent serve: it exposes a body over the IPC wire
// protocol (or the origin protocol) until Ctrl-C or SIGTERM.
type serveCommand struct {
	fs           *flag.FlagSet
	cf           configFlags
	bodyName     string
	scenarioFile string
	seed         int64
	listen       string
	tokenFile    string
	maxMessage   int
	maxConns     int
	writeTimeout time.Duration
	serverAddr   string
	username     string
	configFile   string
	protocol     string
	idleTimeout  time.Duration
	memoryFile   string
	mf           metricsFlags
	uf           uiFlags
	mapOut       string
	mapF         mapFlags

	// Set by validate.
	set   map[string]bool // the flags the command line gave
	stdio bool            // --listen stdio
	addr  wire.Addr       // the socket, unless stdio
	token string
}

var _ subcommand = (*serveCommand)(nil)

func (c *serveCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "serve", serveUsage)
	c.fs = fs
	c.cf.register(fs)
	fs.StringVar(&c.bodyName, "body", "sim", "the body to expose: sim (the simulated world) or server (a GTNH server)")
	fs.StringVar(&c.scenarioFile, "scenario", "", "scenario for --body sim: an embedded one by name (forest_base, fresh_start, survival) or a YAML file (default: forest_base)")
	fs.Int64Var(&c.seed, "seed", 0, "override the scenario's seed")
	fs.StringVar(&c.listen, "listen", "", "address to listen on: unix:///path, tcp://127.0.0.1:PORT or stdio")
	fs.StringVar(&c.tokenFile, "token-file", "", "file holding the token every connection must present")
	fs.IntVar(&c.maxMessage, "max-message", wire.DefaultMaxMessage, "largest message in bytes, in and out")
	fs.IntVar(&c.maxConns, "max-conns", remote.DefaultMaxConns, "most connections open at once; past it one that has not said hello makes room, or the new one is refused")
	fs.DurationVar(&c.writeTimeout, "write-timeout", remote.DefaultWriteTimeout, "drop a client that does not read a message within this long")
	fs.StringVar(&c.serverAddr, "server", "", "GTNH server (host:port) for --body server")
	fs.StringVar(&c.username, "username", "", "player name for --body server")
	fs.StringVar(&c.configFile, "config-file", "", "agent config file for --body server (default: "+defaultConfigFile+" when present)")
	fs.StringVar(&c.memoryFile, "memory", "", "remember what the body sees in `FILE` and answer recall from it, or off (default: gtnh-agent/memory.db in the user's configuration directory for --body server, off for sim; docs/memory.md)")
	fs.StringVar(&c.protocol, "protocol", "ndjson", "wire protocol: ndjson (this agent's), or origin (the Python GTNH agent's Forge-mod protocol; loopback TCP only)")
	c.mf.register(fs, "file holding the token a scraper of --metrics must present (default: the --token-file token; needed for an address other than loopback)")
	c.uf.register(fs, "file holding the token a browser of --ui must present (default: the --token-file token; needed for an address other than loopback)")
	fs.StringVar(&c.mapOut, "map-out", "", "when serving ends, write the map of the body's world around the bot to `FILE` (a PNG; see agent map), with the digs, placements and last move its clients had it make")
	c.mapF.register(fs, "map-")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", origin.DefaultIdleTimeout, "--protocol origin: disconnect a client silent this long while none of its actions runs (0: never)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	return noArgs("serve", pos)
}

// validate checks the limits, the protocol and its flags, the address and
// the token file, and the flags of the body.
func (c *serveCommand) validate(e *env) error {
	c.set = map[string]bool{}
	c.fs.Visit(func(f *flag.Flag) { c.set[f.Name] = true })
	if err := c.checkLimits(); err != nil {
		return err
	}
	if err := c.checkProtocol(); err != nil {
		return err
	}
	if err := c.checkListen(e); err != nil {
		return err
	}
	if err := c.mf.check(e, "serve", c.token, c.tokenFile); err != nil {
		return err
	}
	if err := c.uf.check(e, "serve", c.token, c.tokenFile); err != nil {
		return err
	}
	if err := checkMapOut("serve", c.mapOut, c.set, &c.mapF); err != nil {
		return err
	}
	switch c.bodyName {
	case "sim":
		if c.set["server"] || c.set["username"] || c.set["config-file"] {
			return usagef("serve: --server, --username and --config-file are for --body server")
		}
	case "server":
		if c.set["scenario"] || c.set["seed"] {
			return usagef("serve: --scenario and --seed are for --body sim")
		}
	default:
		return usagef("serve: unknown body %q%s (sim or server)", c.bodyName, suggest.DidYouMean(c.bodyName, []string{"sim", "server"}))
	}
	return nil
}

// checkLimits checks --max-message, --max-conns, --write-timeout and that
// --listen is given.
func (c *serveCommand) checkLimits() error {
	if c.maxMessage < minServeMessage {
		return usagef("serve: --max-message must be at least %d bytes (a chunk column of blocks must fit)", minServeMessage)
	}
	if c.maxConns < 1 {
		return usagef("serve: --max-conns must be at least 1, got %d", c.maxConns)
	}
	if c.writeTimeout <= 0 {
		return usagef("serve: --write-timeout must be positive, got %s", c.writeTimeout)
	}
	if c.listen == "" {
		return usagef("serve: --listen ADDR is required (unix:///path, tcp://127.0.0.1:PORT or stdio)")
	}
	c.stdio = c.listen == "stdio"
	return nil
}

// checkProtocol checks --protocol and the flags only one protocol takes.
func (c *serveCommand) checkProtocol() error {
	switch c.protocol {
	case "ndjson":
	case "origin":
		if c.stdio || c.tokenFile != "" || c.set["max-message"] || c.set["max-conns"] || c.set["write-timeout"] {
			return usagef("serve: --protocol origin listens on loopback TCP only, with no --token-file, --max-message, --max-conns or --write-timeout")
		}
		if c.idleTimeout < 0 {
			return usagef("serve: --idle-timeout must be 0 (never) or more, got %v", c.idleTimeout)
		}
	default:
		return usagef("serve: unknown protocol %q%s (ndjson or origin)", c.protocol, suggest.DidYouMean(c.protocol, []string{"ndjson", "origin"}))
	}
	if c.set["idle-timeout"] && c.protocol != "origin" {
		return usagef("serve: --idle-timeout is for --protocol origin")
	}
	return nil
}

// checkListen parses --listen and reads --token-file: a warning when other
// users can read it; a weak token is refused on an address other hosts can
// reach and warned about on loopback.
func (c *serveCommand) checkListen(e *env) error {
	var err error
	if !c.stdio {
		if c.addr, err = wire.ParseAddr(c.listen); err != nil {
			return usagef("serve: --listen: %v", err)
		}
	} else if c.tokenFile != "" {
		return usagef("serve: --token-file is for sockets; on stdio the parent process owns the connection")
	}
	if c.tokenFile == "" {
		return nil
	}
	if c.token, err = readToken(c.tokenFile); err != nil {
		return usagef("serve: --token-file: %v", err)
	}
	if fi, err := os.Stat(c.tokenFile); err == nil && fi.Mode().Perm()&0o077 != 0 {
		e.log.Warn().Str("file", c.tokenFile).Str("mode", fi.Mode().Perm().String()).Msg("the token file is readable by other users; chmod 600 it")
	}
	if err := authguard.CheckToken(c.token); err != nil {
		// Other hosts can guess at a TCP address that is not loopback: a
		// weak token there is refused; a local one only warned about.
		if !c.addr.IsLoopback() {
			return usagef("serve: --token-file %s: %v; --listen %s is reachable from other hosts", c.tokenFile, err, c.listen)
		}
		e.log.Warn().Str("file", c.tokenFile).Msg("the token is weak (" + err.Error() + "); that is enough only while the server listens on loopback or a Unix socket")
	}
	return nil
}

func (c *serveCommand) run(e *env) error {
	reg, err := c.cf.load(e, registry.ActiveOnly)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	b, err := c.openBody(ctx, e)
	if err != nil {
		return err
	}
	defer b.close()
	if c.mapOut != "" {
		// Registered after b.close, so it runs before: the world is
		// observed once more when serving has ended.
		t := &mapTracker{}
		b.body = mapBody(b.body, t)
		defer func() {
			snap, err := b.raw.Observe(context.WithoutCancel(ctx))
			writeMapOut(e, "serve", c.mapOut, &c.mapF, snap, err, t, c.stdio)
		}()
	}
	if c.mf.listen != "" {
		stop, err := c.serveMetrics(b.ctx, e, b)
		if err != nil {
			return err
		}
		defer stop()
	}
	if c.uf.listen != "" {
		stop, err := c.serveView(b.ctx, e, b)
		if err != nil {
			return err
		}
		defer stop()
	}
	if c.protocol == "origin" {
		return c.serveOrigin(b.ctx, e, b)
	}
	srv, err := remote.NewServer(remote.ServerOptions{Body: b.body, Token: c.token, MaxMessage: c.maxMessage,
		MaxConns: c.maxConns, WriteTimeout: c.writeTimeout, Catalog: registryCatalog(reg), Log: e.pkgLog()})
	if err != nil {
		return err
	}
	if c.stdio {
		c.serveStdio(b.ctx, e, srv, b.what)
		return nil
	}
	return c.serveSocket(b.ctx, e, srv, b.what)
}

// serveMetrics serves at --metrics the actions the served body executes,
// with its connection's and world model's figures; b's body is replaced by
// the counted one.
func (c *serveCommand) serveMetrics(ctx context.Context, e *env, b *servedBody) (stop func(), err error) {
	var opts metrics.Options
	if client, ok := b.raw.(*gtnh.Client); ok {
		opts.Conn = liveConnection(client)
	}
	opts.World, _ = b.raw.(metrics.WorldSource)
	rec := metrics.New(opts)
	if stop, err = c.mf.start(ctx, e, "serve", rec); err != nil {
		return nil, err
	}
	b.body = rec.Body(b.body)
	return stop, nil
}

// serveView shows at --ui the served body's world and every action its
// clients have it execute; b's body is replaced by the watched one.
func (c *serveCommand) serveView(ctx context.Context, e *env, b *servedBody) (stop func(), err error) {
	opts := web.Options{Title: "agent serve: " + b.what}
	opts.World, _ = b.raw.(web.WorldSource)
	v := web.New(opts)
	if stop, err = c.uf.start(ctx, e, "serve", v); err != nil {
		return nil, err
	}
	b.body = v.Body(b.body)
	return stop, nil
}

// servedBody is the body a serve exposes.
type servedBody struct {
	ctx   context.Context // cancelled by Ctrl-C, SIGTERM or the operator's "stop"
	body  ipc.Body
	raw   ipc.Body // body before a wrapper (memory, metrics)
	what  string   // for the banner
	close func()
}

// openBody creates the simulated world or joins the server.
func (c *serveCommand) openBody(ctx context.Context, e *env) (*servedBody, error) {
	if c.bodyName == "sim" {
		sc, err := loadScenario(c.scenarioFile)
		if err != nil {
			return nil, configError(e, err)
		}
		w, err := sim.NewContext(ctx, sc, sim.Options{Seed: c.seed})
		if err != nil {
			if ctx.Err() != nil {
				return nil, errInterrupted
			}
			return nil, configError(e, err)
		}
		seed := sc.Seed
		if c.seed != 0 {
			seed = c.seed
		}
		return c.remember(e, &servedBody{ctx: ctx, body: w, raw: w, what: "the simulated world " + sc.Name, close: func() {}},
			false, fmt.Sprintf("sim/%s/%d", sc.Name, seed))
	}
	acfg, err := loadAgentConfig(c.configFile)
	if err != nil {
		return nil, configError(e, err)
	}
	srv := acfg.Server
	if c.serverAddr != "" {
		srv.Address = c.serverAddr
	}
	if c.username != "" {
		srv.Username = c.username
	}
	srv.fillAccountName()
	if srv.Address == "" {
		return nil, usagef("serve: --body server needs --server HOST:PORT (or server.address in the config file)")
	}
	runCtx, cancel := context.WithCancel(ctx)
	client, err := openClient(runCtx, e, srv, cancel)
	if err != nil {
		cancel()
		if ctx.Err() != nil {
			return nil, errInterrupted
		}
		return nil, err
	}
	return c.remember(e, &servedBody{ctx: runCtx, body: client, raw: client, what: "server " + srv.Address + " as " + srv.Username, close: func() {
		client.Close()
		cancel()
	}}, true, srv.Address)
}

// remember makes the served body record what it sees into the memory file
// and answer recall (--memory FILE; the default file for a server; none
// for the simulator or with --memory off).
func (c *serveCommand) remember(e *env, b *servedBody, live bool, server string) (*servedBody, error) {
	st, err := openMemory(e, "serve", c.memoryFile, live)
	if err != nil {
		b.close()
		return nil, err
	}
	if st == nil {
		return b, nil
	}
	b.body = memory.WrapBody(b.body, st, server, e.log)
	closeBody := b.close
	b.close = func() {
		closeBody()
		st.Close()
	}
	return b, nil
}

// serveOrigin serves the body with the origin protocol.
func (c *serveCommand) serveOrigin(ctx context.Context, e *env, b *servedBody) error {
	ln, err := origin.Listen(c.listen)
	if err != nil {
		return usagef("serve: %v", err)
	}
	fmt.Fprintf(e.stdout, "serving %s with the origin protocol on tcp://%s\n", b.what, ln.Addr())
	return origin.Serve(ctx, ln, b.body, origin.Options{Log: ptr(e.pkgLog()), IdleTimeout: originIdle(c.idleTimeout)})
}

// serveStdio serves one connection on standard input and output, until
// the end of standard input or ctx.
func (c *serveCommand) serveStdio(ctx context.Context, e *env, srv *remote.Server, what string) {
	// Standard output carries the protocol: the banner goes to standard
	// error, and the end of standard input ends the serve.
	fmt.Fprintf(e.stderr, "serving %s on stdin and stdout\n", what)
	done := make(chan struct{})
	go func() {
		srv.ServeConn(stdioConn{Reader: os.Stdin, Writer: e.stdout})
		close(done)
	}()
	select {
	case <-ctx.Done():
	case <-done:
	}
	closeWithin(e, srv, shutdownGrace)
}

// serveSocket listens on --listen and serves until ctx ends.
func (c *serveCommand) serveSocket(ctx context.Context, e *env, srv *remote.Server, what string) error {
	l, err := wire.Listen(c.addr, wire.ListenOptions{Authenticated: c.token != ""})
	if err != nil {
		srv.Close()
		return usagef("serve: %v", err)
	}
	fmt.Fprintf(e.stdout, "serving %s on %s\n", what, c.addr)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	closeWithin(e, srv, shutdownGrace)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// shutdownGrace is how long a stopping serve waits for its connections to
// end: requests are cancelled at once and the bodies stop within a slice of
// game time, so this is only reached by something stuck.
const shutdownGrace = 1500 * time.Millisecond

// closeWithin closes the server, waiting at most grace for its connections
// to end: Ctrl-C or SIGTERM ends the process in every state.
func closeWithin(e *env, srv *remote.Server, grace time.Duration) {
	closed := make(chan struct{})
	go func() {
		srv.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(grace):
		e.log.Warn().Dur("waited", grace).Msg("connections did not end in time; stopping anyway")
	}
}

// readToken reads a token file: its first line, without surrounding space.
// The error never shows the token.
func readToken(file string) (string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	tok := strings.TrimSpace(line)
	if tok == "" {
		return "", fmt.Errorf("%s holds no token", file)
	}
	return tok, nil
}

// registryCatalog answers catalog requests from the registry.
func registryCatalog(reg *registry.Registry) remote.CatalogFunc {
	return func(tech string, packs []string) (json.RawMessage, error) {
		if packs == nil {
			packs = reg.Packs().Names()
		}
		descs, err := reg.DescribeForTechState(tech, packs)
		if err != nil {
			return nil, err
		}
		return json.Marshal(descs)
	}
}

// stdioConn is the process's standard input and output as one connection.
type stdioConn struct {
	io.Reader
	io.Writer
}

// Close closes standard input, which ends a read in progress.
func (stdioConn) Close() error { return os.Stdin.Close() }

// originIdle maps --idle-timeout (0: never) to origin.Options.IdleTimeout
// (0: the default, negative: never).
func originIdle(flag time.Duration) time.Duration {
	if flag == 0 {
		return -1
	}
	return flag
}
