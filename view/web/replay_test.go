package web_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
