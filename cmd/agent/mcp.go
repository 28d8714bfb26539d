package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/mcpserver"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

const mcpUsage = `mcp [--scenario FILE] [--seed N] [--goal "..."] [--packs a,b] [--trace FILE] [--config DIR] [--skills-config FILE]
       mcp --server HOST:PORT --username NAME [--reconnect] [--config-file FILE] ...
       mcp --body ADDR [--token-file FILE] ...
Serves the skills to an MCP client (a desktop assistant, an IDE) with the
Model Context Protocol on standard input and output; see docs/mcp.md. The
body is chosen as for agent run: the simulated world by default. Logs go to
standard error.`

// maxMCPMessage bounds one message from the MCP client: tool arguments are
// a skill name and a few parameters.
const maxMCPMessage = 1 << 20

// mcpCmd serves the skills over MCP on stdin and stdout until the client
// disconnects, Ctrl-C or SIGTERM.
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
	if *bf.tokenFile != "" && !bf.remote {
		return usagef("mcp: --token-file needs --body")
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
	names := world.DefaultNames()
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

// nopWriteCloser keeps standard output open when the session closes.
type nopWriteCloser struct{ io.Writer }

// Close implements io.Closer.
func (nopWriteCloser) Close() error { return nil }
