package main

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// handClock is a progress clock the test drives: it hands out tickers whose
// ticks the test sends, and a time the test moves.
type handClock struct {
	mu      sync.Mutex
	t       time.Time
	periods []time.Duration
	ticks   []chan time.Time
	stopped int
}

func newHandClock() *handClock { return &handClock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)} }

func (c *handClock) clock() *progressClock {
	return &progressClock{
		newTicker: func(d time.Duration) ticker {
			c.mu.Lock()
			defer c.mu.Unlock()
			ch := make(chan time.Time)
			c.periods = append(c.periods, d)
			c.ticks = append(c.ticks, ch)
			return ticker{C: ch, Stop: func() { c.mu.Lock(); c.stopped++; c.mu.Unlock() }}
		},
		now: func() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t },
	}
}

func (c *handClock) advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// tick sends a tick to the i-th ticker (the goroutine printing takes it).
func (c *handClock) tick(i int) {
	c.mu.Lock()
	ch := c.ticks[i]
	c.mu.Unlock()
	ch <- time.Time{}
}

// lineWriter hands each write to a channel: the test reads the progress
// lines as they are written.
type lineWriter chan string

func (w lineWriter) Write(b []byte) (int, error) { w <- string(b); return len(b), nil }

// TestStartProgress: a line at every tick with the time since the start,
// ticks every 5 s, and none after stop.
func TestStartProgress(t *testing.T) {
	hc := newHandClock()
	lines := make(lineWriter)
	e := &env{stderr: lines, clock: hc.clock()}
	stop := e.startProgress(worldProgress("big"))
	require.Equal(t, []time.Duration{5 * time.Second}, hc.periods, "a line at least every 5 seconds")
	for i := 1; i <= 3; i++ {
		hc.advance(5 * time.Second)
		go hc.tick(0)
		assert.Equal(t, "… generating the world of scenario big ("+(time.Duration(i)*5*time.Second).String()+")\n", <-lines)
	}
	stop()
	stop() // again: nothing happens
	assert.Equal(t, 1, hc.stopped, "the ticker is stopped once")
	select {
	case hc.ticks[0] <- time.Time{}:
		t.Fatal("a tick was taken after stop")
	default:
	}
}

// TestNoProgressOffATerminal: without a terminal (a pipe, a log file, the
// tests' buffers) there are no progress lines and no ticker.
func TestNoProgressOffATerminal(t *testing.T) {
	var buf bytes.Buffer
	e := &env{stderr: &buf}
	assert.Nil(t, e.progressClock())
	stop := e.startProgress(worldProgress("x"))
	stop()
	conn := ipc.InProcess(nil)
	got, onStep, stop := e.runProgress(conn)
	stop()
	assert.Equal(t, conn, got, "the connection is not wrapped")
	assert.Nil(t, onStep)
	assert.Empty(t, buf.String())
}

// blockingConn is a body connection whose actions last until the test
// releases them.
type blockingConn struct {
	ipc.Conn
	entered, release chan struct{}
}

func (c blockingConn) Execute(ctx context.Context, a action.Action) (ipc.Result, error) {
	c.entered <- struct{}{}
	<-c.release
	return ipc.Result{Code: ipc.OK}, nil
}

// TestStepProgress: while a step is under way the line names the step, how
// long it has taken, and the action the body is carrying out.
func TestStepProgress(t *testing.T) {
	hc := newHandClock()
	lines := make(lineWriter)
	e := &env{stderr: lines, clock: hc.clock()}
	bc := blockingConn{entered: make(chan struct{}), release: make(chan struct{})}
	conn, onStep, stop := e.runProgress(bc)
	defer stop()
	require.NotNil(t, onStep)

	hc.advance(2 * time.Second) // the first look and the plan
	go hc.tick(0)
	assert.Equal(t, "… step 1 under way for 2s\n", <-lines)

	done := make(chan struct{})
	go func() {
		defer close(done)
		res, err := conn.Execute(context.Background(), action.MoveTo{Radius: 1})
		assert.NoError(t, err)
		assert.Equal(t, ipc.OK, res.Code)
	}()
	<-bc.entered
	hc.advance(7 * time.Second)
	go hc.tick(0)
	assert.Equal(t, "… step 1 under way for 9s: move_to for 7s\n", <-lines)
	hc.advance(5 * time.Second)
	go hc.tick(0)
	assert.Equal(t, "… step 1 under way for 14s: move_to for 12s\n", <-lines)
	close(bc.release)
	<-done

	go hc.tick(0)
	assert.Equal(t, "… step 1 under way for 14s\n", <-lines, "the action ended")
	onStep(loop.StepRecord{Step: 1})
	hc.advance(3 * time.Second)
	go hc.tick(0)
	assert.Equal(t, "… step 2 under way for 3s\n", <-lines)
}

// TestRunTimesItsProgress: agent run starts the progress lines of the
// world's generation and of its steps, at 5 s, and stops both.
func TestRunTimesItsProgress(t *testing.T) {
	hc := newHandClock()
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb, log: newLogger(&errb), clock: hc.clock()}
	require.NoError(t, dispatch(e, []string{"run", "--goal", "collect 1 minecraft:log"}), errb.String())
	assert.Contains(t, out.String(), "goal met")
	assert.Equal(t, []time.Duration{5 * time.Second, 5 * time.Second}, hc.periods, "the world, then the steps")
	assert.Equal(t, 2, hc.stopped)
}
