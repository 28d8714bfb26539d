package testdeadline

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeT is a test whose deadline the test sets, recording what it is told.
type fakeT struct {
	deadline time.Time
	has      bool

	mu       sync.Mutex
	errors   []string
	fatals   []string
	cleanups []func()
}

func (f *fakeT) Helper() {}

func (f *fakeT) Cleanup(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cleanups = append(f.cleanups, fn)
}

func (f *fakeT) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *fakeT) Fatalf(format string, args ...any) {
	f.mu.Lock()
	f.fatals = append(f.fatals, fmt.Sprintf(format, args...))
	f.mu.Unlock()
	runtime.Goexit()
}

func (f *fakeT) Deadline() (time.Time, bool) { return f.deadline, f.has }

// cleanup runs the cleanups last first, as testing does.
func (f *fakeT) cleanup() {
	f.mu.Lock()
	fns := slices.Clone(f.cleanups)
	f.cleanups = nil
	f.mu.Unlock()
	for _, fn := range slices.Backward(fns) {
		fn()
	}
}

func (f *fakeT) reports() (errs, fatals []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.errors), slices.Clone(f.fatals)
}

// TestContextFailsTheTestBeforeTheBinarysDeadline: a wait that reaches the
// deadline ends MaxGrace before go test's and fails the test naming what.
func TestContextFailsTheTestBeforeTheBinarysDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := &fakeT{deadline: time.Now().Add(time.Minute), has: true}
		ctx := Context(ft, "the server's reply to login")
		end, ok := ctx.Deadline()
		require.True(t, ok)
		assert.Equal(t, ft.deadline.Add(-MaxGrace), end)

		<-ctx.Done()
		synctest.Wait() // the report runs on the context's goroutine
		assert.Equal(t, ft.deadline.Add(-MaxGrace), time.Now())
		assert.ErrorIs(t, context.Cause(ctx), ErrDeadline)
		errs, fatals := ft.reports()
		require.Len(t, errs, 1)
		assert.Contains(t, errs[0], "still waiting for the server's reply to login after 55s, 5s before the test binary's deadline")
		assert.Empty(t, fatals)
		ft.cleanup()
		errs, _ = ft.reports()
		assert.Len(t, errs, 1, "cleanup after the deadline reports nothing more")
	})
}

// TestContextEndsQuietlyAtCleanup: a test that finished in time is not
// failed; its context is cancelled when it cleans up.
func TestContextEndsQuietlyAtCleanup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := &fakeT{deadline: time.Now().Add(time.Minute), has: true}
		ctx := Context(ft, "a reply")
		<-time.After(30 * time.Second) // the bubble's clock: the wait is half over
		require.NoError(t, ctx.Err())
		ft.cleanup()
		assert.ErrorIs(t, ctx.Err(), context.Canceled)
		assert.ErrorIs(t, context.Cause(ctx), context.Canceled)
		<-time.After(time.Minute) // the bubble's clock: past where the deadline was
		synctest.Wait()
		errs, fatals := ft.reports()
		assert.Empty(t, errs)
		assert.Empty(t, fatals)
	})
}

// TestGraceShrinksWhenLittleIsLeft: with less than twice MaxGrace left, a
// wait keeps half of what is left for the report.
func TestGraceShrinksWhenLittleIsLeft(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, tc := range []struct{ left, want time.Duration }{
			{time.Hour, time.Hour - MaxGrace},
			{2 * MaxGrace, MaxGrace},
			{2*MaxGrace - 2*time.Second, MaxGrace - time.Second},
			{4 * time.Second, 2 * time.Second},
		} {
			ft := &fakeT{deadline: time.Now().Add(tc.left), has: true}
			ctx := Context(ft, "x")
			end, ok := ctx.Deadline()
			require.True(t, ok)
			assert.Equal(t, tc.want, end.Sub(time.Now()), "with %v left", tc.left)
			ft.cleanup()
		}
	})
}

// TestContextWithoutDeadline: go test -timeout 0 gives no deadline; the
// context then ends only at cleanup.
func TestContextWithoutDeadline(t *testing.T) {
	ft := &fakeT{}
	ctx := Context(ft, "x")
	_, ok := ctx.Deadline()
	assert.False(t, ok)
	require.NoError(t, ctx.Err())
	ft.cleanup()
	assert.ErrorIs(t, ctx.Err(), context.Canceled)
}

// TestWithCancel: the test's own cancel ends the wait without failing it.
func TestWithCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := &fakeT{deadline: time.Now().Add(time.Minute), has: true}
		ctx, cancel := WithCancel(ft, "x")
		end, ok := ctx.Deadline()
		require.True(t, ok)
		assert.Equal(t, ft.deadline.Add(-MaxGrace), end)
		cancel()
		assert.ErrorIs(t, ctx.Err(), context.Canceled)
		<-time.After(2 * time.Minute) // the bubble's clock: the test goes on past the deadline
		synctest.Wait()
		errs, _ := ft.reports()
		assert.Empty(t, errs, "a wait that ended is not reported")
		cancel() // twice is fine
		synctest.Wait()
		errs, _ = ft.reports()
		assert.Empty(t, errs)
	})
}

// TestRecv: a value that comes is returned; a wait that reaches the
// deadline fails the test at once, naming what, and only once.
func TestRecv(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := &fakeT{deadline: time.Now().Add(time.Minute), has: true}
		ch := make(chan int, 1)
		ch <- 7
		assert.Equal(t, 7, Recv(ft, ch, "seven"))
		close(ch)
		assert.Equal(t, 0, Recv(ft, ch, "the close"))

		start := time.Now()
		done := make(chan struct{})
		go func() {
			defer close(done)
			Recv(ft, make(chan string), "a word that never comes")
			t.Error("Recv returned without a value")
		}()
		<-done
		assert.Equal(t, time.Minute-MaxGrace, time.Since(start))
		synctest.Wait()
		errs, fatals := ft.reports()
		assert.Empty(t, errs, "Recv reports with Fatalf alone")
		require.Len(t, fatals, 1)
		assert.Contains(t, fatals[0], "still waiting for a word that never comes")
	})
}

// TestOnARealTest: under go test (which always has a deadline unless
// -timeout 0) the context ends before the binary's deadline.
func TestOnARealTest(t *testing.T) {
	ctx := Context(t, "nothing")
	deadline, ok := t.Deadline()
	if !ok {
		t.Skip("go test -timeout 0: no deadline to end before")
	}
	end, ok := ctx.Deadline()
	require.True(t, ok)
	assert.True(t, end.Before(deadline), "%v is not before %v", end, deadline)
	assert.False(t, errors.Is(ctx.Err(), context.DeadlineExceeded))
}

// TestAt: the instant a wait gives up at is the context's deadline; with
// no deadline it is the zero time, no deadline for a connection.
func TestAt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := &fakeT{deadline: time.Now().Add(time.Minute), has: true}
		assert.Equal(t, ft.deadline.Add(-MaxGrace), At(ft))
		ft = &fakeT{deadline: time.Now().Add(4 * time.Second), has: true}
		assert.Equal(t, ft.deadline.Add(-2*time.Second), At(ft))
	})
	assert.True(t, At(&fakeT{}).IsZero())
}

// TestAfter: a select's guard fires at At and not before; with no
// deadline it never fires.
func TestAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ft := &fakeT{deadline: time.Now().Add(time.Minute), has: true}
		start := time.Now()
		guard := After(ft)
		<-time.After(time.Minute - MaxGrace - time.Nanosecond) // the bubble's clock
		select {
		case <-guard:
			t.Fatal("the guard fired early")
		default:
		}
		fired := <-guard
		assert.Equal(t, start.Add(time.Minute-MaxGrace), fired)
	})
	assert.Nil(t, After(&fakeT{}))
}

// noDeadlineT is a test with no Deadline method, as *testing.B is.
type noDeadlineT struct{ *fakeT }

func (noDeadlineT) Deadline() {}

// TestWithoutADeadlineMethod: a benchmark's waits have no bound here.
func TestWithoutADeadlineMethod(t *testing.T) {
	ft := noDeadlineT{&fakeT{deadline: time.Now().Add(time.Minute), has: true}}
	ctx := Context(ft, "x")
	_, ok := ctx.Deadline()
	assert.False(t, ok)
	assert.True(t, At(ft).IsZero())
	ft.cleanup()
	assert.ErrorIs(t, ctx.Err(), context.Canceled)
	var _ T = testing.TB(nil)
}

// TestInABubble: inside a synctest bubble go test's deadline is not on the
// bubble's clock (t.Deadline panics there); a wait lasts InBubble of
// virtual time and fails the test, naming what, when it ends.
func TestInABubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		assert.Equal(t, start.Add(InBubble-MaxGrace), At(t))
		ft := &bubbledT{fakeT: &fakeT{}}
		ctx := Context(ft, "a packet")
		<-ctx.Done()
		synctest.Wait()
		assert.Equal(t, InBubble-MaxGrace, time.Since(start))
		errs, _ := ft.reports()
		require.Len(t, errs, 1)
		assert.Contains(t, errs[0], "still waiting for a packet after 9m55s")
		ft.cleanup()
	})
}

// bubbledT answers Deadline as a *testing.T in a bubble does.
type bubbledT struct{ *fakeT }

func (bubbledT) Deadline() (time.Time, bool) {
	panic("testing: t.Deadline called inside synctest bubble")
}

// panickyT panics in Deadline for a reason of its own.
type panickyT struct{ *fakeT }

func (panickyT) Deadline() (time.Time, bool) { panic("something else") }

// TestOtherPanicsGoOn: only a bubble's refusal is read as a bubble.
func TestOtherPanicsGoOn(t *testing.T) {
	assert.PanicsWithValue(t, "something else", func() { At(panickyT{&fakeT{}}) })
}
