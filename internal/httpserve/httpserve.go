// Package httpserve runs the agent's small HTTP servers (the metrics
// endpoint, the MCP transport, the web view) one way: a cap on the
// connections served at once, bounded headers and reads, and a graceful
// end when the context ends, then a hard one after a grace period.
package httpserve

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/net/netutil"
)

// Options configure Serve. Zero durations mean no limit, except those
// with a default named below.
type Options struct {
	// MaxConns caps the connections served at once (required, > 0); a
	// connection past the cap waits in the kernel's queue.
	MaxConns int
	// ReadHeaderTimeout bounds reading a request's headers (default
	// DefaultReadHeaderTimeout); ReadTimeout the whole request.
	ReadHeaderTimeout, ReadTimeout time.Duration
	// WriteTimeout bounds writing an answer (0: none, for event streams
	// that set their own deadlines).
	WriteTimeout time.Duration
	// IdleTimeout closes a kept-alive connection idle this long (default
	// DefaultIdleTimeout).
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds a request's headers (default
	// DefaultMaxHeaderBytes).
	MaxHeaderBytes int
	// Grace is how long requests under way may go on once ctx ends
	// before their connections are closed (default DefaultGrace).
	Grace time.Duration
	// BaseContext, when true, makes ctx the requests' parent context, so
	// that long requests (event streams) end as the server does.
	BaseContext bool
	// Stopping, when set, is called once ctx ended, before the graceful
	// shutdown (e.g. to close sessions that would hold it up).
	Stopping func()
	// Log receives the server's errors and a word when the grace ran out.
	Log zerolog.Logger
}

// Defaults of Options.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout       = 2 * time.Minute
	DefaultMaxHeaderBytes    = 16 << 10
	DefaultGrace             = time.Second
)

// Serve answers requests on ln with h until ctx ends, then shuts down
// within the grace period. It closes ln. The error is the listener's (a
// closed or failing listener) and never http.ErrServerClosed.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, o Options) error {
	if o.MaxConns <= 0 {
		return errors.New("httpserve: MaxConns must be positive")
	}
	if o.ReadHeaderTimeout <= 0 {
		o.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		ReadTimeout:       o.ReadTimeout,
		WriteTimeout:      o.WriteTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    o.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(zerolog.NewSlogHandler(o.Log), slog.LevelDebug),
	}
	if o.BaseContext {
		hs.BaseContext = func(net.Listener) context.Context { return ctx }
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(LimitListener(ln, o.MaxConns)) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	if o.Stopping != nil {
		o.Stopping()
	}
	sctx, cancel := context.WithTimeout(context.Background(), o.Grace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		o.Log.Warn().Err(err).Msg("requests did not end in time; closing their connections")
		hs.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// LimitListener accepts at most n connections at once; Accept waits for
// one to close (x/net's netutil).
func LimitListener(l net.Listener, n int) net.Listener { return netutil.LimitListener(l, n) }
