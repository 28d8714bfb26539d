package ipc

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Code classifies the outcome of an action. The taxonomy is shared by every
// body and transport.
type Code string

// Result codes.
const (
	// OK: the action did what it says.
	OK Code = "ok"
	// InvalidParams: the action's parameters are wrong for this world (an
	// item the inventory does not hold, a position outside the world).
	InvalidParams Code = "invalid_params"
	// UnsupportedAction: the body cannot execute this kind of action.
	UnsupportedAction Code = "unsupported_action"
	// Unreachable: no path to the target, or the target is out of reach.
	Unreachable Code = "unreachable"
	// Timeout: the action did not finish within its time limit.
	Timeout Code = "timeout"
	// Interrupted: the action was cancelled (shutdown, a server correction).
	Interrupted Code = "interrupted"
	// Rejected: the game refused the action (no support face, wrong tool,
	// a protected area, a full container).
	Rejected Code = "rejected"
	// IOError: the connection to the body failed.
	IOError Code = "io_error"
	// Internal: the body failed in a way that is its own bug (a panic).
	Internal Code = "internal"
)

// Codes lists the taxonomy, for documentation and validation.
var Codes = []Code{OK, InvalidParams, UnsupportedAction, Unreachable, Timeout, Interrupted, Rejected, IOError, Internal}

// Valid reports whether c is in the taxonomy.
func (c Code) Valid() bool {
	for _, x := range Codes {
		if x == c {
			return true
		}
	}
	return false
}

// Result is the outcome of one action.
type Result struct {
	Code Code `json:"code"`
	// Error explains a failure in words.
	Error string `json:"error,omitempty"`
	// Details carries body-specific facts (path length, blocks broken, …).
	Details map[string]any `json:"details,omitempty"`
	// Ticks is the game time the action took.
	Ticks int64 `json:"ticks"`
}

// OK reports whether the action succeeded.
func (r Result) OK() bool { return r.Code == OK }

// Failf builds a failed result.
func Failf(code Code, ticks int64, format string, args ...any) Result {
	return Result{Code: code, Error: fmt.Sprintf(format, args...), Ticks: ticks}
}

// Info describes a body.
type Info struct {
	// Name says what the body is ("sim", "gtnh").
	Name string `json:"name"`
	// Supports lists the action kinds the body can execute.
	Supports []action.Kind `json:"supports"`
}

// Body is what a world implementation provides: the simulator and the GTNH
// client implement it. Execute must honour ctx (return Interrupted when it is
// cancelled) and must not panic; InProcess turns a panic into Internal anyway.
type Body interface {
	Info() Info
	Observe(ctx context.Context) (*world.Snapshot, error)
	Execute(ctx context.Context, a action.Action) Result
}

// ChatLine is one chat line a body saw.
type ChatLine struct {
	// Seq numbers the body's chat lines: 1, 2, 3, … in the order they came.
	Seq uint64
	// From is the player who wrote it ("" for the server).
	From string
	// Text is the message, without the sender.
	Text string
	// Tick is the game tick when it came.
	Tick int64
}

// ChatSource is what a body implements when it can report chat. Bodies
// keep a bounded log of recent lines; ChatSince returns those numbered seq
// or later, oldest first, and next, the number the next line will get (pass
// it to the following call). When the first line returned is numbered past
// seq, the lines between were lost from the log. It must be safe to call
// while the body executes an action.
type ChatSource interface {
	ChatSince(seq uint64) (msgs []ChatLine, next uint64)
}

// Conn is the loop's view of a body, whatever the transport.
type Conn interface {
	Hello(ctx context.Context) (Info, error)
	Observe(ctx context.Context) (*world.Snapshot, error)
	// Execute returns the body's result; the error is only for transport
	// failures, which the loop treats as IOError.
	Execute(ctx context.Context, a action.Action) (Result, error)
	Close() error
}

// ErrClosed is returned by a closed connection.
var ErrClosed = errors.New("ipc: connection closed")

// inProcess is the in-process transport.
type inProcess struct {
	body   Body
	closed bool
}

var _ Conn = (*inProcess)(nil)

// InProcess connects to a body in the same process. Actions are checked
// against the body's declared support before they reach it, and a panicking
// body yields an Internal result rather than a crash.
func InProcess(b Body) Conn { return &inProcess{body: b} }

func (c *inProcess) Hello(ctx context.Context) (Info, error) {
	if c.closed {
		return Info{}, ErrClosed
	}
	return c.body.Info(), ctx.Err()
}

func (c *inProcess) Observe(ctx context.Context) (*world.Snapshot, error) {
	if c.closed {
		return nil, ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return c.body.Observe(ctx)
}

func (c *inProcess) Execute(ctx context.Context, a action.Action) (res Result, err error) {
	if c.closed {
		return Result{}, ErrClosed
	}
	if a == nil {
		return Failf(InvalidParams, 0, "nil action"), nil
	}
	if err := ctx.Err(); err != nil {
		return Failf(Interrupted, 0, "%v", err), nil
	}
	if !action.NewKindSet(c.body.Info().Supports...).Has(a.Kind()) {
		return Failf(UnsupportedAction, 0, "%s body does not support %s", c.body.Info().Name, a.Kind()), nil
	}
	if err := a.Validate(); err != nil {
		return Failf(InvalidParams, 0, "%s: %v", a.Kind(), err), nil
	}
	defer func() {
		if v := recover(); v != nil {
			res, err = Failf(Internal, 0, "body panicked executing %s: %v\n%s", a.Kind(), v, debug.Stack()), nil
		}
	}()
	res = c.body.Execute(ctx, a)
	if !res.Code.Valid() {
		return Failf(Internal, res.Ticks, "body returned unknown result code %q", res.Code), nil
	}
	return res, nil
}

func (c *inProcess) Close() error {
	c.closed = true
	return nil
}
