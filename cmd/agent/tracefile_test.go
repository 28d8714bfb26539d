package main

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
)

func TestTraceReader(t *testing.T) {
	in := "\n" + `{"step":1,"before":{"pos":{"x":1,"y":64,"z":2}},"actions":[{"type":"move_to","pos":{"x":5,"y":64,"z":2},"radius":1}],"results":[{"code":"ok","ticks":20}],"verdict":"success","ticks":20}` +
		"\n  \n" + `{"step":2,"verdict":"noop","ticks":0}` + "\n"
	tr := newTraceReader("t.jsonl", strings.NewReader(in))
	rec, err := tr.next()
	require.NoError(t, err)
	assert.Equal(t, 1, rec.Step)
	require.Len(t, rec.Actions, 1)
	assert.Equal(t, action.KindMoveTo, rec.Actions[0].Action.Kind())
	assert.Equal(t, 2, tr.line)
	rec, err = tr.next()
	require.NoError(t, err)
	assert.Equal(t, 2, rec.Step)
	_, err = tr.next()
	assert.ErrorIs(t, err, io.EOF)
}

func TestTraceReaderRefuses(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{]\n", "t.jsonl:1: not a step of a trace"},
		{"\n\n[1,2]", "t.jsonl:3: not a step of a trace"},
		{`{"step":1,"actions":[],"results":[{"code":"ok"}]}`, "t.jsonl:1: step 1 has 1 results for 0 actions"},
		{`{"step":4,"actions":[null]}`, "t.jsonl:1: not a step of a trace: action: missing"},
		{`{"step":1,"actions":[{"type":"teleport"}]}`, "t.jsonl:1: not a step of a trace"},
		{"{}\n" + strings.Repeat("x", maxTraceLine+1), "t.jsonl:2: a line longer than 8 MiB: not a trace"},
	} {
		tr := newTraceReader("t.jsonl", strings.NewReader(tc.in))
		var err error
		for err == nil {
			_, err = tr.next()
		}
		assert.ErrorContains(t, err, tc.want, tc.in[:min(len(tc.in), 40)])
	}
}

// FuzzTraceReader: any bytes give steps and then io.EOF or an error naming
// the file and line; never a panic, never a result without its action.
func FuzzTraceReader(f *testing.F) {
	f.Add([]byte(`{"step":1,"before":{"pos":{"x":1,"y":64,"z":2}},"actions":[{"type":"break_block","pos":{"x":5,"y":63,"z":2}}],"results":[{"code":"ok","details":{"to":{"x":1,"y":2,"z":3}}}]}` + "\n"))
	f.Add([]byte(`{"step":1,"actions":[{"type":"place_block","pos":{"x":0,"y":0,"z":0},"item":"minecraft:dirt","face":"up"}],"results":[]}`))
	f.Add([]byte("\n\n{}\n{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := newTraceReader("f.jsonl", strings.NewReader(string(data)))
		tracker := &mapTracker{}
		for range 1000 {
			rec, err := tr.next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				if !strings.HasPrefix(err.Error(), "f.jsonl") {
					t.Fatalf("the error names no file: %v", err)
				}
				return
			}
			if len(rec.Results) > len(rec.Actions) {
				t.Fatalf("%d results for %d actions", len(rec.Results), len(rec.Actions))
			}
			tracker.step(rec)
		}
	})
}
