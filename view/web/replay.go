package web

import (
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh/record"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// MaxFrames bounds the frames a replay keeps: past it, every other frame
// is dropped and the spacing doubles.
const MaxFrames = 2048

// MaxReplaySteps bounds the steps a replay keeps: past it, the oldest
// quarter goes (a frame before them shows the steps still kept).
const MaxReplaySteps = 100000

// Frames collects the world at moments of a recording (for
// record.ReplayOptions.Frame), at least Every apart, thinning itself to
// stay within MaxFrames, and what the agent did (Note, Look): the steps,
// the latest decision and the way the bot faced at each moment. The
// snapshots share the chunk data that did not change between them.
type Frames struct {
	// Every is the spacing asked of the replay; it doubles each time the
	// frames are thinned.
	Every  time.Duration
	frames []replayFrame
	// The agent's account so far: every step (the first stepBase
	// dropped), the latest decision, the latest look.
	steps    []StepView
	stepBase int
	decision *DecisionView
	facing   float64
	faced    bool
}

type replayFrame struct {
	at   time.Duration
	snap *world.Snapshot
	// steps is how many steps came before the frame; decision and
	// facing are the latest then.
	steps    int
	decision *DecisionView
	facing   float64
	faced    bool
}

// Note takes a step or a decision of the agent (for
// record.ReplayOptions.Note).
func (f *Frames) Note(_ time.Duration, n record.Note) {
	switch {
	case n.Step != nil:
		if len(f.steps) >= MaxReplaySteps {
			drop := MaxReplaySteps / 4
			f.steps = append(f.steps[:0], f.steps[drop:]...)
			f.stepBase += drop
		}
		seq := f.stepBase + len(f.steps) + 1
		f.steps = append(f.steps, stepViewOf(seq, *n.Step))
	case n.Plan != nil:
		p := n.Plan
		f.decision = &DecisionView{Step: p.Step, Skill: p.Skill, Params: p.Params, Reason: p.Reason, Done: p.Done, Error: p.Error,
			Unmet: p.Unmet, Tree: planTree(p.Tree)}
	}
}

// Look takes the way the bot looked (for record.ReplayOptions.Look).
func (f *Frames) Look(_ time.Duration, l record.Look) {
	f.facing, f.faced = l.Heading(), true
}

// Add keeps the world at a moment, with the agent's account then; frames
// closer than Every to the one before are skipped.
func (f *Frames) Add(at time.Duration, w *world.Snapshot) {
	if n := len(f.frames); n > 0 && at-f.frames[n-1].at < f.Every {
		return
	}
	f.frames = append(f.frames, f.frame(at, w))
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

func (f *Frames) frame(at time.Duration, w *world.Snapshot) replayFrame {
	return replayFrame{at: at, snap: w, steps: f.stepBase + len(f.steps), decision: f.decision, facing: f.facing, faced: f.faced}
}

// Len is how many frames are kept.
func (f *Frames) Len() int { return len(f.frames) }

// ReplayInfo tells the page about the recording and the frame shown.
type ReplayInfo struct {
	Frames     int   `json:"frames"`
	DurationMS int64 `json:"duration_ms"`
	Frame      int   `json:"frame"`
	AtMS       int64 `json:"at_ms"`
	// Notes is whether the recording holds the agent's steps and
	// decisions (an older agent's recordings do not).
	Notes bool `json:"notes"`
}

type replayFrames struct {
	frames   []replayFrame
	duration time.Duration
	// steps are the recording's steps, the first stepBase dropped.
	steps    []StepView
	stepBase int
	maxSteps int
	// notes is whether the recording holds the agent's steps or decisions.
	notes bool
}

func (r *replayFrames) count() int { return len(r.frames) }

// NewReplay returns a View of a recording: the frames collected, and the
// world at its end (the last frame, at duration). The page shows a time
// slider over the frames; each shows the steps up to it (the latest
// Options.MaxSteps), the decision and the way the bot faced then.
func NewReplay(opts Options, frames *Frames, end *world.Snapshot, duration time.Duration) *View {
	v := New(opts)
	if frames == nil {
		frames = &Frames{}
	}
	r := &replayFrames{duration: duration, steps: frames.steps, stepBase: frames.stepBase, maxSteps: v.opts.MaxSteps,
		notes: frames.stepBase+len(frames.steps) > 0 || frames.decision != nil}
	r.frames = append(r.frames, frames.frames...)
	r.frames = append(r.frames, frames.frame(duration, end))
	v.replay = r
	return v
}

// replayState is the State of frame i: the world then, the way the bot
// faced (its last look; without one, the way it last moved), the steps
// up to then and the latest decision.
func (v *View) replayState(i int) State {
	fr := v.replay.frames[i]
	st := Status{Mode: "replay", Title: v.opts.Title, Goal: v.opts.Goal, MapRev: uint64(i), Seq: uint64(i), Decision: fr.decision}
	snapshotStatus(&st, fr.snap)
	if fr.faced {
		st.Heading = fr.facing
	} else {
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
	}
	st.Replay = &ReplayInfo{Frames: len(v.replay.frames), DurationMS: v.replay.duration.Milliseconds(), Frame: i, AtMS: fr.at.Milliseconds(),
		Notes: v.replay.notes}
	r := v.replay
	from := max(fr.steps-r.maxSteps, r.stepBase) - r.stepBase
	to := max(fr.steps-r.stepBase, 0)
	steps := []StepView{}
	if from < to {
		steps = append(steps, r.steps[from:to]...)
	}
	return State{Status: st, Steps: steps, Events: []Event{}}
}
