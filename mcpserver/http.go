package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/internal/httpserve"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"
)

// HTTPPath is where the Streamable HTTP transport is served; every other
// path is 404.
const HTTPPath = "/mcp"

// Defaults of HTTPOptions.
const (
	// DefaultMaxSessions is how many MCP sessions may be open at once. One
	// body runs one invocation at a time, so a handful of clients is plenty.
	DefaultMaxSessions = 8
	// DefaultMaxConns is how many TCP connections are served at once; a
	// session may hold two (its event stream and a request), and a
	// connection past the cap waits in the kernel's queue.
	DefaultMaxConns = 32
	// DefaultMaxBody is the largest request body: the same bound as one
	// message on standard input.
	DefaultMaxBody = 1 << 20
	// DefaultSessionIdle ends a session that sent no request this long (a
	// client that went away without saying so).
	DefaultSessionIdle = 30 * time.Minute
	// ShutdownGrace is how long RunHTTP waits for requests to end once its
	// context ends, before it closes the connections.
	ShutdownGrace = 1500 * time.Millisecond
)

// Server-wide HTTP timeouts: reading a request's headers, and the whole
// request; a connection idle this long between requests is closed. There
// is no write timeout: an event stream and a long skill invocation write
// late by design.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 32 << 10
)

// HTTPOptions configure the Streamable HTTP transport.
type HTTPOptions struct {
	// Token, when not empty, must be presented by every request as
	// "Authorization: Bearer TOKEN"; a missing or wrong one is 401.
	Token string
	// MaxSessions caps the sessions open at once (default
	// DefaultMaxSessions); a new one past it is 503.
	MaxSessions int
	// MaxConns caps the TCP connections RunHTTP serves at once (default
	// DefaultMaxConns).
	MaxConns int
	// MaxBody caps a request body in bytes (default DefaultMaxBody); a
	// larger one is 413.
	MaxBody int64
	// SessionIdle ends a session idle this long (default
	// DefaultSessionIdle).
	SessionIdle time.Duration

	// now is the failure limiter's clock (tests); default time.Now.
	now func() time.Time
}

func (o *HTTPOptions) defaults() {
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.SessionIdle <= 0 {
		o.SessionIdle = DefaultSessionIdle
	}
	if o.now == nil {
		o.now = time.Now
	}
}

// HTTPHandler serves the server with the MCP Streamable HTTP transport at
// HTTPPath: the bearer token, the session cap and the body cap of opts
// are checked before the SDK sees a request. It does not watch the skill
// directories; RunHTTP does.
func (s *Server) HTTPHandler(opts HTTPOptions) http.Handler {
	opts.defaults()
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv }, &mcp.StreamableHTTPOptions{
		Logger:              slog.New(zerolog.NewSlogHandler(s.log)),
		SessionTimeout:      opts.SessionIdle,
		MaxRequestBodyBytes: opts.MaxBody,
	})
	h := &httpHandler{s: s, opts: opts, sdk: sdk, gate: authguard.NewGate(opts.Token, "MCP", s.log, opts.now), open: map[string]bool{}, log: s.log}
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, h)
	return mux
}

// httpHandler guards the SDK's handler.
type httpHandler struct {
	s    *Server
	opts HTTPOptions
	sdk  http.Handler
	log  zerolog.Logger

	mu sync.Mutex
	// open holds the sessions opened here and not seen to end; opening
	// counts the requests that may be opening one right now, so that two
	// at once cannot both pass the cap.
	open    map[string]bool
	opening int
	gate    *authguard.Gate // the token, and wrong guesses by remote address
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.opts.Token != "" && !h.gate.Check(w, r, authguard.Bearer(r)) {
		return
	}
	id := r.Header.Get(sessionHeader)
	switch {
	case r.Method == http.MethodPost && id == "":
		// A POST with no session opens one (an initialize).
		if !h.reserve() {
			h.log.Warn().Int("max_sessions", h.opts.MaxSessions).Str("remote", r.RemoteAddr).Msg("MCP session refused: too many open")
			http.Error(w, fmt.Sprintf("too many MCP sessions open (at most %d); close one or try later", h.opts.MaxSessions), http.StatusServiceUnavailable)
			return
		}
		// The slot is settled as the answer starts, before the client
		// can read it and send its next request.
		sw := &settleWriter{ResponseWriter: w, settle: h.settle}
		h.sdk.ServeHTTP(sw, r)
		sw.done(0)
	case r.Method == http.MethodDelete && id != "":
		h.sdk.ServeHTTP(w, r)
		h.mu.Lock()
		delete(h.open, id)
		h.mu.Unlock()
	default:
		h.sdk.ServeHTTP(w, r)
	}
}

// sessionHeader carries the session id of the Streamable HTTP transport.
const sessionHeader = "Mcp-Session-Id"

// reserve takes a session slot for a request that may open a session. The
// table counts the sessions the handler opened and has not seen end; when
// it is full, ids the SDK no longer serves (idle, closed by the server)
// are forgotten first.
func (h *httpHandler) reserve() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.open)+h.opening >= h.opts.MaxSessions {
		live := map[string]bool{}
		for ss := range h.s.srv.Sessions() {
			live[ss.ID()] = true
		}
		for id := range h.open {
			if !live[id] {
				delete(h.open, id)
			}
		}
	}
	if len(h.open)+h.opening >= h.opts.MaxSessions {
		return false
	}
	h.opening++
	return true
}

// settle ends a reservation: the slot is kept by the session opened (its
// id), or given back when none was.
func (h *httpHandler) settle(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.opening--
	if id != "" {
		h.open[id] = true
	}
}

// settleWriter calls settle once, with the session id the answer carries
// (none for an error), as the answer starts or when the handler returns.
type settleWriter struct {
	http.ResponseWriter
	once   sync.Once
	settle func(id string)
}

func (w *settleWriter) done(code int) {
	w.once.Do(func() {
		id := ""
		if code >= 200 && code < 300 {
			id = w.Header().Get(sessionHeader)
		}
		w.settle(id)
	})
}

func (w *settleWriter) WriteHeader(code int) {
	w.done(code)
	w.ResponseWriter.WriteHeader(code)
}

func (w *settleWriter) Write(b []byte) (int, error) {
	w.done(http.StatusOK)
	return w.ResponseWriter.Write(b)
}

// Flush keeps event streams flowing through the wrapper.
func (w *settleWriter) Flush() {
	w.done(http.StatusOK)
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *settleWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// RunHTTP serves the server over HTTP on ln (see HTTPHandler) until ctx
// ends, then closes the sessions and returns within ShutdownGrace. It
// watches the knowledge skills' directories as Run does.
func (s *Server) RunHTTP(ctx context.Context, ln net.Listener, opts HTTPOptions) error {
	opts.defaults()
	defer s.watch(ctx)()
	err := httpserve.Serve(ctx, ln, s.HTTPHandler(opts), httpserve.Options{
		MaxConns:          opts.MaxConns,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		Grace:             ShutdownGrace,
		BaseContext:       true,
		Stopping: func() {
			for ss := range s.srv.Sessions() {
				ss.Close()
			}
		},
		Log: s.log,
	})
	if err != nil {
		return fmt.Errorf("mcpserver: serving HTTP: %w", err)
	}
	return nil
}

// limitListener accepts at most n connections at once; Accept waits for
// one to close (x/net's netutil).
func limitListener(l net.Listener, n int) net.Listener { return httpserve.LimitListener(l, n) }
