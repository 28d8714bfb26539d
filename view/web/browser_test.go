package web_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/view/web"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// chromiumPath finds a Chromium the test can drive: $CHROMIUM, else the
// usual names on PATH (Debian's package is chromium).
func chromiumPath() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium binary found on PATH (Debian: apt-get install chromium; or set CHROMIUM)")
}

// browser is a headless Chromium the test drives, with the console errors
// and exceptions the page raised.
type browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// startBrowser starts chromium under ctx (closed at the test's end) and
// listens to its console.
func startBrowser(t *testing.T, ctx context.Context, chromium string) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900), chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(cancelBrowser)
	b := &browser{ctx: bctx}
	require.NoError(t, chromedp.Listen(bctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				b.errors = append(b.errors, fmt.Sprint(args))
			}
		case *runtime.EventExceptionThrown:
			b.errors = append(b.errors, fmt.Sprintf("%s at %d:%d", ev.ExceptionDetails.Text, ev.ExceptionDetails.LineNumber, ev.ExceptionDetails.ColumnNumber))
		}
	}))
	return b
}

// consoleErrors are the page's console errors so far.
func (b *browser) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errors...)
}

// readAs evaluates js on the page into a T.
func readAs[T any](t *testing.T, b *browser, js string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js))
	require.NoError(t, err)
	return v
}

// waitPage polls the page (js read into a T) until cond holds; the
// browser context's deadline is the only bound: no wall-time floor
// decides the outcome.
func waitPage[T any](t *testing.T, b *browser, js, what string, cond func(T) bool) T {
	t.Helper()
	for {
		v := readAs[T](t, b, js)
		if cond(v) {
			return v
		}
		select {
		case <-b.ctx.Done():
			t.Fatalf("waiting for %s: %v; the page: %+v", what, b.ctx.Err(), v)
		case <-time.After(50 * time.Millisecond): // a poll, not a floor
		}
	}
}

// gatedConn holds each observation (the start of a step) until the test
// lets it go: the run goes as fast as the test says.
type gatedConn struct {
	ipc.Conn
	next chan struct{}
}

func (c gatedConn) Observe(ctx context.Context) (*world.Snapshot, error) {
	select {
	case <-c.next:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return c.Conn.Observe(ctx)
}

// pageView is what the test reads of the page.
type pageView struct {
	Steps    int    `json:"steps"`
	Rows     int    `json:"rows"`
	Drawn    int    `json:"drawn"`
	Bot      []int  `json:"bot"`
	Colours  int    `json:"colours"`
	Conn     string `json:"conn"`
	HasGrid  bool   `json:"hasGrid"`
	Position string `json:"position"`
	// The plan tree: its nodes, the step highlighted (its text and
	// background), and whether each node on the way to it is open.
	TreeNodes int    `json:"treeNodes"`
	StepText  string `json:"stepText"`
	StepBG    string `json:"stepBG"`
	WayOpen   bool   `json:"wayOpen"`
	Decision  string `json:"decision"`
}

const readPage = `(() => {
  const S = window.gtnhView, c = document.getElementById('map');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const seen = new Set();
  for (let i = 0; i < d.length; i += 4 * 97) seen.add(d[i] << 16 | d[i + 1] << 8 | d[i + 2]);
  return {steps: S.steps.length, rows: document.querySelectorAll('#steps tr').length, drawn: S.drawn,
    bot: S.bot || [], colours: seen.size, conn: document.getElementById('conn').textContent,
    hasGrid: !!S.grid, position: document.getElementById('pos').textContent,
    treeNodes: document.querySelectorAll('#plantree .pn').length,
    stepText: (document.querySelector('#plantree .pn-step') || {}).textContent || '',
    stepBG: document.querySelector('#plantree .pn-step') ? getComputedStyle(document.querySelector('#plantree .pn-step')).backgroundColor : '',
    wayOpen: (() => { let e = document.querySelector('#plantree .pn-step'); if (!e) return false;
      for (e = e.parentElement; e && e.id !== 'plantree'; e = e.parentElement) if (e.tagName === 'DETAILS' && !e.open) return false;
      return e !== null && e.getBoundingClientRect !== undefined && document.querySelector('#plantree .pn-step').getBoundingClientRect().height > 0; })(),
    decision: S.status && S.status.decision && S.status.decision.skill ? S.status.decision.skill + (S.status.decision.params ? ' ' + S.status.decision.params : '') : ''};
})()`

// TestInABrowser drives a headless Chromium against a simulated run (agent
// run's default goal) that advances one step at a time as the test says:
// the page loads with no console error, the map canvas is drawn, and as
// steps are let go the bot's marker moves and the step log grows. The
// screenshot is kept: $VIEW_ARTIFACTS/view.png (default: the test's
// temporary directory), and docs/view.png with VIEW_UPDATE_DOCS=1.
func TestInABrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser; not in -short")
	}
	chromium, err := chromiumPath()
	if err != nil {
		t.Skip(err.Error())
	}
	reg := loadRegistry(t)
	w := newSim(t)
	goalText := "have 8 minecraft:stick and collect 8 minecraft:log"
	v := web.New(web.Options{Title: "scenario " + "default (simulated)", Goal: goalText, World: w})
	base := serveLoopback(t, v, web.ServeOptions{})

	goal, err := loop.GoalParser{Tiers: reg.Tiers()}.Parse(goalText)
	require.NoError(t, err)
	next := make(chan struct{})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cfg := loop.Config{Registry: reg, Conn: v.Conn(gatedConn{Conn: ipc.InProcess(w), next: next}), Planner: v.Planner(chain.Planner{}), Goal: goal, OnStep: v.OnStep}
	l, err := loop.New(ctx, cfg)
	require.NoError(t, err)
	var out loop.Outcome
	var runErr error
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		out, runErr = l.Run(ctx)
		v.Ended(out)
	}()
	released := false
	defer func() {
		if !released {
			close(next)
		}
		<-ran
	}()
	// release lets one more observation go; false once the run ended.
	release := func() bool {
		select {
		case next <- struct{}{}:
			return true
		case <-ran:
			return false
		}
	}
	release() // the first observation

	b := startBrowser(t, ctx, chromium)
	bctx := b.ctx
	var p pageView
	read := func() pageView { t.Helper(); return readAs[pageView](t, b, readPage) }
	waitFor := func(what string, cond func(pageView) bool) pageView {
		t.Helper()
		return waitPage(t, b, readPage, what, cond)
	}
	require.NoError(t, chromedp.Do(bctx, chromedp.Navigate(base+"/")))
	p = waitFor("the map and the live stream", func(pv pageView) bool { return pv.HasGrid && pv.Drawn > 0 && pv.Conn == "live" && len(pv.Bot) == 2 })
	assert.Greater(t, p.Colours, 4, "the map is drawn, not blank: %+v", p)
	first := p

	// Let steps go one by one until the bot has moved and the log grown.
	for release() {
		p = read()
		if p.Steps > first.Steps && (p.Bot[0] != first.Bot[0] || p.Bot[1] != first.Bot[1] || p.Position != first.Position) {
			break
		}
	}
	p = waitFor("the step log to grow and the bot to move", func(pv pageView) bool {
		return pv.Steps > first.Steps && pv.Rows == pv.Steps && pv.Position != first.Position
	})

	// The goal planner's tree is drawn: the goal, its parts and the chain
	// to the step, which is highlighted and in sight (every fold on the
	// way open), and is the step the planner chose.
	p = waitFor("the plan tree", func(pv pageView) bool { return pv.StepText != "" && pv.Decision != "" })
	assert.GreaterOrEqual(t, p.TreeNodes, 3, "the goal, a part and the step at least: %+v", p)
	assert.Equal(t, "→ "+p.Decision, p.StepText, "the step highlighted is the decision")
	assert.NotEqual(t, "rgba(0, 0, 0, 0)", p.StepBG, "the step is highlighted")
	assert.True(t, p.WayOpen, "the way to the step is open: %+v", p)

	png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	dir := os.Getenv("VIEW_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	shot := filepath.Join(dir, "view.png")
	require.NoError(t, os.WriteFile(shot, png, 0o644))
	t.Logf("screenshot: %s (%d bytes)", shot, len(png))
	if os.Getenv("VIEW_UPDATE_DOCS") == "1" {
		require.NoError(t, os.WriteFile(filepath.Join("..", "..", "docs", "view.png"), png, 0o644))
	}

	close(next)
	released = true
	<-ran
	require.NoError(t, runErr)
	assert.True(t, out.GoalMet)
	p = waitFor("the outcome", func(pv pageView) bool { return pv.Steps == out.Steps })
	assert.Empty(t, b.consoleErrors(), "console errors")
}
