package web_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh/record"
	"github.com/gtnh-agent/gtnh-agent/view/web"
)

// replayPage is what the test reads of a replay's page.
type replayPage struct {
	Rows     int    `json:"rows"`
	Skills   string `json:"skills"`
	Plan     string `json:"plan"`
	StepText string `json:"stepText"`
	Position string `json:"position"`
	Frame    string `json:"frame"`
}

const readReplay = `(() => ({
  rows: document.querySelectorAll('#steps tr').length,
  skills: [...document.querySelectorAll('#steps tr')].map((tr) => tr.children[1].textContent).join(','),
  plan: document.getElementById('plan').textContent,
  stepText: (document.querySelector('#plantree .pn-step') || {}).textContent || '',
  position: document.getElementById('pos').textContent,
  frame: document.getElementById('frametime').textContent,
}))()`

const slideToStart = `(() => { const s = document.getElementById('slider'); s.value = '0'; s.dispatchEvent(new Event('input')); return true; })()`

// TestReplayInABrowser drives a headless Chromium over a replayed
// recording that holds the agent's steps and decisions: the end shows
// every step (newest first), the decision's plan tree with its step and
// the bot heading the way it looked; sliding to the start empties the step
// log and the plan, with no console error.
func TestReplayInABrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser; not in -short")
	}
	chromium, err := chromiumPath()
	if err != nil {
		t.Skip(err.Error())
	}
	fr := &web.Frames{Every: time.Second}
	fr.Add(0, at(0))
	fr.Note(time.Second, record.Note{Plan: &record.Plan{Step: 1, Skill: "chop_tree", Reason: "logs first",
		Tree: &record.PlanNode{Label: "collect 8 minecraft:log", State: "active", Children: []*record.PlanNode{{Label: "chop_tree", State: "step"}}}}})
	fr.Note(time.Second, record.Note{Step: &record.Step{Step: 1, Skill: "chop_tree", Verdict: "ok", Change: "+4 minecraft:log"}})
	fr.Note(time.Second, record.Note{Step: &record.Step{Step: 2, Skill: "craft", Verdict: "failed", Failed: []string{"effect minecraft:planks: 0 before, 0 after"}}})
	fr.Look(time.Second, record.Look{Yaw: 0}) // south
	v := web.NewReplay(web.Options{Title: "recording"}, fr, at(2), 2*time.Second)
	base := serveLoopback(t, v, web.ServeOptions{})

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, ctx, chromium)
	bctx := b.ctx
	waitFor := func(what string, cond func(replayPage) bool) replayPage {
		t.Helper()
		return waitPage(t, b, readReplay, what, cond)
	}
	require.NoError(t, chromedp.Do(bctx, chromedp.Navigate(base+"/")))
	end := waitFor("the end of the recording", func(p replayPage) bool { return p.Rows == 2 && p.StepText != "" })
	assert.Equal(t, "craft,chop_tree", end.Skills, "newest first")
	assert.Equal(t, "→ chop_tree", end.StepText)
	assert.Contains(t, end.Plan, "because: logs first")
	assert.Contains(t, end.Position, "heading 180°", "the way the bot looked")
	assert.Contains(t, end.Frame, "2.0 s of 2.0 s")

	_, err = chromedp.Run(bctx, chromedp.Evaluate[bool](slideToStart))
	require.NoError(t, err)
	start := waitFor("the start of the recording", func(p replayPage) bool { return p.Rows == 0 && p.StepText == "" })
	assert.Contains(t, start.Plan, "no decision yet")
	assert.Contains(t, start.Frame, "0.0 s of 2.0 s")
	assert.Empty(t, b.consoleErrors(), "console errors")
}
