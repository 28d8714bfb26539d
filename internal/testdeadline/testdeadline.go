package testdeadline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// MaxGrace is how long before the test binary's deadline a wait ends: time
// for the failing test to report and clean up before go test panics. When
// less than twice that is left, half of what is left is kept instead.
const MaxGrace = 5 * time.Second

// T is what the package needs of a test; testing.TB has it. The deadline
// comes from a Deadline method (*testing.T has one); a T without one
// (*testing.B) has no deadline here, so its waits end only at cleanup and
// go test's -timeout remains their bound.
type T interface {
	Helper()
	Cleanup(func())
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

type deadliner interface {
	Deadline() (time.Time, bool)
}

// InBubble is how long a wait lasts inside a testing/synctest bubble, on
// the bubble's virtual clock (go test's default -timeout): go test's
// deadline is on the real clock, which a bubble does not see (its
// t.Deadline panics). A hung bubble reaches InBubble at once; a bubble
// whose goroutines keep ticking reaches it after 10 virtual minutes, which
// pass as fast as the ticks can run.
const InBubble = 10 * time.Minute

// deadlineOf is t's deadline, if it has one, on time.Now's clock.
func deadlineOf(t T) (time.Time, bool) {
	d, ok := t.(deadliner)
	if !ok {
		return time.Time{}, false
	}
	deadline, ok, bubbled := askDeadline(d)
	if bubbled {
		return time.Now().Add(InBubble), true
	}
	return deadline, ok
}

// askDeadline calls d.Deadline, telling a synctest bubble's refusal (a
// panic naming the bubble) from an answer; any other panic goes on.
func askDeadline(d deadliner) (deadline time.Time, ok, bubbled bool) {
	defer func() {
		if r := recover(); r != nil {
			if msg, isString := r.(string); isString && strings.Contains(msg, "synctest bubble") {
				bubbled = true
				return
			}
			panic(r)
		}
	}()
	deadline, ok = d.Deadline()
	return deadline, ok, false
}

// ErrDeadline is the cause of a context from Context that reached its
// deadline (context.Cause); the error names what was waited for.
var ErrDeadline = errors.New("waited until shortly before go test's -timeout")

// Context returns a context for t's waits that ends a grace period before
// the test binary's deadline (go test -timeout) and is cancelled when t
// cleans up. If it reaches its deadline, t fails with an error naming what
// — what the test waited for, e.g. "the server's reply to login" — and
// context.Cause on it returns that error (wrapping ErrDeadline). With no
// deadline (go test -timeout 0) the context ends only at cleanup.
//
// Inside a testing/synctest bubble the deadline is InBubble on the
// bubble's own clock.
func Context(t T, what string) context.Context {
	t.Helper()
	ctx, stop := until(t, what, true)
	t.Cleanup(stop)
	return ctx
}

// WithCancel is Context with a cancel function that ends the wait (and
// its report) early: the form for a wait shorter than the test, such as a
// dial inside a helper (defer cancel()), or for a test that cancels a run
// as part of what it checks.
func WithCancel(t T, what string) (context.Context, context.CancelFunc) {
	t.Helper()
	ctx, stop := until(t, what, true)
	t.Cleanup(stop)
	return ctx, stop
}

// At returns the instant a wait of t's should give up at: a grace period
// before the test binary's deadline, or the zero time when there is none
// (which net.Conn's SetDeadline reads as "no deadline"). Use it for a
// connection's deadline or a poll's bound; the failure is then the test's
// own, saying what it waited for.
func At(t T) time.Time {
	t.Helper()
	deadline, ok := deadlineOf(t)
	if !ok {
		return time.Time{}
	}
	return deadline.Add(-grace(time.Now(), deadline))
}

// After is time.After for a select's hang guard: its channel receives at
// At(t), and never when the test binary has no deadline. The select's own
// failure message says what was waited for.
func After(t T) <-chan time.Time {
	t.Helper()
	at := At(t)
	if at.IsZero() {
		return nil
	}
	return time.After(time.Until(at))
}

// Recv waits for a value from ch and returns it; if ch closes, it returns
// the zero value. If the wait reaches the deadline Context would have, t
// fails now with a message naming what. Call it from the test's goroutine
// (it calls t.Fatalf).
func Recv[V any](t T, ch <-chan V, what string) V {
	t.Helper()
	ctx, stop := until(t, what, false)
	defer stop()
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		t.Fatalf("%v", context.Cause(ctx))
		var zero V
		return zero
	}
}

// grace is how long before deadline a wait starting at now ends.
func grace(now, deadline time.Time) time.Duration {
	left := deadline.Sub(now)
	if left < 2*MaxGrace {
		return left / 2
	}
	return MaxGrace
}

// until returns the context Context describes and the function that ends
// it. With report, t.Errorf says so when the deadline is reached.
func until(t T, what string, report bool) (context.Context, func()) {
	t.Helper()
	deadline, ok := deadlineOf(t)
	if !ok {
		return context.WithCancel(context.Background())
	}
	start := time.Now()
	end := At(t)
	cause := fmt.Errorf("%w: still waiting for %s after %v, %v before the test binary's deadline",
		ErrDeadline, what, end.Sub(start).Round(time.Millisecond), deadline.Sub(end).Round(time.Millisecond))
	ctx, cancel := context.WithDeadlineCause(context.Background(), end, cause)
	if !report {
		return ctx, cancel
	}

	// Report the deadline from the context's own goroutine (Errorf is safe
	// there); stop that at cleanup, waiting for a report already under way
	// so it never lands after the test has finished.
	var reported sync.WaitGroup
	reported.Add(1)
	stopReport := context.AfterFunc(ctx, func() {
		defer reported.Done()
		t.Errorf("%v", cause) // only the deadline ends ctx before stopReport
	})
	return ctx, func() {
		if stopReport() {
			reported.Done()
		}
		cancel()
		reported.Wait()
	}
}
