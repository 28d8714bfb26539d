package web

import (
	"time"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// MaxFrames bounds the frames a replay keeps: past it, every other frame
// is dropped and the spacing doubles.
const MaxFrames = 2048

// Frames collects the world at moments of a recording (for
// record.ReplayOptions.Frame), at least Every apart, thinning itself to
// stay within MaxFrames. The snapshots share the chunk data that did not
// change between them.
type Frames struct {
	// Every is the spacing asked of the replay; it doubles each time the
	// frames are thinned.
	Every  time.Duration
	frames []replayFrame
}

type replayFrame struct {
	at   time.Duration
	snap *world.Snapshot
}

// Add keeps the world at a moment; frames closer than Every to the one
// before are skipped.
func (f *Frames) Add(at time.Duration, w *world.Snapshot) {
	if n := len(f.frames); n > 0 && at-f.frames[n-1].at < f.Every {
		return
	}
	f.frames = append(f.frames, replayFrame{at, w})
	if len(f.frames) > MaxFrames {
		kept := f.frames[:0]
		for i, fr := range f.frames {
			if i%2 == 0 {
				kept = append(kept, fr)
			}
		}
		clear(f.frames[len(kept):])
		f.frames = kept
		f.Every *= 2
	}
}

// Len is how many frames are kept.
func (f *Frames) Len() int { return len(f.frames) }

// ReplayInfo tells the page about the recording and the frame shown.
type ReplayInfo struct {
	Frames     int   `json:"frames"`
	DurationMS int64 `json:"duration_ms"`
	Frame      int   `json:"frame"`
	AtMS       int64 `json:"at_ms"`
}

type replayFrames struct {
	frames   []replayFrame
	duration time.Duration
}

func (r *replayFrames) count() int { return len(r.frames) }

// NewReplay returns a View of a recording: the frames collected, and the
// world at its end (the last frame, at duration). It has no steps; the
// page shows a time slider over the frames.
func NewReplay(opts Options, frames *Frames, end *world.Snapshot, duration time.Duration) *View {
	v := New(opts)
	r := &replayFrames{duration: duration}
	if frames != nil {
		r.frames = append(r.frames, frames.frames...)
	}
	r.frames = append(r.frames, replayFrame{duration, end})
	v.replay = r
	return v
}

// replayState is the State of frame i: the world then, the heading from
// the frame before.
func (v *View) replayState(i int) State {
	fr := v.replay.frames[i]
	st := Status{Mode: "replay", Title: v.opts.Title, Goal: v.opts.Goal, MapRev: uint64(i), Seq: uint64(i)}
	snapshotStatus(&st, fr.snap)
	for j := i; j > 0 && fr.snap != nil; j-- {
		prev := v.replay.frames[j-1].snap
		if prev == nil {
			break
		}
		if h := heading(prev.Player.Pos, fr.snap.Player.Pos, -1); h >= 0 {
			st.Heading = h
			break
		}
	}
	st.Replay = &ReplayInfo{Frames: len(v.replay.frames), DurationMS: v.replay.duration.Milliseconds(), Frame: i, AtMS: fr.at.Milliseconds()}
	return State{Status: st, Steps: []StepView{}, Events: []Event{}}
}
