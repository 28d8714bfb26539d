package remote

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// stillBody is a body whose world never changes; each Observe returns a
// new snapshot, and those after the first free ones wait for the gate
// (entered hears when one starts waiting).
type stillBody struct {
	free    atomic.Int32
	gate    chan struct{}
	entered chan struct{}
}

func (b *stillBody) Info() ipc.Info { return ipc.Info{Name: "still"} }

func (b *stillBody) Observe(ctx context.Context) (*world.Snapshot, error) {
	if b.free.Add(-1) < 0 {
		b.entered <- struct{}{}
		select {
		case <-b.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return &world.Snapshot{Tick: 7}, nil
}

func (b *stillBody) Execute(context.Context, action.Action) ipc.Result { return ipc.Result{} }

// stillServer is a server over a stillBody, with no connections (so its
// watcher runs only when the test calls it) and no polling.
func stillServer(t *testing.T, free int32) (*Server, *stillBody) {
	t.Helper()
	b := &stillBody{gate: make(chan struct{}), entered: make(chan struct{}, 1)}
	b.free.Store(free)
	s, err := NewServer(ServerOptions{Body: b, Poll: -1})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, b
}

func (w *watcher) base() *world.Snapshot {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.prev
}

// TestWatcherKeepsNoSnapshotWithoutSubscribers: a comparison that finds no
// one subscribed lets go of the snapshot it would have compared against,
// so the next subscriber's changes count from its own baseline, not from
// the world as the last subscriber left it.
func TestWatcherKeepsNoSnapshotWithoutSubscribers(t *testing.T) {
	s, _ := stillServer(t, 1)
	s.watch.baseline()
	require.NotNil(t, s.watch.base())
	s.watch.pass()
	assert.Nil(t, s.watch.base())
}

// TestBaselineKeepsASnapshotTakenMeanwhile: a baseline whose snapshot
// comes after a comparison set the starting point keeps that one (newer
// than its own), so the changes between the two are not reported twice.
func TestBaselineKeepsASnapshotTakenMeanwhile(t *testing.T) {
	s, b := stillServer(t, 0)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.watch.baseline()
	}()
	select {
	case <-b.entered:
	case <-testdeadline.After(t):
		t.Fatal("the baseline did not observe")
	}
	newer := &world.Snapshot{Tick: 8}
	s.watch.mu.Lock()
	s.watch.prev = newer
	s.watch.mu.Unlock()
	close(b.gate)
	select {
	case <-done:
	case <-testdeadline.After(t):
		t.Fatal("the baseline did not end")
	}
	assert.Same(t, newer, s.watch.base())
}
