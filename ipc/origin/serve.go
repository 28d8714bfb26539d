package origin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Options tune the adapter; zero fields take the defaults.
type Options struct {
	// MaxLine is the longest incoming line in bytes (default 64 KiB).
	MaxLine int
	// ViewRadius is how many chunks around the player's chunk are sent
	// (default 4: a 9×9 square; at most 16).
	ViewRadius int
	// Poll is how often the world is observed while no action runs, to pass
	// on changes the body makes by itself (default 250 ms; negative: never).
	Poll time.Duration
	// DigTimeout is how long a dig start waits for its stop (default 30 s).
	DigTimeout time.Duration
	// QueueBytes is the budget of world updates waiting for a slow client
	// (default 16 MiB).
	QueueBytes int
	// MaxPending is how many actions may wait behind the running one
	// (default 16); more are refused with busy.
	MaxPending int
	// IdleTimeout ends a client's connection after this long without a
	// line from it while no action of its runs or waits, counted from its
	// last line or its last result, whichever came later; it also bounds
	// how long one write to a client that reads nothing may block (default
	// 5 min; negative: never). The adapter serves one client at a time, so
	// a silent one would otherwise keep every other client out.
	IdleTimeout time.Duration
	// Log receives the adapter's logs (default: none).
	Log *zerolog.Logger
}

// Defaults.
const (
	DefaultMaxLine     = 64 << 10
	DefaultViewRadius  = 4
	DefaultPoll        = 250 * time.Millisecond
	DefaultDigTimeout  = 30 * time.Second
	DefaultQueueBytes  = 16 << 20
	DefaultMaxPending  = 16
	DefaultIdleTimeout = 5 * time.Minute
	// goodbyeWait bounds how long the idle notice may take to leave before
	// the connection closes anyway.
	goodbyeWait   = time.Second
	maxViewRadius = 16
	maxReplies    = 64
)

func (o Options) withDefaults() Options {
	if o.MaxLine <= 0 {
		o.MaxLine = DefaultMaxLine
	}
	if o.ViewRadius <= 0 {
		o.ViewRadius = DefaultViewRadius
	}
	o.ViewRadius = min(o.ViewRadius, maxViewRadius)
	if o.Poll == 0 {
		o.Poll = DefaultPoll
	}
	if o.DigTimeout <= 0 {
		o.DigTimeout = DefaultDigTimeout
	}
	if o.QueueBytes <= 0 {
		o.QueueBytes = DefaultQueueBytes
	}
	if o.MaxPending <= 0 {
		o.MaxPending = DefaultMaxPending
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.Log == nil {
		nop := zerolog.Nop()
		o.Log = &nop
	}
	return o
}

// Listen opens a loopback TCP listener. addr is HOST:PORT, optionally
// prefixed with tcp://; HOST must be a loopback address or "localhost".
func Listen(addr string) (net.Listener, error) {
	if scheme, _, ok := strings.Cut(addr, "://"); ok && scheme != "tcp" {
		return nil, fmt.Errorf("origin: listen address %q: the origin protocol runs over loopback TCP only (tcp://127.0.0.1:PORT)", addr)
	}
	hostport := strings.TrimPrefix(addr, "tcp://")
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return nil, fmt.Errorf("origin: listen address %q: %w", addr, err)
	}
	if host != "localhost" {
		ip := net.ParseIP(host)
		if ip == nil || !ip.IsLoopback() {
			return nil, fmt.Errorf("origin: listen address %q: the origin protocol has no authentication, so it listens on loopback only (127.0.0.1, ::1 or localhost)", addr)
		}
	}
	ln, err := net.Listen("tcp", hostport)
	if err != nil {
		return nil, fmt.Errorf("origin: %w", err)
	}
	if err := checkLoopback(ln); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

func checkLoopback(ln net.Listener) error {
	a, ok := ln.Addr().(*net.TCPAddr)
	if !ok || !a.IP.IsLoopback() {
		return fmt.Errorf("origin: refusing to serve on %s: loopback TCP only", ln.Addr())
	}
	return nil
}

// ListenAndServe listens on the loopback TCP address addr (see Listen) and
// serves body there (see Serve) until ctx is done.
func ListenAndServe(ctx context.Context, addr string, body ipc.Body, opts Options) error {
	ln, err := Listen(addr)
	if err != nil {
		return err
	}
	opts = opts.withDefaults()
	opts.Log.Info().Str("listen", ln.Addr().String()).Msg("serving the origin protocol")
	return Serve(ctx, ln, body, opts)
}

// Serve accepts connections on ln, which must be a loopback TCP listener,
// and serves one client at a time with body; a second client gets a busy
// error and is closed. It returns when ctx is done (nil) or accepting fails.
// The listener is closed on return.
func Serve(ctx context.Context, ln net.Listener, body ipc.Body, opts Options) error {
	if err := checkLoopback(ln); err != nil {
		ln.Close()
		return err
	}
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	busy := make(chan struct{}, 1)
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("origin: accept: %w", err)
		}
		select {
		case busy <- struct{}{}:
		default:
			opts.Log.Warn().Str("remote", c.RemoteAddr().String()).Msg("refused a second client")
			c.SetWriteDeadline(time.Now().Add(time.Second))
			c.Write(encode(Out{Type: TypeError, Payload: errorPayload{Code: Busy, Message: "another client is connected; the adapter serves one at a time"}}))
			c.Close()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-busy }()
			err := ServeConn(ctx, c, body, opts)
			ev := opts.Log.Info()
			if err != nil {
				ev = opts.Log.Warn().Err(err)
			}
			ev.Str("remote", c.RemoteAddr().String()).Msg("client gone")
		}()
	}
}

type errorPayload struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
	// Request is the type of the message the error is about, when known.
	Request string `json:"request,omitempty"`
}

// ActionResult is the payload of action_result: the outcome of one
// action, with the shared result codes.
type ActionResult struct {
	// Request is the message type that asked for it (move_step, block_dig, …).
	Request string `json:"request"`
	// Action is the action it ran as (move_to, break_block, …); empty when
	// it never reached the body.
	Action string   `json:"action,omitempty"`
	OK     bool     `json:"ok"`
	Code   ipc.Code `json:"code"`
	Error  string   `json:"error,omitempty"`
	Ticks  int64    `json:"ticks"`
}

// ServeConn serves one client on c until it disconnects or ctx is done. A
// dropped connection cancels the action in flight; ServeConn returns once the
// body has given it up. c is closed on return.
func ServeConn(ctx context.Context, c net.Conn, body ipc.Body, opts Options) error {
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(ctx)
	s := &session{
		opts:  opts,
		conn:  ipc.InProcess(body),
		q:     newOutQueue(opts.QueueBytes, maxReplies),
		m:     newMirror(opts.ViewRadius),
		reqs:  make(chan Request, opts.MaxPending),
		done:  make(chan finished, 1),
		heard: make(chan struct{}, 1),
		log:   opts.Log.With().Str("component", "origin").Str("remote", c.RemoteAddr().String()).Logger(),
	}
	var wg sync.WaitGroup
	var werr, rerr error
	wdone := make(chan struct{})
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer cancel()
		defer close(wdone)
		werr = s.write(ctx, c)
	}()
	go func() {
		defer wg.Done()
		defer cancel()
		rerr = s.read(ctx, c)
	}()
	if s.run(ctx) {
		// Idle: the notice goes out after what is queued, then the
		// connection closes, however the client reads.
		t := time.NewTimer(goodbyeWait)
		select {
		case <-wdone:
		case <-t.C:
		}
		t.Stop()
	}
	cancel()
	s.q.close()
	c.Close()
	wg.Wait()
	for _, err := range []error{rerr, werr} {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	return nil
}

type session struct {
	opts Options
	conn ipc.Conn
	q    *outQueue
	m    *mirror
	reqs chan Request
	done chan finished
	// heard gets a token for every line the client sends (capacity 1).
	heard chan struct{}
	log   zerolog.Logger

	// mu guards running, which the reader reads to abort a dig in flight.
	mu      sync.Mutex
	running *inflight
}

type inflight struct {
	req    Request
	dig    bool
	cancel context.CancelFunc
}

type finished struct {
	req Request
	a   action.Action
	res ipc.Result
	err error
}

// pendingDig is a dig start waiting for its stop.
type pendingDig struct {
	req   Request
	timer *time.Timer
}

func (s *session) write(ctx context.Context, c net.Conn) error {
	for {
		line, err := s.q.next(ctx)
		if errors.Is(err, errFinished) {
			return nil
		}
		if err != nil {
			return err
		}
		if s.opts.IdleTimeout > 0 {
			c.SetWriteDeadline(time.Now().Add(s.opts.IdleTimeout))
		}
		if _, err := c.Write(line); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				s.log.Warn().Dur("idle_timeout", s.opts.IdleTimeout).Msg("the client read nothing for the idle timeout: dropped")
				return nil
			}
			// The client left (or the session ended and closed the
			// connection): the session is over, which is not an error of
			// the adapter's.
			s.log.Debug().Err(err).Msg("writing stopped")
			return nil
		}
	}
}

func (s *session) read(ctx context.Context, c net.Conn) error {
	lr := newLineReader(c, s.opts.MaxLine)
	for {
		line, err := lr.next()
		if err == nil || errors.Is(err, errLineTooLarge) {
			select {
			case s.heard <- struct{}{}:
			default:
			}
		}
		if errors.Is(err, errLineTooLarge) {
			if err := s.replyErr(ctx, "", nil, errorf(TooLarge, "line longer than %d bytes; skipped", s.opts.MaxLine)); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			// The client hung up or the session ended: either way the
			// session is over, which is not an error of the adapter's.
			s.log.Debug().Err(err).Msg("reading stopped")
			return nil
		}
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		req, derr := DecodeLine(line)
		if derr != nil {
			if err := s.replyErr(ctx, req.Type, req.ID, derr); err != nil {
				return err
			}
			continue
		}
		if req.Dig != nil && req.Dig.Status == DigAbort && s.abortRunning(req) {
			continue
		}
		select {
		case s.reqs <- req:
		default:
			if err := s.replyErr(ctx, req.Type, req.ID, errorf(Busy, "%d actions are waiting already", s.opts.MaxPending)); err != nil {
				return err
			}
		}
	}
}

// abortRunning cancels the break in flight when req aborts it.
func (s *session) abortRunning(req Request) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.running
	if r == nil || !r.dig {
		return false
	}
	if d := req.Dig; !d.AnyPos && d.Pos != r.req.Dig.Pos {
		return false
	}
	r.cancel()
	return true
}

func (s *session) replyErr(ctx context.Context, typ string, id json.RawMessage, e *Error) error {
	return s.q.reply(ctx, Out{Type: TypeError, ID: id, Payload: errorPayload{Code: e.Code, Message: e.Message, Request: clip(typ, 64)}})
}

func (s *session) result(ctx context.Context, req Request, a action.Action, res ipc.Result) {
	p := ActionResult{Request: req.Type, OK: res.OK(), Code: res.Code, Error: res.Error, Ticks: res.Ticks}
	if a != nil {
		p.Action = string(a.Kind())
	}
	if err := s.q.reply(ctx, Out{Type: TypeActionResult, ID: req.ID, Payload: p}); err != nil {
		s.log.Debug().Err(err).Msg("result not sent")
	}
}

// run is the session's loop: it owns the mirror, the dig state and the
// action queue, runs one action at a time and observes the world after
// each and on every poll tick. It reports true when it ended the session
// because the client was idle; the idle notice is queued, last.
func (s *session) run(ctx context.Context) (idled bool) {
	var dig *pendingDig
	var digTimeout <-chan time.Time
	var poll <-chan time.Time
	if s.opts.Poll > 0 {
		t := time.NewTicker(s.opts.Poll)
		defer t.Stop()
		poll = t.C
	}
	var idleC <-chan time.Time
	heard := func() {}
	if s.opts.IdleTimeout > 0 {
		t := time.NewTimer(s.opts.IdleTimeout)
		defer t.Stop()
		idleC = t.C
		heard = func() { t.Reset(s.opts.IdleTimeout) }
	}
	s.sync(ctx)
	for {
		var in <-chan Request
		s.mu.Lock()
		idle := s.running == nil
		s.mu.Unlock()
		if idle {
			in = s.reqs
		}
		select {
		case <-ctx.Done():
			if dig != nil {
				dig.timer.Stop()
			}
			s.mu.Lock()
			r := s.running
			s.mu.Unlock()
			if r != nil {
				r.cancel()
				<-s.done // the body gives the action up before the session ends
			}
			return false
		case <-s.heard:
			heard()
		case f := <-s.done:
			s.mu.Lock()
			s.running = nil
			s.mu.Unlock()
			s.sync(ctx)
			if f.err != nil {
				s.result(ctx, f.req, f.a, ipc.Failf(ipc.IOError, 0, "%v", f.err))
			} else {
				s.result(ctx, f.req, f.a, f.res)
			}
			heard()
		case <-poll:
			if idle {
				s.sync(ctx)
			}
		case <-idleC:
			if !idle || dig != nil || len(s.reqs) > 0 || len(s.heard) > 0 {
				heard() // not idle while its actions run or wait, or a line just came
				continue
			}
			s.log.Info().Dur("idle_timeout", s.opts.IdleTimeout).Msg("client idle: closing")
			s.q.finish(Out{Type: TypeError, Payload: errorPayload{Code: Idle,
				Message: fmt.Sprintf("nothing from the client for %v: closing the connection so another client can connect", s.opts.IdleTimeout)}})
			return true
		case <-digTimeout:
			if dig != nil {
				s.result(ctx, dig.req, nil, ipc.Failf(ipc.Timeout, 0, "no stop within %v of the dig start at %v", s.opts.DigTimeout, dig.req.Dig.Pos))
				dig, digTimeout = nil, nil
				heard()
			}
		case req := <-in:
			if req.Dig == nil {
				s.start(ctx, req, req)
				continue
			}
			d := req.Dig
			switch d.Status {
			case DigStart:
				if dig != nil && dig.req.Dig.Pos != d.Pos {
					s.replyErr(ctx, req.Type, req.ID, errorf(BadRequest, "a dig at %v is under way; stop or abort it first", dig.req.Dig.Pos))
					continue
				}
				if dig != nil {
					dig.timer.Stop()
				}
				t := time.NewTimer(s.opts.DigTimeout)
				dig, digTimeout = &pendingDig{req: req, timer: t}, t.C
			case DigStop:
				if dig == nil {
					s.replyErr(ctx, req.Type, req.ID, errorf(BadRequest, "stop at %v without a start", d.Pos))
					continue
				}
				if dig.req.Dig.Pos != d.Pos {
					s.replyErr(ctx, req.Type, req.ID, errorf(BadRequest, "stop at %v, but the dig started at %v", d.Pos, dig.req.Dig.Pos))
					continue
				}
				dig.timer.Stop()
				start := dig.req
				dig, digTimeout = nil, nil
				if req.ID == nil {
					req.ID = start.ID
				}
				s.start(ctx, req, start)
			case DigAbort:
				if dig == nil {
					s.replyErr(ctx, req.Type, req.ID, errorf(BadRequest, "abort without a dig under way"))
					continue
				}
				if !d.AnyPos && d.Pos != dig.req.Dig.Pos {
					s.replyErr(ctx, req.Type, req.ID, errorf(BadRequest, "abort at %v, but the dig started at %v", d.Pos, dig.req.Dig.Pos))
					continue
				}
				dig.timer.Stop()
				if req.ID == nil {
					req.ID = dig.req.ID
				}
				s.result(ctx, req, nil, ipc.Failf(ipc.Interrupted, 0, "dig at %v aborted", dig.req.Dig.Pos))
				dig, digTimeout = nil, nil
			}
		}
	}
}

// start begins executing req (whose payload is in src: a dig's stop runs its
// start) in its own goroutine, so aborts and polls are served meanwhile.
func (s *session) start(ctx context.Context, req, src Request) {
	snap, err := s.conn.Observe(ctx)
	if err != nil {
		s.result(ctx, req, nil, ipc.Failf(ipc.IOError, 0, "observing the body: %v", err))
		return
	}
	acts, aerr := src.toActions(stanceOf(snap))
	if aerr != nil {
		s.result(ctx, req, nil, ipc.Failf(ipc.InvalidParams, 0, "%v", aerr))
		return
	}
	s.look(snap, acts[len(acts)-1])
	actx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.running = &inflight{req: src, dig: src.Dig != nil, cancel: cancel}
	s.mu.Unlock()
	go func() {
		defer cancel()
		// The actions run in order until one fails; the result is the
		// last one run, with the ticks of them all.
		var f finished
		var ticks int64
		for _, a := range acts {
			f = finished{req: req, a: a}
			f.res, f.err = s.conn.Execute(actx, a)
			ticks += f.res.Ticks
			if f.err != nil || !f.res.OK() {
				break
			}
		}
		f.res.Ticks = ticks
		s.done <- f
	}()
}

// look turns the derived look towards the action's target; a move faces
// its direction once it is done (see sync).
func (s *session) look(snap *world.Snapshot, a action.Action) {
	var target *world.BlockPos
	switch x := a.(type) {
	case action.BreakBlock:
		target = &x.Pos
	case action.PlaceBlock:
		target = &x.Pos
	case action.UseItem:
		target = x.Target
	case action.Interact:
		target = x.Pos
		if x.Entity != nil {
			for _, e := range snap.Entities {
				if e.ID == *x.Entity {
					s.m.lookAt(snap.Player.Pos, e.Pos)
				}
			}
		}
	}
	if target != nil {
		s.m.lookAt(snap.Player.Pos, target.Center())
	}
}

// sync observes the world and queues what changed. After an overflow it
// waits for the queue to drain before sending the world in full.
func (s *session) sync(ctx context.Context) {
	need, ready := s.q.needResync()
	if need {
		if !ready {
			return
		}
		s.m.reset()
		s.q.resynced()
	}
	octx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	snap, err := s.conn.Observe(octx)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn().Err(err).Msg("observing the body failed")
		}
		return
	}
	if s.m.synced {
		s.m.faceMove(world.Vec3{X: s.m.pos.X, Y: s.m.pos.Y, Z: s.m.pos.Z}, snap.Player.Pos)
	}
	for _, o := range s.m.update(snap) {
		if !s.q.event(o) {
			s.log.Warn().Msg("client too slow: world updates dropped; resending the world once it catches up")
			return
		}
	}
}
