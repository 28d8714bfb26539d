package sim

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
)

// TestLongWaitEndsWhenCancelled: a wait far past any bound (as a body
// called directly, without the action's validation, could be asked) lets
// others observe the world while its time passes, and ends Interrupted
// with the ticks that passed as soon as it is cancelled. A second action
// meanwhile waits its turn, and gives up when its own context ends.
func TestLongWaitEndsWhenCancelled(t *testing.T) {
	s := ovenWorld(t, "{item: minecraft:coal, count: 64}", 0, "")
	snap, err := s.Observe(context.Background())
	require.NoError(t, err)
	start := snap.Tick
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan ipc.Result, 1)
	go func() { done <- s.Execute(ctx, action.Wait{Ticks: 1 << 62}) }()

	// Observe is answered while the wait runs: the clock is seen moving.
	until := func(tick int64) {
		for {
			snap, err := s.Observe(context.Background())
			require.NoError(t, err)
			if snap.Tick >= tick {
				return
			}
			runtime.Gosched()
		}
	}
	until(start + 3*advanceSlice)
	second := make(chan ipc.Result, 1)
	go func() { second <- s.Execute(context.Background(), action.Chat{Message: "hi"}) }()
	until(start + 500*advanceSlice) // time for a second action to cut in, were it let
	gaveUp, giveUp := context.WithCancel(context.Background())
	third := make(chan ipc.Result, 1)
	go func() { third <- s.Execute(gaveUp, action.Chat{Message: "never"}) }()
	giveUp()
	res := <-third
	assert.Equal(t, ipc.Interrupted, res.Code, "an action waiting its turn gives up with its context")

	cancel()
	res = <-done
	assert.Equal(t, ipc.Interrupted, res.Code)
	assert.Contains(t, res.Error, "wait interrupted after")
	assert.GreaterOrEqual(t, res.Ticks, int64(500*advanceSlice))
	assert.Zero(t, res.Ticks%advanceSlice, "time passes in whole slices")
	snap, err = s.Observe(context.Background())
	require.NoError(t, err)
	assert.GreaterOrEqual(t, snap.Tick, start+res.Ticks, "the result's ticks are the time that passed")
	require.True(t, (<-second).OK())
	said, _ := s.ChatSince(0)
	require.Len(t, said, 1, "the cancelled action never ran")
	assert.Equal(t, "hi", said[0].Text)
	assert.Equal(t, start+res.Ticks, said[0].Tick, "the second action ran after the wait, not between its slices")

	// The body is free again.
	assert.True(t, s.Execute(context.Background(), action.Chat{Message: "after"}).OK())
	assert.Equal(t, []string{"hi", "after"}, s.Chat())
}

// TestWaitInSlicesIsOneWait: time passing in slices runs the machines as
// one stretch would: a wait longer than a slice cooks what the same ticks
// in short waits cook.
func TestWaitInSlicesIsOneWait(t *testing.T) {
	const ticks = 5*advanceSlice + 6 // 858 waits of 7
	long := ovenWorld(t, "{item: minecraft:coal, count: 8}", 0, "")
	res := long.Execute(context.Background(), action.Wait{Ticks: ticks})
	require.True(t, res.OK(), res.Error)
	assert.Equal(t, int64(ticks), res.Ticks)
	short := ovenWorld(t, "{item: minecraft:coal, count: 8}", 0, "")
	for range ticks / 7 {
		require.True(t, short.Execute(context.Background(), action.Wait{Ticks: 7}).OK())
	}
	assert.Equal(t, machine(t, short, ovenAt), machine(t, long, ovenAt))
	assert.NotEqual(t, machine(t, ovenWorld(t, "{item: minecraft:coal, count: 8}", 0, ""), ovenAt), machine(t, long, ovenAt),
		"the oven cooked")
}
