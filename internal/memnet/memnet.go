// Package memnet is an in-memory network for tests: connected pairs of
// net.Conns with socket-like buffers and deadlines, and a listener that
// hands out their server ends.
//
// Unlike net.Pipe, whose writes wait for the other end to read (two peers
// that both write at once wait for each other until a deadline), a memnet
// connection buffers what is written, as a TCP socket does, up to a bound.
// Everything it waits on is a channel or a timer, so client and server can
// run inside a testing/synctest bubble: the bubble's clock jumps ahead as
// soon as every goroutine in it waits, and a test of ticks, keep-alives and
// timeouts takes no wall time and does not depend on the machine's load.
package memnet

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"
)

// BufferSize is how many bytes one direction of a connection holds before
// a write waits for the reader (a socket's send and receive buffers, about).
const BufferSize = 1 << 20

// Pipe returns the two ends of an in-memory connection.
func Pipe() (net.Conn, net.Conn) {
	ab, ba := newStream(), newStream()
	a := &conn{r: ba, w: ab, local: Addr("a"), remote: Addr("b")}
	b := &conn{r: ab, w: ba, local: Addr("b"), remote: Addr("a")}
	return a, b
}

// stream is one direction of a connection.
type stream struct {
	mu      sync.Mutex
	buf     []byte
	wclosed bool          // the writer closed: the reader gets EOF once drained
	rclosed bool          // the reader closed: writes fail
	changed chan struct{} // closed and replaced on every change
}

func newStream() *stream { return &stream{changed: make(chan struct{})} }

// notifyLocked wakes everyone waiting on the stream.
func (s *stream) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// deadline is a settable deadline whose changes wake the waiters.
type deadline struct {
	mu      sync.Mutex
	t       time.Time
	changed chan struct{}
}

func (d *deadline) set(t time.Time) {
	d.mu.Lock()
	d.t = t
	if d.changed != nil {
		close(d.changed)
	}
	d.changed = make(chan struct{})
	d.mu.Unlock()
}

// wait returns a channel that fires when the deadline passes (nil: no
// deadline), whether it has passed, and a channel closed when it changes.
func (d *deadline) wait() (<-chan time.Time, *time.Timer, bool, <-chan struct{}) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.changed == nil {
		d.changed = make(chan struct{})
	}
	if d.t.IsZero() {
		return nil, nil, false, d.changed
	}
	left := time.Until(d.t)
	if left <= 0 {
		return nil, nil, true, d.changed
	}
	tm := time.NewTimer(left)
	return tm.C, tm, false, d.changed
}

// conn is one end of a Pipe.
type conn struct {
	r, w          *stream
	rdl, wdl      deadline
	closeOnce     sync.Once
	closed        chan struct{}
	initOnce      sync.Once
	local, remote Addr
}

func (c *conn) done() chan struct{} {
	c.initOnce.Do(func() { c.closed = make(chan struct{}) })
	return c.closed
}

func (c *conn) isClosed() bool {
	select {
	case <-c.done():
		return true
	default:
		return false
	}
}

// Read reads what the other end wrote, waiting for it.
func (c *conn) Read(p []byte) (int, error) {
	for {
		if c.isClosed() {
			return 0, net.ErrClosed
		}
		s := c.r
		s.mu.Lock()
		if len(s.buf) > 0 {
			n := copy(p, s.buf)
			s.buf = s.buf[n:]
			if len(s.buf) == 0 {
				s.buf = nil
			}
			s.notifyLocked()
			s.mu.Unlock()
			return n, nil
		}
		if s.wclosed {
			s.mu.Unlock()
			return 0, io.EOF
		}
		changed := s.changed
		s.mu.Unlock()
		if err := c.block(&c.rdl, changed); err != nil {
			return 0, err
		}
	}
}

// Write buffers p for the other end, waiting while its buffer is full.
func (c *conn) Write(p []byte) (int, error) {
	written := 0
	for {
		if c.isClosed() {
			return written, net.ErrClosed
		}
		s := c.w
		s.mu.Lock()
		if s.rclosed || s.wclosed {
			s.mu.Unlock()
			return written, &net.OpError{Op: "write", Net: "memnet", Err: syscall.EPIPE}
		}
		if room := BufferSize - len(s.buf); room > 0 {
			n := min(room, len(p)-written)
			s.buf = append(s.buf, p[written:written+n]...)
			written += n
			s.notifyLocked()
		}
		if written == len(p) {
			s.mu.Unlock()
			return written, nil
		}
		changed := s.changed
		s.mu.Unlock()
		if err := c.block(&c.wdl, changed); err != nil {
			return written, err
		}
	}
}

// block waits for the stream to change, the deadline to pass or the
// connection to close.
func (c *conn) block(d *deadline, changed <-chan struct{}) error {
	fire, tm, passed, moved := d.wait()
	if passed {
		return os.ErrDeadlineExceeded
	}
	if tm != nil {
		defer tm.Stop()
	}
	select {
	case <-changed:
		return nil
	case <-moved:
		return nil
	case <-fire:
		return os.ErrDeadlineExceeded
	case <-c.done():
		return net.ErrClosed
	}
}

// Close ends the connection: the other end reads EOF after what was
// written, and its writes fail.
func (c *conn) Close() error {
	first := false
	c.closeOnce.Do(func() {
		first = true
		close(c.done())
	})
	if !first {
		return nil
	}
	c.w.mu.Lock()
	c.w.wclosed = true
	c.w.notifyLocked()
	c.w.mu.Unlock()
	c.r.mu.Lock()
	c.r.rclosed = true
	c.r.buf = nil
	c.r.notifyLocked()
	c.r.mu.Unlock()
	return nil
}

func (c *conn) LocalAddr() net.Addr  { return c.local }
func (c *conn) RemoteAddr() net.Addr { return c.remote }

func (c *conn) SetDeadline(t time.Time) error {
	c.rdl.set(t)
	c.wdl.set(t)
	return nil
}
func (c *conn) SetReadDeadline(t time.Time) error  { c.rdl.set(t); return nil }
func (c *conn) SetWriteDeadline(t time.Time) error { c.wdl.set(t); return nil }

// Addr is a memnet address.
type Addr string

func (Addr) Network() string  { return "memnet" }
func (a Addr) String() string { return string(a) }

// ErrRefused is Dial's error when the listener is closed.
var ErrRefused = errors.New("memnet: connection refused (not listening)")

// Listener is an in-memory net.Listener: Dial makes a Pipe and hands its
// server end to Accept.
type Listener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
	addr  Addr
}

// Listen returns a Listener whose Addr says name.
func Listen(name string) *Listener {
	return &Listener{conns: make(chan net.Conn), done: make(chan struct{}), addr: Addr(name)}
}

// Accept waits for the next Dial.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops listening: waiting and later Dials are refused.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr is the listener's name.
func (l *Listener) Addr() net.Addr { return l.addr }

// Dial connects to the listener, waiting until it accepts.
func (l *Listener) Dial(ctx context.Context) (net.Conn, error) {
	client, server := Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
	case <-ctx.Done():
		client.Close()
		server.Close()
		return nil, ctx.Err()
	}
	client.Close()
	server.Close()
	return nil, ErrRefused
}
