package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// ClientOptions configure a Client.
type ClientOptions struct {
	// Role is agent (the default: it may execute) or observer.
	Role string
	// Name says who connects, for the server's logs.
	Name string
	// Token is sent in the hello; it is never logged.
	Token string
	// Events are the event kinds to subscribe to; OnEvent receives them
	// (and lagged and disconnect notices) on the connection's reader, so it
	// must not block.
	Events  []string
	OnEvent func(kind string, payload json.RawMessage)
	// Handle answers requests the peer sends (a planner asking its agent
	// about the world: Queries.Answer fits); nil answers unsupported. It
	// runs in its own goroutine per request; ctx ends when the peer
	// cancels the request or the connection ends.
	Handle func(ctx context.Context, typ string, payload json.RawMessage) (any, error)
	// MaxMessage limits one incoming message (0: wire.DefaultMaxMessage).
	MaxMessage int
	// Mirror bounds the copy of the world's blocks.
	Mirror wire.MirrorOptions
	Log    zerolog.Logger
}

// Client drives a body served over the wire protocol. It implements
// ipc.Conn: Observe returns snapshots whose Blocks mirror the remote
// world's chunks (kept up to date with block deltas), so the loop, the
// skills and the planners see what they would see in process. Requests
// may be issued concurrently; a cancelled context cancels its request on
// the server too.
type Client struct {
	opts    ClientOptions
	rwc     io.ReadWriteCloser
	w       *wire.Writer
	welcome wire.Welcome

	mu      sync.Mutex
	nextID  uint64
	pending map[string]chan *wire.Message
	err     error // why the connection ended
	done    chan struct{}
	// incoming are the peer's requests being answered, by id.
	incoming map[string]context.CancelFunc
	ctx      context.Context // ends with the connection
	stop     context.CancelFunc

	obsMu  sync.Mutex
	mirror *wire.Mirror

	// closeOnce closes rwc once, whether Close or the reader gets there
	// first; closeErr is what that close returned.
	closeOnce sync.Once
	closeErr  error
}

var _ ipc.Conn = (*Client)(nil)

// ErrClosed wraps the reason of a connection that ended.
var ErrClosed = ipc.ErrClosed

// Dial connects to unix:///path or tcp://HOST:PORT and says hello.
func Dial(ctx context.Context, addr string, opts ClientOptions) (*Client, error) {
	a, err := wire.ParseAddr(addr)
	if err != nil {
		return nil, err
	}
	nc, err := wire.Dial(ctx, a)
	if err != nil {
		return nil, err
	}
	c, err := NewClient(ctx, nc, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a, err)
	}
	return c, nil
}

// NewClient says hello over rwc (a socket, or a child's stdin and stdout)
// and returns the client; on error rwc is closed.
func NewClient(ctx context.Context, rwc io.ReadWriteCloser, opts ClientOptions) (*Client, error) {
	if opts.Role == "" {
		opts.Role = wire.RoleAgent
	}
	c := &Client{opts: opts, rwc: rwc, w: wire.NewWriter(rwc, opts.MaxMessage),
		pending: map[string]chan *wire.Message{}, done: make(chan struct{}), mirror: wire.NewMirror(opts.Mirror),
		incoming: map[string]context.CancelFunc{}}
	c.ctx, c.stop = context.WithCancel(context.Background())
	go c.read()
	hello := wire.Hello{Protocol: wire.Version, Role: opts.Role, Name: opts.Name, Token: opts.Token, Events: opts.Events}
	if err := c.Call(ctx, wire.TypeHello, hello, &c.welcome); err != nil {
		c.Close()
		return nil, fmt.Errorf("hello: %w", err)
	}
	return c, nil
}

// Welcome is the server's answer to the hello.
func (c *Client) Welcome() wire.Welcome { return c.welcome }

// Done is closed when the connection ends; Err then says why.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err is why the connection ended (nil while it is open).
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *Client) read() {
	r := wire.NewReader(c.rwc, c.opts.MaxMessage)
	var err error
	for {
		var line []byte
		line, err = r.Next()
		var tl *wire.TooLargeError
		if errors.As(err, &tl) {
			// A reply we cannot read: the request waiting for it would
			// wait forever, so the connection is unusable.
			err = fmt.Errorf("a message from the server exceeds the limit: %w", err)
			break
		}
		if err != nil {
			break
		}
		m, derr := wire.Decode(line)
		if derr != nil {
			c.opts.Log.Warn().Err(derr).Msg("ignoring a malformed message from the server")
			continue
		}
		switch {
		case m.Type == wire.TypeReply || m.Type == wire.TypeError:
			if len(m.ID) == 0 {
				c.opts.Log.Warn().RawJSON("payload", m.Payload).Msg("the server reported an error about a message")
				continue
			}
			c.mu.Lock()
			ch := c.pending[string(m.ID)]
			delete(c.pending, string(m.ID))
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case m.Type == wire.TypeCancel && len(m.ID) == 0:
			var n wire.CancelNotice
			if json.Unmarshal(m.Payload, &n) == nil {
				c.mu.Lock()
				if cancel, ok := c.incoming[string(n.ID)]; ok {
					cancel()
				}
				c.mu.Unlock()
			}
		case m.IsEvent():
			if c.opts.OnEvent != nil {
				c.opts.OnEvent(m.Type, m.Payload)
			}
		default:
			c.answer(m)
		}
	}
	if errors.Is(err, io.EOF) {
		err = errors.New("the server closed the connection")
	}
	c.mu.Lock()
	c.err = fmt.Errorf("%w: %v", ErrClosed, err)
	pending := c.pending
	c.pending = map[string]chan *wire.Message{}
	c.mu.Unlock()
	for _, ch := range pending {
		close(ch)
	}
	c.stop()
	c.closeRWC() // nothing more can be read: free the connection
	close(c.done)
}

// maxIncoming bounds the peer's requests answered at once.
const maxIncoming = 32

// answer runs the Handle hook for a request from the peer.
func (c *Client) answer(m *wire.Message) {
	if c.opts.Handle == nil {
		c.replyError(m.ID, wire.Errorf(wire.CodeUnsupported, "this client answers no requests"))
		return
	}
	key := string(m.ID)
	c.mu.Lock()
	_, dup := c.incoming[key]
	busy := len(c.incoming) >= maxIncoming
	var ctx context.Context
	var cancel context.CancelFunc
	if !dup && !busy {
		ctx, cancel = context.WithCancel(c.ctx)
		c.incoming[key] = cancel
	}
	c.mu.Unlock()
	switch {
	case dup:
		c.replyError(m.ID, wire.Errorf(wire.CodeBadRequest, "request id %s is already in flight", key))
		return
	case busy:
		c.replyError(m.ID, wire.Errorf(wire.CodeBusy, "%d requests in flight", maxIncoming))
		return
	}
	go func() {
		out, err := func() (out any, err error) {
			defer func() {
				if v := recover(); v != nil {
					out, err = nil, wire.Errorf(wire.CodeInternal, "the client failed answering %s", m.Type)
				}
			}()
			return c.opts.Handle(ctx, m.Type, m.Payload)
		}()
		cancel()
		c.mu.Lock()
		delete(c.incoming, key)
		c.mu.Unlock()
		if err != nil {
			var we *wire.Error
			switch {
			case errors.As(err, &we):
			case errors.Is(err, context.Canceled):
				we = wire.Errorf(wire.CodeCancelled, "%s cancelled", m.Type)
			default:
				we = wire.Errorf(wire.CodeInternal, "%s: %v", m.Type, err)
			}
			c.replyError(m.ID, we)
			return
		}
		line, err := wire.Encode(m.ID, wire.TypeReply, out)
		if err != nil {
			c.replyError(m.ID, wire.Errorf(wire.CodeInternal, "%v", err))
			return
		}
		if err := c.w.WriteLine(line); err != nil && wire.CodeOf(err) == wire.CodeTooLarge {
			c.replyError(m.ID, err.(*wire.Error))
		}
	}()
}

func (c *Client) replyError(id json.RawMessage, e *wire.Error) {
	if line, err := wire.Encode(id, wire.TypeError, e); err == nil {
		c.w.WriteLine(line)
	}
}

// Call sends a request and decodes the reply's payload into out (nil:
// ignore it). An error reply is returned as a *wire.Error; a closed
// connection as an error wrapping ErrClosed.
func (c *Client) Call(ctx context.Context, typ string, req, out any) error {
	raw, err := c.call(ctx, typ, req)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s reply: %w", typ, err)
	}
	return nil
}

func (c *Client) call(ctx context.Context, typ string, req any) (json.RawMessage, error) {
	ch := make(chan *wire.Message, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return nil, err
	}
	c.nextID++
	id := json.RawMessage(strconv.FormatUint(c.nextID, 10))
	c.pending[string(id)] = ch
	c.mu.Unlock()
	line, err := wire.Encode(id, typ, req)
	if err == nil {
		err = c.w.WriteLine(line)
	}
	if err != nil {
		c.forget(id)
		return nil, fmt.Errorf("sending %s: %w", typ, err)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return nil, c.Err()
		}
		if m.Type == wire.TypeError {
			var e wire.Error
			if err := json.Unmarshal(m.Payload, &e); err != nil {
				return nil, fmt.Errorf("%s: unreadable error reply: %w", typ, err)
			}
			return nil, &e
		}
		return m.Payload, nil
	case <-ctx.Done():
		c.forget(id)
		if line, err := wire.Encode(nil, wire.TypeCancel, wire.CancelNotice{ID: id}); err == nil {
			c.w.WriteLine(line)
		}
		return nil, ctx.Err()
	}
}

func (c *Client) forget(id json.RawMessage) {
	c.mu.Lock()
	delete(c.pending, string(id))
	c.mu.Unlock()
}

// Hello implements ipc.Conn with what the server said in its welcome.
func (c *Client) Hello(ctx context.Context) (ipc.Info, error) {
	if err := c.Err(); err != nil {
		return ipc.Info{}, err
	}
	info := ipc.Info{Name: c.welcome.Name}
	for _, k := range c.welcome.Actions {
		info.Supports = append(info.Supports, action.Kind(k))
	}
	return info, ctx.Err()
}

// maxDeltaRounds bounds the observe calls one Observe makes while the
// server sends its block changes in parts.
const maxDeltaRounds = 1 << 16

// Observe implements ipc.Conn: the snapshot with the mirrored blocks.
func (c *Client) Observe(ctx context.Context) (*world.Snapshot, error) {
	c.obsMu.Lock()
	defer c.obsMu.Unlock()
	for range maxDeltaRounds {
		var obs wire.Observation
		if err := c.Call(ctx, wire.TypeObserve, wire.ObserveRequest{Blocks: "delta", Base: c.mirror.Seq()}, &obs); err != nil {
			return nil, err
		}
		if obs.Snapshot == nil || obs.Blocks == nil {
			return nil, errors.New("observe reply: no snapshot or no blocks")
		}
		if err := c.mirror.Apply(obs.Blocks); err != nil {
			return nil, fmt.Errorf("observe reply: blocks: %w", err)
		}
		if !obs.Blocks.More {
			obs.Snapshot.Blocks = c.mirror.View()
			return obs.Snapshot, nil
		}
	}
	return nil, errors.New("observe: the server kept sending block changes")
}

// Execute implements ipc.Conn. A nil action is refused here, as in
// process; an error reply (busy, an observer's connection) is an error.
func (c *Client) Execute(ctx context.Context, a action.Action) (ipc.Result, error) {
	if a == nil {
		return ipc.Failf(ipc.InvalidParams, 0, "nil action"), nil
	}
	if err := ctx.Err(); err != nil {
		// Do not send it: the body would start an action nobody waits for.
		return ipc.Failf(ipc.Interrupted, 0, "%v", err), nil
	}
	payload, err := action.Marshal(a)
	if err != nil {
		return ipc.Result{}, fmt.Errorf("encoding %s: %w", a.Kind(), err)
	}
	var res wire.ResultJSON
	if err := c.Call(ctx, wire.TypeExecute, json.RawMessage(payload), &res); err != nil {
		if ctx.Err() != nil {
			return ipc.Failf(ipc.Interrupted, 0, "%v", ctx.Err()), nil
		}
		return ipc.Result{}, err
	}
	if !res.Code.Valid() {
		return ipc.Failf(ipc.Internal, res.Ticks, "body returned unknown result code %q", res.Code), nil
	}
	return res.Result(), nil
}

// closeRWC closes the connection once and reports whether this call did.
func (c *Client) closeRWC() bool {
	did := false
	c.closeOnce.Do(func() {
		did = true
		c.closeErr = c.rwc.Close()
	})
	return did
}

// Close ends the connection; requests in flight fail. It is idempotent: a
// second Close, or a Close after the server ended the connection, returns
// nil.
func (c *Client) Close() error {
	did := c.closeRWC()
	<-c.done
	if did {
		return c.closeErr
	}
	return nil
}
