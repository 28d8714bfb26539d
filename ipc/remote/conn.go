package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/sync/semaphore"

	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
)

// helloMaxMessage bounds a line before hello: a hello is a few hundred
// bytes, and a connection that has not said who it is must cost little.
const helloMaxMessage = 64 << 10

// readBuffer is a connection's read buffer. Requests are short; a long one
// is read in several steps.
const readBuffer = 16 << 10

// noticeTimeout is how long a closing connection's last notice may take:
// a peer that does not read must not hold the server up.
const noticeTimeout = time.Second

// conn is one client connection of a Server.
type conn struct {
	srv *Server
	rwc io.ReadWriteCloser
	log zerolog.Logger
	// seq orders connections by arrival: when the server is full, the
	// oldest that has not said hello gives way.
	seq    uint64
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

	// replies holds the bytes of the replies being prepared or sent
	// (ServerOptions.ReplyBudget): a client that does not read stops the
	// server preparing more for it, instead of the server holding them.
	replies *semaphore.Weighted

	// wmu serialises writes, one whole line at a time (a channel, so a
	// writer waiting behind a stuck write blocks like any other wait);
	// broken is set, under it, once a write failed (the stream may end in
	// half a line).
	wmu    chan struct{}
	broken bool
}

func newConn(s *Server, rwc io.ReadWriteCloser) *conn {
	ctx, cancel := context.WithCancel(s.ctx)
	return &conn{srv: s, rwc: rwc, log: s.log, ctx: ctx, cancel: cancel,
		queue: newEventQueue(s.opts.EventQueue), inflight: map[string]context.CancelFunc{},
		tracker: wire.NewTracker(), execs: make(chan execJob, s.opts.MaxInFlight),
		replies: semaphore.NewWeighted(int64(s.opts.ReplyBudget)), wmu: make(chan struct{}, 1)}
}

// peerHost names the peer for the failure limiter: the remote IP of a TCP
// connection, "local" for a Unix socket or a pipe (one local user).
func (c *conn) peerHost() string {
	ra, ok := c.rwc.(interface{ RemoteAddr() net.Addr })
	if !ok || ra.RemoteAddr() == nil {
		return "local"
	}
	if tcp, ok := ra.RemoteAddr().(*net.TCPAddr); ok {
		return tcp.IP.String()
	}
	return "local"
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
// flight, waits for it and frees the connection. Until hello a connection
// is only this goroutine, a small read buffer and lines of at most
// helloMaxMessage; the event writer and the action runner start, and the
// line limit rises to MaxMessage, once it has said hello.
func (c *conn) run() {
	defer c.finish()
	// A connection that does not say hello in time is closed.
	helloTimer := time.AfterFunc(c.srv.opts.HelloTimeout, func() {
		if !c.said() {
			c.shutdown("no hello within " + c.srv.opts.HelloTimeout.String())
		}
	})
	defer helloTimer.Stop()
	r := wire.NewReaderSize(c.rwc, min(helloMaxMessage, c.srv.opts.MaxMessage), readBuffer)
	r.StopAtTooLarge(true)
	welcomed := false
	for {
		line, err := r.Next()
		var tl *wire.TooLargeError
		switch {
		case errors.As(err, &tl) && !welcomed:
			c.replyError(nil, wire.Errorf(wire.CodeTooLarge, "a message before hello is at most %d bytes; this one was longer", tl.Limit))
			c.drop(fmt.Sprintf("a message of over %d bytes before hello", tl.Limit))
			return
		case errors.As(err, &tl):
			c.replyError(nil, wire.Errorf(wire.CodeTooLarge, "%v", tl))
			continue
		case err != nil:
			if !errors.Is(err, io.EOF) && c.ctx.Err() == nil {
				c.log.Debug().Err(err).Msg("connection read failed")
			}
			return
		}
		c.handle(line)
		if !welcomed && c.said() {
			welcomed = true
			r.SetMax(c.srv.opts.MaxMessage)
			r.StopAtTooLarge(false)
			c.wg.Add(2)
			go c.writeEvents()
			go c.runActions()
		}
	}
}

// said reports whether the connection has said hello.
func (c *conn) said() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hello
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

// shutdown tells the peer why (a disconnect event, when it can be sent at
// once) and closes the connection; run then returns. A write in progress
// is not waited for: closing ends it.
func (c *conn) shutdown(reason string) {
	// Another write may be under way (an event, a reply): the notice goes
	// after it, but a write stuck on a peer that does not read is not
	// waited for beyond noticeTimeout.
	t := time.NewTimer(noticeTimeout)
	select {
	case c.wmu <- struct{}{}:
		t.Stop()
		c.notice(reason, false)
		<-c.wmu
	case <-t.C:
	}
	c.cancel()
	c.rwc.Close()
}

// drop ends a connection for something it did, logged with the reason.
func (c *conn) drop(reason string) {
	c.log.Warn().Str("reason", reason).Msg("dropping a client")
	c.shutdown(reason)
}

// notice sends the disconnect event within noticeTimeout, ending a half
// written line first; the caller holds wmu. Nothing more is written after
// it.
func (c *conn) notice(reason string, partial bool) {
	if c.broken {
		return
	}
	c.broken = true
	line, err := wire.Encode(nil, wire.EventDisconnect, wire.DisconnectEvent{Reason: reason})
	if err != nil {
		return
	}
	if partial {
		line = append([]byte{'\n'}, line...)
	}
	stop := c.arm(noticeTimeout)
	wire.WriteLine(c.rwc, line)
	stop()
}

// arm bounds the next write to d: a deadline on a connection that has
// them, else a timer that closes the connection (which ends the write).
// The returned func disarms it and reports whether the timer fired.
func (c *conn) arm(d time.Duration) func() bool {
	if dl, ok := c.rwc.(interface{ SetWriteDeadline(time.Time) error }); ok {
		if dl.SetWriteDeadline(time.Now().Add(d)) == nil {
			return func() bool {
				dl.SetWriteDeadline(time.Time{})
				return false
			}
		}
	}
	t := time.AfterFunc(d, func() { c.rwc.Close() })
	return func() bool { return !t.Stop() }
}

// errTooLarge is the error of a line over the message limit.
func (c *conn) errTooLarge(n int) *wire.Error {
	return wire.Errorf(wire.CodeTooLarge, "an outgoing message of %d bytes exceeds the limit of %d bytes", n, c.srv.opts.MaxMessage)
}

// send writes one line within the write timeout. A peer that does not take
// it in time is dropped with the reason: the server does not wait for a
// client that does not read, and keeps serving the others.
func (c *conn) send(line []byte) error {
	if len(line) > c.srv.opts.MaxMessage {
		return c.errTooLarge(len(line))
	}
	c.wmu <- struct{}{}
	defer func() { <-c.wmu }()
	if c.broken {
		return net.ErrClosed
	}
	stop := c.arm(c.srv.opts.WriteTimeout)
	n, err := wire.WriteLine(c.rwc, line)
	fired := stop()
	if err == nil {
		return nil
	}
	var ne net.Error
	if fired || errors.As(err, &ne) && ne.Timeout() {
		reason := fmt.Sprintf("the client did not read a message of %d bytes within %s", len(line), c.srv.opts.WriteTimeout)
		c.log.Warn().Str("reason", reason).Int64("written", n).Msg("dropping a slow client")
		c.notice(reason, n > 0)
		c.cancel()
		c.rwc.Close()
		return err
	}
	c.broken = true
	if c.ctx.Err() == nil {
		c.log.Debug().Err(err).Msg("connection write failed")
	}
	return err
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
			if err == nil && c.send(line) != nil {
				return
			}
		}
		for _, it := range items {
			if err := c.send(it.line); err != nil && wire.CodeOf(err) != wire.CodeTooLarge {
				return
			}
		}
	}
}

// reply encodes an answer once and sends it. held is the part of the
// reply budget the request holds (at least MaxMessage, the most a line can
// be); what the line does not need goes back at once, the rest once it is
// written.
func (c *conn) reply(id json.RawMessage, out any, held int64) {
	line, err := wire.Encode(id, wire.TypeReply, out)
	switch {
	case err != nil:
		c.replies.Release(held)
		c.replyError(id, wire.Errorf(wire.CodeInternal, "%v", err))
		return
	case len(line) > c.srv.opts.MaxMessage:
		c.replies.Release(held)
		c.replyError(id, c.errTooLarge(len(line)))
		return
	}
	n := int64(len(line))
	c.replies.Release(held - n)
	c.send(line)
	c.replies.Release(n)
}

// replyError sends an error; errors are short, so they are not counted in
// the reply budget.
func (c *conn) replyError(id json.RawMessage, e *wire.Error) {
	line, err := wire.Encode(id, wire.TypeError, e)
	if err != nil {
		return
	}
	c.send(line)
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

// serve answers one request. A query takes its share of the reply budget
// before it runs, since its answer may be megabytes (observe, blocks_in);
// an action takes it once it has run, so a long action never holds up the
// queries beside it.
func (c *conn) serve(ctx context.Context, cancel context.CancelFunc, m *wire.Message, h handler) {
	// The request leaves the in-flight set before its answer is written, so
	// a client that has its answer sees it gone.
	done := func() {
		cancel()
		c.mu.Lock()
		delete(c.inflight, string(m.ID))
		c.mu.Unlock()
	}
	share := int64(c.srv.opts.MaxMessage)
	if m.Type != wire.TypeExecute {
		if err := c.replies.Acquire(ctx, share); err != nil {
			done()
			c.replyError(m.ID, wire.Errorf(wire.CodeCancelled, "%s cancelled", m.Type))
			return
		}
	}
	out, werr := c.call(ctx, m, h)
	done()
	if m.Type == wire.TypeExecute {
		if err := c.replies.Acquire(c.ctx, share); err != nil {
			return // the connection ended: nobody to answer
		}
	}
	if werr != nil {
		c.replies.Release(share)
		c.replyError(m.ID, werr)
		return
	}
	c.reply(m.ID, out, share)
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
