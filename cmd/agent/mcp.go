package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/mcpserver"
	"github.com/gtnh-agent/gtnh-agent/metrics"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

const mcpUsage = `mcp [--scenario NAME|FILE] [--survival] [--seed N] [--goal "..."] [--packs a,b] [--trace FILE] [--config DIR] [--skills-config FILE]
       mcp --server HOST:PORT --username NAME [--reconnect] [--config-file FILE] ...
       mcp --body ADDR [--token-file FILE] ...
       mcp --listen HOST:PORT [--token-file FILE] [--max-sessions N] ...
       mcp --metrics HOST:PORT [--metrics-token-file FILE] ...
Serves the skills to an MCP client (a desktop assistant, an IDE) with the
Model Context Protocol on standard input and output, or with --listen over
HTTP (the Streamable HTTP transport, at /mcp); see docs/mcp.md. The body is
chosen as for agent run: the simulated world by default. A --listen address
other than loopback needs --token-file: clients then send
"Authorization: Bearer TOKEN". With --body too, the same token is presented
to the body. Logs go to standard error.`

// maxMCPMessage bounds one message from the MCP client: tool arguments are
// a skill name and a few parameters.
const maxMCPMessage = 1 << 20

// mcpCommand is agent mcp: it serves the skills over MCP on stdin and
// stdout until the client disconnects, or over HTTP (--listen), until
// Ctrl-C or SIGTERM.
type mcpCommand struct {
	fs          *flag.FlagSet
	cf          configFlags
	kf          knowledgeFlags
	bf          bodyFlags
	goalText    string
	packList    string
	traceFile   string
	listen      string
	maxSessions int
	memoryFile  string
	mf          metricsFlags

	// Set by validate.
	acfg *agentConfig
	hl   *mcpListen // nil: stdin and stdout
}

var _ subcommand = (*mcpCommand)(nil)

func (c *mcpCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "mcp", mcpUsage)
	c.fs = fs
	c.cf.register(fs)
	c.kf.register(fs)
	c.bf.register(fs, reconnectUse, "token to present to --body")
	fs.StringVar(&c.goalText, "goal", "", `goal that goal_status and observe report on, e.g. "collect 16 minecraft:log" (default: none)`)
	fs.StringVar(&c.packList, "packs", "", "comma-separated skill packs to enable (default: every pack); a pack is active when the tier fits it")
	fs.StringVar(&c.traceFile, "trace", "", "write one JSON line per invocation to FILE, as agent run's trace")
	fs.StringVar(&c.listen, "listen", "", "serve over HTTP on HOST:PORT (at "+mcpserver.HTTPPath+") instead of stdin and stdout; loopback unless --token-file is given")
	fs.IntVar(&c.maxSessions, "max-sessions", mcpserver.DefaultMaxSessions, "--listen: most MCP sessions open at once")
	fs.StringVar(&c.memoryFile, "memory", "", memoryUse)
	c.mf.register(fs, "file holding the token a scraper of --metrics must present (default: the --token-file token with --listen; needed for an address other than loopback)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	return noArgs("mcp", pos)
}

// validate loads the agent config file, which chooses the body, and checks
// the flags of the body and of --listen.
func (c *mcpCommand) validate(e *env) error {
	var err error
	if c.acfg, err = c.bf.choose(e, c.fs); err != nil {
		return err
	}
	if err := c.bf.checkRemote("mcp"); err != nil {
		return err
	}
	if *c.bf.tokenFile != "" && !c.bf.remote && c.listen == "" {
		return usagef("mcp: --token-file needs --body or --listen")
	}
	if c.hl, err = parseMCPListen(e, c.fs, c.listen, *c.bf.tokenFile, c.maxSessions); err != nil {
		return err
	}
	if err := c.bf.checkLive("mcp"); err != nil {
		return err
	}
	var token string
	if c.hl != nil {
		token = c.hl.opts.Token
	}
	if err := c.mf.check(e, "mcp", token, *c.bf.tokenFile); err != nil {
		return err
	}
	if !c.bf.live && (c.bf.set["username"] || c.bf.set["reconnect"]) {
		return usagef("mcp: --username and --reconnect need --server")
	}
	return nil
}

func (c *mcpCommand) run(e *env) error {
	p, err := c.prepare(e)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	body, err := c.bf.open(ctx, e, c.acfg, p.sc)
	if err != nil {
		return err
	}
	defer body.close()
	ctx = body.ctx
	var trace io.Writer
	if c.traceFile != "" {
		f, err := createTrace(c.traceFile)
		if err != nil {
			return usagef("mcp: %v", err)
		}
		defer f.Close()
		trace = f
	}
	conn, closeMem, err := rememberOn(e, "mcp", c.memoryFile, &c.bf, p.sc, body, body.conn())
	if err != nil {
		return err
	}
	defer closeMem()
	onStep, stopMetrics, err := c.serveMetrics(ctx, e, p, body)
	if err != nil {
		return err
	}
	defer stopMetrics()
	srv, err := mcpserver.New(ctx, mcpserver.Options{Catalog: p.cat, Conn: conn, Goal: p.goal, Packs: p.packs, Trace: trace,
		OnStep: onStep, Log: e.pkgLog()})
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	what := c.what(body, p.sc)
	if c.hl != nil {
		return c.serveHTTP(ctx, e, srv, what)
	}
	return c.serveStdio(ctx, e, srv, what)
}

// serveMetrics serves at --metrics the steps the client's invocations run,
// with the connection's and the world model's figures; onStep counts a
// step (nil without --metrics).
func (c *mcpCommand) serveMetrics(ctx context.Context, e *env, p *mcpPlan, body *openedBody) (onStep func(loop.StepRecord), stop func(), err error) {
	if c.mf.listen == "" {
		return nil, func() {}, nil
	}
	opts := metrics.Options{Skills: p.cat.Registry.Names()}
	switch {
	case body.client != nil:
		opts.Conn, opts.World = liveConnection(body.client), body.client
	case body.world != nil:
		opts.World = body.world
	}
	rec := metrics.New(opts)
	if stop, err = c.mf.start(ctx, e, "mcp", rec); err != nil {
		return nil, nil, err
	}
	return rec.OnStep, stop, nil
}

// mcpPlan is what the server is checked against before it starts.
type mcpPlan struct {
	cat   *catalog.Catalog
	packs []string      // nil: every pack
	sc    *sim.Scenario // nil on a server or a served body
	goal  loop.Goal
}

// prepare checks everything named before the server starts: a typo is
// exit 2 with a hint, not a client that cannot connect.
func (c *mcpCommand) prepare(e *env) (*mcpPlan, error) {
	cat, _, err := c.kf.catalog(e, &c.cf, registry.ActiveOnly)
	if err != nil {
		return nil, err
	}
	p := &mcpPlan{cat: cat}
	reg := cat.Registry
	if c.packList != "" {
		p.packs = splitList(c.packList)
		for _, name := range p.packs {
			if _, ok := reg.Packs().Get(name); !ok {
				return nil, unknownName("pack", name, reg.Packs().Names())
			}
		}
	}
	names := rules.Default().Names
	if !c.bf.live && !c.bf.remote {
		if p.sc, err = c.bf.loadScenario(); err != nil {
			return nil, configError(e, err)
		}
		names = sim.Names()
	}
	if c.goalText != "" {
		parser := loop.GoalParser{Tiers: reg.Tiers(), Names: newRunNames(reg, names, c.bf.live || c.bf.remote, e.log)}
		if p.goal, err = parser.Parse(c.goalText); err != nil {
			return nil, usagef("mcp: --goal: %v", err)
		}
	}
	return p, nil
}

// what names the body for the banner.
func (c *mcpCommand) what(body *openedBody, sc *sim.Scenario) string {
	switch {
	case body.remote != nil:
		return fmt.Sprintf("the body at %s (%s)", *c.bf.addr, body.remote.Welcome().Name)
	case body.client != nil:
		return fmt.Sprintf("server %s as %s", body.server.Address, body.server.Username)
	}
	return "the simulated world " + sc.Name
}

// serveHTTP serves over HTTP on --listen until ctx ends.
func (c *mcpCommand) serveHTTP(ctx context.Context, e *env, srv *mcpserver.Server, what string) error {
	ln, err := wire.Listen(c.hl.addr, wire.ListenOptions{Authenticated: c.hl.opts.Token != ""})
	if err != nil {
		return usagef("mcp: --listen: %v", err)
	}
	fmt.Fprintf(e.stdout, "serving the skills on %s over MCP at http://%s%s\n", what, ln.Addr(), mcpserver.HTTPPath)
	if err := srv.RunHTTP(ctx, ln, c.hl.opts); err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}

// serveStdio serves one client on standard input and output until it
// disconnects or ctx ends.
func (c *mcpCommand) serveStdio(ctx context.Context, e *env, srv *mcpserver.Server, what string) error {
	fmt.Fprintf(e.stderr, "serving the skills on %s over MCP on stdin and stdout\n", what)
	err := srv.Run(ctx, &mcp.IOTransport{Reader: os.Stdin, Writer: nopWriteCloser{e.stdout}, MaxLineLength: maxMCPMessage})
	switch {
	case ctx.Err() != nil:
		return nil // Ctrl-C, SIGTERM or "stop" in chat: the normal end of a server
	case err != nil && !errors.Is(err, io.EOF):
		return fmt.Errorf("mcp: the connection to the client: %w", err)
	}
	return nil
}

// mcpListen is where and how agent mcp --listen serves.
type mcpListen struct {
	addr wire.Addr
	opts mcpserver.HTTPOptions
}

// parseMCPListen checks --listen and its token before anything starts (nil
// without --listen): the address is HOST:PORT (or tcp://HOST:PORT), and one
// other than loopback needs a token file holding a strong token
// (authguard.CheckToken), read as agent serve reads it.
func parseMCPListen(e *env, fs *flag.FlagSet, listen, tokenFile string, maxSessions int) (*mcpListen, error) {
	if listen == "" {
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "max-sessions" })
		if set {
			return nil, usagef("mcp: --max-sessions needs --listen")
		}
		return nil, nil
	}
	if maxSessions < 1 {
		return nil, usagef("mcp: --max-sessions must be at least 1, got %d", maxSessions)
	}
	spec := listen
	if !strings.Contains(spec, "://") {
		spec = "tcp://" + spec
	}
	addr, err := wire.ParseAddr(spec)
	if err != nil || addr.Network != "tcp" {
		return nil, usagef("mcp: --listen %q: want HOST:PORT, e.g. 127.0.0.1:8765", listen)
	}
	hl := &mcpListen{addr: addr, opts: mcpserver.HTTPOptions{MaxSessions: maxSessions}}
	if tokenFile != "" {
		if hl.opts.Token, err = readToken(tokenFile); err != nil {
			return nil, usagef("mcp: --token-file: %v", err)
		}
		if err := authguard.CheckToken(hl.opts.Token); err != nil {
			return nil, usagef("mcp: --token-file %s: %v", tokenFile, err)
		}
		if fi, err := os.Stat(tokenFile); err == nil && fi.Mode().Perm()&0o077 != 0 {
			e.log.Warn().Str("file", tokenFile).Str("mode", fi.Mode().Perm().String()).Msg("the token file is readable by other users; chmod 600 it")
		}
	} else if !addr.IsLoopback() {
		return nil, usagef("mcp: --listen %s is not a loopback address: give --token-file FILE (a random token of at least %d characters) so that only clients holding it are served", listen, authguard.MinTokenLen)
	}
	return hl, nil
}

// nopWriteCloser keeps standard output open when the session closes.
type nopWriteCloser struct{ io.Writer }

// Close implements io.Closer.
func (nopWriteCloser) Close() error { return nil }
