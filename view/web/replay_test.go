package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh/record"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/view/web"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func at(x float64) *world.Snapshot {
	return &world.Snapshot{Player: world.Player{Pos: world.Vec3{X: x, Y: 64, Z: 0}, Health: 20}, Blocks: world.NewSparseBlocks()}
}

// TestReplayFramesAreChosen: the state of each frame is the world then,
// with the recording's length and the frame's time; the end is the last
// frame and the default; a frame out of range is 400.
func TestReplayFramesAreChosen(t *testing.T) {
	fr := &web.Frames{Every: time.Second}
	fr.Add(0, at(0))
	fr.Add(500*time.Millisecond, at(1)) // too close: skipped
	fr.Add(time.Second, at(2))
	require.Equal(t, 2, fr.Len())
	v := web.NewReplay(web.Options{Title: "recording"}, fr, at(3), 1500*time.Millisecond)
	h := v.Handler(web.ServeOptions{})
	state := func(q string) web.State {
		w := get(t, h, "/api/state"+q)
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		var st web.State
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &st))
		return st
	}
	end := state("")
	assert.Equal(t, "replay", end.Mode)
	require.NotNil(t, end.Replay)
	assert.Equal(t, web.ReplayInfo{Frames: 3, DurationMS: 1500, Frame: 2, AtMS: 1500}, *end.Replay)
	assert.InDelta(t, 3, end.Pos.X, 1e-9)
	assert.Equal(t, 90.0, end.Heading, "moving east")
	mid := state("?frame=1")
	assert.InDelta(t, 2, mid.Pos.X, 1e-9)
	assert.Equal(t, int64(1000), mid.Replay.AtMS)
	for _, bad := range []string{"3", "-1", "x"} {
		w := get(t, h, "/api/state?frame="+bad)
		assert.Equal(t, http.StatusBadRequest, w.Code, bad)
		assert.Contains(t, w.Body.String(), "want 0..2")
	}
	assert.Equal(t, http.StatusOK, get(t, h, "/api/map?frame=1&r=3").Code)
	assert.Equal(t, http.StatusBadRequest, get(t, h, "/api/map?frame=7").Code)
}

// TestFramesThin: past web.MaxFrames every other frame goes and the
// spacing doubles, so a long recording keeps a bounded number.
func TestFramesThin(t *testing.T) {
	fr := &web.Frames{Every: time.Millisecond}
	s := at(0)
	for i := range 3 * web.MaxFrames {
		fr.Add(time.Duration(i)*time.Millisecond, s)
	}
	assert.LessOrEqual(t, fr.Len(), web.MaxFrames)
	assert.Greater(t, fr.Len(), web.MaxFrames/4)
	assert.Equal(t, 4*time.Millisecond, fr.Every, "thinned twice")
}

// TestReplayShowsTheAgentsAccount: each moment of a replay shows the steps
// recorded up to it (the latest MaxSteps), the planner's latest decision
// with its tree, and the way the bot last looked, not the way it moved;
// a recording without notes says so and falls back to the movement.
func TestReplayShowsTheAgentsAccount(t *testing.T) {
	fr := &web.Frames{Every: time.Second}
	fr.Add(0, at(0))
	fr.Note(0, record.Note{Plan: &record.Plan{Step: 1, Skill: "chop_tree", Reason: "logs first",
		Tree: &record.PlanNode{Label: "goal", State: "active", Children: []*record.PlanNode{{Label: "chop_tree", State: "step"}}}}})
	fr.Look(0, record.Look{Yaw: 90}) // west, while it moves east
	fr.Note(0, record.Note{Step: &record.Step{Step: 1, Skill: "chop_tree", Verdict: "ok", Change: "+2 minecraft:log"}})
	fr.Add(time.Second, at(1))
	for i := 2; i <= 4; i++ {
		fr.Note(0, record.Note{Step: &record.Step{Step: i, Skill: fmt.Sprint("s", i), Verdict: "failed", Failed: []string{"effect x: 0 before, 0 after"}}})
	}
	fr.Note(0, record.Note{Plan: &record.Plan{Step: 5, Done: true}})
	v := web.NewReplay(web.Options{MaxSteps: 2}, fr, at(2), 3*time.Second)
	h := v.Handler(web.ServeOptions{})
	state := func(q string) web.State {
		w := get(t, h, "/api/state"+q)
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		var st web.State
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &st))
		return st
	}
	first := state("?frame=0")
	assert.Empty(t, first.Steps)
	assert.Nil(t, first.Decision)
	assert.True(t, first.Replay.Notes)

	mid := state("?frame=1")
	require.Len(t, mid.Steps, 1)
	assert.Equal(t, web.StepView{Seq: 1, Step: record.Step{Step: 1, Skill: "chop_tree", Verdict: "ok", Change: "+2 minecraft:log"}}, mid.Steps[0])
	require.NotNil(t, mid.Decision)
	assert.Equal(t, "logs first", mid.Decision.Reason)
	require.NotNil(t, mid.Decision.Tree)
	assert.Equal(t, loop.PlanStep, mid.Decision.Tree.Children[0].State)
	assert.Equal(t, 270.0, mid.Heading, "yaw 90 faces west")

	end := state("")
	require.Len(t, end.Steps, 2, "the latest MaxSteps")
	assert.Equal(t, []int{3, 4}, []int{end.Steps[0].Seq, end.Steps[1].Seq})
	assert.Equal(t, []string{"effect x: 0 before, 0 after"}, end.Steps[1].Failed)
	require.NotNil(t, end.Decision)
	assert.True(t, end.Decision.Done)
	assert.Equal(t, 270.0, end.Heading)

	old := &web.Frames{Every: time.Second}
	old.Add(0, at(0))
	ov := web.NewReplay(web.Options{}, old, at(1), time.Second)
	w := get(t, ov.Handler(web.ServeOptions{}), "/api/state")
	var st web.State
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &st))
	assert.False(t, st.Replay.Notes)
	assert.Empty(t, st.Steps)
	assert.Equal(t, 90.0, st.Heading, "without looks: the way it moved")
}

// TestReplayStepsAreBounded: past MaxReplaySteps the oldest quarter goes;
// the steps kept are numbered on.
func TestReplayStepsAreBounded(t *testing.T) {
	fr := &web.Frames{Every: time.Second}
	for i := range web.MaxReplaySteps + 1 {
		fr.Note(0, record.Note{Step: &record.Step{Step: i + 1}})
	}
	v := web.NewReplay(web.Options{MaxSteps: 3}, fr, at(0), time.Second)
	w := get(t, v.Handler(web.ServeOptions{}), "/api/state")
	var st web.State
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &st))
	require.Len(t, st.Steps, 3)
	assert.Equal(t, web.MaxReplaySteps+1, st.Steps[2].Seq)
	assert.Equal(t, web.MaxReplaySteps+1, st.Steps[2].Step.Step)
}
