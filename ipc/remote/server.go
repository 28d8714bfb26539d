package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
)

// CatalogFunc returns the skill catalog for a tier and packs as JSON (the
// registry's DescribeForTechState); packs nil means every pack.
type CatalogFunc func(techState string, packs []string) (json.RawMessage, error)

// ServerOptions configure a Server.
type ServerOptions struct {
	// Body is the world the server exposes. Required.
	Body ipc.Body
	// Catalog answers catalog requests (nil: they are unsupported).
	Catalog CatalogFunc
	// Token, when not empty, must be presented in every hello. It is never
	// logged. A wrong or missing one closes the connection; after
	// authguard.Burst of them from one address, that address may try once
	// per authguard.Every and a hello past that is refused unchecked.
	Token string
	// MaxMessage limits one message line (0: wire.DefaultMaxMessage).
	MaxMessage int
	// EventQueue is each connection's event queue length (0: 1024).
	EventQueue int
	// MaxInFlight bounds a connection's concurrent requests (0: 32).
	MaxInFlight int
	// Poll is how often the world is compared for events while someone
	// subscribes (0: every 50 ms, a game tick; negative: only after
	// actions, which is enough for a simulated world that changes only
	// when it acts).
	Poll time.Duration
	// HelloTimeout closes a connection that has not said hello by then
	// (0: 10 s).
	HelloTimeout time.Duration
	// MaxConns bounds the open connections (0: DefaultMaxConns). When the
	// server is full, a new connection takes the place of the oldest one
	// that has not said hello yet; when every one has, the new one is
	// told the server is full and closed.
	MaxConns int
	// ReplyBudget bounds the bytes of one connection's replies being
	// prepared or sent (0: twice MaxMessage; at least MaxMessage). A
	// query takes MaxMessage of it before it runs and gives back what its
	// reply does not need; a request finding the budget taken waits.
	ReplyBudget int
	// WriteTimeout bounds the writing of one message (0:
	// DefaultWriteTimeout): a client that does not read it by then is
	// dropped, with a disconnect event saying why when one can be sent.
	WriteTimeout time.Duration
	// Log receives connection-level messages.
	Log zerolog.Logger
}

// Defaults of ServerOptions.
const (
	// DefaultMaxConns is the default connection limit: a body serves an
	// agent and a few observers, and each connection past hello may hold
	// a message being read and twice that in replies (12 MiB at the
	// default message limit).
	DefaultMaxConns = 16
	// DefaultWriteTimeout is the default time a client has to read one
	// message: 4 MiB in 10 s is slower than any local reader that reads.
	DefaultWriteTimeout = 10 * time.Second
)

// Server exposes an ipc.Body over the wire protocol: it answers hello,
// execute, observe and the world queries, and sends events to the
// connections that subscribe. One action runs at a time; a second execute
// while one runs gets busy.
type Server struct {
	opts    ServerOptions
	log     zerolog.Logger
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	execMu  sync.Mutex
	queries Queries
	watch   *watcher
	mu      sync.Mutex
	conns   map[*conn]struct{}
	seq     uint64
	lns     []net.Listener
	closing bool
	// fails slows repeated wrong tokens, by remote address.
	fails *authguard.Failures
	// fullLog logs refused connections, a few every ten seconds: a flood
	// of them must not flood the log.
	fullLog zerolog.Logger
}

// NewServer checks the options and returns a server; start it with Serve
// or ServeConn, stop it with Close.
func NewServer(opts ServerOptions) (*Server, error) {
	if opts.Body == nil {
		return nil, errors.New("remote: ServerOptions.Body is required")
	}
	opts.MaxMessage = wire.Limit(opts.MaxMessage)
	if opts.EventQueue <= 0 {
		opts.EventQueue = 1024
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = 32
	}
	if opts.HelloTimeout <= 0 {
		opts.HelloTimeout = 10 * time.Second
	}
	if opts.Poll == 0 {
		opts.Poll = 50 * time.Millisecond
	}
	if opts.MaxConns <= 0 {
		opts.MaxConns = DefaultMaxConns
	}
	if opts.ReplyBudget <= 0 {
		opts.ReplyBudget = 2 * opts.MaxMessage
	}
	opts.ReplyBudget = max(opts.ReplyBudget, opts.MaxMessage)
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultWriteTimeout
	}
	ctx, cancel := context.WithCancel(context.Background())
	log := opts.Log.With().Str("component", "ipc-server").Logger()
	s := &Server{opts: opts, log: log, ctx: ctx, cancel: cancel, conns: map[*conn]struct{}{},
		fullLog: log.Sample(&zerolog.BurstSampler{Burst: 5, Period: 10 * time.Second}),
		fails:   authguard.NewFailures()}
	s.queries = Queries{Observe: opts.Body.Observe, Catalog: opts.Catalog}
	s.watch = newWatcher(s)
	return s, nil
}

// Serve accepts connections on l until Close; it returns nil after Close.
func (s *Server) Serve(l net.Listener) error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		l.Close()
		return nil
	}
	s.lns = append(s.lns, l)
	s.mu.Unlock()
	for {
		c, err := l.Accept()
		if err != nil {
			s.mu.Lock()
			closing := s.closing
			s.mu.Unlock()
			if closing {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return fmt.Errorf("remote: accepting: %w", err)
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.ServeConn(c)
		}()
	}
}

// ServeConn serves one connection (a socket, or a child's stdin and
// stdout) until it ends or the server closes; it closes rwc. Past
// MaxConns, the oldest connection that has not said hello makes room, or,
// when all have, rwc is told the server is full and closed.
func (s *Server) ServeConn(rwc io.ReadWriteCloser) {
	c := newConn(s, rwc)
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		rwc.Close()
		return
	}
	var evicted *conn
	if len(s.conns) >= s.opts.MaxConns {
		if evicted = s.oldestWaiting(); evicted == nil {
			n := len(s.conns)
			s.mu.Unlock()
			s.refuse(c, n)
			return
		}
		delete(s.conns, evicted)
	}
	s.seq++
	c.seq = s.seq
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	if evicted != nil {
		reason := fmt.Sprintf("the server is at its limit of %d connections and this one had not said hello", s.opts.MaxConns)
		s.fullLog.Warn().Str("reason", reason).Msg("dropping a client")
		evicted.shutdown(reason)
	}
	c.run()
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	s.watch.changed()
}

// oldestWaiting is the connection that arrived first of those that have
// not said hello; s.mu is held.
func (s *Server) oldestWaiting() *conn {
	var oldest *conn
	for c := range s.conns {
		if !c.said() && (oldest == nil || c.seq < oldest.seq) {
			oldest = c
		}
	}
	return oldest
}

// refuse tells a connection the server is full and closes it.
func (s *Server) refuse(c *conn, n int) {
	reason := fmt.Sprintf("the server is full: %d connections, all past hello (the limit is %d)", n, s.opts.MaxConns)
	s.fullLog.Warn().Int("conns", n).Msg("refusing a connection: the server is full")
	c.wmu <- struct{}{}
	c.notice(reason, false)
	<-c.wmu
	c.cancel()
	c.rwc.Close()
}

// Conns is the number of open connections.
func (s *Server) Conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// InFlight is the number of requests being answered, over all connections.
func (s *Server) InFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for c := range s.conns {
		n += c.inFlight()
	}
	return n
}

// Close stops accepting, tells every connection (a disconnect event),
// cancels the requests in flight, closes the connections and waits for
// them.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return nil
	}
	s.closing = true
	lns := s.lns
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, l := range lns {
		l.Close()
	}
	// At once, so that peers that do not read cost noticeTimeout in all,
	// not each.
	var shut sync.WaitGroup
	for _, c := range conns {
		shut.Go(func() { c.shutdown("server shutting down") })
	}
	shut.Wait()
	s.cancel()
	s.wg.Wait()
	s.watch.stop()
	return nil
}

// subscribers lists the connections that want some event kind.
func (s *Server) subscribers() []*conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*conn
	for c := range s.conns {
		if c.subscribed() {
			out = append(out, c)
		}
	}
	return out
}

// checkToken compares in constant time; the token never leaves this
// function.
func (s *Server) checkToken(got string) bool {
	if s.opts.Token == "" {
		return true
	}
	return authguard.Equal(got, s.opts.Token)
}

func (s *Server) welcome() wire.Welcome {
	info := s.opts.Body.Info()
	acts := make([]string, 0, len(info.Supports))
	for _, k := range action.NewKindSet(info.Supports...).Sorted() {
		acts = append(acts, string(k))
	}
	reqs := slices.Clone(wire.Requests)
	if s.opts.Catalog == nil {
		reqs = slices.DeleteFunc(reqs, func(t string) bool { return t == wire.TypeCatalog })
	}
	if r, ok := s.opts.Body.(interface{ Remembers() bool }); !ok || !r.Remembers() {
		reqs = slices.DeleteFunc(reqs, func(t string) bool { return t == wire.TypeRecall })
	}
	events := slices.Clone(wire.Events)
	if _, ok := s.opts.Body.(ipc.ChatSource); !ok {
		events = slices.DeleteFunc(events, func(e string) bool { return e == wire.EventChat })
	}
	return wire.Welcome{Protocol: wire.Version, Role: wire.RoleBody, Name: info.Name, Actions: acts,
		Events: events, Requests: reqs, MaxMessage: s.opts.MaxMessage}
}
