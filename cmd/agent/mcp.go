package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gtnh-agent/gtnh-agent/ipc"
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
	scenarioFile := fs.String("scenario", "", "scenario YAML (default: the embedded forest_base)")
	seed := fs.Int64("seed", 0, "override the scenario's seed")
	goalText := fs.String("goal", "", `goal that goal_status and observe report on, e.g. "collect 16 minecraft:log" (default: none)`)
	packList := fs.String("packs", "", "comma-separated skill packs to enable (default: every pack); a pack is active when the tier fits it")
	traceFile := fs.String("trace", "", "write one JSON line per invocation to FILE, as agent run's trace")
	serverAddr := fs.String("server", "", "play on this GTNH server (host:port) instead of the simulated world")
	username := fs.String("username", "", "player name on the server")
	reconnect := fs.Bool("reconnect", false, "retry with backoff when the server is down or the connection drops")
	bodyAddr := fs.String("body", "", "drive the body served at ADDR (unix:///path or tcp://HOST:PORT, see agent serve)")
	tokenFile := fs.String("token-file", "", "token to present to --body")
	configFile := fs.String("config-file", "", "agent config file (default: "+defaultConfigFile+" when present)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("mcp: unexpected argument %q", pos[0])
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	acfg, err := loadAgentConfig(*configFile)
	if err != nil {
		return configError(e, err)
	}
	remoteBody := *bodyAddr != ""
	live := !remoteBody && (*serverAddr != "" || (acfg.Server.Address != "" && !set["scenario"] && !set["seed"]))
	switch {
	case remoteBody && (set["scenario"] || set["seed"] || set["server"] || set["reconnect"]):
		return usagef("mcp: --scenario, --seed, --server and --reconnect belong to the body; with --body give them to agent serve")
	case *tokenFile != "" && !remoteBody:
		return usagef("mcp: --token-file needs --body")
	case live && (set["scenario"] || set["seed"]):
		return usagef("mcp: --scenario and --seed are for the simulated world, not with --server")
	case !live && (set["username"] || set["reconnect"]):
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
	if !live && !remoteBody {
		if sc, err = loadScenario(*scenarioFile); err != nil {
			return configError(e, err)
		}
		names = sim.Names()
	}
	var goal loop.Goal
	if *goalText != "" {
		parser := loop.GoalParser{Tiers: reg.Tiers(), Names: newRunNames(reg, names, live || remoteBody, e.log)}
		if goal, err = parser.Parse(*goalText); err != nil {
			return usagef("mcp: --goal: %v", err)
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var (
		conn ipc.Conn
		what string
	)
	switch {
	case remoteBody:
		rc, err := dialBody(ctx, *bodyAddr, *tokenFile)
		if err != nil {
			if ctx.Err() != nil {
				return errInterrupted
			}
			return err
		}
		defer rc.Close()
		conn, what = rc, fmt.Sprintf("the body at %s (%s)", *bodyAddr, rc.Welcome().Name)
	case live:
		srv := acfg.Server
		if *serverAddr != "" {
			srv.Address = *serverAddr
		}
		if *username != "" {
			srv.Username = *username
		}
		if set["reconnect"] {
			srv.Reconnect.Enabled = *reconnect
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		client, err := openClient(ctx, e, srv, cancel)
		if err != nil {
			if ctx.Err() != nil {
				return errInterrupted
			}
			return err
		}
		defer client.Close()
		conn, what = ipc.InProcess(client), fmt.Sprintf("server %s as %s", srv.Address, srv.Username)
	default:
		w, err := sim.NewContext(ctx, sc, sim.Options{Seed: *seed})
		if err != nil {
			if ctx.Err() != nil {
				return errInterrupted
			}
			return configError(e, err)
		}
		conn, what = ipc.InProcess(w), "the simulated world "+sc.Name
	}
	var trace io.Writer
	if *traceFile != "" {
		f, err := os.Create(*traceFile)
		if err != nil {
			return usagef("mcp: %v", err)
		}
		defer f.Close()
		trace = f // unbuffered: one write per finished step, as agent run
	}
	srv, err := mcpserver.New(ctx, mcpserver.Options{Catalog: cat, Conn: conn, Goal: goal, Packs: packs, Trace: trace, Log: e.log})
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
