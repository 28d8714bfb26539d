package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// progressEvery is how often a person watching a terminal hears from long
// work: generating a large world, a step on a server that walks far.
const progressEvery = 5 * time.Second

// ticker is what the progress lines are timed by: a channel that receives
// at every tick, and its stop.
type ticker struct {
	C    <-chan time.Time
	Stop func()
}

// progressClock times the progress lines; tests drive it by hand.
type progressClock struct {
	newTicker func(time.Duration) ticker
	now       func() time.Time
}

// wallClock is the clock of a terminal.
var wallClock = &progressClock{
	newTicker: func(d time.Duration) ticker {
		t := time.NewTicker(d)
		return ticker{C: t.C, Stop: t.Stop}
	},
	now: time.Now,
}

// progressClock returns the clock of the progress lines: the one a test
// set, the wall clock when stderr is a terminal, else nil (no lines: a log
// file or a pipe gets the step lines and the logs only).
func (e *env) progressClock() *progressClock {
	if e.clock != nil {
		return e.clock
	}
	if isTerminal(e.stderr) {
		return wallClock
	}
	return nil
}

// startProgress writes what(elapsed) as a line on stderr at every tick of
// progressEvery until stop is called; stop returns once no line can follow
// (and may be called again).
// Without a progress clock it does nothing.
func (e *env) startProgress(what func(elapsed time.Duration) string) (stop func()) {
	clock := e.progressClock()
	if clock == nil {
		return func() {}
	}
	start := clock.now()
	t := clock.newTicker(progressEvery)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			case <-t.C:
				select {
				case <-done: // stopped while the tick was pending: no line
					return
				default:
				}
				fmt.Fprintf(e.stderr, "… %s\n", what(clock.now().Sub(start).Round(time.Second)))
			}
		}
	})
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
			t.Stop()
		})
	}
}

// stepProgress follows a run's steps for the progress lines: which step is
// under way, since when, and the action the body is carrying out.
type stepProgress struct {
	now func() time.Time

	mu          sync.Mutex
	step        int
	stepSince   time.Time
	action      string
	actionSince time.Time
}

func newStepProgress(now func() time.Time) *stepProgress {
	return &stepProgress{now: now, step: 1, stepSince: now()}
}

// stepDone is the loop's OnStep: the next step starts.
func (p *stepProgress) stepDone(r loop.StepRecord) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.step = r.Step + 1
	p.stepSince = p.now()
	p.action = ""
}

func (p *stepProgress) actionStarted(a action.Action) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.action, p.actionSince = string(a.Kind()), p.now()
}

func (p *stepProgress) actionEnded() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.action = ""
}

// line says what is under way: the step, for how long, and its action.
func (p *stepProgress) line() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	s := fmt.Sprintf("step %d under way for %s", p.step, now.Sub(p.stepSince).Round(time.Second))
	if p.action != "" {
		s += fmt.Sprintf(": %s for %s", p.action, now.Sub(p.actionSince).Round(time.Second))
	}
	return s
}

// progressConn tells a stepProgress which action the body is carrying out.
type progressConn struct {
	ipc.Conn
	p *stepProgress
}

var _ ipc.Conn = progressConn{}

func (c progressConn) Execute(ctx context.Context, a action.Action) (ipc.Result, error) {
	c.p.actionStarted(a)
	defer c.p.actionEnded()
	return c.Conn.Execute(ctx, a)
}

// runProgress starts the progress lines of a run's steps: it returns the
// connection to give the loop, the loop's OnStep hook and the stop. Without
// a progress clock conn is returned as it is.
func (e *env) runProgress(conn ipc.Conn) (ipc.Conn, func(loop.StepRecord), func()) {
	clock := e.progressClock()
	if clock == nil {
		return conn, nil, func() {}
	}
	p := newStepProgress(clock.now)
	stop := e.startProgress(func(time.Duration) string { return p.line() })
	return progressConn{Conn: conn, p: p}, p.stepDone, stop
}

// worldProgress is the line while a scenario's world is generated.
func worldProgress(name string) func(time.Duration) string {
	return func(d time.Duration) string {
		return fmt.Sprintf("generating the world of scenario %s (%s)", name, d)
	}
}
