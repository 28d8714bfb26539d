package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// FuzzDecode: any line decodes to a message or an *Error, never a panic,
// and an accepted message re-encodes.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"agent"}}`))
	f.Add([]byte(`{"v":1,"type":"time","payload":{"tick":5}}`))
	f.Add([]byte(`{"v":1,"id":"x","type":"error","payload":{"code":"busy","message":"m"}}`))
	f.Add([]byte(`{"v":2}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := Decode(line)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		if m.Type == "" || m.V != Version {
			t.Fatalf("accepted %+v", m)
		}
		got, err := Encode(m.ID, m.Type, m.Payload)
		if err != nil {
			t.Fatalf("re-encoding %q: %v", line, err)
		}
		if want := envelopeOf(t, m.ID, m.Type, m.Payload); !bytes.Equal(got, want) {
			t.Fatalf("Encode gave %s, the envelope marshalled whole is %s", got, want)
		}
	})
}

// envelopeOf is the line a Message marshalled as a whole gives: what
// Encode must produce in its one pass.
func envelopeOf(t *testing.T, id json.RawMessage, typ string, payload any) []byte {
	t.Helper()
	m := Message{V: Version, ID: id, Type: typ}
	if payload != nil {
		var p bytes.Buffer
		enc := json.NewEncoder(&p)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(payload); err != nil {
			t.Fatal(err)
		}
		m.Payload = bytes.TrimSuffix(p.Bytes(), []byte("\n"))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// FuzzReaderStop: a reader read as a server reads a new connection (a
// small limit that ends the stream when passed, raised after the first
// line) never returns a line over the limit in force, stays ended once
// ended, and always makes progress.
func FuzzReaderStop(f *testing.F) {
	f.Add("{\"hello\":1}\n"+strings.Repeat("y", 5000)+"\nok\n", 1024, 8192)
	f.Add(strings.Repeat("x", 3000)+"\nok\n", 1024, 4096)
	f.Add("a\r\n\n\nb", 2000, 0)
	f.Fuzz(func(t *testing.T, data string, small, large int) {
		r := NewReaderSize(strings.NewReader(data), small, 16)
		r.StopAtTooLarge(true)
		var ended error
		for range len(data) + 2 {
			limit := r.Max()
			line, err := r.Next()
			var tl *TooLargeError
			switch {
			case ended != nil:
				if err != ended {
					t.Fatalf("an ended stream gave %v after %v", err, ended)
				}
				return
			case errors.As(err, &tl):
				if tl.Limit != limit {
					t.Fatalf("too large for %d with %d in force", tl.Limit, limit)
				}
				if r.stop {
					ended = err
				}
				continue
			case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
				return
			case err != nil:
				t.Fatal(err)
			}
			if len(line) > limit {
				t.Fatalf("a line of %d bytes over the limit %d", len(line), limit)
			}
			r.SetMax(large)
			r.StopAtTooLarge(false)
		}
	})
}

// FuzzReader: framing never returns a line over the limit and always
// makes progress.
func FuzzReader(f *testing.F) {
	f.Add("a\nb\r\n\n", 1024)
	f.Add(strings.Repeat("x", 3000)+"\nok\n", 1024)
	f.Fuzz(func(t *testing.T, data string, max int) {
		r := NewReader(strings.NewReader(data), max)
		limit := Limit(max)
		for range len(data) + 2 {
			line, err := r.Next()
			var tl *TooLargeError
			switch {
			case errors.As(err, &tl):
				continue
			case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
				return
			case err != nil:
				t.Fatal(err)
			}
			if len(line) > limit {
				t.Fatalf("a line of %d bytes over the limit %d", len(line), limit)
			}
		}
		t.Fatal("the reader did not reach the end")
	})
}

// FuzzDecodeSection: a section from the wire decodes or fails with an
// error, within its fixed-size destination.
func FuzzDecodeSection(f *testing.F) {
	res := chunk.NewResolver(rules.Default().IDs, rules.Default().Tags)
	var st [chunk.SectionVolume]chunk.StateID
	for i := range st {
		st[i] = chunk.MakeState(1+i%3, i%2)
	}
	for _, sec := range []*chunk.Section{nil, chunk.NewUniformSection(chunk.MakeState(1, 0)), chunk.NewSection(&st)} {
		b, _ := json.Marshal(EncodeSection(3, sec, res))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var d SectionData
		if json.Unmarshal(data, &d) != nil {
			return
		}
		var dst [chunk.SectionVolume]chunk.StateID
		DecodeSection(d, func(e PaletteEntry) (chunk.StateID, error) {
			st, ok := res.State(e.ID, e.Meta)
			if !ok {
				return 0, errors.New("unknown")
			}
			return st, nil
		}, &dst)
	})
}

// FuzzMirrorApply: an observe reply's blocks apply or fail; a failure
// leaves an empty mirror, never a panic.
func FuzzMirrorApply(f *testing.F) {
	st := world.NewState(world.StateOptions{Rules: rules.Default()})
	st.Update(func(tx *world.Tx) {
		tx.SetBlock(world.Pos(1, 2, 3), "minecraft:log", 1)
		tx.SetBlock(world.Pos(-20, 70, 5), "minecraft:stone", 0)
	})
	d := NewTracker().Delta(st.Snapshot().Blocks.(*chunk.Chunks), 0, 1<<20)
	b, _ := json.Marshal(d)
	f.Add(b)
	f.Add([]byte(`{"seq":2,"unloaded":[{"x":0,"z":0}],"columns":[{"x":1,"z":1,"sections":[{"y":0}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var d BlockDelta
		if json.Unmarshal(data, &d) != nil {
			return
		}
		m := NewMirror(MirrorOptions{MaxColumns: 64})
		if err := m.Apply(&d); err != nil {
			if m.Seq() != 0 || m.View().Columns() != 0 {
				t.Fatalf("a failed delta left the mirror at seq %d with %d columns", m.Seq(), m.View().Columns())
			}
			return
		}
		if m.View().Columns() > 64 {
			t.Fatalf("%d columns past the limit", m.View().Columns())
		}
	})
}

// FuzzObservation: a client decodes an observe reply (the snapshot and
// its blocks) without panicking.
func FuzzObservation(f *testing.F) {
	f.Add([]byte(`{"snapshot":{"tick":3,"player":{"pos":{"x":1,"y":2,"z":3},"dimension":"overworld","health":20,"food":20},"inventory":{"slots":[{"id":"minecraft:log","count":3}],"held":0},"tech_state":"stone_age"},"blocks":{"seq":1,"reset":true}}`))
	f.Add([]byte(`{"code":"ok","details":{"steps":3,"to":{"x":1,"y":2,"z":3}},"ticks":20}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var obs Observation
		if json.Unmarshal(data, &obs) == nil && obs.Blocks != nil {
			NewMirror(MirrorOptions{MaxColumns: 16}).Apply(obs.Blocks)
		}
		var r ResultJSON
		if json.Unmarshal(data, &r) == nil {
			res := r.Result()
			if _, err := json.Marshal(res); err != nil {
				t.Fatalf("a decoded result does not encode: %v", err)
			}
		}
	})
}
