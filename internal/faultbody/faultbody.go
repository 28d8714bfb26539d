package faultbody

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// ErrDisconnected is what Observe returns while the body is disconnected.
var ErrDisconnected = errors.New("faultbody: disconnected (injected)")

// Rates are per-Execute probabilities of each fault, tried in this order;
// their sum must not exceed 1.
type Rates struct {
	// Fail: the action is refused without running (Rejected).
	Fail float64
	// Timeout: the action does not finish in time (Timeout, 100 ticks) and
	// does not run.
	Timeout float64
	// Disconnect: the action runs, then the connection drops: the result is
	// IOError and Observe fails until Reconnect.
	Disconnect float64
	// Correction: the server moves the player (Options.Correct) and the
	// action is interrupted (Interrupted).
	Correction float64
}

// Options configure a Body.
type Options struct {
	Seed  uint64
	Rates Rates
	// Correct moves the player as a server position correction would; nil
	// turns corrections into plain interruptions.
	Correct func(r *rand.Rand)
}

// Counts says how many faults were injected.
type Counts struct {
	Executes, Fail, Timeout, Disconnect, Correction, Reconnects int
}

// Body injects faults into an inner body. It is safe for concurrent use.
type Body struct {
	inner ipc.Body
	opts  Options

	mu           sync.Mutex
	rng          *rand.Rand
	disconnected bool
	counts       Counts
}

var _ ipc.Body = (*Body)(nil)

// New wraps inner.
func New(inner ipc.Body, opts Options) *Body {
	return &Body{inner: inner, opts: opts, rng: rand.New(rand.NewPCG(opts.Seed, 0xFA17B0D7))}
}

// Info implements ipc.Body.
func (b *Body) Info() ipc.Info { return b.inner.Info() }

// Observe implements ipc.Body; it fails while disconnected.
func (b *Body) Observe(ctx context.Context) (*world.Snapshot, error) {
	b.mu.Lock()
	down := b.disconnected
	b.mu.Unlock()
	if down {
		return nil, ErrDisconnected
	}
	return b.inner.Observe(ctx)
}

// Execute implements ipc.Body.
func (b *Body) Execute(ctx context.Context, a action.Action) ipc.Result {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.counts.Executes++
	if b.disconnected {
		return ipc.Failf(ipc.IOError, 0, "%s: not connected (injected)", a.Kind())
	}
	r := b.opts.Rates
	x := b.rng.Float64()
	switch {
	case x < r.Fail:
		b.counts.Fail++
		return ipc.Failf(ipc.Rejected, 0, "%s refused by the server (injected)", a.Kind())
	case x < r.Fail+r.Timeout:
		b.counts.Timeout++
		return ipc.Failf(ipc.Timeout, 100, "%s timed out (injected)", a.Kind())
	case x < r.Fail+r.Timeout+r.Disconnect:
		b.counts.Disconnect++
		res := b.inner.Execute(ctx, a)
		b.disconnected = true
		return ipc.Failf(ipc.IOError, res.Ticks, "%s: connection lost (injected)", a.Kind())
	case x < r.Fail+r.Timeout+r.Disconnect+r.Correction:
		b.counts.Correction++
		if b.opts.Correct != nil {
			b.opts.Correct(b.rng)
		}
		return ipc.Failf(ipc.Interrupted, 0, "%s interrupted: the server corrected the position (injected)", a.Kind())
	}
	return b.inner.Execute(ctx, a)
}

// Disconnected reports whether the connection is down.
func (b *Body) Disconnected() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.disconnected
}

// Reconnect brings a dropped connection back.
func (b *Body) Reconnect() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.disconnected {
		b.disconnected = false
		b.counts.Reconnects++
	}
}

// Counts returns the faults injected so far.
func (b *Body) Counts() Counts {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.counts
}
