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

	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/origin"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

const serveUsage = `serve --body sim [--scenario NAME|FILE] [--seed N] --listen ADDR [--token-file FILE]
       serve --body server --server HOST:PORT --username NAME --listen ADDR [--token-file FILE]
       serve ... --protocol origin --listen tcp://127.0.0.1:PORT
ADDR is unix:///path/to/socket, tcp://127.0.0.1:PORT (loopback only unless
--token-file is given; every connection must then present the token), or
stdio: one connection on standard input and output, for a parent process.
--protocol origin speaks the line protocol of the Forge mod the Python GTNH
agent's bot core expects instead (loopback TCP only, no token).`

// minServeMessage keeps observe replies possible: the most a chunk column's
// sections take on the wire (16 sections of two-byte indices that do not
// compress) with room to spare.
const minServeMessage = 512 << 10

// serveCmd exposes a body over the IPC wire protocol until Ctrl-C or
// SIGTERM.
func serveCmd(e *env, args []string) error {
	fs := newFlagSet(e, "serve", serveUsage)
	var cf configFlags
	cf.register(fs)
	bodyName := fs.String("body", "sim", "the body to expose: sim (the simulated world) or server (a GTNH server)")
	scenarioFile := fs.String("scenario", "", "scenario for --body sim: an embedded one by name (forest_base, fresh_start) or a YAML file (default: forest_base)")
	seed := fs.Int64("seed", 0, "override the scenario's seed")
	listen := fs.String("listen", "", "address to listen on: unix:///path, tcp://127.0.0.1:PORT or stdio")
	tokenFile := fs.String("token-file", "", "file holding the token every connection must present")
	maxMessage := fs.Int("max-message", wire.DefaultMaxMessage, "largest message in bytes, in and out")
	maxConns := fs.Int("max-conns", remote.DefaultMaxConns, "most connections open at once; past it one that has not said hello makes room, or the new one is refused")
	writeTimeout := fs.Duration("write-timeout", remote.DefaultWriteTimeout, "drop a client that does not read a message within this long")
	serverAddr := fs.String("server", "", "GTNH server (host:port) for --body server")
	username := fs.String("username", "", "player name for --body server")
	configFile := fs.String("config-file", "", "agent config file for --body server (default: "+defaultConfigFile+" when present)")
	protocol := fs.String("protocol", "ndjson", "wire protocol: ndjson (this agent's), or origin (the Python GTNH agent's Forge-mod protocol; loopback TCP only)")
	idleTimeout := fs.Duration("idle-timeout", origin.DefaultIdleTimeout, "--protocol origin: disconnect a client silent this long while none of its actions runs (0: never)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("serve: unexpected argument %q", pos[0])
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *maxMessage < minServeMessage {
		return usagef("serve: --max-message must be at least %d bytes (a chunk column of blocks must fit)", minServeMessage)
	}
	if *maxConns < 1 {
		return usagef("serve: --max-conns must be at least 1, got %d", *maxConns)
	}
	if *writeTimeout <= 0 {
		return usagef("serve: --write-timeout must be positive, got %s", *writeTimeout)
	}
	if *listen == "" {
		return usagef("serve: --listen ADDR is required (unix:///path, tcp://127.0.0.1:PORT or stdio)")
	}
	stdio := *listen == "stdio"
	switch *protocol {
	case "ndjson":
	case "origin":
		if stdio || *tokenFile != "" || set["max-message"] || set["max-conns"] || set["write-timeout"] {
			return usagef("serve: --protocol origin listens on loopback TCP only, with no --token-file, --max-message, --max-conns or --write-timeout")
		}
		if *idleTimeout < 0 {
			return usagef("serve: --idle-timeout must be 0 (never) or more, got %v", *idleTimeout)
		}
	default:
		return usagef("serve: unknown protocol %q%s (ndjson or origin)", *protocol, suggest.DidYouMean(*protocol, []string{"ndjson", "origin"}))
	}
	if set["idle-timeout"] && *protocol != "origin" {
		return usagef("serve: --idle-timeout is for --protocol origin")
	}
	var addr wire.Addr
	if !stdio {
		if addr, err = wire.ParseAddr(*listen); err != nil {
			return usagef("serve: --listen: %v", err)
		}
	} else if *tokenFile != "" {
		return usagef("serve: --token-file is for sockets; on stdio the parent process owns the connection")
	}
	token := ""
	if *tokenFile != "" {
		if token, err = readToken(*tokenFile); err != nil {
			return usagef("serve: --token-file: %v", err)
		}
		if fi, err := os.Stat(*tokenFile); err == nil && fi.Mode().Perm()&0o077 != 0 {
			e.log.Warn().Str("file", *tokenFile).Str("mode", fi.Mode().Perm().String()).Msg("the token file is readable by other users; chmod 600 it")
		}
		if err := authguard.CheckToken(token); err != nil {
			// Other hosts can guess at a TCP address that is not
			// loopback: a weak token there is refused; a local one only
			// warned about.
			if !addr.IsLoopback() {
				return usagef("serve: --token-file %s: %v; --listen %s is reachable from other hosts", *tokenFile, err, *listen)
			}
			e.log.Warn().Str("file", *tokenFile).Msg("the token is weak (" + err.Error() + "); that is enough only while the server listens on loopback or a Unix socket")
		}
	}
	switch *bodyName {
	case "sim":
		if set["server"] || set["username"] || set["config-file"] {
			return usagef("serve: --server, --username and --config-file are for --body server")
		}
	case "server":
		if set["scenario"] || set["seed"] {
			return usagef("serve: --scenario and --seed are for --body sim")
		}
	default:
		return usagef("serve: unknown body %q%s (sim or server)", *bodyName, suggest.DidYouMean(*bodyName, []string{"sim", "server"}))
	}
	reg, err := cf.load(e, registry.ActiveOnly)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var body ipc.Body
	what := ""
	if *bodyName == "sim" {
		sc, err := loadScenario(*scenarioFile)
		if err != nil {
			return configError(e, err)
		}
		w, err := sim.NewContext(ctx, sc, sim.Options{Seed: *seed})
		if err != nil {
			if ctx.Err() != nil {
				return errInterrupted
			}
			return configError(e, err)
		}
		body, what = w, "the simulated world "+sc.Name
	} else {
		acfg, err := loadAgentConfig(*configFile)
		if err != nil {
			return configError(e, err)
		}
		srv := acfg.Server
		if *serverAddr != "" {
			srv.Address = *serverAddr
		}
		if *username != "" {
			srv.Username = *username
		}
		srv.fillAccountName()
		if srv.Address == "" {
			return usagef("serve: --body server needs --server HOST:PORT (or server.address in the config file)")
		}
		runCtx, cancel := context.WithCancel(ctx)
		defer cancel()
		client, err := openClient(runCtx, e, srv, cancel)
		if err != nil {
			if ctx.Err() != nil {
				return errInterrupted
			}
			return err
		}
		defer client.Close()
		body, what = client, "server "+srv.Address+" as "+srv.Username
		ctx = runCtx
	}

	if *protocol == "origin" {
		ln, err := origin.Listen(*listen)
		if err != nil {
			return usagef("serve: %v", err)
		}
		fmt.Fprintf(e.stdout, "serving %s with the origin protocol on tcp://%s\n", what, ln.Addr())
		return origin.Serve(ctx, ln, body, origin.Options{Log: ptr(e.pkgLog()), IdleTimeout: originIdle(*idleTimeout)})
	}
	srv, err := remote.NewServer(remote.ServerOptions{Body: body, Token: token, MaxMessage: *maxMessage,
		MaxConns: *maxConns, WriteTimeout: *writeTimeout, Catalog: registryCatalog(reg), Log: e.pkgLog()})
	if err != nil {
		return err
	}
	if stdio {
		// Standard output carries the protocol: the banner goes to
		// standard error, and the end of standard input ends the serve.
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
		return nil
	}
	l, err := wire.Listen(addr, wire.ListenOptions{Authenticated: token != ""})
	if err != nil {
		srv.Close()
		return usagef("serve: %v", err)
	}
	fmt.Fprintf(e.stdout, "serving %s on %s\n", what, addr)
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
