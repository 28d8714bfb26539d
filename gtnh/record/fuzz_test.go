package record

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// seedContent is a small well-formed recording content: a connection, a
// Login Success, a keep-alive, formats, mods, a position, a close.
func seedContent() []byte {
	var b []byte
	b = append(b, rec(KindConnection, 0, []byte(`{"started":1,"username":"Bot","mods":[{"modid":"neid","version":"2.1.10"}],"formats":{"NEID":true}}`))...)
	b = append(b, rec(KindPacket, 1, append([]byte{StateLogin, 2}, "\x00\x24"...))...)
	b = append(b, rec(KindPacket, 2, []byte{StatePlay, 0, 0, 0, 0, 7})...)
	b = append(b, rec(KindFormats, 3, []byte(`{"NEID":false}`))...)
	b = append(b, rec(KindMods, 3, []byte(`[]`))...)
	b = append(b, rec(KindPosition, 4, Position{X: 1, FeetY: 64, Z: 2}.append(nil))...)
	b = append(b, rec(KindBlockClick, 5, appendBlockClick(nil, world.Pos(-6, 64, -8)))...)
	b = append(b, rec(KindWindowClick, 5, WindowClick{Window: 3, Slot: 0, Button: 1}.append(nil))...)
	b = append(b, rec(KindHeld, 5, []byte{3})...)
	b = append(b, rec(KindLook, 5, Look{Yaw: 90, Pitch: 12}.append(nil))...)
	b = append(b, rec(KindNote, 6, append([]byte{NoteVersion}, seedPlan...))...)
	b = append(b, rec(KindNote, 6, append([]byte{NoteVersion}, seedStep...))...)
	b = append(b, rec(KindClosed, 6, nil)...)
	return b
}

// Note bodies (after the version byte) of the seeds.
const (
	seedPlan = `{"plan":{"step":1,"skill":"chop_tree","params":"count=8","reason":"logs first","unmet":["8 minecraft:log"],` +
		`"tree":{"label":"have 8 minecraft:log","state":"active","children":[{"label":"chop_tree","state":"step","note":"0 of 8"}]}}}`
	seedStep = `{"step":{"step":1,"skill":"chop_tree","params":"count=8","verdict":"ok","failed":["effect log: 0 before, 0 after"],"change":"+8 minecraft:log","ticks":120}}`
)

// FuzzNote: any note body reads as a note within the tree's bounds or a
// *FormatError, never a panic.
func FuzzNote(f *testing.F) {
	f.Add(append([]byte{NoteVersion}, seedPlan...))
	f.Add(append([]byte{NoteVersion}, seedStep...))
	f.Add([]byte{NoteVersion + 1, '{', '}'})
	f.Add(append([]byte{NoteVersion}, `{"plan":{"tree":{"label":"g","children":[null,{"label":"x"}]}}}`...))
	f.Fuzz(func(t *testing.T, body []byte) {
		n, err := Record{Kind: KindNote, Body: body}.Note()
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("%T is not a *FormatError: %v", err, err)
			}
			return
		}
		if (n.Step == nil) == (n.Plan == nil) {
			t.Fatalf("a note of a step and a plan, or neither: %+v", n)
		}
		if n.Plan != nil && n.Plan.Tree != nil {
			if err := n.Plan.Tree.check(); err != nil {
				t.Fatalf("a tree past its bounds was read: %v", err)
			}
			if b := BoundTree(n.Plan.Tree); b.check() != nil {
				t.Fatal("BoundTree left a tree past its bounds")
			}
		}
	})
}

// FuzzReader: any content reads as records then io.EOF or a *FormatError,
// never a panic, with the body buffer bounded by the bytes present.
func FuzzReader(f *testing.F) {
	f.Add(seedContent())
	f.Add([]byte{})
	f.Add([]byte{2, 0, 0xFF, 0xFF, 0x7F})
	f.Fuzz(func(t *testing.T, content []byte) {
		rd, err := NewReader(bytes.NewReader(wrap(content)))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			r, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				var fe *FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("%T is not a *FormatError: %v", err, err)
				}
				if fe.Offset < 0 || fe.Offset > int64(len(content)) {
					t.Fatalf("offset %d outside the content (%d bytes)", fe.Offset, len(content))
				}
				break
			}
			n++
			if r.Offset > int64(len(content)) || len(r.Body) > len(content) {
				t.Fatalf("record at %d with %d bytes from %d bytes of content", r.Offset, len(r.Body), len(content))
			}
			switch r.Kind {
			case KindPacket:
				_, _, _, _ = r.Packet()
			case KindPosition:
				_, _ = r.Position()
			case KindBlockClick:
				_, _ = r.BlockClick()
			case KindWindowClick:
				_, _ = r.WindowClick()
			case KindHeld:
				_, _ = r.Held()
			case KindLook:
				_, _ = r.Look()
			case KindNote:
				_, _ = r.Note()
			case KindConnection:
				var c Connection
				_ = r.JSON(&c)
			case KindMods:
				var m []proto17.ModInfo
				_ = r.JSON(&m)
			}
		}
		if c := cap(rd.body); c > 2*(len(content)+64<<10) {
			t.Fatalf("body buffer of %d bytes for %d bytes of content", c, len(content))
		}
	})
}

// FuzzReplay: any content replays to a result or an error, never a panic
// or a hang.
func FuzzReplay(f *testing.F) {
	f.Add(seedContent())
	f.Add(rec(KindConnection, 0, []byte(`{"username":"Bot","mods":[]}`)))
	f.Add(append(rec(KindConnection, 0, []byte(`{}`)), rec(KindConnection, 1, []byte(`{}`))...))
	f.Fuzz(func(t *testing.T, content []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		res, err := Replay(ctx, bytes.NewReader(wrap(content)), ReplayOptions{})
		if ctx.Err() != nil {
			t.Fatalf("the replay hung: %v", err)
		}
		if err == nil && res == nil {
			t.Fatal("no result and no error")
		}
	})
}
