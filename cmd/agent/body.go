package main

import (
	"context"
	"flag"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

// reconnectUse is the help of --reconnect; a command may add to it.
const reconnectUse = "retry with backoff when the server is down or the connection drops"

// bodyFlags choose the body a command drives, for agent run and agent mcp:
// the simulated world (--scenario, --seed), a GTNH server (--server,
// --username, --reconnect, --config-file) or a body served by agent serve
// (--body, --token-file).
type bodyFlags struct {
	scenario, server, username, addr, tokenFile, configFile *string
	seed                                                    *int64
	reconnect, survival                                     *bool

	// Set by choose.
	set          map[string]bool // the flags the command line gave
	remote, live bool            // the body at --body; a server

	// rules, when set (run --recipes), is the rule set the simulated world
	// plays by (nil: the shipped set).
	rules *rules.Set
}

// register adds the flags to fs, with the command's help for --reconnect
// and --token-file.
func (b *bodyFlags) register(fs *flag.FlagSet, reconnectHelp, tokenHelp string) {
	b.scenario = fs.String("scenario", "", "scenario: an embedded one by name (forest_base, fresh_start, survival) or a YAML file (default: forest_base)")
	b.seed = fs.Int64("seed", 0, "override the scenario's seed")
	b.survival = fs.Bool("survival", false, "play the simulated world as a survival game, as GTNH does: the day turns to night, hostile mobs spawn in the dark, the food bar drains, water drowns and lava burns (the scenario's night, mobs, hunger and liquids turned on)")
	b.server = fs.String("server", "", "play on this GTNH server (host:port) instead of the simulated world")
	b.username = fs.String("username", "", "player name on the server")
	b.reconnect = fs.Bool("reconnect", false, reconnectHelp)
	b.addr = fs.String("body", "", "drive the body served at ADDR (unix:///path or tcp://HOST:PORT, see agent serve)")
	b.tokenFile = fs.String("token-file", "", tokenHelp)
	b.configFile = fs.String("config-file", "", "agent config file (default: "+defaultConfigFile+" when present)")
}

// choose loads the config file (--config-file) once fs is parsed, and
// decides the body: the body at --body; else a server with --server, or with
// server.address in the config file unless --scenario, --seed or --survival
// ask for the simulated world; else the simulated world. A bad config file is a
// configuration error (exit 2).
func (b *bodyFlags) choose(e *env, fs *flag.FlagSet) (*agentConfig, error) {
	acfg, err := loadAgentConfig(*b.configFile)
	if err != nil {
		return nil, configError(e, err)
	}
	b.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { b.set[f.Name] = true })
	b.remote = *b.addr != ""
	b.live = !b.remote && (*b.server != "" || (acfg.Server.Address != "" && !b.set["scenario"] && !b.set["seed"] && !b.set["survival"]))
	return acfg, nil
}

// checkRemote refuses, with --body, the flags that choose a body: they are
// agent serve's.
func (b *bodyFlags) checkRemote(cmd string) error {
	if b.remote && (b.set["scenario"] || b.set["seed"] || b.set["survival"] || b.set["server"] || b.set["reconnect"]) {
		return usagef("%s: --scenario, --seed, --survival, --server and --reconnect belong to the body; with --body give them to agent serve", cmd)
	}
	return nil
}

// checkLive refuses the simulated world's flags on a server.
func (b *bodyFlags) checkLive(cmd string) error {
	if b.live && (b.set["scenario"] || b.set["seed"] || b.set["survival"]) {
		return usagef("%s: --scenario, --seed and --survival are for the simulated world, not with --server", cmd)
	}
	return nil
}

// loadScenario loads the scenario of --scenario, with --survival's dangers
// turned on: a copy, so an embedded scenario stays as it ships.
func (b *bodyFlags) loadScenario() (*sim.Scenario, error) {
	sc, err := loadScenario(*b.scenario)
	if err != nil || !*b.survival {
		return sc, err
	}
	wild := *sc
	wild.Night, wild.Mobs, wild.Hunger, wild.Liquids = true, true, true, true
	return &wild, nil
}

// openedBody is the body a command drives: exactly one of remote, client
// and world is set.
type openedBody struct {
	// ctx is the context open was given or, on a server, one that the
	// operator's "stop" in chat cancels.
	ctx    context.Context
	remote *remote.Client // the body at --body
	client *gtnh.Client   // the connection to the server
	world  *sim.Sim       // the simulated world
	server serverConfig   // the server joined, with client
	close  func()
}

// conn is the connection the loop or the MCP server drives.
func (o *openedBody) conn() ipc.Conn {
	switch {
	case o.remote != nil:
		return o.remote
	case o.client != nil:
		return ipc.InProcess(o.client)
	}
	return ipc.InProcess(o.world)
}

// open opens the chosen body: it dials the body at --body, joins the server
// (the config file's server section under the flags; tap configures the
// client) or creates the simulated world sc. Ctrl-C while it opens is
// errInterrupted; a scenario the world cannot be built from is a
// configuration error. The caller defers the result's close.
func (b *bodyFlags) open(ctx context.Context, e *env, acfg *agentConfig, sc *sim.Scenario, tap ...func(*gtnh.Config)) (*openedBody, error) {
	o := &openedBody{ctx: ctx, close: func() {}}
	var err error
	switch {
	case b.remote:
		if o.remote, err = dialBody(ctx, *b.addr, *b.tokenFile); err == nil {
			o.close = func() { o.remote.Close() }
		}
	case b.live:
		srv := acfg.Server
		if *b.server != "" {
			srv.Address = *b.server
		}
		if *b.username != "" {
			srv.Username = *b.username
		}
		srv.fillAccountName()
		if b.set["reconnect"] {
			srv.Reconnect.Enabled = *b.reconnect
		}
		o.server = srv
		var cancel context.CancelFunc
		o.ctx, cancel = context.WithCancel(ctx)
		o.close = cancel
		if o.client, err = openClient(o.ctx, e, srv, cancel, tap...); err == nil {
			o.close = func() {
				o.client.Close()
				cancel()
			}
		}
	default:
		e.log.Debug().Str("scenario", sc.Name).Msg("generating the world")
		stop := e.startProgress(worldProgress(sc.Name))
		o.world, err = sim.NewContext(ctx, sc, sim.Options{Seed: *b.seed, Rules: b.rules})
		stop()
	}
	if err == nil {
		return o, nil
	}
	interrupted := o.ctx.Err() != nil // before close cancels it
	o.close()
	switch {
	case interrupted:
		return nil, errInterrupted // Ctrl-C while connecting, joining or building the world
	case !b.remote && !b.live:
		return nil, configError(e, err) // a scenario the world cannot be built from
	}
	return nil, err
}
