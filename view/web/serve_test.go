package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/view/web"
	"github.com/gtnh-agent/gtnh-agent/world"
)

const testToken = "0123456789abcdef0123456789abcdef"

func get(t *testing.T, h http.Handler, target string, mod ...func(*http.Request)) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, target, nil)
	for _, m := range mod {
		m(r)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestThePageIsEmbedded: the page and its assets come from the binary,
// with a policy that lets it load nothing from elsewhere.
func TestThePageIsEmbedded(t *testing.T) {
	h := web.New(web.Options{}).Handler(web.ServeOptions{})
	page := get(t, h, "/")
	require.Equal(t, http.StatusOK, page.Code)
	assert.Contains(t, page.Body.String(), `<canvas id="map"`)
	assert.Contains(t, page.Body.String(), `<script src="app.js">`)
	assert.NotContains(t, page.Body.String(), "http", "no asset from elsewhere")
	assert.Contains(t, page.Header().Get("Content-Security-Policy"), "default-src 'self'")
	for _, a := range []string{"/app.js", "/style.css"} {
		w := get(t, h, a)
		require.Equal(t, http.StatusOK, w.Code, a)
		assert.NotContains(t, w.Body.String(), "https://", a)
	}
	assert.Equal(t, http.StatusNotFound, get(t, h, "/nothing.js").Code)
}

// TestTokenGuardsEveryPath: with a token, every path is 401 without it;
// the bearer header and the cookie pass; ?token= sets the cookie and
// sends the browser to the same address without it; a wrong ?token= is
// 401 and counts as a wrong guess.
func TestTokenGuardsEveryPath(t *testing.T) {
	now := time.Unix(1_000_000, 0) // the failure limiter's clock stands still
	h := web.New(web.Options{}).Handler(web.WithClock(web.ServeOptions{Token: testToken}, func() time.Time { return now }))
	for i, p := range []string{"/", "/app.js", "/api/state", "/api/map", "/api/events"} {
		// From addresses of their own: wrong guesses count by address.
		assert.Equal(t, http.StatusUnauthorized, get(t, h, p, func(r *http.Request) { r.RemoteAddr = fmt.Sprintf("198.51.100.%d:1", i) }).Code, p)
	}
	assert.Equal(t, http.StatusOK, get(t, h, "/api/state", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+testToken) }).Code)
	assert.Equal(t, http.StatusOK, get(t, h, "/api/state", func(r *http.Request) {
		r.AddCookie(&http.Cookie{Name: web.TokenCookie, Value: testToken})
	}).Code)
	w := get(t, h, "/?token="+testToken+"&x=1")
	require.Equal(t, http.StatusSeeOther, w.Code)
	assert.Equal(t, "/?x=1", w.Header().Get("Location"))
	cookies := w.Result().Cookies()
	require.Len(t, cookies, 1)
	assert.Equal(t, web.TokenCookie, cookies[0].Name)
	assert.Equal(t, testToken, cookies[0].Value)
	assert.True(t, cookies[0].HttpOnly)
	assert.Equal(t, http.SameSiteStrictMode, cookies[0].SameSite)
	assert.Equal(t, http.StatusUnauthorized, get(t, h, "/?token=wrong").Code)
	// The guesses add up, per address: the allowance runs out.
	for range authguard.Burst {
		get(t, h, "/?token=wrong")
	}
	assert.Equal(t, http.StatusTooManyRequests, get(t, h, "/?token="+testToken).Code)
}

// TestMapAnswers: the map around the bot by default, a depth slice, and
// bad parameters named.
func TestMapAnswers(t *testing.T) {
	blocks := world.NewSparseBlocks()
	blocks.SetID(world.Pos(0, 60, 0), "minecraft:stone", 0).SetID(world.Pos(0, 64, 0), "minecraft:grass", 0)
	v := web.New(web.Options{})
	conn := v.Conn(fixedConn{snap: &world.Snapshot{Blocks: blocks, Player: world.Player{Pos: world.Vec3{X: 0.5, Y: 65, Z: 0.5}}}})
	_, err := conn.Observe(context.Background())
	require.NoError(t, err)
	h := v.Handler(web.ServeOptions{})
	var g web.Grid
	w := get(t, h, "/api/map?r=2")
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &g))
	assert.Equal(t, -2, g.X0)
	assert.Equal(t, 5, g.W)
	i := 2*g.W + 2
	assert.Equal(t, 64, g.Y[i])
	assert.Equal(t, "grass", g.Looks[g.K[i]].Kind)
	w = get(t, h, "/api/map?r=2&maxy=63")
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &g))
	assert.Equal(t, 60, g.Y[i], "the slice shows what lies under y 63")
	assert.Equal(t, "stone", g.Looks[g.K[i]].Kind)
	for _, bad := range []string{"r=0", "r=65", "x=abc", "maxy=1e9", "z=99999999999"} {
		w := get(t, h, "/api/map?"+bad)
		assert.Equal(t, http.StatusBadRequest, w.Code, bad)
		assert.NotEmpty(t, w.Body.String(), bad)
	}
}

// fixedConn is a body that always shows one snapshot.
type fixedConn struct {
	ipc.Conn
	snap *world.Snapshot
}

func (c fixedConn) Observe(context.Context) (*world.Snapshot, error) { return c.snap, nil }

// TestALiveRunStreams runs agent run's default goal in the simulator with
// the view's hooks, served on loopback, with one browser reading the event
// stream and one that connects and never reads: the run ends, the reader
// received every step, positions that change, moves with routes, and
// digs; the state endpoint agrees.
func TestALiveRunStreams(t *testing.T) {
	reg := loadRegistry(t)
	w := newSim(t)
	v := web.New(web.Options{Title: "scenario", Goal: "have 8 minecraft:stick and collect 8 minecraft:log", World: w})
	base := serveLoopback(t, v, web.ServeOptions{})

	stuck, err := net.Dial("tcp", base[len("http://"):])
	require.NoError(t, err)
	defer stuck.Close()
	_, err = io.WriteString(stuck, "GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)

	resp, err := http.Get(base + "/api/events")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	updates := readUpdates(resp.Body)
	first := <-updates
	assert.Equal(t, "live", first.Status.Mode)
	assert.Equal(t, "scenario", first.Status.Title)
	positions := map[world.BlockPos]bool{first.Status.Feet: true}

	goal, err := loop.GoalParser{Tiers: reg.Tiers()}.Parse("have 8 minecraft:stick and collect 8 minecraft:log")
	require.NoError(t, err)
	ctx := context.Background()
	cfg := loop.Config{Registry: reg, Conn: v.Conn(ipc.InProcess(w)), Planner: v.Planner(chain.Planner{}), Goal: goal, OnStep: v.OnStep}
	l, err := loop.New(ctx, cfg)
	require.NoError(t, err)
	out, err := l.Run(ctx)
	require.NoError(t, err)
	require.True(t, out.GoalMet)
	v.Ended(out)

	var steps int

	var routes, digs int
	deadline := testdeadline.After(t)
	for steps < out.Steps || v.Status().Outcome == "" {
		select {
		case u := <-updates:
			steps += len(u.Steps)
			positions[u.Status.Feet] = true
			if u.Status.Move != nil && len(u.Status.Move.Path) > 0 {
				routes++
			}
			for _, e := range u.Events {
				if e.Kind == web.EventDig && e.Code == "ok" {
					digs++
				}
			}
			if u.Status.Outcome != "" && steps >= out.Steps {
				goto done
			}
		case <-deadline:
			t.Fatalf("the stream stopped: %d of %d steps", steps, out.Steps)
		}
	}
done:
	assert.Equal(t, out.Steps, steps, "every step once")
	assert.Greater(t, len(positions), 1, "the bot moved: %v", positions)
	assert.Positive(t, routes, "a move's route was drawn")
	assert.Positive(t, digs, "digs shown")

	var st web.State
	r, err := http.Get(base + "/api/state")
	require.NoError(t, err)
	require.NoError(t, json.NewDecoder(r.Body).Decode(&st))
	r.Body.Close()
	assert.Len(t, st.Steps, out.Steps)
	assert.Equal(t, "goal_met (goal met)", st.Outcome)
	assert.NotEmpty(t, st.Inventory)
	require.NotNil(t, st.Decision)
	assert.True(t, st.Decision.Done || st.Decision.Skill != "")
}

// TestABrowserThatNeverReadsIsDropped: a browser that opens the event
// stream over a real connection and never reads holds only its own
// writes; once they stall past the write timeout it is dropped and its
// place (MaxClients 1) is free again, while steps keep being added.
func TestABrowserThatNeverReadsIsDropped(t *testing.T) {
	// Updates of a megabyte fill the connection's buffers in a few.
	big := strings.Repeat("x", 1<<20)
	v := web.New(web.Options{Title: big})
	base := serveLoopback(t, v, web.ServeOptions{MaxClients: 1, WriteTimeout: 50 * time.Millisecond})
	stuck, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)
	defer stuck.Close()
	_, err = io.WriteString(stuck, "GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	status := func() int {
		resp, err := http.Get(base + "/api/events")
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	// The stuck browser holds the only place once its request is read.
	for status() != http.StatusServiceUnavailable {
		<-time.After(10 * time.Millisecond) // a poll, not a floor
	}
	for i := 1; ; i++ {
		v.OnStep(step(i)) // never waits: the view only records it
		resp, err := http.Get(base + "/api/events")
		require.NoError(t, err)
		code := resp.StatusCode
		resp.Body.Close()
		if code == http.StatusOK {
			t.Logf("the stuck browser was dropped after %d steps", i)
			return
		}
		require.Equal(t, http.StatusServiceUnavailable, code, "the only place is the stuck browser's")
		<-time.After(20 * time.Millisecond) // a poll, not a floor: the drop ends it
	}
}

// TestTheLogIsBounded: past MaxSteps the oldest steps go.
func TestTheLogIsBounded(t *testing.T) {
	v := web.New(web.Options{MaxSteps: 100, MaxEvents: 10})
	for i := 1; i <= 600; i++ {
		v.OnStep(step(i))
	}
	w := get(t, v.Handler(web.ServeOptions{}), "/api/state")
	var st web.State
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &st))
	assert.LessOrEqual(t, len(st.Steps), 100)
	assert.GreaterOrEqual(t, len(st.Steps), 75)
	assert.Equal(t, 600, st.Steps[len(st.Steps)-1].Step.Step)
}
