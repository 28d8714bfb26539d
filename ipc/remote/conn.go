package remote

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
)

// conn is one client connection of a Server.
type conn struct {
	srv    *Server
	rwc    io.ReadWriteCloser
	w      *wire.Writer
	log    zerolog.Logger
	ctx    context.Context
	cancel context.CancelFunc
	queue  *eventQueue
	wg     sync.WaitGroup // request handlers and the event writer

	mu    sync.Mutex
	hello bool
	role  string
	subs  map[string]bool
	// chatNext is the number of the next chat line this connection gets.
	// It starts at the body's next line when the connection subscribed,
	// taken while the hello is answered, so a line said after the welcome
	// is never missed and one said before it is never sent.
	chatNext uint64
	inflight map[string]context.CancelFunc
	closed   bool
	// closeAfter ends the connection once the current reply is sent (a
	// wrong token).
	closeAfter bool

	// execs runs the connection's actions one after another, in the order
	// they came.
	execs chan execJob

	// obsMu serialises block deltas: each names the one before.
	obsMu   sync.Mutex
	tracker *wire.Tracker
}

func newConn(s *Server, rwc io.ReadWriteCloser) *conn {
	ctx, cancel := context.WithCancel(s.ctx)
	return &conn{srv: s, rwc: rwc, w: wire.NewWriter(rwc, s.opts.MaxMessage), log: s.log, ctx: ctx, cancel: cancel,
		queue: newEventQueue(s.opts.EventQueue), inflight: map[string]context.CancelFunc{},
		tracker: wire.NewTracker(), execs: make(chan execJob, s.opts.MaxInFlight)}
}

type execJob struct {
	ctx    context.Context
	cancel context.CancelFunc
	m      *wire.Message
}

// runActions executes the connection's actions in order; when the
// connection ends, those still queued are answered as cancelled (their
// contexts are done, so the body is not asked).
func (c *conn) runActions() {
	defer c.wg.Done()
	for {
		select {
		case j := <-c.execs:
			c.serve(j.ctx, j.cancel, j.m, handleExecute)
		case <-c.ctx.Done():
			for {
				select {
				case j := <-c.execs:
					c.serve(j.ctx, j.cancel, j.m, handleExecute)
				default:
					return
				}
			}
		}
	}
}

// run reads requests until the connection ends, then cancels what is in
// flight, waits for it and frees the connection.
func (c *conn) run() {
	c.wg.Add(2)
	go c.writeEvents()
	go c.runActions()
	// A connection that does not say hello in time is closed.
	helloTimer := time.AfterFunc(c.srv.opts.HelloTimeout, func() {
		c.mu.Lock()
		hello := c.hello
		c.mu.Unlock()
		if !hello {
			c.shutdown("no hello within " + c.srv.opts.HelloTimeout.String())
		}
	})
	defer helloTimer.Stop()
	r := wire.NewReader(c.rwc, c.srv.opts.MaxMessage)
	for {
		line, err := r.Next()
		var tl *wire.TooLargeError
		switch {
		case errors.As(err, &tl):
			c.replyError(nil, wire.Errorf(wire.CodeTooLarge, "%v", tl))
			continue
		case err != nil:
			if !errors.Is(err, io.EOF) && c.ctx.Err() == nil {
				c.log.Debug().Err(err).Msg("connection read failed")
			}
			c.finish()
			return
		}
		c.handle(line)
	}
}

func (c *conn) finish() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	c.queue.close()
	c.rwc.Close()
	c.wg.Wait()
}

// shutdown sends a disconnect event and closes the connection; run then
// returns.
func (c *conn) shutdown(reason string) {
	// A peer that does not read must not hold the server up: the notice
	// gets a moment, then the connection closes anyway.
	if d, ok := c.rwc.(interface{ SetWriteDeadline(time.Time) error }); ok {
		d.SetWriteDeadline(time.Now().Add(200 * time.Millisecond))
	}
	if line, err := wire.Encode(nil, wire.EventDisconnect, wire.DisconnectEvent{Reason: reason}); err == nil {
		c.w.WriteLine(line)
	}
	c.cancel()
	c.rwc.Close()
}

func (c *conn) inFlight() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.inflight)
}

func (c *conn) subscribed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.subs) > 0 && !c.closed
}

// chatCursor is the number of the next chat line the connection gets.
func (c *conn) chatCursor() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.chatNext
}

func (c *conn) setChatCursor(n uint64) {
	c.mu.Lock()
	c.chatNext = n
	c.mu.Unlock()
}

func (c *conn) wants(kind string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.subs[kind]
}

// event queues an event for this connection if it subscribed to the kind.
func (c *conn) event(kind, key string, line []byte) {
	if c.wants(kind) {
		c.queue.push(key, line)
	}
}

// writeEvents sends queued events, a lagged notice first when some were
// dropped. It is the only writer that can block on a slow reader without
// holding anything the body needs.
func (c *conn) writeEvents() {
	defer c.wg.Done()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-c.queue.ready:
		}
		items, dropped := c.queue.take()
		if dropped > 0 {
			line, err := wire.Encode(nil, wire.EventLagged, wire.LaggedEvent{Dropped: dropped})
			if err == nil && c.w.WriteLine(line) != nil {
				return
			}
		}
		for _, it := range items {
			if err := c.w.WriteLine(it.line); err != nil {
				return
			}
		}
	}
}

func (c *conn) write(id json.RawMessage, typ string, payload any) {
	line, err := wire.Encode(id, typ, payload)
	if err != nil {
		c.replyError(id, wire.Errorf(wire.CodeInternal, "%v", err))
		return
	}
	if err := c.w.WriteLine(line); err != nil {
		if wire.CodeOf(err) == wire.CodeTooLarge {
			c.replyError(id, err.(*wire.Error))
			return
		}
		c.log.Debug().Err(err).Msg("connection write failed")
	}
}

func (c *conn) replyError(id json.RawMessage, e *wire.Error) {
	line, err := wire.Encode(id, wire.TypeError, e)
	if err != nil {
		return
	}
	c.w.WriteLine(line)
}

// handle routes one line: a request runs in its own goroutine, so that a
// long action does not hold up queries on the same connection.
func (c *conn) handle(line []byte) {
	m, err := wire.Decode(line)
	if err != nil {
		var id json.RawMessage
		if m != nil {
			id = m.ID
		}
		c.replyError(id, err.(*wire.Error))
		return
	}
	switch {
	case m.Type == wire.TypeReply || m.Type == wire.TypeError:
		// A body server sends no requests, so there is nothing to answer.
		return
	case m.IsEvent():
		if m.Type == wire.TypeCancel {
			var n wire.CancelNotice
			if json.Unmarshal(m.Payload, &n) == nil {
				c.cancelRequest(string(n.ID))
			}
			return
		}
		c.replyError(nil, wire.Errorf(wire.CodeUnknownType, "no event %q is accepted by a body", m.Type))
		return
	}
	h, ok := handlers[m.Type]
	if !ok {
		c.replyError(m.ID, wire.Errorf(wire.CodeUnknownType, "unknown request type %q", m.Type))
		return
	}
	c.mu.Lock()
	switch {
	case !c.hello && m.Type != wire.TypeHello:
		c.mu.Unlock()
		c.replyError(m.ID, wire.Errorf(wire.CodeUnauthorized, "send hello first"))
		return
	case len(c.inflight) >= c.srv.opts.MaxInFlight:
		c.mu.Unlock()
		c.replyError(m.ID, wire.Errorf(wire.CodeBusy, "%d requests in flight on this connection", len(c.inflight)))
		return
	}
	key := string(m.ID)
	if _, dup := c.inflight[key]; dup {
		c.mu.Unlock()
		c.replyError(m.ID, wire.Errorf(wire.CodeBadRequest, "request id %s is already in flight", key))
		return
	}
	ctx, cancel := context.WithCancel(c.ctx)
	c.inflight[key] = cancel
	c.mu.Unlock()
	if m.Type == wire.TypeExecute {
		// The queue holds MaxInFlight jobs and the in-flight check above
		// bounds them, so this never blocks.
		c.execs <- execJob{ctx, cancel, m}
		return
	}
	if m.Type == wire.TypeHello {
		// The hello is answered before the next message is read, so that
		// requests after it find the connection authenticated.
		c.serve(ctx, cancel, m, h)
		c.mu.Lock()
		done := c.closeAfter
		c.mu.Unlock()
		if done {
			c.rwc.Close()
		}
		return
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.serve(ctx, cancel, m, h)
	}()
}

func (c *conn) serve(ctx context.Context, cancel context.CancelFunc, m *wire.Message, h handler) {
	// The request leaves the in-flight set before its answer is written, so
	// a client that has its answer sees it gone.
	done := func() {
		cancel()
		c.mu.Lock()
		delete(c.inflight, string(m.ID))
		c.mu.Unlock()
	}
	out, err := c.call(ctx, m, h)
	done()
	if err != nil {
		c.replyError(m.ID, err)
		return
	}
	c.write(m.ID, wire.TypeReply, out)
}

// call runs a handler, turning a panic into an internal error and any
// error into a typed one.
func (c *conn) call(ctx context.Context, m *wire.Message, h handler) (out any, we *wire.Error) {
	defer func() {
		if v := recover(); v != nil {
			c.log.Error().Str("type", m.Type).Interface("panic", v).Msg("request handler panicked")
			out, we = nil, wire.Errorf(wire.CodeInternal, "the server failed answering %s", m.Type)
		}
	}()
	out, err := h(ctx, c, m.Payload)
	if err != nil {
		switch {
		case errors.As(err, &we):
		case errors.Is(err, context.Canceled):
			we = wire.Errorf(wire.CodeCancelled, "%s cancelled", m.Type)
		default:
			we = wire.Errorf(wire.CodeInternal, "%s: %v", m.Type, err)
		}
		return nil, we
	}
	return out, nil
}

func (c *conn) cancelRequest(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cancel, ok := c.inflight[id]; ok {
		cancel()
	}
}
