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
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

const mcpUsage = `mcp [--scenario NAME|FILE] [--seed N] [--goal "..."] [--packs a,b] [--trace FILE] [--config DIR] [--skills-config FILE]
       mcp --server HOST:PORT --username NAME [--reconnect] [--config-file FILE] ...
       mcp --body ADDR [--token-file FILE] ...
       mcp --listen HOST:PORT [--token-file FILE] [--max-sessions N] ...
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

// mcpCmd serves the skills over MCP on stdin and stdout until the client
// disconnects, or over HTTP (--listen), until Ctrl-C or SIGTERM.
func mcpCmd(e *env, args []string) error {
	fs := newFlagSet(e, "mcp", mcpUsage)
	var cf configFlags
	var kf knowledgeFlags
	cf.register(fs)
	kf.register(fs)
	var bf bodyFlags
	bf.register(fs, reconnectUse, "token to present to --body")
	goalText := fs.String("goal", "", `goal that goal_status and observe report on, e.g. "collect 16 minecraft:log" (default: none)`)
	packList := fs.String("packs", "", "comma-separated skill packs to enable (default: every pack); a pack is active when the tier fits it")
	traceFile := fs.String("trace", "", "write one JSON line per invocation to FILE, as agent run's trace")
	listen := fs.String("listen", "", "serve over HTTP on HOST:PORT (at "+mcpserver.HTTPPath+") instead of stdin and stdout; loopback unless --token-file is given")
	maxSessions := fs.Int("max-sessions", mcpserver.DefaultMaxSessions, "--listen: most MCP sessions open at once")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("mcp: unexpected argument %q", pos[0])
	}
	acfg, err := bf.choose(e, fs)
	if err != nil {
		return err
	}
	if err := bf.checkRemote("mcp"); err != nil {
		return err
	}
	if *bf.tokenFile != "" && !bf.remote && *listen == "" {
		return usagef("mcp: --token-file needs --body or --listen")
	}
	hl, err := parseMCPListen(e, fs, *listen, *bf.tokenFile, *maxSessions)
	if err != nil {
		return err
	}
	if err := bf.checkLive("mcp"); err != nil {
		return err
	}
	if !bf.live && (bf.set["username"] || bf.set["reconnect"]) {
		return usagef("mcp: --username and --reconnect need --server")
	}

	// Everything named is checked before the server starts: a typo is exit 2
	// with a hint, not a client that cannot connect.
	cat, _, err := kf.catalog(e, &cf, registry.ActiveOnly)
	if err != nil {
		return err
	}
	reg := cat.Registry
	var packs []string // nil: every pack
	if *packList != "" {
		packs = splitList(*packList)
		for _, p := range packs {
			if _, ok := reg.Packs().Get(p); !ok {
				return unknownName("pack", p, reg.Packs().Names())
			}
		}
	}
	var sc *sim.Scenario
	names := rules.DefaultNames()
	if !bf.live && !bf.remote {
		if sc, err = loadScenario(*bf.scenario); err != nil {
			return configError(e, err)
		}
		names = sim.Names()
	}
	var goal loop.Goal
	if *goalText != "" {
		parser := loop.GoalParser{Tiers: reg.Tiers(), Names: newRunNames(reg, names, bf.live || bf.remote, e.log)}
		if goal, err = parser.Parse(*goalText); err != nil {
			return usagef("mcp: --goal: %v", err)
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	body, err := bf.open(ctx, e, acfg, sc)
	if err != nil {
		return err
	}
	defer body.close()
	ctx = body.ctx
	var what string
	switch {
	case body.remote != nil:
		what = fmt.Sprintf("the body at %s (%s)", *bf.addr, body.remote.Welcome().Name)
	case body.client != nil:
		what = fmt.Sprintf("server %s as %s", body.server.Address, body.server.Username)
	default:
		what = "the simulated world " + sc.Name
	}
	var trace io.Writer
	if *traceFile != "" {
		f, err := createTrace(*traceFile)
		if err != nil {
			return usagef("mcp: %v", err)
		}
		defer f.Close()
		trace = f
	}
	srv, err := mcpserver.New(ctx, mcpserver.Options{Catalog: cat, Conn: body.conn(), Goal: goal, Packs: packs, Trace: trace, Log: e.pkgLog()})
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	if hl != nil {
		ln, err := wire.Listen(hl.addr, wire.ListenOptions{Authenticated: hl.opts.Token != ""})
		if err != nil {
			return usagef("mcp: --listen: %v", err)
		}
		fmt.Fprintf(e.stdout, "serving the skills on %s over MCP at http://%s%s\n", what, ln.Addr(), mcpserver.HTTPPath)
		if err := srv.RunHTTP(ctx, ln, hl.opts); err != nil {
			return fmt.Errorf("mcp: %w", err)
		}
		return nil
	}
	fmt.Fprintf(e.stderr, "serving the skills on %s over MCP on stdin and stdout\n", what)
	err = srv.Run(ctx, &mcp.IOTransport{Reader: os.Stdin, Writer: nopWriteCloser{e.stdout}, MaxLineLength: maxMCPMessage})
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
