package record

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// wideTree is a plan tree of n leaves under a root, the step last.
func wideTree(n int) *PlanNode {
	root := &PlanNode{Label: "goal", State: "active"}
	for i := range n {
		c := &PlanNode{Label: fmt.Sprintf("part %d", i), State: "pending"}
		if i == n-1 {
			c.State = "step"
		}
		root.Children = append(root.Children, c)
	}
	return root
}

// deepTree is a chain of n nodes, the step at its end.
func deepTree(n int) *PlanNode {
	root := &PlanNode{Label: "0", State: "active"}
	at := root
	for i := 1; i < n; i++ {
		c := &PlanNode{Label: fmt.Sprint(i), State: "active"}
		if i == n-1 {
			c.State = "step"
		}
		at.Children = []*PlanNode{c}
		at = c
	}
	return root
}

func noteBody(t *testing.T, n Note) []byte {
	t.Helper()
	b, err := appendNote(nil, n)
	require.NoError(t, err)
	return b
}

// TestRecorderWritesNotesAndLooks: steps and decisions are written after
// the first connection (one before it is dropped), a plan tree cut to its
// bounds with the step kept, the bot's looks kept; each reads back.
func TestRecorderWritesNotesAndLooks(t *testing.T) {
	clk := newClock()
	var buf bytes.Buffer
	r, err := NewRecorder(&buf, RecorderOptions{WriterOptions: WriterOptions{Now: clk.now}})
	require.NoError(t, err)
	r.Step(Step{Step: 0, Skill: "early"}) // no connection yet: dropped
	r.Connected(gtnh.TapConnection{Username: "Bot"})
	r.Received(proto17.IDClientboundLoginSuccess, []byte("x"))
	clk.add(7 * time.Millisecond)
	r.Sent(&proto17.PlayerLook{Yaw: 90, Pitch: 30})
	r.Plan(Plan{Step: 1, Skill: "chop_tree", Reason: "logs first", Unmet: []string{"8 minecraft:log"}, Tree: wideTree(2 * MaxPlanNodes)})
	r.Step(Step{Step: 1, Skill: "chop_tree", Params: "count=8", Verdict: "ok", Change: "+8 minecraft:log", Ticks: 120,
		Failed: []string{"effect inventory: 0 before, 0 after"}})
	r.Closed()
	require.NoError(t, r.Close())

	recs, err := readAll(t, buf.Bytes())
	require.NoError(t, err)
	var kinds []Kind
	for _, rc := range recs {
		kinds = append(kinds, rc.Kind)
	}
	require.Equal(t, []Kind{KindConnection, KindPacket, KindLook, KindNote, KindNote, KindClosed}, kinds)
	l, err := recs[2].Look()
	require.NoError(t, err)
	assert.Equal(t, Look{Yaw: 90, Pitch: 30}, l)
	assert.Equal(t, 7*time.Millisecond, recs[2].Time)

	plan, err := recs[3].Note()
	require.NoError(t, err)
	require.NotNil(t, plan.Plan)
	assert.Nil(t, plan.Step)
	assert.Equal(t, "logs first", plan.Plan.Reason)
	assert.Equal(t, []string{"8 minecraft:log"}, plan.Plan.Unmet)
	tree := plan.Plan.Tree
	require.NotNil(t, tree)
	assert.Len(t, tree.Children, MaxPlanNodes-1, "the root and 255 parts")
	last := tree.Children[len(tree.Children)-1]
	assert.Equal(t, "step", last.State, "the step is kept, though it came last")
	assert.Equal(t, fmt.Sprintf("part %d", 2*MaxPlanNodes-1), last.Label)

	step, err := recs[4].Note()
	require.NoError(t, err)
	require.NotNil(t, step.Step)
	assert.Equal(t, Step{Step: 1, Skill: "chop_tree", Params: "count=8", Verdict: "ok", Change: "+8 minecraft:log", Ticks: 120,
		Failed: []string{"effect inventory: 0 before, 0 after"}}, *step.Step)
}

// TestRecorderScrubsNotes: the operator secret is blanked out of notes too.
func TestRecorderScrubsNotes(t *testing.T) {
	var buf bytes.Buffer
	r, err := NewRecorder(&buf, RecorderOptions{})
	require.NoError(t, err)
	r.Scrub(gtnh.NewSecret(`hunter2"x`))
	r.Connected(gtnh.TapConnection{Username: "Bot"})
	r.Step(Step{Skill: "chat", Params: `text=hunter2"x`, Error: `said hunter2"x`})
	r.Closed()
	require.NoError(t, r.Close())
	recs, err := readAll(t, buf.Bytes())
	require.NoError(t, err)
	require.Len(t, recs, 3)
	n, err := recs[1].Note()
	require.NoError(t, err, "the blanked note is still JSON")
	assert.NotContains(t, string(recs[1].Body), "hunter2")
	assert.Equal(t, "said **********", n.Step.Error)
}

// TestNoteBodies: a note's body is refused with the reason and where, a
// note of another version is ErrNoteVersion.
func TestNoteBodies(t *testing.T) {
	step := noteBody(t, Note{Step: &Step{Skill: "s"}})
	tooWide := noteBody(t, Note{Plan: &Plan{Tree: wideTree(MaxPlanNodes)}}) // 257 nodes
	okWide := noteBody(t, Note{Plan: &Plan{Tree: wideTree(MaxPlanNodes - 1)}})
	tooDeep := noteBody(t, Note{Plan: &Plan{Tree: deepTree(MaxPlanDepth + 1)}})
	okDeep := noteBody(t, Note{Plan: &Plan{Tree: deepTree(MaxPlanDepth)}})
	for _, c := range []struct {
		name string
		body []byte
		want string // "" when it reads
	}{
		{"step", step, ""},
		{"256 nodes", okWide, ""},
		{"64 deep", okDeep, ""},
		{"empty", nil, "a version byte"},
		{"version 2", append([]byte{2}, step[1:]...), "version 2"},
		{"not JSON", []byte{NoteVersion, '{'}, "a JSON note"},
		{"neither", []byte{NoteVersion, '{', '}'}, "exactly one"},
		{"both", append([]byte{NoteVersion}, `{"step":{},"plan":{}}`...), "exactly one"},
		{"257 nodes", tooWide, "more than 256 nodes"},
		{"65 deep", tooDeep, "deeper than 64"},
		{"a null child", append([]byte{NoteVersion}, `{"plan":{"tree":{"label":"g","children":[null]}}}`...), "a null node"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Record{Kind: KindNote, Body: c.body, Offset: 40}.Note()
			if c.want == "" {
				require.NoError(t, err)
				return
			}
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, int64(40), fe.Offset)
			assert.Contains(t, err.Error(), "note record")
			assert.Contains(t, err.Error(), c.want)
			assert.Equal(t, c.name == "version 2", errors.Is(err, ErrNoteVersion))
		})
	}
	for _, c := range []struct {
		body []byte
		ok   bool
	}{
		{Look{Yaw: -45, Pitch: 90}.append(nil), true},
		{make([]byte, 7), false},
		{Look{Yaw: float32(nan())}.append(nil), false},
	} {
		_, err := Record{Kind: KindLook, Body: c.body}.Look()
		assert.Equal(t, c.ok, err == nil, "%x: %v", c.body, err)
	}
}

// TestLookHeading: Minecraft's yaw (0 south, 90 west, 180 north, 270
// east) as the view's heading (clockwise from north).
func TestLookHeading(t *testing.T) {
	for yaw, want := range map[float32]float64{0: 180, 90: 270, 180: 0, 270: 90, -90: 90, 540: 0, 179.6: 0, 45: 225} {
		assert.Equal(t, want, Look{Yaw: yaw}.Heading(), "yaw %v", yaw)
	}
}

// TestBoundTree: a tree within the bounds is copied whole; a deep one is
// cut at MaxPlanDepth.
func TestBoundTree(t *testing.T) {
	assert.Nil(t, BoundTree(nil))
	small := wideTree(3)
	assert.Equal(t, small, BoundTree(small))
	cut := BoundTree(deepTree(2 * MaxPlanDepth))
	require.NoError(t, cut.check())
	depth := 0
	for n := cut; n != nil; depth++ {
		if len(n.Children) == 0 {
			break
		}
		n = n.Children[0]
	}
	assert.Equal(t, MaxPlanDepth-1, depth)
}

// TestReplayGivesNotesAndLooks: a recorded session with the agent's notes
// and looks among its packets replays to the same world, and the replay
// hands each note and look over at its time, between the frames it fell
// between; a note of a newer version is skipped and counted.
func TestReplayGivesNotesAndLooks(t *testing.T) {
	data, err := os.ReadFile(fixture("vanilla"))
	require.NoError(t, err)
	plain, err := Replay(context.Background(), bytes.NewReader(data), ReplayOptions{})
	require.NoError(t, err)
	content := contentOf(t, data)
	recs, err := readAll(t, data)
	require.NoError(t, err)
	// Notes after the middle packet, at its time.
	mid := recs[len(recs)/2]
	cutAt := int(mid.Offset) + len(rec(mid.Kind, uint64(mid.Time.Milliseconds()), mid.Body))
	ms := uint64(mid.Time.Milliseconds())
	var extra []byte
	extra = append(extra, rec(KindNote, ms, noteBody(t, Note{Plan: &Plan{Step: 1, Skill: "chop_tree", Tree: wideTree(2)}}))...)
	extra = append(extra, rec(KindLook, ms, Look{Yaw: 270}.append(nil))...)
	extra = append(extra, rec(KindNote, ms, noteBody(t, Note{Step: &Step{Step: 1, Skill: "chop_tree", Verdict: "ok"}}))...)
	extra = append(extra, rec(KindNote, ms, append([]byte{NoteVersion + 1}, "whatever a newer agent writes"...))...)
	mixed := append(append(append([]byte{}, content[:cutAt]...), extra...), content[cutAt:]...)

	type seen struct {
		at   time.Duration
		what string
	}
	var got []seen
	res, err := Replay(context.Background(), bytes.NewReader(wrap(mixed)), ReplayOptions{
		Every: time.Millisecond,
		Frame: func(at time.Duration, _ *world.Snapshot) { got = append(got, seen{at, "frame"}) },
		Note: func(at time.Duration, n Note) {
			if n.Step != nil {
				got = append(got, seen{at, "step " + n.Step.Skill})
			} else {
				got = append(got, seen{at, "plan " + n.Plan.Skill})
			}
		},
		Look: func(at time.Duration, l Look) {
			if at == mid.Time && l.Yaw == 270 {
				got = append(got, seen{at, "look east"})
			}
		},
	})
	require.NoError(t, err)
	assert.Equal(t, 1, res.Steps)
	assert.Equal(t, 1, res.Plans)
	assert.Equal(t, 1, res.NotesSkipped)
	assert.Equal(t, plain.World.Player.Pos, res.World.Player.Pos, "the notes change nothing of the world")
	assert.Equal(t, sumPlay(plain.Packets), sumPlay(res.Packets))
	i := -1
	for j, s := range got {
		if s.what == "plan chop_tree" {
			i = j
		}
	}
	require.Positive(t, i, "%v", got)
	require.Less(t, i+2, len(got))
	assert.Equal(t, []seen{{mid.Time, "plan chop_tree"}, {mid.Time, "look east"}, {mid.Time, "step chop_tree"}}, got[i:i+3])
	assert.Equal(t, "frame", got[i-1].what, "a frame before the notes")
	assert.LessOrEqual(t, got[i-1].at, mid.Time)
	for _, s := range got[i+3:] {
		if s.what == "frame" {
			assert.GreaterOrEqual(t, s.at, mid.Time, "frames after the notes are at their time or later")
		}
	}
}
