package metrics

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/internal/httpserve"
)

// Path is where the metrics are served; every other path is 404.
const Path = "/metrics"

// Defaults of ServeOptions.
const (
	// DefaultMaxConns is how many connections are served at once; a
	// Prometheus server keeps one, so a few are plenty. A connection past
	// the cap waits in the kernel's queue.
	DefaultMaxConns = 4
	// DefaultReadTimeout bounds reading a request, headers included.
	DefaultReadTimeout = 10 * time.Second
	// DefaultWriteTimeout bounds writing an answer: a scraper that does
	// not read is dropped.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultIdleTimeout closes a kept-alive connection idle this long
	// (longer than a usual scrape interval).
	DefaultIdleTimeout = 2 * time.Minute
	// ShutdownGrace is how long Serve waits for scrapes to end once its
	// context ends, before it closes their connections.
	ShutdownGrace  = time.Second
	maxHeaderBytes = 16 << 10
)

// ServeOptions configure Handler and Serve.
type ServeOptions struct {
	// Token, when not empty, must be presented by every request as
	// "Authorization: Bearer TOKEN"; a missing or wrong one is 401, and
	// an address that guessed wrong too often is 429 for a while.
	Token string
	// MaxConns caps the connections Serve serves at once, and the scrapes
	// the handler answers at once (more are 503); default DefaultMaxConns.
	MaxConns int
	// ReadTimeout and WriteTimeout bound a request and its answer
	// (defaults DefaultReadTimeout, DefaultWriteTimeout).
	ReadTimeout, WriteTimeout time.Duration
	// Log receives refused requests and serving errors.
	Log zerolog.Logger
	// now is the failure limiter's clock (tests); default time.Now.
	now func() time.Time
}

func (o *ServeOptions) defaults() {
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = DefaultReadTimeout
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.now == nil {
		o.now = time.Now
	}
}

// Handler serves the Recorder's registry at Path in the Prometheus text
// format (or what the scraper negotiates), behind opts.Token when set.
func (r *Recorder) Handler(opts ServeOptions) http.Handler {
	opts.defaults()
	prom := promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{
		ErrorLog:            promLogger{opts.Log},
		ErrorHandling:       promhttp.ContinueOnError,
		MaxRequestsInFlight: opts.MaxConns,
	})
	g := &guard{next: prom, opts: opts, gate: authguard.NewGate(opts.Token, "metrics", opts.Log, opts.now)}
	mux := http.NewServeMux()
	mux.Handle(Path, g)
	return mux
}

// guard checks the bearer token before the registry is gathered.
type guard struct {
	next http.Handler
	opts ServeOptions
	gate *authguard.Gate
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	if g.opts.Token != "" && !g.gate.Check(w, r, authguard.Bearer(r)) {
		return
	}
	g.next.ServeHTTP(w, r)
}

// promLogger hands the library's errors to zerolog.
type promLogger struct{ log zerolog.Logger }

func (l promLogger) Println(v ...any) { l.log.Warn().Msg(strings.TrimSpace(fmt.Sprintln(v...))) }

// Serve answers scrapes on ln (see Handler) until ctx ends, then waits at
// most ShutdownGrace for the scrapes under way. It closes ln.
func (r *Recorder) Serve(ctx context.Context, ln net.Listener, opts ServeOptions) error {
	opts.defaults()
	err := httpserve.Serve(ctx, ln, r.Handler(opts), httpserve.Options{
		MaxConns:          opts.MaxConns,
		ReadHeaderTimeout: opts.ReadTimeout,
		ReadTimeout:       opts.ReadTimeout,
		WriteTimeout:      opts.WriteTimeout,
		IdleTimeout:       DefaultIdleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		Grace:             ShutdownGrace,
		Log:               opts.Log,
	})
	if err != nil {
		return fmt.Errorf("metrics: serving: %w", err)
	}
	return nil
}

// limitListener accepts at most n connections at once (httpserve's).
func limitListener(l net.Listener, n int) net.Listener { return httpserve.LimitListener(l, n) }
