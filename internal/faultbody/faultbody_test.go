package faultbody

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

type okBody struct{ runs int }

func (b *okBody) Info() ipc.Info { return ipc.Info{Name: "ok", Supports: action.Kinds()} }
func (b *okBody) Observe(context.Context) (*world.Snapshot, error) {
	return &world.Snapshot{}, nil
}
func (b *okBody) Execute(context.Context, action.Action) ipc.Result {
	b.runs++
	return ipc.Result{Code: ipc.OK, Ticks: 5}
}

func TestFaults(t *testing.T) {
	ctx := context.Background()
	inner := &okBody{}
	corrections := 0
	b := New(inner, Options{Seed: 7, Rates: Rates{Fail: 0.1, Timeout: 0.1, Disconnect: 0.05, Correction: 0.1},
		Correct: func(*rand.Rand) { corrections++ }})
	codes := map[ipc.Code]int{}
	for range 2000 {
		res := b.Execute(ctx, action.Wait{Ticks: 1})
		codes[res.Code]++
		if b.Disconnected() {
			_, err := b.Observe(ctx)
			require.ErrorIs(t, err, ErrDisconnected)
			assert.Equal(t, ipc.IOError, b.Execute(ctx, action.Wait{Ticks: 1}).Code, "no action runs while disconnected")
			b.Reconnect()
			_, err = b.Observe(ctx)
			require.NoError(t, err)
		}
	}
	c := b.Counts()
	assert.Equal(t, c.Fail, codes[ipc.Rejected])
	assert.Equal(t, c.Timeout, codes[ipc.Timeout])
	assert.Equal(t, c.Correction, codes[ipc.Interrupted])
	assert.Equal(t, c.Correction, corrections)
	assert.Equal(t, c.Disconnect, c.Reconnects)
	assert.Equal(t, c.Disconnect, codes[ipc.IOError])
	// The rates hold roughly, and every fault kind happened.
	assert.InDelta(t, 200, c.Fail, 60)
	assert.InDelta(t, 200, c.Timeout, 60)
	assert.InDelta(t, 100, c.Disconnect, 40)
	assert.InDelta(t, 200, c.Correction, 60)
	// Only the actions that were not faulted (and the disconnecting ones) ran.
	assert.Equal(t, codes[ipc.OK]+c.Disconnect, inner.runs)

	// The same seed gives the same faults.
	b2 := New(&okBody{}, Options{Seed: 7, Rates: b.opts.Rates})
	b3 := New(&okBody{}, Options{Seed: 7, Rates: b.opts.Rates})
	for range 500 {
		r2, r3 := b2.Execute(ctx, action.Wait{Ticks: 1}), b3.Execute(ctx, action.Wait{Ticks: 1})
		require.Equal(t, r2, r3)
		b2.Reconnect()
		b3.Reconnect()
	}
}

// TestReconnectCountsOnlyAfterADisconnect: Reconnect on a connected body
// changes nothing, so Counts.Reconnects matches the disconnects healed.
func TestReconnectCountsOnlyAfterADisconnect(t *testing.T) {
	b := New(&okBody{}, Options{Rates: Rates{Disconnect: 1}})
	b.Reconnect()
	assert.Zero(t, b.Counts().Reconnects)
	b.Execute(context.Background(), action.Wait{Ticks: 1})
	assert.True(t, b.Disconnected())
	b.Reconnect()
	b.Reconnect()
	assert.Equal(t, 1, b.Counts().Reconnects)
	assert.False(t, b.Disconnected())
}
