package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/view/web"
)

func step(i int) loop.StepRecord {
	return loop.StepRecord{Step: i, Invocation: &loop.Invocation{Skill: "chop_tree"}, Verdict: loop.Success}
}

// TestAStuckBrowserNeverBlocksTheAgent: with one browser that never takes
// what it is sent and one that does, a thousand steps are added without
// waiting; the stuck browser is written to once (the write that hangs),
// the healthy one gets every step, and no more than one update per
// interval (fake time: testing/synctest).
func TestAStuckBrowserNeverBlocksTheAgent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := web.New(web.Options{Title: "test", MaxSteps: 1000})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go v.Publish(ctx, web.DefaultInterval)
		h := v.Handler(web.ServeOptions{})
		stuck := &streamWriter{ctx: ctx, stuck: true}
		good := &streamWriter{ctx: ctx}
		for _, w := range []*streamWriter{stuck, good} {
			go h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/events", nil).WithContext(ctx))
		}
		synctest.Wait()
		require.Equal(t, 1, stuck.writeCount(), "the first update hangs")

		start := time.Now()
		added := make(chan struct{})
		go func() {
			defer close(added)
			for i := 1; i <= 1000; i++ {
				v.OnStep(step(i))
			}
		}()
		synctest.Wait()
		select {
		case <-added:
		default:
			t.Fatal("adding steps waited for a browser")
		}
		<-time.After(time.Second) // fake time: the publisher's intervals pass
		synctest.Wait()
		elapsed := time.Since(start)

		us := good.updates()
		require.NotEmpty(t, us)
		var steps []int
		for _, u := range us {
			for _, s := range u.Steps {
				steps = append(steps, s.Step.Step)
			}
		}
		require.Len(t, steps, 1000, "every step once")
		assert.Equal(t, 1000, steps[999])
		assert.LessOrEqual(t, len(us), 2+int(elapsed/web.DefaultInterval), "at most one update per interval (and the first)")
		assert.Equal(t, 1, stuck.writeCount(), "the stuck browser holds only its own write")
		cancel()
	})
}

// TestUpdatesAreCoalesced: steps added faster than the interval reach a
// browser in few updates, each carrying the steps since its last one.
func TestUpdatesAreCoalesced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := web.New(web.Options{})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go v.Publish(ctx, web.DefaultInterval)
		good := &streamWriter{ctx: ctx}
		go v.Handler(web.ServeOptions{}).ServeHTTP(good, httptest.NewRequest(http.MethodGet, "/api/events", nil).WithContext(ctx))
		synctest.Wait()
		for i := 1; i <= 100; i++ {
			v.OnStep(step(i))
			<-time.After(10 * time.Millisecond) // fake time: ten steps per interval
		}
		<-time.After(time.Second)
		synctest.Wait()
		us := good.updates()
		n := 0
		for _, u := range us {
			n += len(u.Steps)
		}
		assert.Equal(t, 100, n)
		// 1 s of steps and 1 s after: at most 20 intervals, plus the first.
		assert.LessOrEqual(t, len(us), 22)
		assert.GreaterOrEqual(t, len(us), 5, "updates keep coming while steps do")
		cancel()
	})
}

// TestTooManyBrowsers: past MaxClients an event stream is 503.
func TestTooManyBrowsers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := web.New(web.Options{})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go v.Publish(ctx, 0)
		h := v.Handler(web.ServeOptions{MaxClients: 1})
		first := &streamWriter{ctx: ctx}
		go h.ServeHTTP(first, httptest.NewRequest(http.MethodGet, "/api/events", nil).WithContext(ctx))
		synctest.Wait()
		rw := httptest.NewRecorder()
		h.ServeHTTP(rw, httptest.NewRequest(http.MethodGet, "/api/events", nil))
		assert.Equal(t, http.StatusServiceUnavailable, rw.Code)
		assert.Contains(t, rw.Body.String(), "too many views open")
		cancel()
		synctest.Wait()
		rw = httptest.NewRecorder()
		ctx2, cancel2 := context.WithCancel(context.Background())
		go h.ServeHTTP(&streamWriter{ctx: ctx2}, httptest.NewRequest(http.MethodGet, "/api/events", nil).WithContext(ctx2))
		synctest.Wait()
		cancel2()
	})
}
