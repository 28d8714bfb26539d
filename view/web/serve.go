package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/gtnh/record"
	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/internal/httpserve"
)

//go:embed assets
var assets embed.FS

// Defaults of ServeOptions.
const (
	// DefaultInterval is the shortest time between two updates a
	// browser receives.
	DefaultInterval = 100 * time.Millisecond
	// DefaultMaxConns caps the connections served at once: a page holds
	// its event stream and fetches on a few more.
	DefaultMaxConns = 16
	// DefaultMaxClients caps the event streams open at once; one more is
	// 503.
	DefaultMaxClients = 4
	// DefaultWriteTimeout drops a browser that has not taken an update
	// (or an answer) for this long.
	DefaultWriteTimeout = 10 * time.Second
	// ShutdownGrace is how long Serve waits for requests under way once
	// its context ends.
	ShutdownGrace = time.Second
	// TokenCookie holds the token a browser gave once as ?token=.
	TokenCookie = "gtnh_agent_view"
)

// ServeOptions configure Handler and Serve.
type ServeOptions struct {
	// Token, when not empty, must come with every request: as
	// "Authorization: Bearer TOKEN", the cookie TokenCookie, or ?token=
	// on a page load (which sets the cookie and drops it from the
	// address). A wrong one is 401, and an address that guessed wrong too
	// often is 429 for a while.
	Token string
	// Interval is the shortest time between two updates (default
	// DefaultInterval; shorter is raised to it).
	Interval time.Duration
	// MaxConns, MaxClients and WriteTimeout bound what browsers hold
	// (defaults DefaultMaxConns, DefaultMaxClients, DefaultWriteTimeout).
	MaxConns, MaxClients int
	WriteTimeout         time.Duration
	// Log receives refused requests and dropped browsers.
	Log zerolog.Logger
	// now is the failure limiter's clock (tests); default time.Now.
	now func() time.Time
	// startPublisher, when set (Serve), starts the publisher as a
	// browser opens the event stream.
	startPublisher func()
}

func (o *ServeOptions) defaults() {
	if o.Interval < DefaultInterval {
		o.Interval = DefaultInterval
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.MaxClients <= 0 {
		o.MaxClients = DefaultMaxClients
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
}

// Serve answers browsers on ln (see Handler) and publishes updates until
// ctx ends, then waits at most ShutdownGrace for requests under way. It
// closes ln.
func (v *View) Serve(ctx context.Context, ln net.Listener, opts ServeOptions) error {
	opts.defaults()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The publisher starts with the first browser: a view nobody opens
	// costs the run the listener only.
	var pub lazyGoroutine
	opts.startPublisher = func() { pub.start(func() { v.Publish(ctx, opts.Interval) }) }
	err := httpserve.Serve(ctx, ln, v.Handler(opts), httpserve.Options{
		MaxConns:    opts.MaxConns,
		ReadTimeout: 10 * time.Second,
		Grace:       ShutdownGrace,
		BaseContext: true,
		Log:         opts.Log,
	})
	cancel()
	pub.wait()
	if err != nil {
		return fmt.Errorf("web view: serving: %w", err)
	}
	return nil
}

// lazyGoroutine runs a function on a goroutine of its own the first time
// start is called, unless wait came first; wait waits for it to return.
type lazyGoroutine struct {
	mu      sync.Mutex
	started bool
	done    bool
	wg      sync.WaitGroup
}

func (g *lazyGoroutine) start(f func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.started || g.done {
		return
	}
	g.started = true
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

func (g *lazyGoroutine) wait() {
	g.mu.Lock()
	g.done = true
	g.mu.Unlock()
	g.wg.Wait()
}

// Handler serves the page, its assets and the API behind opts.Token. The
// event stream needs Publish running (Serve runs it).
func (v *View) Handler(opts ServeOptions) http.Handler {
	opts.defaults()
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded tree is part of the binary
	}
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /api/state", v.serveState)
	mux.HandleFunc("GET /api/map", v.serveMap)
	mux.Handle("GET /api/events", &streamer{v: v, opts: opts})
	h := &guard{next: mux, token: opts.Token}
	if opts.Token != "" {
		h.gate = authguard.NewGate(opts.Token, "web view", opts.Log, opts.now)
	}
	return h
}

// guard checks the token and sets the page's safety headers.
type guard struct {
	next  http.Handler
	token string
	gate  *authguard.Gate
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	if g.gate == nil {
		g.next.ServeHTTP(w, r)
		return
	}
	presented := authguard.Bearer(r)
	if presented == "" {
		if c, err := r.Cookie(TokenCookie); err == nil {
			presented = c.Value
		}
	}
	q := r.URL.Query()
	fromQuery := q.Has("token")
	if fromQuery {
		presented = q.Get("token")
	}
	if !g.gate.Check(w, r, presented) {
		return
	}
	if fromQuery {
		// Keep the token out of the address bar and the history.
		http.SetCookie(w, &http.Cookie{Name: TokenCookie, Value: presented, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		q.Del("token")
		u := *r.URL
		u.RawQuery = q.Encode()
		http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
		return
	}
	g.next.ServeHTTP(w, r)
}

// State is the whole state the page shows: the status, every step and
// event kept.
type State struct {
	Status
	Steps  []StepView `json:"steps"`
	Events []Event    `json:"events"`
}

func (v *View) serveState(w http.ResponseWriter, r *http.Request) {
	frame, err := v.frameParam(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var st State
	if frame >= 0 {
		st = v.replayState(frame)
	} else {
		st.Status = v.status()
		v.fillRoute(&st.Status)
		st.Steps = v.stepViews(0)
		v.mu.Lock()
		st.Events = append([]Event{}, v.events...)
		v.mu.Unlock()
	}
	writeJSON(w, st)
}

// frameParam is the replay frame a request asks for (−1: the live view).
func (v *View) frameParam(r *http.Request) (int, error) {
	s := r.URL.Query().Get("frame")
	if v.replay == nil {
		return -1, nil
	}
	if s == "" {
		return v.replay.count() - 1, nil // the end of the recording
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n >= len(v.replay.frames) {
		return 0, fmt.Errorf("frame %q: want 0..%d", s, v.replay.count()-1)
	}
	return n, nil
}

func (v *View) serveMap(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	frame, err := v.frameParam(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	num := func(name string, def int) (int, error) {
		s := q.Get(name)
		if s == "" {
			return def, nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < -30_000_000 || n > 30_000_000 {
			return 0, fmt.Errorf("%s=%q: want a whole number of blocks", name, s)
		}
		return n, nil
	}
	snap, _ := v.snapshot()
	if frame >= 0 {
		snap = v.replay.frames[frame].snap
	}
	var feet [3]int
	if snap != nil {
		f := snap.Feet()
		feet = [3]int{f.X, f.Y, f.Z}
	}
	var args [4]int
	for i, p := range []struct {
		name string
		def  int
	}{{"x", feet[0]}, {"z", feet[2]}, {"r", DefaultRadius}, {"maxy", topY}} {
		if args[i], err = num(p.name, p.def); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
	}
	if args[2] < 1 || args[2] > MaxRadius {
		http.Error(w, fmt.Sprintf("r=%d: want 1..%d", args[2], MaxRadius), http.StatusBadRequest)
		return
	}
	writeJSON(w, ColumnGrid(snap, args[0], args[1], args[2], args[3]))
}

func writeJSON(w http.ResponseWriter, x any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(x)
}

// Status is what the page shows now (the steps and events apart).
func (v *View) Status() Status { return v.status() }

// status is the Status now.
func (v *View) status() Status {
	snap, rev := v.snapshot()
	st := Status{Mode: "live", Title: v.opts.Title, Goal: v.opts.Goal, MapRev: rev}
	snapshotStatus(&st, snap)
	v.mu.Lock()
	defer v.mu.Unlock()
	st.Seq = v.seq
	st.Decision = v.decisionView()
	if v.hasMove {
		mv := v.move
		st.Move = &mv
	}
	st.Outcome = v.outcome
	if snap != nil {
		st.Heading = v.pub.heading(snap.Player.Pos)
	}
	if v.looks != nil {
		if yaw, _, ok := v.looks.Facing(); ok {
			st.Heading = record.Look{Yaw: yaw}.Heading()
		}
	}
	if v.replay != nil {
		st.Mode = "replay"
	}
	return st
}

// errTooMany is the answer past MaxClients.
var errTooMany = errors.New("too many views open")
